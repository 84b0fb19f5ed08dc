// One feed-risk answer from an opened snapshot and the place of the point (country, land or sea, distance to the
// coast: lib/geo): coverage check, score, summary, per-type details and the coverage used. Pure (no I/O); the
// server wraps it (server/services/feed-risk-service.ts). Outside coverage → NotCoveredError naming the coverage.
import { formatMonth } from "../months.ts";
import { riskLevel } from "../drought-scale.ts";
import type { CountryHeat, EventRecord, FeedSnapshot, GaugeStat } from "../../formats/feed-snapshot.ts";
import { HOT_REF, VERY_WET_SPI, WET_REF, combineHeat, hotExcess, monthPercentiles, wetTerm } from "./climate-components.ts";
import { DAY_MS, INTENSITY, eventScore, TIMEFRAME_DAYS, TIMEFRAME_MONTHS, heatScore, scoreEvents, seaLevelScore, type RecordWindow, type TimeframeName } from "./scoring.ts";
import { haversineKm } from "../../formats/event-index.ts";

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
  riskLevel: ReturnType<typeof riskLevel>;
  summary: string;
  /** Per-type details object (goes under details[riskType]). */
  details: Record<string, unknown>;
  coverage: CoverageUsed;
  dataSources: string[];
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const year = (iso: string) => iso.slice(0, 4);

function inBbox(b: readonly number[], lat: number, lng: number): boolean {
  return lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];
}

const onLandOrCoast = (p: Place) => p.land || p.coastDistanceKm <= p.coastalToleranceKm;

function notCovered(s: FeedSnapshot, why: string): NotCoveredError {
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
  if (meta.riskType !== "storm") return { window: { start: Date.parse(meta.recordStart), years: meta.recordYears }, dataset, period: whole };
  const rec = records.find((r) => r.bbox && inBbox(r.bbox, q.lat, q.lng));
  if (!rec || rec.years === undefined) throw new Error("storm snapshot: no track record answers this point");
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
  const asOf = Date.parse(meta.asOf);
  const windowDays = TIMEFRAME_DAYS[q.timeframe];
  const chosen = chooseRecord(s, q);
  const recordYears = chosen.window.years;
  const near = ev.near(q.lat, q.lng, p.radiusKm);
  const h = scoreEvents(ev, near, INTENSITY[type], p, asOf, windowDays, chosen.window);
  const wet = type === "flood" ? wetComponent(s, q) : undefined;
  if (wet?.used) h.score = eventScore(h.annualRate, h.recentWeighted, p, wet.term);
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
    record: { start: chosen.period.start, end: chosen.period.end, years: r1(recordYears) },
    eventsInRadius: h.eventCount,
    eventsPerYear: r2(h.eventCount / recordYears),
    weightedAnnualRate: Math.round(h.annualRate * 1000) / 1000,
    returnPeriodYears: h.returnPeriodYears === null ? null : r1(h.returnPeriodYears),
    recent: { timeframe: q.timeframe, from: day(asOf - windowDays * DAY_MS), to: day(asOf), events: h.recentCount, weighted: Math.round(h.recentWeighted * 1000) / 1000 },
    baseline: `${chosen.dataset}; λref ${p.annualRateRef}/yr, recent ref ${p.recentRef}`,
    contributingEvents: h.strongest.map(describe),
  };
  if (rec) {
    details.trackRecord = {
      id: rec.id,
      name: rec.name,
      start: rec.start,
      end: rec.end,
      years: r1(recordYears),
      windStart: rec.windStart ?? rec.start,
      windYears: r1(rec.windYears ?? recordYears),
    };
  }
  if (wet) details.climateGrid = wet;
  if (q.includeHistorical) {
    const byYear = new Map<number, number>();
    for (const c of h.contributions) {
      const y = new Date(ev.time[c.index]).getUTCFullYear();
      byYear.set(y, (byYear.get(y) ?? 0) + 1);
    }
    const y0 = Number(year(chosen.period.start));
    const y1 = new Date(asOf).getUTCFullYear();
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
        (h.returnPeriodYears === null ? "" : ` (one every ${span(h.returnPeriodYears)})`)) +
    `; ${h.recentCount} in the ${q.timeframe} before ${day(asOf)}.${topText}${windText}` +
    (wet === undefined || (!wet.used && s.climateGrid) ? "" : wet.used
      ? ` Drought grid (to ${wet.gridMonth}): ${wet.veryWetMonths.latestYear} very wet month(s) (SPI-3 ≥ ${VERY_WET_SPI}) in the latest year, ${wet.veryWetMonths.record} in the record.`
      : ` Drought grid not used: ${wet.note}.`);
  return {
    riskScore: h.score,
    riskLevel: riskLevel(h.score),
    summary,
    details,
    coverage: { country: place.country, dataset: chosen.dataset, period: chosen.period, area: meta.coverage.description },
    dataSources: meta.dataSources,
  };
}

