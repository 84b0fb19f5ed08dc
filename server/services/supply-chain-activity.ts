// Port-call activity from PortWatch's daily series: congestion index, latest week, the country's tanker calls.
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import { tankerSeriesKey, type PortRecord } from "../../formats/ports-snapshot.ts";
import { currencyOf, type Period } from "../../lib/currency.ts";
import { isoOfDay } from "../../lib/days.ts";
import { MIN_WINDOW_COVERAGE, percentileRank, seasonalBaseline, windowMean, windowSum } from "../../lib/ports/activity.ts";
import type { Details } from "./supply-chain-dating.ts";
import { r1, r2, type AnswerNotes } from "./supply-chain-notes.ts";
import type { PortsSnapshot } from "./supply-chain-service.ts";

export const ACTIVITY_WINDOW_DAYS = 30;
export const VESSEL_WINDOW_DAYS = 7;

function lastPresent(col: Float32Array): number {
  let end = col.length - 1;
  while (end >= 0 && Number.isNaN(col[end])) end--;
  return end;
}

/** Latest 30-day window of daily port calls against the same season of previous years. */
function dailyActivity(daily: DaySeriesEntry) {
  const calls = daily.columns.portcalls;
  const end = lastPresent(calls);
  const mean = windowMean(calls, end, ACTIVITY_WINDOW_DAYS);
  const base = seasonalBaseline(calls, end, ACTIVITY_WINDOW_DAYS);
  const percentile = base.years >= 2 ? percentileRank(mean, base.samples) : NaN;
  const week = windowSum(calls, end, VESSEL_WINDOW_DAYS);
  const activity: NonNullable<Details["activity"]> = {
    seriesId: daily.key,
    firstDay: isoOfDay(daily.firstDay),
    latestDay: isoOfDay(daily.firstDay + end),
    windowDays: ACTIVITY_WINDOW_DAYS,
    meanDailyCalls: r2(mean),
    baselineMeanDailyCalls: r2(base.mean),
    baselineWindows: base.samples.length,
    baselineYears: base.years,
    ratio: r2(mean / base.mean),
    percentile: r1(percentile),
  };
  return { activity, end, mean, base, ratio: mean / base.mean, percentile, week };
}

/** Why a port with a daily series has no congestion index (null when it has one). */
function noCongestionReason(d: ReturnType<typeof dailyActivity>): string | null {
  if (Number.isFinite(d.percentile)) return null;
  if (Number.isNaN(d.mean)) return `the daily series has data on fewer than ${MIN_WINDOW_COVERAGE * 100}% of the 30 days to ${d.activity.latestDay}`;
  return "fewer than 2 previous years of daily port calls for a seasonal baseline";
}

/** "PortWatch daily port calls for this port (only … have them)": what a port without a daily series lacks. */
const noDaily = (s: PortsSnapshot) => `PortWatch daily port calls for this port (only ${s.dailySeriesPorts.join(", ")} have them)`;
const noDailyReason = (s: PortsSnapshot) => `no ${noDaily(s)}; PortWatch's yearly averages cannot show congestion`;

/** PortWatch's yearly average of port calls over all the port's terminals (0 when none gives a count). */
export function yearlyPortCalls(port: PortRecord): number {
  let calls = 0;
  for (const a of port.portwatch) if (Number.isFinite(a.vesselCounts.total)) calls += a.vesselCounts.total;
  return calls;
}

/** A port's congestion index (as in its answer) with the latest day it rests on, or null and the reason. */
export function portCongestion(
  s: PortsSnapshot,
  port: PortRecord,
  now: number,
): { congestionIndex: number | null; latestDay: string | null; congestionPeriod: Period | null; congestionCurrent: boolean | null; reason: string | null } {
  const daily = port.portwatch[0] ? s.series.get(port.portwatch[0].portid) : undefined;
  if (!daily) return { congestionIndex: null, latestDay: null, congestionPeriod: null, congestionCurrent: null, reason: noDailyReason(s) };
  const d = dailyActivity(daily);
  const index = r1(d.percentile);
  const period = index === null ? null : congestionPeriod(daily, d.end);
  return {
    congestionIndex: index,
    latestDay: d.activity.latestDay,
    congestionPeriod: period,
    congestionCurrent: index === null ? null : currencyOf(d.activity.latestDay, "daily", now).current,
    reason: noCongestionReason(d),
  };
}

/** The days a congestion index rests on: its earliest baseline window to the latest day. */
export function congestionPeriod(daily: DaySeriesEntry, end: number): Period {
  const start = baselineStart(daily.columns.portcalls, end, ACTIVITY_WINDOW_DAYS);
  return { from: isoOfDay(daily.firstDay + (start >= 0 ? start : end - ACTIVITY_WINDOW_DAYS + 1)), to: isoOfDay(daily.firstDay + end) };
}

/**
 * First day (index) of the earliest same-season window the baseline of `end` uses (seasonalBaseline's windows:
 * year k = 5..1, offsets −15..15), or -1 without one.
 */
