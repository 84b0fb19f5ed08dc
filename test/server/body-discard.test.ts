// A body past 16 × BODY_LIMIT is answered 413 at once, and the rest of it is read and thrown away within bounds before
// the connection closes (issue 39, item 6): a client that writes its whole body before reading (Python's urllib,
// often Node's http.request) reads the 413 instead of a broken pipe; a body far past the bound, or one that stalls,
// is still cut off. The server here has the default 64 KiB limit: early 413 past 1 MiB, discarding up to 8 MiB / 5 s.
import type { Socket } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT, DISCARD_CAP_FACTOR, DISCARD_MS } from "../../server/http/body.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { parseAnswer } from "./raw-http.ts";

const MIB = 1024 * 1024;
const CAP = DEFAULT_BODY_LIMIT * DISCARD_CAP_FACTOR;

let s: TestServer;
const serverSockets: Socket[] = [];
beforeAll(async () => {
  s = await startTestServer();
  s.running.server.on("connection", (socket: Socket) => serverSockets.push(socket));
});
afterAll(async () => {
  await s.close();
});

const head = (extra: string) => `POST /api/risk-map/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${s.key}\r\nContent-Type: application/json\r\n${extra}\r\n`;

interface Outcome {
  /** The write error the client saw (EPIPE, ECONNRESET), if any. */
  writeError: string | undefined;
  /** The read error, if any. */
  readError: string | undefined;
  status: number | undefined;
  code: string | undefined;
  connection: string | undefined;
  /** Bytes the server read on this connection, once it closed. */
  serverRead: number;
  /** Milliseconds from the connection to the server's close. */
  ms: number;
}

/** The last connection the server accepted, once it has closed: its bytes read. */
async function serverBytesRead(): Promise<number> {
  const socket = serverSockets.at(-1)!;
  if (!socket.destroyed) await new Promise((r) => socket.once("close", r));
  return socket.bytesRead;
}

/**
 * Writes `pieces` one after another (each once the previous one is flushed), and only then starts reading, as a
 * write-then-read client does; with `readAlong`, reads from the start instead. Resolves when the connection closes.
 */
function exchange(pieces: ReadonlyArray<string | Buffer>, opts: { readAlong?: boolean; stallMs?: number } = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    // Half-open allowed: the client does not answer the server's FIN with its own, so only the server closes.
    const socket = connect({ port: s.running.port, host: "127.0.0.1", allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let writeError: string | undefined;
    let readError: string | undefined;
    let writing = true;
    const t0 = performance.now();
    const read = () => socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", (err: NodeJS.ErrnoException) => {
      if (writing) writeError = err.code;
      else readError = err.code;
    });
    let done = false;
    // The server's FIN (end) or a reset (close): the outcome is known once the server's socket has closed too.
    const finish = async () => {
      if (done) return;
      done = true;
      const serverRead = await serverBytesRead();
      const ms = performance.now() - t0;
      socket.destroy();
      const answer = parseAnswer(Buffer.concat(chunks));
      let code: string | undefined;
      try {
        code = (JSON.parse(answer.body) as { error: { code: string } }).error.code;
      } catch {
        code = undefined;
      }
      resolve({ writeError, readError, status: answer.status, code, connection: answer.headers.connection, serverRead, ms });
    };
    socket.on("end", finish);
    socket.on("close", finish);
    if (opts.readAlong) read();
    socket.on("connect", async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        const ok = await new Promise<boolean>((done) => socket.write(piece, (err) => done(!err)));
        if (!ok) return;
      }
      writing = false;
      if (!opts.readAlong) read();
    });
  });
}

describe("a body past 16 × the limit (1 MiB)", () => {
  it("a client that writes a 4 MB body (Content-Length) before reading gets the 413 envelope, not a broken pipe", async () => {
    const body = Buffer.alloc(4_000_000, 0x20);
    const o = await exchange([head(`Content-Length: ${body.length}\r\n`), body]);
    expect([o.writeError, o.readError, o.status, o.code, o.connection]).toEqual([undefined, undefined, 413, "PAYLOAD_TOO_LARGE", "close"]);
    // Read to its end, then closed.
    expect(o.serverRead).toBeGreaterThan(body.length);
  });

  it("the same for a 4 MB chunked body (no Content-Length: counted as it arrives)", async () => {
    const pieces = [head("Transfer-Encoding: chunked\r\n")];
    for (let i = 0; i < 4; i++) pieces.push(`${(1_000_000).toString(16)}\r\n${" ".repeat(1_000_000)}\r\n`);
    pieces.push("0\r\n\r\n");
    const o = await exchange(pieces);
    expect([o.writeError, o.readError, o.status, o.code, o.connection]).toEqual([undefined, undefined, 413, "PAYLOAD_TOO_LARGE", "close"]);
  });

  it(`a chunked body going on without end is cut off after ${CAP / MIB} MiB read (the 413 already sent)`, async () => {
    const chunk = `${MIB.toString(16)}\r\n${" ".repeat(MIB)}\r\n`;
    const o = await exchange([head("Transfer-Encoding: chunked\r\n"), ...Array<string>(64).fill(chunk)], { readAlong: true });
    expect([o.status, o.code, o.connection]).toEqual([413, "PAYLOAD_TOO_LARGE", "close"]);
    expect(o.serverRead).toBeGreaterThan(CAP);
    expect(o.serverRead).toBeLessThan(CAP + 2 * MIB);
  });

  it("a body declared longer than the bound is not read: 413 at once and the connection closes", async () => {
    const o = await exchange([head(`Content-Length: ${CAP + 1}\r\n`), "[" + " ".repeat(1000)], { readAlong: true });
    expect([o.status, o.code, o.connection]).toEqual([413, "PAYLOAD_TOO_LARGE", "close"]);
    expect(o.ms).toBeLessThan(DISCARD_MS);
  });

  it(`a body that stalls after 1.5 MB is closed ${DISCARD_MS / 1000} s after the 413, before the request timeout`, async () => {
    const o = await exchange([head(`Content-Length: ${2_000_000}\r\n`), Buffer.alloc(1_500_000, 0x20)], { readAlong: true });
    expect([o.status, o.code, o.connection]).toEqual([413, "PAYLOAD_TOO_LARGE", "close"]);
    expect(o.serverRead).toBeGreaterThan(1_500_000);
    expect(o.ms).toBeGreaterThan(DISCARD_MS - 500);
    expect(o.ms).toBeLessThan(DISCARD_MS + 2_500);
  });
});
