// Reads a JSON request body: Content-Type must be application/json (charset utf-8 if given) → else 415;
// Content-Encoding none, gzip, deflate or br → else 415; at most `limit` bytes on the wire and, once decoded,
// at most `limit` bytes → else 413; a decodable body → else 400; nested at most MAX_JSON_DEPTH levels and no key
// repeated in an object (one scan, json-scan.ts) → else 400; valid JSON → else 400; no prototype-pollution keys → else 400.
// We read the body ourselves (not express.json) so every one of these failures has our error envelope.
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from "node:zlib";
import type { Request } from "express";
import { ApiError, ClientAbortedError, ValidationError } from "../errors.ts";
import { scanJson } from "./json-scan.ts";
import { findForbiddenKey } from "./validate.ts";

export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Deepest accepted nesting of objects/arrays in a JSON body; the API's own bodies need 3. */
export const MAX_JSON_DEPTH = 32;
/** Past this many bytes we stop draining an oversized body and just close the connection. */
const DRAIN_CAP_FACTOR = 16;

type Decoder = (input: Buffer, options: ZlibOptions) => Promise<Buffer>;

/** Content-Encoding → its decoder (node:zlib, on the thread pool); `deflate` is the zlib format (RFC 9110 8.4.1.2). */
const DECODERS: Record<string, { name: string; decode: Decoder } | undefined> = {
  gzip: { name: "gzip", decode: promisify(gunzip) },
  "x-gzip": { name: "gzip", decode: promisify(gunzip) },
  deflate: { name: "deflate", decode: promisify(inflate) },
  br: { name: "br", decode: promisify(brotliDecompress) },
};
export const SUPPORTED_ENCODINGS = ["gzip", "deflate", "br", "identity"] as const;

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

/** The decoder for the request's Content-Encoding; undefined for none/identity. One coding only. */
function decoderFor(req: Request): { name: string; decode: Decoder } | undefined {
  const header = req.headers["content-encoding"];
  const coding = header?.trim().toLowerCase();
  if (coding === undefined || coding === "" || coding === "identity") return undefined;
  const decoder = DECODERS[coding];
  if (decoder === undefined) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Encoding must be one of gzip, deflate, br (or none)", {
      received: header,
      supported: [...SUPPORTED_ENCODINGS],
    });
  }
  return decoder;
}

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

/** Decodes a compressed body; the size limit applies to the decoded bytes (zlib stops at maxOutputLength). */
async function decode(raw: Buffer, decoder: { name: string; decode: Decoder }, limit: number): Promise<Buffer> {
  try {
    return await decoder.decode(raw, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(limit, true);
    throw new ValidationError(`Request body is not valid ${decoder.name} data`, { reason: "corrupt_encoding", decoder: (err as Error).message });
  }
}

export async function readJsonBody(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  checkContentType(req);
  const decoder = decoderFor(req);
  const wire = await readRaw(req, limit);
  const raw = decoder === undefined || wire.length === 0 ? wire : await decode(wire, decoder, limit);
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