function baselineStart(col: Float32Array, end: number, length: number, halfWidth = 15, maxYears = 5): number {
  for (let k = maxYears; k >= 1; k--) {
    const centre = end - Math.round(365.25 * k);
    for (let o = -halfWidth; o <= halfWidth; o++) if (Number.isFinite(windowMean(col, centre + o, length))) return centre + o - length + 1;
  }
  return -1;
}

/** What a port's daily series gives an answer: its congestion index and latest week, or nulls without one. */
export interface DailyFigures {
  congestionIndex: number | null;
  /** Port calls of the latest 7 days; null when they are incomplete or there is no daily series. */
  weekCalls: number | null;
  activity: Details["activity"];
  /** Mean daily calls of the latest 30 days against the seasonal normal (NaN without). */
  ratio: number;
  /** Index of the latest day with data (-1 without a series). */
  end: number;
}

/** The congestion index and the latest week from the port's daily series, noted; their absence noted without one. */
export function dailyFigures(s: PortsSnapshot, daily: DaySeriesEntry | undefined, notes: AnswerNotes): DailyFigures {
  if (!daily) {
    notes.notAvailable.push(noDaily(s));
    notes.missing.push(`congestionIndex: ${noDailyReason(s)}`);
    return { congestionIndex: null, weekCalls: null, activity: null, ratio: NaN, end: -1 };
  }
  const d = dailyActivity(daily);
  const { activity, end, ratio } = d;
  let congestionIndex: number | null = null;
  let weekCalls: number | null = null;
  notes.used.push({ record: `PortWatch daily port calls (${daily.key})`, period: `${activity.firstDay}..${activity.latestDay}`, from: activity.firstDay, to: activity.latestDay });
  if (Number.isFinite(d.percentile)) {
    congestionIndex = r1(d.percentile);
    notes.basis.congestionIndex = `percentile rank of the mean daily port calls of the 30 days to ${activity.latestDay} among ${d.base.samples.length} same-season 30-day means of ${d.base.years} previous years (PortWatch daily)`;
    notes.findings.push(
      `${r2(d.mean)} port calls/day in the 30 days to ${activity.latestDay} vs ${r2(d.base.mean)} in the same season of ${d.base.years} previous years (ratio ${r2(ratio)}, percentile ${congestionIndex}).`,
    );
  } else notes.missing.push(`congestionIndex: ${noCongestionReason(d)}`);
  if (Number.isFinite(d.week)) {
    weekCalls = d.week;
    notes.basis.vesselCount = `port calls in the 7 days to ${activity.latestDay} (PortWatch daily)`;
    notes.findings.push(`${weekCalls} port calls in the 7 days to ${activity.latestDay} (PortWatch daily).`);
  }
  return { congestionIndex, weekCalls, activity, ratio, end };
}

/** The country's tanker calls: latest week, latest 30 days against the same season of previous years. */
function tankerActivity(s: PortsSnapshot, iso3: string): Details["countryTankers"] {
  const series = s.series.get(tankerSeriesKey(iso3));
  if (!series) return null;
  const t = series.columns.tanker_calls;
  const end = lastPresent(t);
  const week = windowSum(t, end, VESSEL_WINDOW_DAYS);
  const mean = windowMean(t, end, ACTIVITY_WINDOW_DAYS);
  const base = seasonalBaseline(t, end, ACTIVITY_WINDOW_DAYS);
  return {
    country: iso3,
    portwatchNames: s.tankerCountries[iso3] ?? [],
    firstDay: isoOfDay(series.firstDay),
    latestDay: isoOfDay(series.firstDay + end),
    calls7d: Number.isFinite(week) ? week : null,
    meanDailyCalls30d: r2(mean),
    baselineMeanDailyCalls: r2(base.mean),
    baselineYears: base.years,
    ratio: r2(mean / base.mean),
    percentile: base.years >= 2 ? r1(percentileRank(mean, base.samples)) : null,
  };
}

/** The country's tanker calls (a national figure, shown for every port of the country), noted. */
export function countryTankers(s: PortsSnapshot, port: PortRecord, notes: AnswerNotes): Details["countryTankers"] {
  const tankers = port.iso3 ? tankerActivity(s, port.iso3) : null;
  if (tankers) {
    notes.used.push({ record: `PortWatch tanker calls of ${tankers.country}`, period: `${tankers.firstDay}..${tankers.latestDay}`, from: tankers.firstDay, to: tankers.latestDay });
    notes.findings.push(
      `${tankers.country}: ${tankers.calls7d ?? "n/a"} tanker calls nationwide in the 7 days to ${tankers.latestDay}; 30-day mean ${tankers.meanDailyCalls30d} a day, ${tankers.ratio ?? "n/a"} of the same season in ${tankers.baselineYears} previous year(s) (PortWatch, all ports of the country).`,
    );
  } else notes.notAvailable.push(`PortWatch tanker series for ${port.iso3 ?? "the port's country"}`);
  return tankers;
}