/** Nearest item by great-circle distance (brute force: the tables hold at most a few thousand points). */
function nearest<T extends { lat: number; lng: number }>(items: T[], lat: number, lng: number): { item: T; distanceKm: number } | undefined {
  let best: { item: T; distanceKm: number } | undefined;
  for (const item of items) {
    const d = haversineKm(lat, lng, item.lat, item.lng);
    if (!best || d < best.distanceKm) best = { item, distanceKm: d };
  }
  return best;
}

/** Whether a point can be within `km` of any item: the items' box widened by km (cheap gate before `nearest`). */
const boxes = new WeakMap<object, [number, number, number, number]>();
function mayBeNear(items: { lat: number; lng: number }[], lat: number, lng: number, km: number): boolean {
  let b = boxes.get(items);
  if (!b) {
    b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const it of items) {
      b[0] = Math.min(b[0], it.lng); b[1] = Math.min(b[1], it.lat); b[2] = Math.max(b[2], it.lng); b[3] = Math.max(b[3], it.lat);
    }
    boxes.set(items, b);
  }
  const dLat = km / 110.5;
  const dLng = km / (111.0 * Math.max(0.01, Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180)));
  return lat >= b[1] - dLat && lat <= b[3] + dLat && lng >= b[0] - dLng && lng <= b[2] + dLng;
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

