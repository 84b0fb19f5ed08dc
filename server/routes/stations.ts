// GET /api/risk-map/stations: the measuring sites of the heatwave and sea-level snapshots inside a box, as GeoJSON
// for the map's layers (a thin view of the feed snapshots the scores are computed from; nothing is scored here), a page
// at a time with the next link of the other map-layer collections.
import type { Request, Response } from "express";
import type { FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { inLngLatBox } from "../../lib/geo/bounds.ts";
import { ApiError } from "../errors.ts";
import { pageLinks } from "../http/paging.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { stationsQuery, type StationsCollection, type StationsQuery } from "../schemas-stations.ts";
import type { FeedRiskService } from "../services/feed-risk-service.ts";
import { pageOf } from "../services/paging.ts";
import type { Freshness } from "../services/source-status-service.ts";
import { errorResponses, GET_ERRORS, ok, queryParameters } from "../openapi-parts.ts";
import { stationsCollection } from "../schemas-stations.ts";
import { freshnessFields } from "../schemas-freshness.ts";
import type { Route } from "./route.ts";

type Feature = StationsCollection["features"][number];
/** A page of the sites in a box: the collection but for its links, and the cursor of the next page. */
export type StationsPage = Omit<StationsCollection, "next" | "links" | "truncated"> & { nextCursor: string | null };
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The sites of a heatwave (GHCN-Daily stations) or sea-level (PSMSL gauges) snapshot inside a box (west > east:
 * across the antimeridian), by id (unique in a snapshot), one page of q.limit from q.cursor.
 */
export function stationsInBox(snap: FeedSnapshot, q: StationsQuery): StationsPage {
  const inBox = (lat: number, lng: number) => inLngLatBox(q.bbox, lng, lat);
  const point = (lng: number, lat: number) => ({ type: "Point" as const, coordinates: [lng, lat] as [number, number] });
  const features: Feature[] = [];
  if (q.riskType === "heatwave") {
    for (const st of snap.dailyHeat?.stations ?? []) {
      if (!inBox(st.lat, st.lng)) continue;
      features.push({
        type: "Feature", id: st.id, geometry: point(st.lng, st.lat),
        properties: {
          id: st.id, name: st.name, from: st.from, to: st.to, daysWithData: st.daysWithData, heatwaves: st.heatwaves,
          heatwaveDays: st.heatwaveDays, longestDays: st.longestDays, hottestPeakC: st.hottestPeakC, hotDays: st.hotDays,
          baseYears: st.baseYears, baseHeatwaveDaysMean: round2(st.baseHeatwaveDaysMean),
        },
      });
    }
  } else {
    for (const g of snap.gauges ?? []) {
      if (!inBox(g.lat, g.lng)) continue;
      const id = String(g.id);
      features.push({
        type: "Feature", id, geometry: point(g.lng, g.lat),
        properties: { id, name: g.name, trendMmYr: round2(g.trendMmYr), seMmYr: round2(g.seMmYr), years: g.years, firstYear: g.firstYear, lastYear: g.lastYear },
      });
    }
  }
  features.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = pageOf(features, q.limit, q.cursor, snap.version);
  return {
    type: "FeatureCollection", riskType: q.riskType, asOf: snap.meta.asOf, snapshotVersion: snap.version,
    numberMatched: page.numberMatched, nextCursor: page.nextCursor, features: page.items,
  };
}

export function stationsHandler(feeds: FeedRiskService | undefined, freshness: Freshness) {
  return (req: Request, res: Response) => {
    const q = parseOrThrow(stationsQuery, req.query, "query");
    if (!feeds) throw new ApiError("SERVICE_UNAVAILABLE", "station data are not available in this process");
    const { nextCursor, ...page } = stationsInBox(feeds.snapshot(q.riskType), q);
    sendJson(req, res, 200, { ...page, ...pageLinks(req, stationsQuery, nextCursor), ...freshness(q.riskType) }, "application/geo+json");
  };
}

/** The map layers' stations and tide gauges of the feed snapshots. */
export const stationsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/risk-map/stations",
    auth: true,
    doc: () => ({
      operationId: "stationsInBox",
      summary: "Heatwave stations or sea-level tide gauges inside a box as GeoJSON (map layers)",
      description:
        "From the published heatwave and sea-level snapshots, the sites their scores are computed from: GHCN-Daily stations " +
        "with the heatwaves of their latest year with 300 days of data (Perkins & Alexander 2013) against their base years, " +
        "PSMSL tide gauges with their annual mean sea-level trend. Ordered by id. A bbox with west > east crosses the antimeridian. " +
        "Paging as /api/risk-map/events: `limit` a page, `next` (and `links`, rel next) while truncated, numberMatched over all " +
        "pages. Click-through: POST /api/risk-map/score with the site's coordinates and riskType gives the score there.",
      parameters: queryParameters(stationsQuery),
      responses: {
        "200": ok("FeatureCollection", { "application/geo+json": stationsCollection.extend(freshnessFields) }),
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [stationsHandler(ctx.feeds, ctx.freshness)],
  },
];
