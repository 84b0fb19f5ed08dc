// Requests whose body may take longer to arrive than REQUEST_TIMEOUT_MS: the bulk route's, whose upload is paced by
// its own scoring (backpressure) and may be tens of MB from a slow link. Node's request timeout is one server-wide
// value checked for every connection; its 408 is raised through the server's 'clientError' listener
// (client-error.ts), which lets a connection marked here through. Such a connection is bound by inactivity instead:
// no byte either way for `idleMs` closes it (the socket's own timeout).
import type { Socket } from "node:net";

const untimed = new WeakSet<object>();

/** Exempts the request on `socket` from REQUEST_TIMEOUT_MS; closes the connection after `idleMs` without traffic. */
export function untimeRequest(socket: Socket, idleMs: number): () => void {
  untimed.add(socket);
  // Node destroys a socket whose timeout fires when nothing else listens for it (no server.timeout handler here).
  socket.setTimeout(idleMs);
  return () => {
    untimed.delete(socket);
    socket.setTimeout(0);
  };
}

/** Whether a request timeout on this socket is to be let through (see untimeRequest). */
export const isUntimed = (socket: object): boolean => untimed.has(socket);
