// GDACS cyclones and floods for the supply-chain hazards, read through the feeds adapters
// (pipeline/feeds/gdacs.ts) and reduced to what the ports need: a point, an alert level 1..3 and dates.
import type { FeedRecord } from "../feeds/records.ts";
import { parseGdacsFloodTable, parseGdacsGeoJson } from "../feeds/gdacs.ts";
import { GDACS_FLOOD_DB_SOURCE, type HazardEvent, type HazardKind } from "../../formats/ports-snapshot.ts";

export { GDACS_FLOOD_DB_SOURCE, type HazardEvent, type HazardKind };


function toHazard(r: FeedRecord, source: string): HazardEvent | undefined {
  if (r.kind !== "cyclone" && r.kind !== "flood") return undefined;
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    alertLevel: Math.min(3, Math.max(1, Math.round(r.magnitude))),
    lat: r.lat,
    lng: r.lng,
    from: r.time,
    to: r.endTime,
    source,
  };
}

/** Cyclone and flood centroids of a GDACS event GeoJSON (the live feed). */
export function parseGdacsGeojson(text: string, source = "GDACS"): HazardEvent[] {
  return parseGdacsGeoJson(text).records.flatMap((r) => toHazard(r, source) ?? []);
}

/** The derived GDACS flood table. */
export function parseGdacsFloodDb(text: string): { events: HazardEvent[]; rejected: number } {
  const t = parseGdacsFloodTable(text);
  return { events: t.records.flatMap((r) => toHazard(r, GDACS_FLOOD_DB_SOURCE) ?? []), rejected: t.rejected };
}
