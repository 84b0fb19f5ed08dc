// The hand-written HTTP plumbing that issue 26 item 6 replaced with libraries (commit aacdc14 and after), kept as
// the reference that bench/http-plumbing.bench.ts times beside the libraries: the security headers (now helmet), the Accept-Encoding parser of
// server/http/respond.ts (now negotiator), the byte-bounded Map LRU of tiles/lru-cache.ts (now lru-cache) and the
// body reading of server/http/body.ts (now body-parser's express.raw). Not used by the service.
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from "node:zlib";
import type { Request } from "express";
import { ApiError, ClientAbortedError, ValidationError } from "../server/errors.ts";
import type { ServerResponse } from "node:http";
import { parseJsonBody } from "../server/http/body.ts";
import { FRAME_ANCESTORS_NONE, NOSNIFF } from "../server/http/security-headers.ts";

/** server/http/security-headers.ts before helmet: every response's two headers, set as they are. */
export function applySecurityHeaders(res: ServerResponse): void {
  res.setHeader("X-Content-Type-Options", NOSNIFF);
  res.setHeader("Content-Security-Policy", FRAME_ANCESTORS_NONE);
}

/** server/http/respond.ts before negotiator: br if named with q > 0, else gzip if named with q > 0 (no `*`). */
export function chooseEncodingHandWritten(accept: string | undefined): "br" | "gzip" | undefined {
  if (accept === undefined) return undefined;
  const accepted = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)));
  }
  if ((accepted.get("br") ?? 0) > 0) return "br";
  if ((accepted.get("gzip") ?? 0) > 0) return "gzip";
  return undefined;
}

/** tiles/lru-cache.ts: Map insertion order = recency, limited by entries and by bytes. */
export class LruCacheHandWritten<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {
    if (!(maxEntries >= 1) || !(maxBytes >= 1)) throw new Error("cache limits must be at least 1");
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old) {
      this.totalBytes -= old.bytes;
      this.map.delete(key);
    }
    if (bytes > this.maxBytes) return; // larger than the whole budget: not kept
    this.map.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [k, e] of this.map) {
      if (this.map.size <= this.maxEntries && this.totalBytes <= this.maxBytes) break;
      this.map.delete(k);
      this.totalBytes -= e.bytes;
    }
  }
}

const DRAIN_CAP_FACTOR = 16;
type Decoder = (input: Buffer, options: ZlibOptions) => Promise<Buffer>;
const DECODERS: Record<string, { name: string; decode: Decoder } | undefined> = {
  gzip: { name: "gzip", decode: promisify(gunzip) },
  "x-gzip": { name: "gzip", decode: promisify(gunzip) },
  deflate: { name: "deflate", decode: promisify(inflate) },
  br: { name: "br", decode: promisify(brotliDecompress) },
};

function tooLarge(limit: number, decoded = false): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `${decoded ? "Decoded request body" : "Request body"} exceeds ${limit} bytes`, { limitBytes: limit });
}

function readRaw(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > limit * DRAIN_CAP_FACTOR) {
      // Not worth draining: answer and let the server close the connection.
      req.res?.setHeader("Connection", "close");
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Keep draining (discarding) so the client can read our 413 instead of a reset connection.
        over = true;
        chunks.length = 0;
        if (size > limit * DRAIN_CAP_FACTOR) {
          req.res?.setHeader("Connection", "close");
          req.pause();
          reject(tooLarge(limit));
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => (over ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks, size))));
    // A connection closed mid-body (by the client, or by the server on a request timeout) ends here.
    req.on("error", () => reject(new ClientAbortedError()));
    req.on("close", () => {
      if (!req.complete) reject(new ClientAbortedError());
    });
  });
}

async function decode(raw: Buffer, decoder: { name: string; decode: Decoder }, limit: number): Promise<Buffer> {
  try {
    return await decoder.decode(raw, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(limit, true);
    throw new ValidationError(`Request body is not valid ${decoder.name} data`, { reason: "corrupt_encoding", decoder: (err as Error).message });
  }
}

/** server/http/body.ts before body-parser (content type not checked here: both benched routes send JSON). */
export async function readJsonBodyHandWritten(req: Request, limit: number): Promise<unknown> {
  const decoder = DECODERS[req.headers["content-encoding"]?.trim().toLowerCase() ?? ""];
  const wire = await readRaw(req, limit);
  return parseJsonBody(decoder === undefined || wire.length === 0 ? wire : await decode(wire, decoder, limit));
}
