// GET /api/risk-map/stations: the measuring sites of the heatwave and sea-level snapshots inside a box, as GeoJSON
// for the map's layers (a thin view of the feed snapshots the scores are computed from; nothing is scored here).
import type { Request, Response } from "express";
import type { FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { ApiError } from "../errors.ts";
import { sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { stationsQuery, type StationsCollection, type StationsQuery } from "../schemas-stations.ts";
import type { FeedRiskService } from "../services/feed-risk-service.ts";
import type { Freshness } from "../services/source-status-service.ts";

type Feature = StationsCollection["features"][number];
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The sites of a heatwave (GHCN-Daily stations) or sea-level (PSMSL gauges) snapshot inside a box, by id. */
export function stationsInBox(snap: FeedSnapshot, q: StationsQuery): StationsCollection {
  const [w, s, e, n] = q.bbox;
  const inBox = (lat: number, lng: number) => lng >= w && lng <= e && lat >= s && lat <= n;
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
  return {
    type: "FeatureCollection", riskType: q.riskType, asOf: snap.meta.asOf, snapshotVersion: snap.version,
    truncated: features.length > q.limit, features: features.slice(0, q.limit),
  };
}

export function stationsHandler(feeds: FeedRiskService | undefined, freshness: Freshness) {
  return (req: Request, res: Response) => {
    const q = parseOrThrow(stationsQuery, req.query, "query");
    if (!feeds) throw new ApiError("SERVICE_UNAVAILABLE", "station data are not available in this process");
    sendJson(req, res, 200, { ...stationsInBox(feeds.snapshot(q.riskType), q), ...freshness(q.riskType) }, "application/geo+json");
  };
}
