// Writes JSON responses: GET/HEAD bodies get a weak ETag and 304 on a matching If-None-Match; bodies of at
// least COMPRESS_MIN_BYTES are gzip- or brotli-compressed (node:zlib) when the client accepts it (negotiator).
import { hash } from "node:crypto";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import type { Request, Response } from "express";
import Negotiator from "negotiator";
import { type ApiError, errorEnvelope } from "../errors.ts";

export const COMPRESS_MIN_BYTES = 1024;

/** A weak ETag of the body's bytes (one-shot crypto.hash: no Hash object per response). */
export function etagOf(body: Buffer | string): string {
  return `W/"${hash("sha1", body, "base64url")}"`;
}

/** If-None-Match matches (weak comparison, RFC 9110 13.1.2): `*` or any listed tag equal ignoring W/. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

type Encoding = "br" | "gzip" | undefined;

/** What we can send, best first: br before gzip before identity when the client gives them the same q. */
const CODINGS = ["br", "gzip", "identity"];

/**
 * The response coding for an Accept-Encoding header (negotiator, as Express's req.acceptsEncodings uses it, with our
 * preference order at equal q): q-values, `*`, `q=0` refusals and identity's implicit lowest q (RFC 9110 12.5.3).
 * undefined = send the body as it is (identity, no header, or nothing acceptable).
 */
export function chooseEncoding(accept: string | undefined): Encoding {
  if (accept === undefined) return undefined;
  const best = new Negotiator({ headers: { "accept-encoding": accept } }).encodings(CODINGS, { preferred: CODINGS })[0];
  return best === "br" || best === "gzip" ? best : undefined;
}

/** Whether a client takes a gzip body (`gzip` or `*` with q > 0): stored-gzip files are sent decoded otherwise. */
export function acceptsGzip(accept: string | undefined): boolean {
  return accept !== undefined && new Negotiator({ headers: { "accept-encoding": accept } }).encodings(["gzip"]).length > 0;
}

export function sendJson(req: Request, res: Response, status: number, payload: unknown, contentType = "application/json"): void {
  sendText(req, res, status, JSON.stringify(payload), contentType);
}

/** A JSON answer already written as text (the batch's rows from their cells' texts, services/row-texts.ts). */
export function sendJsonText(req: Request, res: Response, status: number, json: string): void {
  sendText(req, res, status, json, "application/json");
}

/** A CSV answer (text/csv, header row first); `Vary: Accept` because the same URL may answer JSON. */
export function sendCsv(req: Request, res: Response, csv: string, filename: string): void {
  res.setHeader("Content-Disposition", `inline; filename="${filename}"`);
  sendText(req, res, 200, csv, "text/csv", "Accept-Encoding, Accept");
}

/**
 * A UTF-8 body with a weak ETag (GET 200), 304 on If-None-Match, br or gzip when asked for and worth it. The body
 * stays a string unless it is compressed: Node encodes it once as it writes (no Buffer copy per response).
 */
function sendText(req: Request, res: Response, status: number, body: string, contentType: string, vary = "Accept-Encoding"): void {
  // Our own status codes: Express's res.status re-checks each one (~2 µs a request in the pinned bench's profile).
  res.statusCode = status;
  res.setHeader("Content-Type", `${contentType}; charset=utf-8`);
  res.setHeader("Vary", vary);
  const cacheable = (req.method === "GET" || req.method === "HEAD") && status === 200;
  if (cacheable) {
    const etag = etagOf(body);
    res.setHeader("ETag", etag);
    res.setHeader("Cache-Control", "no-cache");
    if (ifNoneMatchHits(req.headers["if-none-match"], etag)) {
      res.status(304);
      res.removeHeader("Content-Type");
      res.end();
      return;
    }
  }
  const bytes = Buffer.byteLength(body, "utf8");
  const encoding = bytes >= COMPRESS_MIN_BYTES ? chooseEncoding(req.headers["accept-encoding"]) : undefined;
  if (encoding === undefined) return endWith(req, res, body, bytes);
  // In line, at brotli quality 2 / gzip level 3: on a batch-100 answer (23 KB) 55 µs for 1.4 KB and 39 µs for 2.1 KB
  // (quality 4: 79 µs, level 6: 85 µs). zlib's asynchronous calls, in the thread pool, cost 180–270 µs of CPU each
  // (a stream per call): on two cores shared with the clients that halves the compressed batch rate.
  const out = encoding === "br" ? brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } }) : gzipSync(body, { level: 3 });
  res.setHeader("Content-Encoding", encoding);
  endWith(req, res, out);
}

function endWith(req: Request, res: Response, out: Buffer | string, bytes = (out as Buffer).length): void {
  res.setHeader("Content-Length", String(bytes));
  if (req.method === "HEAD") res.end();
  else res.end(out);
}

/** Headers that describe a file a handler was about to send; an error envelope is not that file. */
const FILE_HEADERS = ["Content-Disposition", "Content-Encoding", "Content-Range", "ETag", "Last-Modified"];

/** The error envelope, as application/json, with `headers` (e.g. a 416's Content-Range) after the file's are dropped. */
export function sendError(req: Request, res: Response, err: ApiError, headers: Record<string, string> = {}): void {
  for (const name of FILE_HEADERS) res.removeHeader(name);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendJson(req, res, err.status, errorEnvelope(err));
}
