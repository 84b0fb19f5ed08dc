// GET /api/risk-map/events: validate, ask the feed snapshots, send GeoJSON with the freshness flag.
import type { Request, Response } from "express";
import { ApiError } from "../errors.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { eventsQuery } from "../schemas-events.ts";
import type { FeedRiskService } from "../services/feed-risk-service.ts";
import type { Freshness } from "../services/source-status-service.ts";

export function eventsHandler(feeds: FeedRiskService | undefined, freshness: Freshness) {
  return (req: Request, res: Response) => {
    const q = parseOrThrow(eventsQuery, req.query, "query");
    if (!feeds) throw new ApiError("SERVICE_UNAVAILABLE", "event data are not available in this process");
    sendJson(req, res, 200, { ...feeds.events(q), ...freshness(q.riskType) }, "application/geo+json");
  };
}
