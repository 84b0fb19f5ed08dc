// Minimal GDACS readers for the supply-chain hazards (only what the ports need: tropical cyclones and floods as
// points with an alert level and dates). The feeds adapters under pipeline/feeds/ were not there when this was
// written; when they are, this can read through them instead.
import { csvObjects } from "../feeds/csv.ts";

export type HazardKind = "cyclone" | "flood";

export interface HazardEvent {
  id: string;
  kind: HazardKind;
  name: string;
  /** Green 1, Orange 2, Red 3 (GDACS alert levels). */
  alertLevel: number;
  lat: number;
  lng: number;
  /** Epoch ms. */
  from: number;
  to: number;
  source: string;
}

const ALERT: Record<string, number> = { green: 1, orange: 2, red: 3 };
const KIND: Record<string, HazardKind> = { TC: "cyclone", FL: "flood" };

/** "13 May 2026 01:00:00" (GDACS GeoJSON) or ISO 8601 → epoch ms, as UTC. */
export function parseGdacsDate(s: string): number {
  const t = /^\d{4}-\d{2}-\d{2}/.test(s) ? Date.parse(s.endsWith("Z") ? s : `${s}Z`) : Date.parse(`${s} UTC`);
  return Number.isFinite(t) ? t : NaN;
}

/** Event centroids of a GDACS event GeoJSON (the live feed): cyclones and floods only. */
export function parseGdacsGeojson(text: string, source = "GDACS"): HazardEvent[] {
  const doc = JSON.parse(text) as { features?: { properties?: Record<string, unknown>; geometry?: { type: string; coordinates: number[] } }[] };
  const out: HazardEvent[] = [];
  for (const f of doc.features ?? []) {
    const p = f.properties ?? {};
    const kind = KIND[String(p.eventtype)];
    if (kind === undefined || p.Class !== "Point_Centroid" || f.geometry?.type !== "Point") continue;
    out.push({
      id: `${String(p.eventtype)}-${String(p.eventid)}`,
      kind,
      name: String(p.name ?? ""),
      alertLevel: ALERT[String(p.alertlevel).toLowerCase()] ?? NaN,
      lat: f.geometry.coordinates[1],
      lng: f.geometry.coordinates[0],
      from: parseGdacsDate(String(p.fromdate)),
      to: parseGdacsDate(String(p.todate)),
      source,
    });
  }
  return out;
}

/** The derived GDACS flood table (GDACS_ID, alertlevel, fromdate, todate, geometry as a Python-style dict). */
export function parseGdacsFloodDb(text: string): { events: HazardEvent[]; rejected: number } {
  const events: HazardEvent[] = [];
  let rejected = 0;
  for (const r of csvObjects(text).rows) {
    const m = /coordinates'?\s*:\s*\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/.exec(r.geometry);
    const from = parseGdacsDate(r.fromdate);
    if (!m || !Number.isFinite(from)) {
      rejected++;
      continue;
    }
    events.push({
      id: r.GDACS_ID,
      kind: "flood",
      name: `Flood in ${r.country}`,
      alertLevel: ALERT[r.alertlevel.toLowerCase()] ?? NaN,
      lat: Number(m[2]),
      lng: Number(m[1]),
      from,
      to: parseGdacsDate(r.todate),
      source: "GDACS flood database",
    });
  }
  return { events, rejected };
}
