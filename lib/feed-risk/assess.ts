// One feed-risk answer from an opened snapshot and the place of the point (country, land or sea, distance to the
// coast: lib/geo): coverage check, score, summary, per-type details and the coverage used. Pure (no I/O); the
// server wraps it (server/services/feed-risk-service.ts). Outside coverage → NotCoveredError naming the coverage.
import { confidenceLabel, riskLevel } from "../drought-scale.ts";
import type { EventRecord, FeedSnapshot, GaugeStat } from "../../formats/feed-snapshot.ts";
import { DAY_MS, INTENSITY, eventScore, TIMEFRAME_DAYS, scoreEvents, seaLevelScore, type RecordWindow, type TimeframeName } from "./scoring.ts";
import { assessFlood } from "./flood.ts";
import { assessHeat } from "./heatwave.ts";
import { clockNow, HORIZON_DAYS, yearPeriod, type Cadence, type Period } from "../currency.ts";
import { recentDetails, recentText, recentWindow } from "./recent-window.ts";

export class NotCoveredError extends Error {
  /** Where the risk type answers (the snapshot's coverage), for the 404's details. */
  constructor(message: string, readonly coverage: string) {
    super(message);
  }
}

export interface AssessQuery {
  lat: number;
  lng: number;
  timeframe: TimeframeName;
  includeHistorical: boolean;
  /** Today (epoch ms): the recent window ends here and currency is counted to it; default the service clock. */
  now?: number;
}

/** Where a point is (from lib/geo): the answer's coverage checks use nothing else. */
export interface Place {
  /**
   * ISO 3166-1 alpha-3 of the country the point is in; for a sea point within the coastal tolerance, the country
   * of the shore next to it; null at sea and where no country is.
   */
  country: string | null;
  land: boolean;
  /** km to the nearest coastline, on land and at sea. */
  coastDistanceKm: number;
  /**
   * Within this distance of the coastline the point may lie on either side of the true shore (the geography's
   * outline accuracy): a sea point that close is at the coast, not open sea.
   */
  coastalToleranceKm: number;
  /** The coastline the distance is measured to (for the answers' details). */
  coastSource: string;
}

/** What an answer covered: the point's country, the data set and the period used, where the type answers. */
export interface CoverageUsed {
  country: string | null;
  dataset: string;
  period: { start: string; end: string };
  area: string;
}

export interface Assessment {
  riskScore: number;
  /** How far to trust the answer (0..1), its label and what it rests on (docs/methods/feed-risks.md#confidence). */
  confidence?: number;
  confidenceLabel?: "high" | "medium" | "low";
  confidenceBasis?: string;
  riskLevel: ReturnType<typeof riskLevel>;
  summary: string;
  /** Per-type details object (goes under details[riskType]). */
  details: Record<string, unknown>;
  coverage: CoverageUsed;
  dataSources: string[];
  /** The data the answer rests on: their span, the newest datum used and the series' cadence (lib/currency.ts). */
  time: { period: Period; asOf: string; cadence: Cadence };
}


const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const year = (iso: string) => iso.slice(0, 4);

function inBbox(b: readonly number[], lat: number, lng: number): boolean {
  return lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];
}

const onLandOrCoast = (p: Place) => p.land || p.coastDistanceKm <= p.coastalToleranceKm;

/** The 404 of a risk type: why this point is not covered, and the snapshot's coverage. */
export function notCovered(s: FeedSnapshot, why: string): NotCoveredError {
  return new NotCoveredError(`${s.meta.riskType}: ${why}; coverage: ${s.meta.coverage.description}`, s.meta.coverage.description);
}

const NOUN: Record<string, string> = { flood: "flood events", wildfire: "fire detections", storm: "tropical cyclones" };

