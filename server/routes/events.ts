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
import { z } from "zod";
import { errorResponses, GET_ERRORS, ok, queryParameters } from "../openapi-parts.ts";
import { pointEvents, stormTracks } from "../schemas-events.ts";
import { freshnessFields } from "../schemas-freshness.ts";
import type { Route } from "./route.ts";

export function eventsHandler(feeds: FeedRiskService | undefined, freshness: Freshness) {
  return (req: Request, res: Response) => {
    const q = parseOrThrow(eventsQuery, req.query, "query");
    if (!feeds) throw new ApiError("SERVICE_UNAVAILABLE", "event data are not available in this process");
    const { nextCursor, ...page } = feeds.events(q);
    sendJson(req, res, 200, { ...page, ...pageLinks(req, eventsQuery, nextCursor), ...freshness(q.riskType) }, "application/geo+json");
  };
}

/** The map layers' events of the feed snapshots. */
export const eventsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/risk-map/events",
    auth: true,
    doc: () => ({
      operationId: "eventsInBox",
      summary: "Flood and wildfire events, or storm tracks, inside a box as GeoJSON (map layers), a page at a time",
      description:
        "From the published feed snapshots, newest first (ties by id): flood (DFO, GDACS) and wildfire (FIRMS) events, every " +
        "feature a Point; storms (IBTrACS), every feature a MultiLineString: the storm's fixes inside the box, cut where the " +
        "track crosses the antimeridian (RFC 7946 3.1.9); a storm with one fix there is the line of that fix twice " +
        "(properties.fixes 1). A bbox with west > east crosses the antimeridian. Paging: at most " +
        "`limit` features a page; while more follow, truncated is true and `next` (also `links`, rel next) is the path and query " +
        "of the next page, the same query with a `cursor`; walking the pages of one snapshot version gives every feature once " +
        "(a cursor of a version no longer served is 404). numberMatched counts all pages. Click-through: POST " +
        "/api/risk-map/score with the feature's coordinates and riskType gives the score there.",
      parameters: queryParameters(eventsQuery),
      responses: {
        "200": ok("FeatureCollection", { "application/geo+json": z.discriminatedUnion("riskType", [pointEvents.extend(freshnessFields), stormTracks.extend(freshnessFields)]) }),
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [eventsHandler(ctx.feeds, ctx.freshness)],
  },
];
