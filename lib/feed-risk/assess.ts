// One feed-risk answer from an opened snapshot: coverage check, score, summary and per-type details. Pure (no
// I/O); the server wraps it (server/services/feed-risk-service.ts). Outside coverage → NotCoveredError.
import { formatMonth } from "../months.ts";
import { riskLevel } from "../drought-scale.ts";
import type { FeedSnapshot, GaugeStat } from "../../formats/feed-snapshot.ts";
import { HOT_REF, VERY_WET_SPI, WET_REF, combineHeat, hotExcess, monthPercentiles, wetTerm } from "./climate-components.ts";
import { DAY_MS, INTENSITY, eventScore, TIMEFRAME_DAYS, TIMEFRAME_MONTHS, heatScore, scoreEvents, seaLevelScore, type TimeframeName } from "./scoring.ts";
import { haversineKm } from "../../formats/event-index.ts";

export class NotCoveredError extends Error {}

export interface AssessQuery {
  lat: number;
  lng: number;
  timeframe: TimeframeName;
  includeHistorical: boolean;
}

export interface Assessment {
  riskScore: number;
  riskLevel: ReturnType<typeof riskLevel>;
  summary: string;
  /** Per-type details object (goes under details[riskType]). */
  details: Record<string, unknown>;
  dataSources: string[];
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

function inBbox(b: [number, number, number, number], lat: number, lng: number): boolean {
  return lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];
}

const NOUN: Record<string, string> = { flood: "flood events", wildfire: "fire detections", storm: "tropical cyclones" };