/** The record an event answer counts over: the storm track record whose box holds the point, else the whole snapshot. */
function chooseRecord(s: FeedSnapshot, q: AssessQuery): { window: RecordWindow; record?: EventRecord; dataset: string; period: { start: string; end: string } } {
  const { meta } = s;
  const ev = s.events!;
  const records = s.records ?? [];
  const dataset = records.length ? records.map((r) => `${r.name} ${r.start}..${r.end}`).join(" + ") : meta.dataSources.join(" + ");
  const whole = { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10) };
  const byBox = records.some((r) => r.bbox);
  if (meta.riskType === "flood" || !byBox) return { window: { start: Date.parse(meta.recordStart), years: meta.recordYears }, dataset, period: whole };
  const rec = records.find((r) => r.bbox && inBbox(r.bbox, q.lat, q.lng));
  if (!rec && meta.riskType === "wildfire") throw notCovered(s, "outside the extent of every fire file");
  if (!rec || rec.years === undefined) throw new Error(`${meta.riskType} snapshot: no record answers this point`);
  const setNo = rec.set === undefined ? -1 : ev.sets.indexOf(rec.set);
  const window: RecordWindow = {
    start: Date.parse(rec.start),
    years: rec.years,
    ...(rec.windStart ? { rateStart: Date.parse(rec.windStart), rateYears: rec.windYears } : {}),
    ...(setNo >= 0 ? { inRecord: (g: number) => ev.groupSet[g] === setNo } : {}),
  };
  return { window, record: rec, dataset: `${rec.name} ${rec.start}..${rec.end}`, period: { start: rec.start, end: rec.end } };
}

