// The heatwave answer (docs/methods/feed-risks.md#heatwave): from days where a GHCN-Daily station with daily maximum
// temperatures lies within reach (Perkins & Alexander heatwaves over the calendar-day 90th percentile, and days at or
// above 35 °C: heatwave-days.ts), else — named for what it is, with a low confidence — from the national monthly mean
// anomaly (OWID). Pure: the snapshot and the point's place in, the answer out.
import { formatMonth } from "../months.ts";
import { confidenceLabel, riskLevel } from "../drought-scale.ts";
import type { CountryHeat, DailyHeatStation, FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { DAY_MS, TIMEFRAME_DAYS, TIMEFRAME_MONTHS, heatScore } from "./scoring.ts";
import { HEATWAVE_MIN_DAYS, HOT_DAY_C, heatwaveDayScore } from "./heatwave-days.ts";
import { mayBeNear, nearest } from "./nearest.ts";
import { notCovered, type AssessQuery, type Assessment, type Place } from "./assess.ts";

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

type National = ReturnType<typeof computeNationalHeat>;
/** National answers per snapshot, country, timeframe and history flag: the same for every point of a country. */
const nationalCache = new WeakMap<FeedSnapshot, Map<string, National>>();

/** The national monthly anomaly of the point's country (the fallback, and context beside a station), or why none. */
function nationalHeat(s: FeedSnapshot, q: AssessQuery, place: Place): National {
  if (place.country === null) return computeNationalHeat(s, q, place);
  let byKey = nationalCache.get(s);
  if (!byKey) nationalCache.set(s, (byKey = new Map()));
  const key = `${place.country}|${q.timeframe}|${q.includeHistorical}`;
  let n = byKey.get(key);
  if (!n) byKey.set(key, (n = computeNationalHeat(s, q, place)));
  return n;
}

function computeNationalHeat(s: FeedSnapshot, q: AssessQuery, place: Place): { used: false; note: string } | { used: true; iso3: string; c: CountryHeat; details: Record<string, unknown>; score: number; period: { start: string; end: string } } {
  const t = s.heat!;
  if (place.country === null) return { used: false, note: place.land ? "no country at this point" : `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast` };
  const c = t.countries[place.country];
  if (!c) return { used: false, note: `no temperature series for ${place.country}` };
  const a = Float64Array.from(c.anomalyC, (v) => (v === null ? NaN : v));
  const k = TIMEFRAME_MONTHS[q.timeframe];
  const h = heatScore(a, k);
  const month = (i: number) => formatMonth(c.firstMonth + i);
  const last = a.length - 1;
  const hot = [...a.keys()].filter((i) => a[i] >= c.hotThresholdC);
  const globalAt = (v: (number | null)[]) => {
    const x = v[c.firstMonth + last - t.globalFirstMonth];
    return x === null || x === undefined ? null : r2(x);
  };
  const details: Record<string, unknown> = {
    used: true,
    country: c.name,
    iso3: place.country,
    recentMonths: Array.from({ length: k }, (_, j) => last - k + 1 + j).map((i) => ({ month: month(i), anomalyC: r2(a[i]) })),
    recentMeanAnomalyC: r2(h.recentMeanC),
    zScore: r2(h.z),
    score: h.score,
    baseline: { start: month(0), end: month(last), meanAnomalyC: r2(h.baselineMeanC), sdC: r2(h.baselineSdC), reference: "anomalies vs 1991-2020 (ERA5)" },
    hotMonthThresholdC: r2(c.hotThresholdC),
    hotMonths: hot.slice(-10).reverse().map((i) => ({ month: month(i), anomalyC: r2(a[i]) })),
    globalAnomalyC: Object.fromEntries(Object.entries(t.global).map(([name, v]) => [name, globalAt(v)])),
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
  return { used: true, iso3: place.country, c, details, score: h.score, period: { start: month(0), end: month(last) } };
}

/** Confidence of a station answer: its distance (e^(−d/100 km)), its base years (30 in full) and its data days. */
function stationConfidence(st: DailyHeatStation, distanceKm: number, base: string) {
  const c = Math.round(0.8 * Math.exp(-distanceKm / 100) * Math.min(1, st.baseYears / 30) * (st.daysWithData / 365) * 100) / 100;
  return {
    confidence: c,
    confidenceLabel: confidenceLabel(c),
    confidenceBasis: `GHCN-Daily station ${st.id} at ${r1(distanceKm)} km: daily maximum temperatures, ${st.baseYears} base years ${base}, ${st.daysWithData} days of ${st.from.slice(0, 4)} reported`,
  };
}

export function assessHeat(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const daily = s.dailyHeat;
  const hit = daily && mayBeNear(daily.stations, q.lat, q.lng, daily.maxDistanceKm) ? nearest(daily.stations, q.lat, q.lng) : undefined;
  const national = nationalHeat(s, q, place);
  if (hit && hit.distanceKm <= daily!.maxDistanceKm) {
    const st = hit.item;
    const sc = heatwaveDayScore(st.heatwaveDays, st.baseHeatwaveDaysMean, st.baseHeatwaveDaysSd, st.hotDays);
    const windowDays = TIMEFRAME_DAYS[q.timeframe];
    const to = Date.parse(st.to);
    const inWindow = st.events.filter(([start, days]) => Date.parse(start) + (days - 1) * DAY_MS >= to - (windowDays - 1) * DAY_MS);
    const details: Record<string, unknown> = {
      method: "daily",
      definition: `heatwave: ${HEATWAVE_MIN_DAYS}+ consecutive days above the calendar-day 90th percentile of daily maximum temperature (15-day window, ${daily!.baseStart}–${daily!.baseEnd}; Perkins & Alexander 2013); hot day: ≥ ${HOT_DAY_C} °C`,
      station: { id: st.id, name: st.name, distanceKm: r1(hit.distanceKm) },
      period: { from: st.from, to: st.to, daysWithData: st.daysWithData },
      base: { start: daily!.baseStart, end: daily!.baseEnd, years: st.baseYears, heatwaveDaysMean: st.baseHeatwaveDaysMean, heatwaveDaysSd: st.baseHeatwaveDaysSd, hotDaysMean: st.baseHotDaysMean },
      heatwaves: st.heatwaves,
      heatwaveDays: st.heatwaveDays,
      longestDays: st.longestDays,
      hottestPeakC: st.hottestPeakC,
      hotDays: st.hotDays,
      zScore: r2(sc.z),
      relativeScore: sc.relativeScore,
      absoluteScore: sc.absoluteScore,
      contributingEvents: inWindow.slice(-10).reverse().map(([start, days, peakC]) => ({ start, days, peakC })),
      recent: { timeframe: q.timeframe, to: st.to, heatwaves: inWindow.length },
      national: national.used ? national.details : { used: false, note: national.note },
    };
    if (q.includeHistorical) details.historical = { byYear: st.byYear.map(([year, heatwaves, heatwaveDays, hotDays]) => ({ year, heatwaves, heatwaveDays, hotDays })) };
    const summary =
      `Station ${st.name} (${r1(hit.distanceKm)} km): ${st.heatwaves} heatwave(s), ${st.heatwaveDays} heatwave days (${daily!.baseStart}–${daily!.baseEnd} mean ${st.baseHeatwaveDaysMean}) ` +
      `and ${st.hotDays} days ≥ ${HOT_DAY_C} °C in ${st.from.slice(0, 4)} (its latest year with 300 days of data); longest ${st.longestDays} days` +
      (st.hottestPeakC === null ? "." : `, hottest ${st.hottestPeakC} °C.`) +
      ` ${inWindow.length} heatwave(s) in the ${q.timeframe} to ${st.to}.`;
    return {
      riskScore: sc.score,
      riskLevel: riskLevel(sc.score),
      summary,
      details,
      coverage: { country: place.country, dataset: `${daily!.source}: station ${st.id}`, period: { start: st.from, end: st.to }, area: s.meta.coverage.description },
      dataSources: s.meta.dataSources,
      ...stationConfidence(st, hit.distanceKm, `${daily!.baseStart}–${daily!.baseEnd}`),
    };
  }
  if (!national.used) throw notCovered(s, `${national.note}, and no GHCN-Daily station within ${daily?.maxDistanceKm ?? 0} km`);
  const { c, iso3 } = national;
  const k = TIMEFRAME_MONTHS[q.timeframe];
  const summary =
    `Fallback, no daily station within ${daily?.maxDistanceKm ?? 0} km: ${c.name}'s national mean temperature anomaly ${national.details.recentMeanAnomalyC} °C over the ` +
    `${k} month(s) to ${national.period.end}, z = ${national.details.zScore} against ${national.period.start}..${national.period.end}. A national monthly mean counts no heatwave days: low confidence.`;
  return {
    riskScore: national.score,
    riskLevel: riskLevel(national.score),
    summary,
    details: { method: "national-monthly-fallback", national: national.details, station: null, stationNote: `no GHCN-Daily station with daily maximum temperatures within ${daily?.maxDistanceKm ?? 0} km` },
    coverage: { country: iso3, dataset: `${s.heat!.source}, ${iso3}`, period: national.period, area: s.meta.coverage.description },
    dataSources: s.meta.dataSources,
    confidence: 0.2,
    confidenceLabel: "low",
    confidenceBasis: `fallback: the national monthly mean anomaly of ${iso3} (no daily station within reach; no heatwave day counted)`,
  };
}
