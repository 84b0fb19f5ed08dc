// Flood hazard from footprints (docs/methods/feed-risks.md#flood): the events whose footprint covers the point
// (DFO and GDACS affected-area polygons, or a disc limited to the event's country where an event carries no
// polygon), each weighted by the severity its source records, give a weighted annual frequency λ; λ maps to the
// score on return-period anchors that mean the same on every continent (ThinkHazard!'s river-flood classes:
// high = a damaging flood expected at least once in 10 years, medium = within 50 years). Pure functions.
import type { FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { riskLevel, confidenceLabel } from "../drought-scale.ts";
import { anchoredScore, type Anchors } from "../anchored-score.ts";
import { TIMEFRAME_DAYS } from "./scoring.ts";
import { clockNow, HORIZON_DAYS } from "../currency.ts";
import { recentDetails, recentText, recentWindow } from "./recent-window.ts";
import type { AssessQuery, Assessment, Place } from "./answer.ts";
import { VERY_WET_SPI, WET_REF, wetTerm } from "./climate-components.ts";
import { mayBeNear, nearest } from "./nearest.ts";
import { r1, r3 } from "../round.ts";
import { isoDay as day } from "../days.ts";

/** A point within this distance outside a polygon counts as covered: DFO outlines are drawn at regional scale. */
export const FOOTPRINT_BUFFER_KM = 10;
/** Radius of the footprint of a GDACS flood that carries only a point (limited to its country). */
export const GDACS_POINT_RADIUS_KM = 50;
/** Limits of the area-equivalent disc of a DFO event without a polygon. */
export const DFO_DISC_RADIUS_KM = { min: 25, max: 300 } as const;

/**
 * Score anchors on the weighted annual frequency λ of covering footprints: [λ, score]. One weighted event in
 * 50 years is the medium threshold (30), one in 10 years high (60), one in 2 years critical (80); 2 a year → 100.
 * Between anchors the score is linear in log λ; below the first, linear in λ.
 */
export const FLOOD_FREQUENCY_ANCHORS: Anchors = [
  [1 / 50, 30],
  [1 / 10, 60],
  [1 / 2, 80],
  [2, 100],
];

/** Score 0..100 from λ, increasing, one decimal. */
export function floodFrequencyScore(rate: number): number {
  return anchoredScore(rate, FLOOD_FREQUENCY_ANCHORS);
}

/**
 * Weight of one event, from what its source records. DFO: the severity class (1 large, 1.5 very large, 2 extreme),
 * × 1.5 for a deadly or mass-displacement event (≥ 100 dead or ≥ 100,000 displaced). GDACS: alert green 0.5,
 * orange 1, red 2 (a green alert is often a minor flood).
 */
export function floodEventWeight(e: { source: string; severity: number; dead?: number; displaced?: number }): number {
  if (e.source === "GDACS") {
    const a = Math.min(3, Math.max(1, Number.isFinite(e.severity) ? e.severity : 1));
    return 0.5 * 2 ** (a - 1);
  }
  const cls = Number.isFinite(e.severity) && e.severity > 0 ? Math.min(2, e.severity) : 1;
  const damaging = (e.dead ?? 0) >= 100 || (e.displaced ?? 0) >= 100_000;
  return cls * (damaging ? 1.5 : 1);
}

/**
 * Specificity of a footprint: how likely a given point inside it was flooded. An outline larger than the 75th
 * percentile of DFO's affected areas (≈ 100,000 km², a large river basin's flooded region) is a regional outline —
 * the Sahel's 2009 polygon spans 4.8 million km² of mostly desert. The water of one event covers a bounded area
 * whatever the size of the outline drawn around the places it affected, so the chance that a given point inside
 * was flooded falls as 1 / area beyond that: 400,000 km² → 0.25, 4.8 million km² → 0.021.
 */
export const SPECIFIC_AREA_KM2 = 100_000;
export function footprintSpecificity(areaKm2: number): number {
  if (!(areaKm2 > SPECIFIC_AREA_KM2)) return 1;
  return SPECIFIC_AREA_KM2 / areaKm2;
}

/** Floor of the score while a footprint covers the point in the timeframe: a flood there now is at least this. */
export function recentFloodFloor(weights: number[]): number {
  if (weights.length === 0) return 0;
  return Math.max(...weights) >= 1 ? 60 : 30;
}

export interface FloodConfidence {
  confidence: number;
  confidenceLabel: ReturnType<typeof confidenceLabel>;
  confidenceBasis: string;
}

/**
 * How far to trust a flood answer (docs/methods/feed-risks.md#confidence): record length (30 years or more is
 * full), then the footprints it rests on — polygons (drawn affected areas) over discs derived from a point, a
 * MODIS-mapped extent (Global Flood Database) best; no covering event at all is a weaker statement (the archives
 * list large floods only, so a local flood can be missing).
 */
export function floodConfidence(recordYears: number, polygonWeight: number, discWeight: number, mapped: boolean): FloodConfidence {
  const recordFactor = Math.min(1, Math.max(0, recordYears) / 30);
  const total = polygonWeight + discWeight;
  let q: number;
  let basis: string;
  if (total > 0) {
    const share = polygonWeight / total;
    q = 0.5 + 0.3 * share + (mapped ? 0.1 : 0);
    const pct = Math.round(share * 100);
    basis = `${pct === 100 ? "all" : `${pct} %`} of the weight from drawn footprints (DFO/GDACS polygons)${pct < 100 ? ", the rest from discs around event points" : ""}${mapped ? "; a MODIS-mapped extent (Global Flood Database) among them" : ""}`;
  } else {
    q = 0.6;
    basis = "no large-flood footprint covers the point; the archives list large floods only, so a local flood may be missing";
  }
  const c = Math.round(recordFactor * q * 100) / 100;
  return { confidence: c, confidenceLabel: confidenceLabel(c), confidenceBasis: `${basis}; record ${Math.round(recordYears * 10) / 10} years` };
}


export interface FloodHit {
  index: number;
  distanceKm: number;
  weight: number;
}

/** The flood answer at a point of land or coast (assess.ts checked coverage). */
export function assessFlood(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment & FloodConfidence {
  const { meta } = s;
  const ev = s.events!;
  const fp = s.footprints!;
  const asOf = Date.parse(meta.asOf);
  const start = Date.parse(meta.recordStart);
  const years = meta.recordYears;
  // The recent window ends today; floods after the record's end are not known, so a window past it counts nothing
  // and says "no data for this window" (docs/methods/currency.md).
  const win = recentWindow(q.now ?? clockNow(), TIMEFRAME_DAYS[q.timeframe], start, asOf, HORIZON_DAYS.daily);
  const windowStart = win.start;
  const cov = fp.covering(q.lat, q.lng, FOOTPRINT_BUFFER_KM, place.country);
  const hits: FloodHit[] = [];
  const recentWeights: number[] = [];
  let sum = 0;
  let polygonWeight = 0;
  let discWeight = 0;
  let mapped = false;
  for (let k = 0; k < cov.count; k++) {
    const i = cov.index[k];
    if (ev.time[i] > asOf || ev.time[i] < start) continue;
    const w = fp.weight[i];
    hits.push({ index: i, distanceKm: cov.distanceKm[k], weight: w });
    sum += w;
    if (fp.isDisc(i)) discWeight += w;
    else polygonWeight += w;
    if (fp.mapped(i)) mapped = true;
    if (ev.endTime[i] >= windowStart) recentWeights.push(w);
  }
  const rate = sum / years;
  const frequencyScore = floodFrequencyScore(rate);
  const score = Math.max(frequencyScore, recentFloodFloor(recentWeights));
  hits.sort((a, b) => b.weight - a.weight || ev.time[b.index] - ev.time[a.index] || a.index - b.index);
  const describe = (h: FloodHit) => {
    const i = h.index;
    const cs = fp.countries[i];
    return {
      id: ev.ids.get(i),
      name: ev.names.get(i),
      source: ev.sources[ev.sourceNo[i]],
      date: day(ev.time[i]),
      endDate: day(ev.endTime[i]),
      footprint: fp.isDisc(i) ? `disc of ${r1(fp.discRadiusKm(i))} km${cs.length ? ` within ${cs.join(", ")}` : ""} around the event point (no polygon)` : fp.mapped(i) ? "polygon (MODIS-mapped event, Global Flood Database)" : "polygon",
      distanceKm: r1(h.distanceKm),
      weight: r3(h.weight),
    };
  };
  const conf = floodConfidence(years, polygonWeight, discWeight, mapped);
  const returnPeriod = hits.length > 0 ? r1(years / hits.length) : null;
  const details: Record<string, unknown> = {
    method: "footprints",
    bufferKm: FOOTPRINT_BUFFER_KM,
    record: { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10), years: r1(years) },
    footprintsCovering: hits.length,
    eventsPerYear: Math.round((hits.length / years) * 100) / 100,
    weightedAnnualRate: r3(rate),
    returnPeriodYears: returnPeriod,
    frequencyScore,
    recent: { ...recentDetails(q.timeframe, win), events: win.observed === "none" ? null : recentWeights.length, floor: recentFloodFloor(recentWeights) },
    levelScale: "weighted covering floods per year: ≥ 1 in 50 years medium, ≥ 1 in 10 high, ≥ 1 in 2 critical (ThinkHazard! river-flood return periods)",
    contributingEvents: hits.slice(0, 10).map(describe),
    climateGrid: wetComponent(s, q),
  };
  if (q.includeHistorical) {
    const byYear = new Map<number, number>();
    for (const h of hits) {
      const y = new Date(ev.time[h.index]).getUTCFullYear();
      byYear.set(y, (byYear.get(y) ?? 0) + 1);
    }
    const y0 = new Date(start).getUTCFullYear();
    const y1 = new Date(asOf).getUTCFullYear();
    details.historical = { eventsPerYear: Array.from({ length: y1 - y0 + 1 }, (_, k) => ({ year: y0 + k, events: byYear.get(y0 + k) ?? 0 })) };
  }
  const top = hits[0];
  const summary =
    (hits.length === 0
      ? `No large-flood footprint covers this point in ${r1(years)} years of records (${meta.recordStart.slice(0, 4)}–${meta.asOf.slice(0, 4)})`
      : `${hits.length} flood footprint(s) cover this point in ${r1(years)} years (one every ${returnPeriod} years; weighted ${r3(rate)} a year)`) +
    `; ${recentText(q.timeframe, win, recentWeights.length)}.` +
    (top ? ` Strongest: ${ev.names.get(top.index)} (${ev.sources[ev.sourceNo[top.index]]}, ${day(ev.time[top.index])}).` : "");
  return {
    riskScore: score,
    riskLevel: riskLevel(score),
    summary,
    details,
    coverage: { country: place.country, dataset: (s.records ?? []).map((r) => `${r.name} ${r.start}..${r.end}`).join(" + "), period: { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10) }, area: meta.coverage.description },
    dataSources: meta.dataSources,
    ...conf,
    time: { period: { from: meta.recordStart.slice(0, 10), to: meta.asOf.slice(0, 10) }, asOf: meta.asOf.slice(0, 10), cadence: "daily" },
  };
}