function assessEvents(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const { meta } = s;
  const ev = s.events!;
  const type = meta.riskType as "flood" | "wildfire" | "storm";
  if (meta.coverage.surface === "land" && !onLandOrCoast(place)) {
    throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  }
  const p = { radiusKm: meta.params.radiusKm, decayKm: meta.params.decayKm, annualRateRef: meta.params.annualRateRef, recentRef: meta.params.recentRef };
  const chosen = chooseRecord(s, q);
  const recordYears = chosen.window.years;
  const now = q.now ?? clockNow();
  // A rate needs a record of a year or more: a 48-hour or two-month fire file gives no events per year, no return
  // period and no level. It answers only while it covers the requested window up to today: then the answer is the
  // current activity, labelled so (docs/methods/currency.md#no-level-from-a-record-under-a-year).
  const rated = recordYears >= MIN_RATE_YEARS;
  const recordStart = Date.parse(chosen.period.start);
  const dataEnd = chosen.record ? Date.parse(chosen.period.end) + DAY_MS - 1 : Date.parse(meta.asOf);
  const windowDays = TIMEFRAME_DAYS[q.timeframe];
  const win = recentWindow(now, windowDays, recordStart, dataEnd, HORIZON_DAYS.daily);
  if (!rated && win.observed !== "full") {
    throw notCovered(
      s,
      `the ${NOUN[type].replace(/s$/, "")} record here, ${chosen.dataset}, spans ${span(recordYears)}: too short for a level (a record of ${MIN_RATE_YEARS} year at least), and it does not cover the ${q.timeframe} to ${day(now)}`,
    );
  }
  const asOf = win.end;
  const near = ev.near(q.lat, q.lng, p.radiusKm);
  const h = scoreEvents(ev, near, INTENSITY[type], p, asOf, windowDays, chosen.window);
  if (!rated) h.score = eventScore(0, h.recentWeighted, p);
  const magnitude = (i: number) => (Number.isFinite(ev.magnitude[i]) ? r2(ev.magnitude[i]) : null);
  const describe = (c: { index: number; distanceKm: number; weight: number }) => ({
    id: ev.groups[ev.group[c.index]],
    name: ev.names[c.index],
    source: ev.sources[ev.sourceNo[c.index]],
    date: day(ev.time[c.index]),
    endDate: day(ev.endTime[c.index]),
    distanceKm: r1(c.distanceKm),
    magnitude: magnitude(c.index),
    unit: meta.unit,
    weight: Math.round(c.weight * 1000) / 1000,
  });
  const rec = chosen.record;
  const details: Record<string, unknown> = {
    radiusKm: p.radiusKm,
    decayKm: p.decayKm,
    record: { start: chosen.period.start, end: chosen.period.end, years: r2(recordYears), days: r1(recordYears * 365.2425) },
    eventsInRadius: h.eventCount,
    eventsPerYear: rated ? r2(h.eventCount / recordYears) : null,
    weightedAnnualRate: rated ? Math.round(h.annualRate * 1000) / 1000 : null,
    returnPeriodYears: rated && h.returnPeriodYears !== null ? r1(h.returnPeriodYears) : null,
    ...(rated ? {} : { rateNote: `a record of ${span(recordYears)} is too short for a rate (${MIN_RATE_YEARS} year at least): no events per year, no return period; the score is the activity over the whole record, to its end` }),
    recent: {
      ...recentDetails(q.timeframe, win),
      events: win.observed === "none" ? null : h.recentCount,
      weighted: win.observed === "none" ? null : Math.round(h.recentWeighted * 1000) / 1000,
      ...(rated ? {} : { currentActivity: true }),
    },
    baseline: `${chosen.dataset}; λref ${p.annualRateRef}/yr, recent ref ${p.recentRef}`,
    contributingEvents: h.strongest.map(describe),
  };
  if (rec && type === "wildfire") details.fireRecord = { id: rec.id, name: rec.name, start: rec.start, end: rec.end, days: r1(recordYears * 365.2425) };
  else if (rec) {
    details.trackRecord = {
      id: rec.id,
      name: rec.name,
      start: rec.start,
      end: rec.end,
      years: r1(recordYears),
      windStart: rec.windStart ?? rec.start,
      windYears: r1(rec.windYears ?? recordYears),
      ...(recordYears < SHORT_STORM_RECORD_YEARS ? { note: shortStormRecordNote(recordYears) } : {}),
    };
  }
  if (q.includeHistorical) {
    const byYear = new Map<number, number>();
    for (const c of h.contributions) {
      const y = new Date(ev.time[c.index]).getUTCFullYear();
      byYear.set(y, (byYear.get(y) ?? 0) + 1);
    }
    const y0 = Number(year(chosen.period.start));
    const y1 = new Date(Math.min(asOf, dataEnd)).getUTCFullYear();
    details.historical = { eventsPerYear: Array.from({ length: y1 - y0 + 1 }, (_, i) => ({ year: y0 + i, events: byYear.get(y0 + i) ?? 0 })) };
  }
  const top = h.strongest[0];
  const topMagnitude = top === undefined ? null : magnitude(top.index);
  const topText = top
    ? ` Strongest: ${ev.names[top.index]} (${ev.sources[ev.sourceNo[top.index]]}, ${day(ev.time[top.index])}, ${r1(top.distanceKm)} km, ${topMagnitude === null ? "no wind reported" : `${topMagnitude} ${meta.unit}`}).`
    : "";
  const where = rec ? ` in the ${rec.name} (${chosen.period.start}..${chosen.period.end})` : "";
  const windText = rec?.windStart
    ? ` Intensity weights use the storms from ${rec.windStart.slice(0, 4)} on (wind reported from then).`
    : "";
  const summary =
    (h.eventCount === 0
      ? `No ${NOUN[type]} within ${p.radiusKm} km${where || ` in ${chosen.dataset}`}, ${span(recordYears)} searched`
      : `${h.eventCount} ${NOUN[type]} within ${p.radiusKm} km${where} over ${span(recordYears)}` +
        (h.returnPeriodYears === null || !rated ? "" : ` (one every ${span(h.returnPeriodYears)})`)) +
    (rated ? `; ${recentText(q.timeframe, win, h.recentCount)}.` : ".") +
    `${topText}${windText}` +
    (rated ? "" : ` Current activity: the record (${span(recordYears)}) is too short for a rate; it covers the ${q.timeframe} to ${day(now)}.`) +
    (type === "storm" && recordYears < SHORT_STORM_RECORD_YEARS ? ` ${shortStormRecordNote(recordYears)}` : "");
  return {
    riskScore: h.score,
    riskLevel: riskLevel(h.score),
    summary,
    details,
    coverage: { country: place.country, dataset: chosen.dataset, period: chosen.period, area: meta.coverage.description },
    dataSources: meta.dataSources,
    ...recordConfidence(recordYears, type === "storm" ? 0.8 : 0.7, type === "storm" ? "IBTrACS best tracks within 300 km" : "satellite fire detections (FIRMS) within 100 km"),
    time: { period: { from: chosen.period.start, to: day(dataEnd) }, asOf: day(dataEnd), cadence: "daily" },
  };
}