/** The flood score's climate-grid term at a point, or why there is none (the score then uses the feeds alone). */
function wetComponent(s: FeedSnapshot, q: AssessQuery): WetComponent {
  const g = s.climateGrid;
  if (!g) return { used: false, note: s.climateNote ?? "this snapshot has no drought-grid table" };
  const hit = mayBeNear(g.cells, q.lat, q.lng, g.maxDistanceKm) ? nearest(g.cells, q.lat, q.lng) : undefined;
  if (!hit || hit.distanceKm > g.maxDistanceKm) {
    return { used: false, note: `no drought-grid cell with SPI-3 data within ${g.maxDistanceKm} km (grid ${g.version}, Thailand)` };
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

type StationComponent =
  | { used: false; note: string }
  | {
      used: true;
      source: string;
      station: { id: string; name: string; distanceKm: number };
      baseline: { start: string; end: string; yearsPerMonth: number[] };
      months: { month: string; tmeanC: number; percentile: number; hot: boolean }[];
      hotMonths: number;
      hotExcess: number;
      hotRef: number;
      countryScore: number;
    };

/** Percentiles of the nearest station's latest k months against 1961–1990, or why there are none. */
function stationComponent(s: FeedSnapshot, q: AssessQuery, k: number, countryScore: number): StationComponent {
  const t = s.stationHeat;
  if (!t) return { used: false, note: s.climateNote ?? "this snapshot has no station table" };
  const hit = mayBeNear(t.stations, q.lat, q.lng, t.maxDistanceKm) ? nearest(t.stations, q.lat, q.lng) : undefined;
  if (!hit || hit.distanceKm > t.maxDistanceKm) {
    return { used: false, note: `no GHCN-Daily station with a ${t.baselineStart}..${t.baselineEnd} baseline within ${t.maxDistanceKm} km (station data: Thailand)` };
  }
  const st = hit.item;
  const recent = st.recent.slice(-k);
  const ps = monthPercentiles(recent.map((r) => r[0]), recent.map((r) => r[1]), { byCalendarMonth: st.baseline });
  const excess = hotExcess(ps.map((p) => p.percentile));
  return {
    used: true,
    source: t.source,
    station: { id: st.id, name: st.name, distanceKm: r1(hit.distanceKm) },
    baseline: { start: t.baselineStart, end: t.baselineEnd, yearsPerMonth: st.baseline.map((a) => a.length) },
    months: ps.map((p) => ({ month: formatMonth(p.month), tmeanC: r2(p.tmeanC), percentile: r1(p.percentile), hot: p.hot })),
    hotMonths: ps.filter((p) => p.hot).length,
    hotExcess: Math.round(1000 * excess) / 1000,
    hotRef: HOT_REF,
    countryScore,
  };
}

/** The country series of the point, or a NotCoveredError that says why there is none. */
function countryHeat(s: FeedSnapshot, place: Place): { iso3: string; c: CountryHeat } {
  const t = s.heat!;
  if (place.country === null) {
    throw notCovered(s, place.land ? "no country at this point" : `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  }
  const c = t.countries[place.country];
  if (!c) throw notCovered(s, `no temperature series for ${place.country}`);
  return { iso3: place.country, c };
}

function assessHeat(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const t = s.heat!;
  const { iso3, c } = countryHeat(s, place);
  const a = Float64Array.from(c.anomalyC, (v) => (v === null ? NaN : v));
  const k = TIMEFRAME_MONTHS[q.timeframe];
  const h = heatScore(a, k);
  const station = stationComponent(s, q, k, h.score);
  const score = station.used ? combineHeat(h.score, station.hotExcess, station.months.length) : h.score;
  const month = (i: number) => formatMonth(c.firstMonth + i);
  const last = a.length - 1;
  const recentMonths = Array.from({ length: k }, (_, j) => last - k + 1 + j).map((i) => ({ month: month(i), anomalyC: r2(a[i]) }));
  const hot = [...a.keys()].filter((i) => a[i] >= c.hotThresholdC);
  const years = a.length / 12;
  const globalAt = (v: (number | null)[]) => {
    const x = v[c.firstMonth + last - t.globalFirstMonth];
    return x === null || x === undefined ? null : r2(x);
  };
  const details: Record<string, unknown> = {
    country: c.name,
    iso3,
    recentMonths,
    recentMeanAnomalyC: r2(h.recentMeanC),
    zScore: r2(h.z),
    baseline: { start: month(0), end: month(last), meanAnomalyC: r2(h.baselineMeanC), sdC: r2(h.baselineSdC), reference: "anomalies vs 1991-2020 (ERA5)" },
    hotMonthThresholdC: r2(c.hotThresholdC),
    hotMonthsPerYear: r2(hot.length / years),
    returnPeriodYears: hot.length ? r1(years / hot.length) : null,
    contributingEvents: hot.slice(-10).reverse().map((i) => ({ month: month(i), anomalyC: r2(a[i]) })),
    globalAnomalyC: Object.fromEntries(Object.entries(t.global).map(([name, v]) => [name, globalAt(v)])),
    stationRecord: station,
  };
  if (q.includeHistorical) {
    const byYear: { year: number; meanAnomalyC: number; hotMonths: number }[] = [];
    for (let i = 0; i + 11 <= last; i += 12) {
      let sum = 0;
      let n = 0;
      for (let j = i; j < i + 12; j++) { sum += a[j]; n += a[j] >= c.hotThresholdC ? 1 : 0; }
      byYear.push({ year: Math.floor((c.firstMonth + i) / 12), meanAnomalyC: r2(sum / 12), hotMonths: n });
    }
    details.historical = { byYear };
  }
  const summary =
    `${c.name} mean temperature anomaly ${r2(h.recentMeanC)} °C over the ${k} month(s) to ${month(last)}, ` +
    `z = ${r2(h.z)} against ${month(0)}..${month(last)}; ${hot.length} months above ${r2(c.hotThresholdC)} °C (90th percentile) in the record.` +
    (station.used
      ? ` Station ${station.station.name} (${station.station.distanceKm} km): ${station.hotMonths} of its latest ${station.months.length} month(s) to ${station.months.at(-1)!.month} above the ${station.baseline.start.slice(0, 4)}–${station.baseline.end.slice(0, 4)} 90th percentile.`
      : ` Station record not used: ${station.note}.`);
  const dataset = `${t.source}, ${iso3}` + (station.used ? ` + GHCN-Daily station ${station.station.id}` : "");
  return {
    riskScore: score,
    riskLevel: riskLevel(score),
    summary,
    details,
    coverage: { country: iso3, dataset, period: { start: month(0), end: month(last) }, area: s.meta.coverage.description },
    dataSources: s.meta.dataSources,
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
  return {
    riskScore: score,
    riskLevel: riskLevel(score),
    summary,
    details,
    coverage: coverageOf(`PSMSL annual RLR gauges ${order.map((x) => `${x.g.id} ${x.g.name}`).join(", ")}`, period),
    dataSources: meta.dataSources,
  };
}

export function assess(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  if (!inBbox(s.meta.coverage.bbox, q.lat, q.lng)) throw notCovered(s, "outside the area of the data");
  if (s.meta.riskType === "heatwave") return assessHeat(s, q, place);
  if (s.meta.riskType === "sea_level_rise") return assessSeaLevel(s, q, place);
  return assessEvents(s, q, place);
}

/** A duration in years as words: short records (FIRMS covers 48 hours) in days, not "0 years". */
function span(years: number): string {
  if (years >= 0.1) return `${r1(years)} years`;
  const days = years * 365.25;
  return days >= 1 ? `${r1(days)} days` : `${r1(days * 24)} hours`;
}
