// Wildfire science, pure (docs/methods/feed-risks.md, "Wildfire: which record answers" and "One scale across
// sensors"): the intensity of one FIRMS detection, the MODIS/VIIRS factor measured where both sensors saw the same
// area on the same days, which fire record answers a point, and the wildfire hooks of the event assessment (events.ts).
import type { EventRecord, FeedSnapshot, FireSensorSpan } from "../../formats/feed-snapshot.ts";
import { DAY_MS, type IntensityFn } from "./scoring.ts";
import { inBbox, MIN_RATE_YEARS, notCovered } from "./answer.ts";
import type { EventHazard } from "./events.ts";
import { r1, r2 } from "../round.ts";

/** FRP (MW) on a log scale: 10 MW → 0.69, 100 MW → 2.4. */
export const frpIntensity = (frp: number) => Math.log1p(Math.max(0, frp) / 10);

/** Fewest days both sensors must cover in one record for its detections to count towards the factor. */
export const MIN_OVERLAP_DAYS = 7;
/** Fewest detections of each sensor in the overlaps for a factor (fewer: no factor). */
export const MIN_OVERLAP_DETECTIONS = 100;

export interface SensorFactor {
  /** Σ intensity of VIIRS detections / Σ intensity of MODIS detections over the overlaps: a VIIRS detection counts 1/k. */
  viirsPerModis: number;
  overlapDays: number;
  modisDetections: number;
  viirsDetections: number;
  /** The records the overlaps come from. */
  records: string[];
}

/** One detection as the factor needs it. */
export interface SensorDetection {
  sensor: "MODIS" | "VIIRS";
  time: number;
  frp: number;
}

/**
 * The MODIS/VIIRS factor: over every record where both sensors' detections span a common period of at least
 * MIN_OVERLAP_DAYS (from the later first day to the earlier last day, whole days), the intensity-weighted VIIRS
 * detections over the MODIS ones in that period, pooled. VIIRS' 375 m pixels split one fire into several detections
 * that MODIS' 1 km pixels see as one; dividing each VIIRS detection's weight by this factor puts both on the MODIS
 * scale the rate reference is calibrated on. null when no record has such an overlap.
 */
export function measureSensorFactor(records: { id: string; detections: SensorDetection[] }[]): SensorFactor | null {
  let m = 0, v = 0, nm = 0, nv = 0, days = 0;
  const used: string[] = [];
  for (const r of records) {
    const span = { MODIS: [Infinity, -Infinity], VIIRS: [Infinity, -Infinity] };
    for (const d of r.detections) {
      const s = span[d.sensor];
      s[0] = Math.min(s[0], d.time);
      s[1] = Math.max(s[1], d.time);
    }
    const from = Math.floor(Math.max(span.MODIS[0], span.VIIRS[0]) / DAY_MS) * DAY_MS;
    const to = Math.floor(Math.min(span.MODIS[1], span.VIIRS[1]) / DAY_MS) * DAY_MS + DAY_MS;
    if (!(to - from >= MIN_OVERLAP_DAYS * DAY_MS)) continue;
    for (const d of r.detections) {
      if (d.time < from || d.time >= to) continue;
      if (d.sensor === "MODIS") { m += frpIntensity(d.frp); nm++; } else { v += frpIntensity(d.frp); nv++; }
    }
    days += (to - from) / DAY_MS;
    used.push(r.id);
  }
  if (nm < MIN_OVERLAP_DETECTIONS || nv < MIN_OVERLAP_DETECTIONS || !(m > 0)) return null;
  return { viirsPerModis: v / m, overlapDays: days, modisDetections: nm, viirsDetections: nv, records: used };
}

const intensityByFactor = new Map<number | undefined, IntensityFn>();

/**
 * Intensity of one wildfire event: FRP on a log scale; a VIIRS detection divided by the measured factor (absent: as
 * it is, and the answer says the sensors are not on one scale); a GDACS alert score as it is. One function per factor,
 * so the scoring's per-function cache holds.
 */
export function wildfireIntensity(viirsPerModis?: number): IntensityFn {
  const k = viirsPerModis !== undefined && viirsPerModis > 0 ? viirsPerModis : undefined;
  let fn = intensityByFactor.get(k);
  if (!fn) {
    fn = (m, source) => (source === "GDACS" ? Math.max(0.1, m) : source === "FIRMS-VIIRS" && k !== undefined ? frpIntensity(m) / k : frpIntensity(m));
    intensityByFactor.set(k, fn);
  }
  return fn;
}