function assessSeaLevel(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const { meta } = s;
  const gauges = s.gauges!;
  const radius = meta.params.radiusKm;
  const inlandKm = meta.params.inlandKm;
  if (!onLandOrCoast(place)) throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  // A sea point within the tolerance is at the coast: full exposure.
  const coastKm = place.land ? place.coastDistanceKm : 0;
  const base = { distanceToCoastKm: r1(place.coastDistanceKm), atSea: !place.land, inlandLimitKm: inlandKm, coastSource: place.coastSource };
  const coverageOf = (dataset: string, period: { start: string; end: string }) => ({ country: place.country, dataset, period, area: meta.coverage.description });
  if (coastKm > inlandKm) {
    const summary = `${r1(coastKm)} km from the sea, beyond the ${inlandKm} km within which sea-level rise is scored: no exposure.`;
    return {
      riskScore: 0,
      riskLevel: riskLevel(0),
      summary,
      details: { ...base, trendMmYr: null, trendSeMmYr: null, gauges: [], baseline: `inland beyond ${inlandKm} km: score 0 without a gauge trend` },
      coverage: coverageOf(`${place.coastSource} (distance to the coast; no gauge needed inland)`, { start: meta.recordStart.slice(0, 4), end: meta.asOf.slice(0, 4) }),
      dataSources: meta.dataSources,
      confidence: 0.9,
      confidenceLabel: "high",
      confidenceBasis: `${r1(coastKm)} km from the coast (${place.coastSource}): beyond ${inlandKm} km no sea-level exposure`,
      // No gauge used: the answer rests on the coastline's distance, stated against the gauge record's span.
      time: { period: { from: meta.recordStart.slice(0, 10), to: meta.asOf.slice(0, 10) }, asOf: meta.asOf.slice(0, 10), cadence: "yearly" },
    };
  }
  // Inverse-distance weights (10 km floor) over the nearest gauges with a trend (events.bin holds them in order).
  const near = s.events!.near(q.lat, q.lng, radius);
  const found: { g: GaugeStat; d: number }[] = [];
  for (let k = 0; k < near.count; k++) found.push({ g: gauges[near.index[k]], d: near.distanceKm[k] });
  const order = found.sort((a, b) => a.d - b.d || a.g.id - b.g.id).slice(0, 3);
  if (order.length === 0) throw notCovered(s, `no tide gauge with ≥ 20 years of data within ${radius} km`);
  let ws = 0, tw = 0, sw = 0;
  for (const x of order) {
    const w = 1 / Math.max(10, x.d);
    ws += w; tw += w * x.g.trendMmYr; sw += (w * x.g.seMmYr) ** 2;
  }
  const trend = tw / ws;
  const se = Math.sqrt(sw) / ws;
  const score = seaLevelScore(trend, coastKm, { rateRefMmYr: meta.params.rateRefMmYr, coastDecayKm: meta.params.coastDecayKm });
  const gaugeOut = (x: { g: GaugeStat; d: number }) => ({
    id: x.g.id, name: x.g.name, distanceKm: r1(x.d), trendMmYr: r2(x.g.trendMmYr), seMmYr: r2(x.g.seMmYr),
    years: x.g.years, firstYear: x.g.firstYear, lastYear: x.g.lastYear, lastValueMm: x.g.lastValueMm,
  });
  const details: Record<string, unknown> = {
    ...base,
    trendMmYr: r2(trend),
    trendSeMmYr: r2(se),
    gauges: order.map(gaugeOut),
    baseline: "OLS trend of PSMSL annual RLR means over each gauge's full record",
  };
  if (q.includeHistorical) details.historical = { annualMeanSeaLevelMm: order.map((x) => ({ id: x.g.id, name: x.g.name, annual: x.g.annual })) };
  const first = order[0];
  const summary =
    `Relative sea-level trend ${r2(trend)} ± ${r2(se)} mm/yr from ${order.length} tide gauge(s), nearest ${first.g.name} ` +
    `at ${r1(first.d)} km (${r2(first.g.trendMmYr)} mm/yr over ${first.g.years} years, ${first.g.firstYear}–${first.g.lastYear}); ` +
    (place.land ? `${r1(coastKm)} km from the coast.` : `at sea, ${r1(place.coastDistanceKm)} km off the coast.`);
  const period = { start: String(Math.min(...order.map((x) => x.g.firstYear))), end: String(Math.max(...order.map((x) => x.g.lastYear))) };
  const years = yearPeriod(period.start, period.end);
  return {
    riskScore: score,
    riskLevel: riskLevel(score),
    summary,
    details,
    coverage: coverageOf(`PSMSL annual RLR gauges ${order.map((x) => `${x.g.id} ${x.g.name}`).join(", ")}`, period),
    dataSources: meta.dataSources,
    ...seaLevelConfidence(first.g.years, first.d),
    time: { period: years, asOf: years.to, cadence: "yearly" },
  };
}

