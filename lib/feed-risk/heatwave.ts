// The heatwave answer (docs/methods/feed-risks.md#heatwave): from the days of the nearest GHCN-Daily station with
// daily maximum temperatures within reach whose record reaches the present (Perkins & Alexander heatwaves over the
// calendar-day 90th percentile, and days at or above 35 °C: heatwave-days.ts). A national monthly mean counts no
// heatwave, so there is no fallback: without such a station the answer is a 404 naming the nearest station, its
// distance and its last year (docs/methods/currency.md). Pure: the snapshot and the point's place in, the answer out.
import { confidenceLabel, riskLevel } from "../drought-scale.ts";
import type { DailyHeatStation, FeedSnapshot } from "../../formats/feed-snapshot.ts";
import { DAY_MS, TIMEFRAME_DAYS } from "./scoring.ts";
import { HEATWAVE_MIN_DAYS, HOT_DAY_C, heatwaveDayScore } from "./heatwave-days.ts";
import { haversineKm } from "../geo/sphere.ts";
import { notCovered, type AssessQuery, type Assessment, type Place } from "./answer.ts";
import { clockNow, currencyOf, HORIZON_DAYS } from "../currency.ts";
import { recentDetails, recentWindow } from "./recent-window.ts";
import { r1, r2 } from "../round.ts";


/**
 * The nearest station within `maxKm` whose latest full year is current at `now` (a yearly figure: HORIZON_DAYS.yearly
 * after its year ends), and the nearest station of all (for the 404's words). One pass over the stations.
 */
function stationsNear(stations: DailyHeatStation[], lat: number, lng: number, maxKm: number, now: number) {
  let nearest: { item: DailyHeatStation; distanceKm: number } | undefined;
  let current: { item: DailyHeatStation; distanceKm: number } | undefined;
  const oldest = now - (HORIZON_DAYS.yearly + 1) * DAY_MS;
  for (const st of stations) {
    const d = haversineKm(lat, lng, st.lat, st.lng);
    if (!nearest || d < nearest.distanceKm) nearest = { item: st, distanceKm: d };
    if (d <= maxKm && Date.parse(st.to) >= oldest && (!current || d < current.distanceKm)) current = { item: st, distanceKm: d };
  }
  return { nearest, current };
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
  const now = q.now ?? clockNow();
  const maxKm = daily?.maxDistanceKm ?? 0;
  const { nearest, current: hit } = stationsNear(daily?.stations ?? [], q.lat, q.lng, maxKm, now);
  if (!daily || !hit) {
    if (!nearest) throw notCovered(s, "no GHCN-Daily station with daily maximum temperatures in the snapshot");
    const st = nearest.item;
    const c = currencyOf(st.to, "yearly", now);
    const why =
      nearest.distanceKm > maxKm
        ? `no GHCN-Daily station with daily maximum temperatures within ${maxKm} km: the nearest, ${st.name} (${st.id}), is ${r1(nearest.distanceKm)} km away (latest full year ${st.from.slice(0, 4)})`
        : `no GHCN-Daily station within ${maxKm} km has a record that reaches the present: the nearest, ${st.name} (${st.id}), is ${r1(nearest.distanceKm)} km away and its latest full year is ${st.from.slice(0, 4)} (${c.note})`;
    throw notCovered(s, why);
  }
  const st = hit.item;
  const sc = heatwaveDayScore(st.heatwaveDays, st.baseHeatwaveDaysMean, st.baseHeatwaveDaysSd, st.hotDays);
  const win = recentWindow(now, TIMEFRAME_DAYS[q.timeframe], Date.parse(st.from), Date.parse(st.to) + DAY_MS - 1, HORIZON_DAYS.daily);
  const inWindow = win.observed === "none" ? [] : st.events.filter(([start, days]) => Date.parse(start) + (days - 1) * DAY_MS >= win.start);
  const details: Record<string, unknown> = {
    method: "daily",
    definition: `heatwave: ${HEATWAVE_MIN_DAYS}+ consecutive days above the calendar-day 90th percentile of daily maximum temperature (15-day window, ${daily.baseStart}–${daily.baseEnd}; Perkins & Alexander 2013); hot day: ≥ ${HOT_DAY_C} °C`,
    station: { id: st.id, name: st.name, distanceKm: r1(hit.distanceKm) },
    period: { from: st.from, to: st.to, daysWithData: st.daysWithData },
    base: { start: daily.baseStart, end: daily.baseEnd, years: st.baseYears, heatwaveDaysMean: st.baseHeatwaveDaysMean, heatwaveDaysSd: st.baseHeatwaveDaysSd, hotDaysMean: st.baseHotDaysMean },
    heatwaves: st.heatwaves,
    heatwaveDays: st.heatwaveDays,
    longestDays: st.longestDays,
    hottestPeakC: st.hottestPeakC,
    hotDays: st.hotDays,
    zScore: r2(sc.z),
    relativeScore: sc.relativeScore,
    absoluteScore: sc.absoluteScore,
    contributingEvents: inWindow.slice(-10).reverse().map(([start, days, peakC]) => ({ start, days, peakC })),
    recent: { ...recentDetails(q.timeframe, win), heatwaves: win.observed === "none" ? null : inWindow.length },
  };
  if (q.includeHistorical) details.historical = { byYear: st.byYear.map(([year, heatwaves, heatwaveDays, hotDays]) => ({ year, heatwaves, heatwaveDays, hotDays })) };
  const recent =
    win.observed === "none"
      ? `No daily data for the ${q.timeframe} to ${win.period.to} (the station's latest full year ends ${st.to}).`
      : ` ${inWindow.length} heatwave(s) in the ${q.timeframe} to ${win.period.to}${win.observed === "partial" ? `, observed ${win.observedPeriod!.from}..${win.observedPeriod!.to} only` : ""}.`;
  const summary =
    `Station ${st.name} (${r1(hit.distanceKm)} km): ${st.heatwaves} heatwave(s), ${st.heatwaveDays} heatwave days (${daily.baseStart}–${daily.baseEnd} mean ${st.baseHeatwaveDaysMean}) ` +
    `and ${st.hotDays} days ≥ ${HOT_DAY_C} °C in ${st.from.slice(0, 4)} (its latest year with 300 days of data); longest ${st.longestDays} days` +
    (st.hottestPeakC === null ? "." : `, hottest ${st.hottestPeakC} °C.`) +
    (win.observed === "none" ? " " : "") +
    recent;
  return {
    riskScore: sc.score,
    riskLevel: riskLevel(sc.score),
    summary,
    details,
    coverage: { country: place.country, dataset: `${daily.source}: station ${st.id}`, period: { start: st.from, end: st.to }, area: s.meta.coverage.description },
    dataSources: s.meta.dataSources,
    ...stationConfidence(st, hit.distanceKm, `${daily.baseStart}–${daily.baseEnd}`),
    time: { period: { from: st.from, to: st.to }, asOf: st.to, cadence: "yearly" },
  };
}
