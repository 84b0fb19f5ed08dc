// The export routes: the list (JSON) and each file, sent by http/send-file.ts (Range, If-Range, If-Match,
// If-Unmodified-Since) with a strong ETag: the SHA-256 of the file as it is on disk (http/file-etag.ts), which is
// the manifest's checksum while the file is intact, and a new one as soon as the file is changed in place.
import type { NextFunction, Request, Response } from "express";
import { sendJson } from "../http/respond.ts";
import { contentEtag } from "../http/file-etag.ts";
import { sendDiskFile } from "../http/send-file.ts";
import type { ExportService } from "../services/export-service.ts";

export function exportHandlers(service: ExportService) {
  return {
    list(req: Request, res: Response) {
      sendJson(req, res, 200, { success: true, data: service.list() });
    },
    file(name: string) {
      return (req: Request, res: Response, next: NextFunction) => {
        const f = service.file(name);
        return sendDiskFile(req, res, next, {
          path: f.path,
          contentType: f.contentType,
          etag: contentEtag,
          cacheControl: "no-cache",
          headers: { "Content-Disposition": `attachment; filename="${f.version}-${f.name}"` },
        });
      };
    },
  };
}
