// HTTP over a raw TCP socket, for requests that fetch() cannot send: malformed request lines, oversized headers,
// bodies trickled byte by byte, truncated or abandoned bodies. Reads the answer until the server closes the
// connection or `timeoutMs` passes, whichever is first, so a test never waits for Node's own defaults.
import { connect } from "node:net";

export interface RawAnswer {
  /** Status code of the first response, undefined when none arrived. */
  status: number | undefined;
  /** Response headers, names in lower case (the first response only). */
  headers: Record<string, string>;
  /** Everything after the first header block, as text. */
  body: string;
  /** True when the server closed the connection before `timeoutMs`. */
  closedByServer: boolean;
}

export interface RawOptions {
  /** Pause between the pieces of `pieces` (ms). */
  gapMs?: number;
  /** Half-close the client side after the last piece (FIN), as a client that gives up sending would. */
  end?: boolean;
  /** Destroy the socket this many ms after the last piece, without reading an answer. */
  abortAfterMs?: number;
  timeoutMs: number;
}

export function parseAnswer(raw: Buffer): Omit<RawAnswer, "closedByServer"> {
  const text = raw.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  const head = split < 0 ? text : text.slice(0, split);
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = split < 0 ? "" : raw.subarray(Buffer.byteLength(text.slice(0, split + 4), "latin1")).toString("utf8");
  return { status: match ? Number(match[1]) : undefined, headers, body };
}

/** Sends `pieces` in order over a new connection to 127.0.0.1:`port` and collects what comes back. */
export function rawExchange(port: number, pieces: ReadonlyArray<string | Buffer>, opts: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect(port, "127.0.0.1");
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ ...parseAnswer(Buffer.concat(chunks)), closedByServer });
    };
    const deadline = setTimeout(() => finish(false), opts.timeoutMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.on("connect", async () => {
      for (let i = 0; i < pieces.length; i++) {
        if (done || socket.destroyed) return;
        if (i > 0 && opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        if (done || socket.destroyed) return;
        socket.write(pieces[i]);
      }
      if (opts.end) socket.end();
      if (opts.abortAfterMs !== undefined) setTimeout(() => finish(false), opts.abortAfterMs);
    });
  });
}

/** The error envelope of a raw answer's body, or undefined when the body is not one. */
export function envelopeOf(answer: RawAnswer): { code: string; message: string; details: Record<string, unknown> } | undefined {
  try {
    const parsed = JSON.parse(answer.body) as { success?: unknown; error?: { code: string; message: string; details: Record<string, unknown> } };
    return parsed.success === false ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}
