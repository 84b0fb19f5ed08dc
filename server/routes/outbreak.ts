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
import { bodyLimitNote, errorResponses, GET_ERRORS, jsonBody, ok, POST_ERRORS, queryParameters } from "../openapi-parts.ts";
import { successEnvelope } from "../schemas.ts";
import { DISEASE_TYPES, outbreakData, outbreakStatusData } from "../schemas-outbreak.ts";
import { freshnessFields } from "../schemas-freshness.ts";
import type { Route } from "./route.ts";

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

/** The outbreak radar's routes. */
export const outbreakRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/outbreak-radar/query",
    auth: true,
    doc: (d) => ({
      operationId: "outbreakRadarQuery",
      summary: `Disease surveillance for a coordinate worldwide (${DISEASE_TYPES.join(", ")})`,
      description:
        "Endemic channel of the latest window of `timeframe`, counted back from the data's as-of date (monthly data: 7d and 30d " +
        "= latest month). Per disease the answer rests on the Thai province's series (dengue), else the country's national " +
        "series, else WHO Disease Outbreak News only (outbreakStatus news_only, caseEstimate null). A country with neither for " +
        "the disease, or a point at sea away from any coast: 404 NOT_FOUND naming the coverage. No outbreak snapshot " +
        `configured: 503. Methods: docs/methods/outbreaks.md. ${bodyLimitNote(d.bodyLimit)}`,
      requestBody: jsonBody(outbreakBody),
      responses: { "200": ok("Outbreak result", { "application/json": successEnvelope(outbreakData.extend(freshnessFields)) }), ...errorResponses(POST_ERRORS) },
    }),
    handlers: (ctx) => [outbreakHandlers(ctx).query],
  },
  {
    method: "GET",
    path: "/api/outbreak-radar/status",
    auth: true,
    doc: () => ({
      operationId: "outbreakStatusByArea",
      summary: "Every area's outbreak status for one disease: countries (with their ISO numeric id of the countries tiles) and Thai provinces (map layer)",
      description:
        "Each country with a national series of the disease or a WHO Disease Outbreak News item about it, with the status and " +
        "score POST /api/outbreak-radar/query gives for a point there (Thai provinces from their own series). Click-through: " +
        "that query at the clicked point.",
      parameters: queryParameters(outbreakStatusQuery),
      responses: { "200": ok("Statuses by area", { "application/json": successEnvelope(outbreakStatusData.extend(freshnessFields)) }), ...errorResponses(GET_ERRORS) },
    }),
    handlers: (ctx) => [outbreakHandlers(ctx).status],
  },
];