function assessEvents(s: FeedSnapshot, q: AssessQuery): Assessment {
  const { meta } = s;
  const ev = s.events!;
  const type = meta.riskType as "flood" | "wildfire" | "storm";
  const p = { radiusKm: meta.params.radiusKm, decayKm: meta.params.decayKm, annualRateRef: meta.params.annualRateRef, recentRef: meta.params.recentRef };
  const asOf = Date.parse(meta.asOf);
  const windowDays = TIMEFRAME_DAYS[q.timeframe];
  const near = ev.near(q.lat, q.lng, p.radiusKm);
  const h = scoreEvents(ev, near, INTENSITY[type], p, asOf, windowDays, meta.recordYears);
  const wet = type === "flood" ? wetComponent(s, q) : undefined;
  if (wet?.used) h.score = eventScore(h.annualRate, h.recentWeighted, p, wet.term);
  const describe = (c: { index: number; distanceKm: number; weight: number }) => ({
    id: ev.groups[ev.group[c.index]],
    name: ev.names[c.index],
    source: ev.sources[ev.sourceNo[c.index]],
    date: day(ev.time[c.index]),
    endDate: day(ev.endTime[c.index]),
    distanceKm: r1(c.distanceKm),
    magnitude: r2(ev.magnitude[c.index]),
    unit: meta.unit,
    weight: Math.round(c.weight * 1000) / 1000,
  });
  const details: Record<string, unknown> = {
    radiusKm: p.radiusKm,
    decayKm: p.decayKm,
    record: { start: meta.recordStart.slice(0, 10), end: meta.asOf.slice(0, 10), years: r1(meta.recordYears) },
    eventsInRadius: h.eventCount,
    eventsPerYear: r2(h.eventCount / meta.recordYears),
    weightedAnnualRate: Math.round(h.annualRate * 1000) / 1000,
    returnPeriodYears: h.returnPeriodYears === null ? null : r1(h.returnPeriodYears),
    recent: { timeframe: q.timeframe, from: day(asOf - windowDays * DAY_MS), to: day(asOf), events: h.recentCount, weighted: Math.round(h.recentWeighted * 1000) / 1000 },
    baseline: `${meta.recordStart.slice(0, 4)}-${meta.asOf.slice(0, 4)} record of the feeds; λref ${p.annualRateRef}/yr, recent ref ${p.recentRef}`,
    contributingEvents: h.contributions.slice(0, 10).map(describe),
  };
  if (wet) details.climateGrid = wet;
  if (q.includeHistorical) {
    const byYear = new Map<number, number>();
    for (const c of h.contributions) {
      const y = new Date(ev.time[c.index]).getUTCFullYear();
      byYear.set(y, (byYear.get(y) ?? 0) + 1);
    }
    const y0 = new Date(Date.parse(meta.recordStart)).getUTCFullYear();
    const y1 = new Date(asOf).getUTCFullYear();
    details.historical = { eventsPerYear: Array.from({ length: y1 - y0 + 1 }, (_, i) => ({ year: y0 + i, events: byYear.get(y0 + i) ?? 0 })) };
  }
  const top = h.contributions[0];
  const topText = top
    ? ` Strongest: ${ev.names[top.index]} (${ev.sources[ev.sourceNo[top.index]]}, ${day(ev.time[top.index])}, ${r1(top.distanceKm)} km, ${r2(ev.magnitude[top.index])} ${meta.unit}).`
    : "";
  const summary =
    `${h.eventCount} ${NOUN[type]} within ${p.radiusKm} km over ${span(meta.recordYears)}` +
    (h.returnPeriodYears === null ? "" : ` (one every ${span(h.returnPeriodYears)})`) +
    `; ${h.recentCount} in the ${q.timeframe} before ${day(asOf)}.${topText}` +
    (wet === undefined ? "" : wet.used
      ? ` Drought grid (to ${wet.gridMonth}): ${wet.veryWetMonths.latestYear} very wet month(s) (SPI-3 ≥ ${VERY_WET_SPI}) in the latest year, ${wet.veryWetMonths.record} in the record.`
      : ` Drought grid not used: ${wet.note}.`);
  return { riskScore: h.score, riskLevel: riskLevel(h.score), summary, details, dataSources: meta.dataSources };
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
  const hit = nearest(g.cells, q.lat, q.lng);
  if (!hit || hit.distanceKm > g.maxDistanceKm) {
    return { used: false, note: `no drought-grid cell with SPI-3 data within ${g.maxDistanceKm} km (grid ${g.version})` };
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
  const hit = nearest(t.stations, q.lat, q.lng);
  if (!hit || hit.distanceKm > t.maxDistanceKm) return { used: false, note: `no GHCN-Daily station with a ${t.baselineStart}..${t.baselineEnd} baseline within ${t.maxDistanceKm} km` };
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

function inMask(m: NonNullable<FeedSnapshot["heat"]>["mask"], lat: number, lng: number): boolean {
  const c = Math.floor((lng - m.lng0) / m.step);
  const r = Math.floor((lat - m.lat0) / m.step);
  return c >= 0 && r >= 0 && c < m.cols && r < m.rows && m.bits[r * m.cols + c] === "1";
}

function assessHeat(s: FeedSnapshot, q: AssessQuery): Assessment {
  const t = s.heat!;
  if (!inMask(t.mask, q.lat, q.lng)) throw new NotCoveredError(`heatwave: the temperature table covers ${t.country} only`);
  const a = Float64Array.from(t.anomalyC);
  const k = TIMEFRAME_MONTHS[q.timeframe];
  const h = heatScore(a, k);
  const station = stationComponent(s, q, k, h.score);
  const score = station.used ? combineHeat(h.score, station.hotExcess, station.months.length) : h.score;
  const month = (i: number) => formatMonth(t.firstMonth + i);
  const last = a.length - 1;
  const recentMonths = Array.from({ length: k }, (_, j) => last - k + 1 + j).map((i) => ({ month: month(i), anomalyC: r2(a[i]) }));
  const hot = [...a.keys()].filter((i) => a[i] >= t.hotThresholdC);
  const years = a.length / 12;
  const details: Record<string, unknown> = {
    country: t.country,
    recentMonths,
    recentMeanAnomalyC: r2(h.recentMeanC),
    zScore: r2(h.z),
    baseline: { start: month(0), end: month(last), meanAnomalyC: r2(h.baselineMeanC), sdC: r2(h.baselineSdC), reference: "anomalies vs 1991-2020 (ERA5)" },
    hotMonthThresholdC: r2(t.hotThresholdC),
    hotMonthsPerYear: r2(hot.length / years),
    returnPeriodYears: hot.length ? r1(years / hot.length) : null,
    contributingEvents: hot.slice(-10).reverse().map((i) => ({ month: month(i), anomalyC: r2(a[i]) })),
    globalAnomalyC: Object.fromEntries(Object.entries(t.global).map(([k2, v]) => [k2, v[last] === null ? null : r2(v[last]!)])),
    stationRecord: station,
  };
  if (q.includeHistorical) {
    const byYear: { year: number; meanAnomalyC: number; hotMonths: number }[] = [];
    for (let i = 0; i + 11 <= last; i += 12) {
      let sum = 0;
      let n = 0;
      for (let j = i; j < i + 12; j++) { sum += a[j]; n += a[j] >= t.hotThresholdC ? 1 : 0; }
      byYear.push({ year: Math.floor((t.firstMonth + i) / 12), meanAnomalyC: r2(sum / 12), hotMonths: n });
    }
    details.historical = { byYear };
  }
  const summary =
    `${t.country} mean temperature anomaly ${r2(h.recentMeanC)} °C over the ${k} month(s) to ${month(last)}, ` +
    `z = ${r2(h.z)} against ${month(0)}..${month(last)}; ${hot.length} months above ${r2(t.hotThresholdC)} °C (90th percentile) in the record.` +
    (station.used
      ? ` Station ${station.station.name} (${station.station.distanceKm} km): ${station.hotMonths} of its latest ${station.months.length} month(s) to ${station.months.at(-1)!.month} above the ${station.baseline.start.slice(0, 4)}–${station.baseline.end.slice(0, 4)} 90th percentile.`
      : ` Station record not used: ${station.note}.`);
  return { riskScore: score, riskLevel: riskLevel(score), summary, details, dataSources: s.meta.dataSources };
}

function assessSeaLevel(s: FeedSnapshot, q: AssessQuery): Assessment {
  const { meta } = s;
  const gauges = s.gauges!;
  const radius = meta.params.radiusKm;
  const withDist = gauges.map((g) => ({ g, d: haversineKm(q.lat, q.lng, g.lat, g.lng) }));
  const thai = withDist.filter((x) => x.g.thai && x.g.trendMmYr !== null && x.d <= radius).sort((a, b) => a.d - b.d).slice(0, 3);
  if (thai.length === 0) throw new NotCoveredError(`sea_level_rise: no Thai tide gauge with a trend within ${radius} km`);
  // Inverse-distance weights (10 km floor) over the nearest Thai gauges.
  let ws = 0, tw = 0, sw = 0;
  for (const x of thai) {
    const w = 1 / Math.max(10, x.d);
    ws += w; tw += w * x.g.trendMmYr!; sw += (w * x.g.seMmYr!) ** 2;
  }
  const trend = tw / ws;
  const se = Math.sqrt(sw) / ws;
  // Tide gauges sit on the coast: the nearest gauge of any country is the coast proxy.
  const coastKm = Math.min(...withDist.map((x) => x.d));
  const score = seaLevelScore(trend, coastKm, { rateRefMmYr: meta.params.rateRefMmYr, coastDecayKm: meta.params.coastDecayKm });
  const gaugeOut = (x: { g: GaugeStat; d: number }) => ({
    id: x.g.id, name: x.g.name, distanceKm: r1(x.d), trendMmYr: r2(x.g.trendMmYr!), seMmYr: r2(x.g.seMmYr!),
    years: x.g.years, firstYear: x.g.firstYear, lastYear: x.g.lastYear, lastValueMm: x.g.lastValueMm,
  });
  const details: Record<string, unknown> = {
    trendMmYr: r2(trend),
    trendSeMmYr: r2(se),
    distanceToCoastKm: r1(coastKm),
    coastProxy: "nearest PSMSL tide gauge",
    gauges: thai.map(gaugeOut),
    baseline: "OLS trend of PSMSL annual RLR means over each gauge's full record",
  };
  if (q.includeHistorical) details.historical = { annualMeanSeaLevelMm: thai.map((x) => ({ id: x.g.id, name: x.g.name, annual: x.g.annual ?? [] })) };
  const summary =
    `Relative sea-level trend ${r2(trend)} ± ${r2(se)} mm/yr from ${thai.length} Thai tide gauge(s), nearest ${thai[0].g.name} ` +
    `at ${r1(thai[0].d)} km (${r2(thai[0].g.trendMmYr!)} mm/yr over ${thai[0].g.years} years); ${r1(coastKm)} km from the coast.`;
  return { riskScore: score, riskLevel: riskLevel(score), summary, details, dataSources: meta.dataSources };
}

export function assess(s: FeedSnapshot, q: AssessQuery): Assessment {
  const b = s.meta.coverage.bbox;
  if (!inBbox(b, q.lat, q.lng)) throw new NotCoveredError(`${s.meta.riskType}: outside coverage (${s.meta.coverage.description})`);
  if (s.meta.riskType === "heatwave") return assessHeat(s, q);
  if (s.meta.riskType === "sea_level_rise") return assessSeaLevel(s, q);
  return assessEvents(s, q);
}

/** A duration in years as words: short records (FIRMS covers 48 hours) in days, not "0 years". */
function span(years: number): string {
  if (years >= 0.1) return `${r1(years)} years`;
  const days = years * 365.25;
  return days >= 1 ? `${r1(days)} days` : `${r1(days * 24)} hours`;
}