export function assess(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  if (!inBbox(s.meta.coverage.bbox, q.lat, q.lng)) throw notCovered(s, "outside the area of the data");
  if (s.meta.riskType === "heatwave") {
    if (!onLandOrCoast(place)) throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
    return assessHeat(s, q, place);
  }
  if (s.meta.riskType === "sea_level_rise") return assessSeaLevel(s, q, place);
  if (s.meta.riskType === "flood") {
    if (!onLandOrCoast(place)) throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
    return assessFlood(s, q, place);
  }
  return assessEvents(s, q, place);
}

/**
 * Sea-level confidence: the nearest gauge's record (50 years or more counts in full; shorter trends alias decadal
 * variability) and its distance (local subsidence differs over tens of km: e^(−d/100 km)).
 */
function seaLevelConfidence(years: number, distanceKm: number) {
  const c = Math.round(0.9 * Math.min(1, years / 50) * Math.exp(-distanceKm / 100) * 100) / 100;
  return { confidence: c, confidenceLabel: confidenceLabel(c), confidenceBasis: `nearest PSMSL gauge ${r1(distanceKm)} km away with ${years} years of annual data` };
}

/** A storm record shorter than this samples a basin's cyclones too thinly for a return period to mean much. */
const SHORT_STORM_RECORD_YEARS = 10;
const shortStormRecordNote = (years: number) =>
  `Only the recent global record (${span(years)}) reaches this basin here: its rates come from those years alone; the long record (IBTrACS since 1980 for every basin) answers where a refresh brings it, the West Pacific record does now.`;

/** Records shorter than this give no rate (events per year, return period). */
export const MIN_RATE_YEARS = 1;

/**
 * Confidence of a record-based answer (docs/methods/feed-risks.md#confidence): the source's quality `q`, scaled by the
 * record length (30 years or more is full).
 */
export function recordConfidence(years: number, q: number, source: string): { confidence: number; confidenceLabel: "high" | "medium" | "low"; confidenceBasis: string } {
  // A record of days still measures what happened in it: never below 0.05, never "none".
  const c = Math.max(0.05, Math.round(Math.min(1, Math.max(0, years) / 30) * q * 100) / 100);
  return { confidence: c, confidenceLabel: confidenceLabel(c), confidenceBasis: `${source}; record ${span(years)} (30 years or more counts in full)` };
}

/** A duration in years as words: short records (FIRMS covers 48 hours) in days, not "0 years". */
function span(years: number): string {
  if (years >= 0.1) return `${r1(years)} years`;
  const days = years * 365.25;
  return days >= 1 ? `${r1(days)} days` : `${r1(days * 24)} hours`;
}
