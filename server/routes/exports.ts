// The export routes: the list (JSON) and each file, sent by http/send-file.ts (Range, If-Range, If-Match,
// If-Unmodified-Since) with a strong ETag: the SHA-256 of the file as it is on disk (http/file-etag.ts), which is
// the manifest's checksum while the file is intact; a file that no longer has it answers 500 (it is not the file the
// version was verified with).
import type { NextFunction, Request, Response } from "express";
import { sendJson } from "../http/respond.ts";
import { contentEtag } from "../http/file-etag.ts";
import { sendDiskFile } from "../http/send-file.ts";
import { EXPORTS_PATH, type ExportService } from "../services/export-service.ts";
import { EXPORT_FILE_NAMES } from "../../formats/drought-export.ts";
import { ApiError } from "../errors.ts";
import { errorResponses, FILE_ERRORS, GET_ERRORS, ok } from "../openapi-parts.ts";
import { exportsData, successEnvelope } from "../schemas.ts";
import type { Route, RouteContext } from "./route.ts";

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
          etag: async (path, stats) => {
            // The file as it is now must be the one the version was verified with (its manifest checksum): a file
            // changed or damaged on disk since is a server fault, 500 in the envelope and logged, not a 200 with a
            // body that fails to read.
            const etag = await contentEtag(path, stats);
            if (etag !== `"${f.sha256}"`) throw new Error(`export ${f.name} of data version ${f.version}: sha256 ${etag} on disk, the manifest says ${f.sha256}`);
            return etag;
          },
          cacheControl: "no-cache",
          headers: { "Content-Disposition": `attachment; filename="${f.version}-${f.name}"` },
        });
      };
    },
  };
}

function exportsOf(ctx: RouteContext) {
  if (!ctx.exports) throw new ApiError("SERVICE_UNAVAILABLE", "exports are not available in this process");
  return exportHandlers(ctx.exports);
}

/** The export list and one route per export file (formats/drought-export.ts names them). */
export const exportsRoutes: Route[] = [
  {
    method: "GET",
    path: EXPORTS_PATH,
    auth: true,
    doc: () => ({
      operationId: "droughtExports",
      summary: "The served drought version's exports (GeoParquet, Parquet, gzip CSV) with sizes and checksums",
      description:
        "Formats: formats/drought-export.md. A version built before exports existed lists none; a version published " +
        "with its exports deferred (make serve's first run) lists none and says so in `pending`.",
      responses: { "200": ok("Export list", { "application/json": successEnvelope(exportsData) }), ...errorResponses(GET_ERRORS) },
    }),
    handlers: (ctx) => [(req, res) => exportsOf(ctx).list(req, res)],
  },
  ...EXPORT_FILE_NAMES.map(
    (name): Route => ({
      method: "GET",
      path: `${EXPORTS_PATH}/${name}`,
      auth: true,
      doc: () => ({
        operationId: `droughtExport_${name.replace(/[^a-z0-9]+/g, "_")}`,
        summary: `Download ${name}`,
        description:
          "Strong ETag = the SHA-256 of the file as it is on disk, which must be the listed checksum (a file changed on " +
          "disk since the version was verified answers 500 INTERNAL_ERROR); " +
          "If-None-Match or If-Modified-Since → 304; Range and If-Range → 206 (bytes), a range outside the file → 416; " +
          "If-Match or If-Unmodified-Since that does not hold → 412. 404 NOT_FOUND when the served version has no such " +
          "export; 503 with Retry-After when too many downloads run and wait at once; 503 with details.reason " +
          "`exports-deferred` while the served version's exports are still being built (make serve's first run).",
        parameters: [
          { name: "Range", in: "header", required: false, schema: { type: "string" }, description: "bytes=START-END" },
          { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
          { name: "If-Match", in: "header", required: false, schema: { type: "string" } },
          { name: "If-Range", in: "header", required: false, schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "the file", content: { [name.endsWith(".parquet") ? "application/vnd.apache.parquet" : "application/gzip"]: { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
          "206": { description: "the requested byte range" },
          "304": { description: "not modified" },
          ...errorResponses(FILE_ERRORS),
        },
      }),
      handlers: (ctx) => [ctx.exportAdmission.middleware, (req, res, next) => exportsOf(ctx).file(name)(req, res, next)],
    }),
  ),
];
