// Sends a file from disk with the `send` library (Express's res.sendFile): Range and If-Range (206, 416),
// If-Match and If-Unmodified-Since (412), Last-Modified and If-Modified-Since; its 4xx errors become the error
// envelope (http/error-handler.ts). The ETag is the caller's, made from the file as it is now (http/file-etag.ts),
// so a file changed in place is never served under its old tag. A read error once the answer has begun destroys the
// connection (the client sees a failed transfer, not a complete-looking short body).
// If-None-Match is answered here: `send` takes a request's Cache-Control: no-cache as "never fresh", and fetch()
// sends that header with every conditional request; an origin server still answers 304 (RFC 9110 §13.1.2). With
// If-Match present `send` decides, since If-Match is evaluated first (RFC 9110 §13.2.2).
import { stat } from "node:fs/promises";
import type { Stats } from "node:fs";
import type { NextFunction, Request, Response } from "express";
import { ifNoneMatchHits } from "./respond.ts";

export interface DiskFile {
  path: string;
  contentType: string;
  /** The file's ETag from its current stat (and content). */
  etag: (path: string, stats: Stats) => string | Promise<string>;
  cacheControl: string;
  /** More response headers (Content-Disposition, …). */
  headers?: Record<string, string>;
}

export async function sendDiskFile(req: Request, res: Response, next: NextFunction, file: DiskFile): Promise<void> {
  const etag = await file.etag(file.path, await stat(file.path));
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", file.cacheControl);
  if (req.headers["if-match"] === undefined && ifNoneMatchHits(req.headers["if-none-match"], etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Type", file.contentType);
  for (const [name, value] of Object.entries(file.headers ?? {})) res.setHeader(name, value);
  res.sendFile(file.path, { etag: false, lastModified: true, dotfiles: "allow", cacheControl: false }, (err) => {
    if (!err) return;
    if (!res.headersSent) next(err);
    // A read error after the status line went out: the connection is destroyed, so the client sees a failed
    // transfer, never a short body that ends as if complete.
    else res.destroy(err);
  });
}
