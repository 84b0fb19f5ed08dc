// GET /api/risk-map/events: validate, ask the feed snapshots for a page, send GeoJSON with its next link and the
// freshness flag.
import type { Request, Response } from "express";
import { ApiError } from "../errors.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { pageLinks } from "../http/paging.ts";
import { eventsQuery } from "../schemas-events.ts";
import type { FeedRiskService } from "../services/feed-risk-service.ts";
import type { Freshness } from "../services/source-status-service.ts";

export function eventsHandler(feeds: FeedRiskService | undefined, freshness: Freshness) {
  return (req: Request, res: Response) => {
    const q = parseOrThrow(eventsQuery, req.query, "query");
    if (!feeds) throw new ApiError("SERVICE_UNAVAILABLE", "event data are not available in this process");
    const { nextCursor, ...page } = feeds.events(q);
    sendJson(req, res, 200, { ...page, ...pageLinks(req, eventsQuery, nextCursor), ...freshness(q.riskType) }, "application/geo+json");
  };
}
