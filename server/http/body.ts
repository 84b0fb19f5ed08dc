// Reads a JSON request body: Content-Type must be application/json (charset utf-8 if given) → else 415;
// Content-Encoding none, gzip, deflate or br → else 415; at most `limit` bytes on the wire and, once decoded,
// at most `limit` bytes → else 413; a decodable body → else 400; nested at most MAX_JSON_DEPTH levels and no key
// repeated in an object (one scan, json-scan.ts) → else 400; valid JSON → else 400; no prototype-pollution keys → else 400.
// Reading and decoding is body-parser's (express.raw: raw-body with its limit on the decoded stream, zlib's gunzip,
// inflate and brotli streams, draining an oversized body); its typed errors are turned into our envelope here. Ours
// are the checks before it (415s worded for this API, no zstd, a declared length not worth draining) and after it.
import express, { type RequestHandler, type Request } from "express";
import { ApiError, ClientAbortedError, ValidationError } from "../errors.ts";
import { scanJson } from "./json-scan.ts";
import { findForbiddenKey } from "./validate.ts";

export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Deepest accepted nesting of objects/arrays in a JSON body; the API's own bodies need 3. */
export const MAX_JSON_DEPTH = 32;
/** Past this many bytes (× the limit) we stop draining an oversized body before answering: 413 at once. */
const DRAIN_CAP_FACTOR = 16;
/**
 * After that early 413, the rest of the body is still read and thrown away, up to this many bytes of body in all
 * (× the limit: 8 MiB at 64 KiB) and for at most DISCARD_MS, before the connection closes: a client that writes its
 * whole body before reading (Python's urllib, often Node's http.request) then reads the 413 instead of a broken pipe.
 * A body declared longer than that is not read at all (it would be cut off anyway).
 */
export const DISCARD_CAP_FACTOR = 128;
export const DISCARD_MS = 5_000;

/** Content-Encoding (lower case) → the name body-parser knows it by; `deflate` is the zlib format (RFC 9110 8.4.1.2). */
const CODINGS: Record<string, string | undefined> = { gzip: "gzip", "x-gzip": "gzip", deflate: "deflate", br: "br" };
export const SUPPORTED_ENCODINGS = ["gzip", "deflate", "br", "identity"] as const;

/** An error as body-parser passes it on (http-errors, with raw-body's `type`), or zlib's (`code` Z_…). */
interface BodyParserError extends Error {
  type?: string;
  code?: string;
}

function checkContentType(req: Request): void {
  const header = req.headers["content-type"];
  if (header === undefined) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json", { received: null });
  }
  const [type, ...params] = header.split(";").map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
  if (type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json", { received: header });
  }
}

/**
 * The request's one Content-Encoding as body-parser names it (x-gzip → gzip; the header is rewritten to that name),
 * undefined for none/identity; else 415 (also for zstd, which body-parser decodes where Node has it).
 */
function checkContentEncoding(req: Request): string | undefined {
  const header = req.headers["content-encoding"];
  const coding = header?.trim().toLowerCase();
  if (coding === undefined || coding === "" || coding === "identity") {
    delete req.headers["content-encoding"];
    return undefined;
  }
  const name = CODINGS[coding];
  if (name === undefined) throw unsupportedEncoding(header);
  req.headers["content-encoding"] = name;
  return name;
}

/** 415 for a Content-Encoding we do not decode (the JSON bodies' and the bulk route's). */
export function unsupportedEncoding(header: string | undefined): ApiError {
  return new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Encoding must be one of gzip, deflate, br (or none)", {
    received: header,
    supported: [...SUPPORTED_ENCODINGS],
  });
}

/** 400 for a body that does not decode as its Content-Encoding says (zlib's `message`). */
export function corruptEncoding(coding: string, message: string): ValidationError {
  return new ValidationError(`Request body is not valid ${coding} data`, { reason: "corrupt_encoding", decoder: message });
}

export function tooLarge(limit: number, decoded = false): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `${decoded ? "Decoded request body" : "Request body"} exceeds ${limit} bytes`, { limitBytes: limit });
}

/** express.raw for every content type (checked before), inflating, at most `limit` decoded bytes; one per limit. */
const rawParsers = new Map<number, RequestHandler>();
function rawParser(limit: number): RequestHandler {
  let parser = rawParsers.get(limit);
  if (parser === undefined) {
    parser = express.raw({ type: () => true, limit, inflate: true });
    rawParsers.set(limit, parser);
  }
  return parser;
}

/** Our answer for what body-parser refused. */
function bodyParserAnswer(err: BodyParserError, coding: string | undefined, limit: number): Error {
  if (err.type === "entity.too.large") return tooLarge(limit, coding !== undefined);
  if (err.type === "request.aborted") return new ClientAbortedError();
  if (coding !== undefined && err.code?.startsWith("Z_")) return corruptEncoding(coding, err.message);
  return err; // anything else: the error handler's (a 4xx of http-errors in the envelope, else 500)
}

