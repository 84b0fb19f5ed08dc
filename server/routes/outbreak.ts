// POST /api/outbreak-radar/query: validate → OutbreakService → envelope. GET /api/outbreak-radar/status: every
// area's status for one disease (the map's outbreak layer). Without an outbreak service (no snapshot
// configured) the route answers 503 SERVICE_UNAVAILABLE after validation.
import type { Request, Response } from "express";
import { ApiError } from "../errors.ts";
import { readJsonBody } from "../http/body.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { outbreakBody, outbreakStatusQuery } from "../schemas-outbreak.ts";
import { OUTBREAK_NOT_CONFIGURED, type OutbreakService } from "../services/outbreak-service.ts";
import type { Freshness } from "../services/source-status-service.ts";

export function outbreakHandlers(deps: { outbreak?: OutbreakService; bodyLimit: number; freshness: Freshness }) {
  return {
    async query(req: Request, res: Response) {
      const body = parseOrThrow(outbreakBody, await readJsonBody(req, deps.bodyLimit), "body");
      if (deps.outbreak === undefined) throw new ApiError("SERVICE_UNAVAILABLE", OUTBREAK_NOT_CONFIGURED);
      sendJson(req, res, 200, { success: true, data: { ...deps.outbreak.query(body), ...deps.freshness("outbreak") } });
    },
    status(req: Request, res: Response) {
      const q = parseOrThrow(outbreakStatusQuery, req.query, "query");
      if (deps.outbreak === undefined) throw new ApiError("SERVICE_UNAVAILABLE", OUTBREAK_NOT_CONFIGURED);
      sendJson(req, res, 200, { success: true, data: { ...deps.outbreak.status(q), ...deps.freshness("outbreak") } });
    },
  };
}