type WetComponent =
  | { used: false; note: string }
  | {
      used: true;
      source: string;
      version: string;
      gridMonth: string;
      recordStart: string;
      baseline: string;
      cell: { lat: number; lng: number; distanceKm: number };
      veryWetThreshold: number;
      veryWetMonths: { record: number; recordMonths: number; latestYear: number; latestYearMonths: string[] };
      latestSpi1: number | null;
      latestSpi3: number | null;
      wetness: number;
      wetRef: number;
      term: number;
    };

/**
 * The drought grid's wet extremes at a point (the drought region), or why there are none: reported beside the flood answer, not
 * scored, so that the levels mean the same where the grid does not reach.
 */
function wetComponent(s: FeedSnapshot, q: AssessQuery): WetComponent {
  const g = s.climateGrid;
  if (!g) return { used: false, note: s.climateNote ?? "this snapshot has no drought-grid table" };
  const hit = mayBeNear(g.cells, q.lat, q.lng, g.maxDistanceKm) ? nearest(g.cells, q.lat, q.lng) : undefined;
  if (!hit || hit.distanceKm > g.maxDistanceKm) {
    return { used: false, note: `no drought-grid cell with SPI-3 data within ${g.maxDistanceKm} km (grid ${g.version}: Thailand, Vietnam and Malaysia)` };
  }
  const c = hit.item;
  return {
    used: true,
    source: g.source,
    version: g.version,
    gridMonth: g.gridMonth,
    recordStart: g.recordStart,
    baseline: g.baseline,
    cell: { lat: c.lat, lng: c.lng, distanceKm: r1(hit.distanceKm) },
    veryWetThreshold: VERY_WET_SPI,
    veryWetMonths: { record: c.veryWetMonths, recordMonths: c.validMonths, latestYear: c.veryWetLatestYear, latestYearMonths: c.latestYearVeryWet },
    latestSpi1: c.latestSpi1,
    latestSpi3: c.latestSpi3,
    wetness: c.latestYearWetness,
    wetRef: WET_REF,
    term: Math.round(1000 * wetTerm(c)) / 1000,
  };
}