/** Sensors of a record with their spans, "MODIS", "VIIRS" or "MODIS+VIIRS". */
export function sensorLabel(sensors: Partial<Record<"MODIS" | "VIIRS", FireSensorSpan>> | undefined): string {
  return Object.keys(sensors ?? {}).sort().join("+") || "unknown";
}

/**
 * The fire record that answers a point: among the records whose extent holds it (a country's record only inside that
 * country), the longest record of a year or more (a rate and a level); else the first that holds it (the global
 * near-real-time record comes first: current activity only). undefined: none holds it.
 */
export function chooseFireRecord(records: EventRecord[], lat: number, lng: number, country: string | null): EventRecord | undefined {
  const holding = records.filter((r) => r.bbox && inBbox(r.bbox, lat, lng) && (r.country === undefined || r.country === country));
  let best: EventRecord | undefined;
  for (const r of holding) if ((r.years ?? 0) >= MIN_RATE_YEARS && (!best || r.years! > best.years!)) best = r;
  return best ?? holding[0];
}

/**
 * Two years without a single detection anywhere in a record's extent are years the record did not observe (one year
 * is too short: a region that burns only in one season has gaps of a year and a day between its fire seasons).
 */
export const UNOBSERVED_GAP_MS = 2 * 365.2425 * DAY_MS;

/**
 * The years a fire record observed: the span from its first to its last detection, less every gap of more than two
 * years without one (a live merge into the mirror's 2018 sample would otherwise claim the eight years between them and
 * give a rate of fires it never looked for). At least one day. `times` in epoch ms, any order.
 */
export function observedYears(times: ArrayLike<number>): number {
  const t = Float64Array.from(times).sort();
  if (t.length === 0) return 1 / 365.2425;
  let span = t[t.length - 1] - t[0];
  for (let i = 1; i < t.length; i++) if (t[i] - t[i - 1] > UNOBSERVED_GAP_MS) span -= t[i] - t[i - 1];
  return Math.max(1 / 365.2425, span / (365.2425 * DAY_MS));
}

/** The snapshot's MODIS/VIIRS factor (absent when no record had both sensors over the same days). */
const factorOf = (s: FeedSnapshot) => (Number.isFinite(s.meta.params.viirsPerModis) ? s.meta.params.viirsPerModis : undefined);

/** Wildfire in the event assessment (lib/feed-risk/events.ts). */
export const WILDFIRE: EventHazard = {
  noun: "fire detections",
  chooseRecord(s, q, place) {
    const rec = chooseFireRecord(s.records ?? [], q.lat, q.lng, place.country);
    if (!rec) throw notCovered(s, "outside the extent of every fire file (a country's file answers only inside that country)");
    return rec;
  },
  // Never below the rate reference's share of the window (λref × days / 365.25): a year of detections weighs as a
  // year of the rate, a week as before (recentRef).
  recentRef: (params, windowDays) => Math.max(params.recentRef, (params.annualRateRef * windowDays) / 365.2425),
  // VIIRS detections count 1/k of a MODIS one; a rated record with VIIRS and no factor gives no level on the MODIS scale.
  intensity(s, chosen) {
    const k = factorOf(s);
    if (chosen.record?.sensors?.VIIRS !== undefined && k === undefined && chosen.window.years >= MIN_RATE_YEARS) {
      throw notCovered(s, `the fire record here, ${chosen.dataset}, holds VIIRS detections and no record of this snapshot gives a MODIS/VIIRS factor (both sensors over the same days): no level on the MODIS scale`);
    }
    return wildfireIntensity(k);
  },
  recordDetails(s, rec, recordYears) {
    const k = factorOf(s);
    return {
      fireRecord: {
        id: rec.id,
        name: rec.name,
        start: rec.start,
        end: rec.end,
        days: r1(recordYears * 365.2425),
        years: r2(recordYears),
        sensor: sensorLabel(rec.sensors),
        sensors: rec.sensors ?? {},
        ...(rec.country ? { country: rec.country } : {}),
      },
      sensorScale: k !== undefined
        ? { viirsPerModis: r2(k), note: `each VIIRS detection weighs 1/${r2(k)} of a MODIS one: the VIIRS/MODIS ratio of weighted detections where both sensors saw the same area on the same days` }
        : { viirsPerModis: null, note: rec.sensors?.VIIRS ? "no MODIS/VIIRS factor measured in this snapshot (no record with both sensors on the same days): VIIRS detections count as they are, several per fire that MODIS sees once, and give no level" : "MODIS detections only: the scale the rate reference is calibrated on" },
    };
  },
  recordLabel: (rec) => `, ${sensorLabel(rec.sensors)}`,
  summaryNote: () => "",
  confidence: { full: 0.7, basis: "satellite fire detections (FIRMS) within 100 km" },
};