/**
 * After an early 413 (`wire` bytes of the body read so far): reads and discards the rest of the body until it ends,
 * DISCARD_CAP_FACTOR × limit bytes in all or DISCARD_MS, whichever comes first, then closes the connection. The
 * answer says `Connection: close`; Node would close the socket as soon as it is written, with the client's bytes
 * unread — the kernel then resets the connection and a client still writing never reads the 413 — so only our
 * side is shut (FIN) when the answer is out, and the socket is destroyed once the body is read or the bound is hit.
 */
export function discardRest(req: Request, limit: number, wire: number): void {
  const res = req.res!;
  res.setHeader("Connection", "close");
  const cap = limit * DISCARD_CAP_FACTOR;
  if (Number(req.headers["content-length"] ?? NaN) > cap || req.complete) return; // Node closes after the answer
  const socket = req.socket;
  // Node calls socket.destroySoon() once a Connection: close answer is written: end our side only.
  socket.destroySoon = function endOnly(this: typeof socket) {
    this.end();
  };
  let read = wire;
  const close = () => {
    clearTimeout(timer);
    req.off("data", count);
    socket.destroy();
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > cap) close();
  };
  const timer = setTimeout(close, DISCARD_MS);
  timer.unref();
  req.on("data", count);
  req.once("end", () => {
    // The whole body is read: nothing of the client's is left unread when the socket closes (after the answer).
    clearTimeout(timer);
    if (res.writableFinished) socket.destroy();
    else res.once("finish", () => socket.destroy());
  });
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

/**
 * The body's decoded bytes through body-parser. Beside it, counting the bytes on the wire: a body larger than
 * `limit` as sent is 413 even where it decodes to less, and past DRAIN_CAP_FACTOR × limit (declared or counted) we
 * answer at once, without draining first (body-parser drains to the end), and discard the rest within bounds
 * (discardRest). A connection closed mid-body ends here too, also while a decoder waits for bytes that will never
 * come.
 */
function readRaw(req: Request, coding: string | undefined, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const res = req.res!;
    let wire = 0;
    const refuse = () => {
      discardRest(req, limit, wire);
      reject(tooLarge(limit));
    };
    if (Number(req.headers["content-length"] ?? NaN) > limit * DRAIN_CAP_FACTOR) return refuse();
    const count = (chunk: Buffer) => {
      wire += chunk.length;
      if (wire <= limit * DRAIN_CAP_FACTOR) return;
      req.off("data", count);
      refuse();
    };
    const closed = () => {
      if (!req.complete) reject(new ClientAbortedError());
    };
    req.on("data", count);
    req.on("close", closed);
    rawParser(limit)(req, res, (err?: unknown) => {
      req.off("data", count);
      req.off("close", closed);
      if (err !== undefined) return reject(bodyParserAnswer(err as BodyParserError, coding, limit));
      if (wire > limit) return reject(tooLarge(limit));
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}

export async function readJsonBody(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  return parseJsonBody(await readJsonBytes(req, limit));
}

/** A JSON body's decoded bytes, its Content-Type, Content-Encoding and size checked; parseJsonBody reads them. */
export function readJsonBytes(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  checkContentType(req);
  let coding = checkContentEncoding(req);
  if (coding !== undefined && req.headers["content-length"]?.trim() === "0") {
    // No bytes are no body whatever the coding says (a decoder would call them truncated).
    delete req.headers["content-encoding"];
    coding = undefined;
  }
  return readRaw(req, coding, limit);
}

/** The checks after reading, on the decoded bytes: not empty, depth, repeated keys, JSON, an object, forbidden keys. */
export function parseJsonBody(raw: Buffer): object {
  const text = raw.toString("utf8");
  if (text.trim() === "") throw new ValidationError("Request body is empty; a JSON object is required", { reason: "empty_body" });
  const problem = scanJson(raw, MAX_JSON_DEPTH);
  if (problem?.reason === "too_deep") {
    throw new ValidationError(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`, { reason: "too_deep", maxDepth: MAX_JSON_DEPTH });
  }
  if (problem?.reason === "duplicate_key") {
    throw new ValidationError(`${problem.path}: duplicate key`, { reason: "duplicate_key", issues: [{ path: problem.path, message: "duplicate key" }] });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError("Request body is not valid JSON", { reason: "malformed_json", parser: (err as Error).message });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("Request body must be a JSON object", { reason: "not_an_object" });
  }
  const forbidden = findForbiddenKey(value);
  if (forbidden !== undefined) {
    throw new ValidationError(`${forbidden}: forbidden key`, { issues: [{ path: forbidden, message: "forbidden key" }] });
  }
  return value;
}
