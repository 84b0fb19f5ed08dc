// The export routes: the list (JSON) and each file, sent by Express's sendFile (the `send` library: Range, If-Range,
// If-Match) with a strong ETag from the file's checksum in the manifest.
import type { Request, Response } from "express";
import { ifNoneMatchHits, sendJson } from "../http/respond.ts";
import type { ExportService } from "../services/export-service.ts";

export function exportHandlers(service: ExportService) {
  return {
    list(req: Request, res: Response) {
      sendJson(req, res, 200, { success: true, data: service.list() });
    },
    file(name: string) {
      return (req: Request, res: Response, next: (err?: unknown) => void) => {
        const f = service.file(name);
        const etag = `"${f.sha256}"`;
        res.setHeader("ETag", etag);
        res.setHeader("Cache-Control", "no-cache");
        // If-None-Match is answered here: `send` treats a request's Cache-Control: no-cache as "never fresh", and
        // fetch() sends that header with every conditional request; an origin server still answers 304 (RFC 9110).
        if (ifNoneMatchHits(req.headers["if-none-match"], etag)) {
          res.status(304).end();
          return;
        }
        res.setHeader("Content-Type", f.contentType);
        res.setHeader("Content-Disposition", `attachment; filename="${f.version}-${f.name}"`);
        res.sendFile(f.path, { etag: false, lastModified: false, dotfiles: "deny" }, (err) => {
          if (err && !res.headersSent) next(err);
        });
      };
    },
  };
}
