// The outbreak method, pure: window sums, the endemic channel (Bortman 1999: the same calendar period over previous
// years, summarised by its median and upper percentiles), the status enumeration, a 0–100 score and the trend.
// See docs/methods/outbreaks.md.
import { daysInMonth, formatMonth } from "../months.ts";
import { formatDay, type BaselineKind, type Resolution } from "./series.ts";

export const TIMEFRAMES = ["7d", "30d", "90d"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/**
 * normal ≤ median < watch ≤ p75 < warning ≤ p90 < alert; insufficient_history and news_only when there is no channel;
 * no_recent_data (set by the service, never by the channel) when the series' newest datum is older than its horizon
 * (lib/currency.ts): the channel's verdict on that old window says nothing of now.
 */
export const OUTBREAK_STATUSES = ["normal", "watch", "warning", "alert", "insufficient_history", "news_only", "no_recent_data"] as const;
export type OutbreakStatus = (typeof OUTBREAK_STATUSES)[number];
export const TRENDS = ["increasing", "stable", "decreasing", "unknown"] as const;
export type Trend = (typeof TRENDS)[number];

/**
 * Baseline windows a channel takes: the same window in the 5 most recent previous years that have it (seasonal), or
 * the 8 most recent windows just before that have it (recent); a window with a missing period is skipped, and the
 * search goes back at most LOOKBACK_FACTOR times as far (10 years, 16 windows). The fewest that make a channel:
 * MIN_BASELINE.
 */
export const SEASONAL_YEARS = 5;
export const RECENT_WINDOWS = 8;
export const LOOKBACK_FACTOR = 2;
export const MIN_BASELINE = 3;
/** A window more than 20 % above (below) the one before is increasing (decreasing). */
export const TREND_RATIO = 1.2;

/** Periods in a window: monthly data answer 7d and 30d with the latest month, 90d with three; yearly data with the latest year. */
export function windowPeriods(resolution: Resolution, timeframe: Timeframe): number {
  const days = Number(timeframe.slice(0, -1));
  if (resolution === "day") return days;
  if (resolution === "month") return days <= 31 ? 1 : Math.round(days / 30);
  return 1;
}

/** Sum of values over the `length` periods ending at period `end`; NaN when any is missing or outside the series. */
export function windowSum(start: number, values: ArrayLike<number>, end: number, length: number): number {
  const hi = end - start;
  const lo = hi - length + 1;
  if (lo < 0 || hi >= values.length) return NaN;
  let s = 0;
  for (let i = lo; i <= hi; i++) s += values[i];
  return s;
}

/** Quantile with linear interpolation between order statistics (Hyndman & Fan type 7) of a sorted array. */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface Channel {
  median: number;
  p75: number;
  p90: number;
  /** Baseline windows used (finite sums). */
  n: number;
  baseline: BaselineKind;
  /** Last period of each baseline window used, most recent first. */
  ends: number[];
}

/** What status and score need of a channel. */
export type ChannelQuantiles = Pick<Channel, "median" | "p75" | "p90" | "n">;

/** Lag between baseline windows: one year for a seasonal channel, one window for a recent one. */
function baselineLag(resolution: Resolution, kind: BaselineKind, length: number): number {
  if (kind === "recent") return length;
  return resolution === "month" ? 12 : resolution === "day" ? 365 : 1;
}

/**
 * Endemic channel of the window of `length` periods ending at `end`: the same window 1, 2, … lags back, skipping
 * windows with a missing period, until K windows are found or K·LOOKBACK_FACTOR lags are searched.
 */
export function endemicChannel(
  s: { start: number; values: ArrayLike<number>; resolution: Resolution; baseline: BaselineKind },
  end: number,
  length: number,
): Channel {
  const lag = baselineLag(s.resolution, s.baseline, length);
  const k = s.baseline === "recent" ? RECENT_WINDOWS : SEASONAL_YEARS;
  const sums: number[] = [];
  const ends: number[] = [];
  for (let i = 1; i <= k * LOOKBACK_FACTOR && sums.length < k; i++) {
    const e = end - i * lag;
    if (e - length + 1 < s.start) break;
    const v = windowSum(s.start, s.values, e, length);
    if (Number.isNaN(v)) continue;
    sums.push(v);
    ends.push(e);
  }
  const sorted = Float64Array.from(sums).sort();
  return { median: quantileSorted(sorted, 0.5), p75: quantileSorted(sorted, 0.75), p90: quantileSorted(sorted, 0.9), n: sorted.length, baseline: s.baseline, ends };
}

export function outbreakStatus(current: number, ch: ChannelQuantiles): OutbreakStatus {
  if (ch.n < MIN_BASELINE || Number.isNaN(current)) return "insufficient_history";
  if (current > ch.p90) return "alert";
  if (current > ch.p75) return "warning";
  if (current > ch.median) return "watch";
  return "normal";
}

/**
 * 0–100, piecewise linear along the channel so the score bands match the status and the risk-level table:
 * 0 → 0, median → 30, p75 → 60, p90 → 80, and 80..100 as the count goes from p90 to twice p90 (at least p90 + 1).
 */
export function outbreakScore(current: number, ch: ChannelQuantiles): number {
  if (ch.n < MIN_BASELINE || Number.isNaN(current)) return 0;
  const seg = (x: number, a: number, b: number, lo: number, hi: number) => (b > a ? lo + ((hi - lo) * (x - a)) / (b - a) : hi);
  let score: number;
  if (current <= ch.median) score = ch.median > 0 ? (30 * current) / ch.median : 0;
  else if (current <= ch.p75) score = seg(current, ch.median, ch.p75, 30, 60);
  else if (current <= ch.p90) score = seg(current, ch.p75, ch.p90, 60, 80);
  else score = 80 + 20 * Math.min(1, (current - ch.p90) / Math.max(ch.p90, 1));
  return Math.round(score * 10) / 10;
}

/** Risk level of a score (spec "Risk level reference"). */
export function riskLevelOf(score: number): "low" | "medium" | "high" | "critical" {
  return score >= 80 ? "critical" : score >= 60 ? "high" : score >= 30 ? "medium" : "low";
}

export function trendOf(current: number, previous: number): Trend {
  if (Number.isNaN(current) || Number.isNaN(previous)) return "unknown";
  if (current > previous * TREND_RATIO && current > previous) return "increasing";
  if (current * TREND_RATIO < previous) return "decreasing";
  return "stable";
}

/** First and last day (YYYY-MM-DD) of the periods start..end. */
export function periodDates(resolution: Resolution, start: number, end: number): { from: string; to: string } {
  if (resolution === "day") return { from: formatDay(start), to: formatDay(end) };
  if (resolution === "year") return { from: `${start}-01-01`, to: `${end}-12-31` };
  return { from: `${formatMonth(start)}-01`, to: `${formatMonth(end)}-${String(daysInMonth(end)).padStart(2, "0")}` };
}

export interface Assessment {
  current: number;
  previous: number;
  channel: Channel;
  status: OutbreakStatus;
  score: number;
  trend: Trend;
  window: { from: string; to: string };
  previousWindow: { from: string; to: string };
}

/** Last period with a reported value (the series' as-of period). */
export function lastReported(s: { start: number; values: ArrayLike<number> }): number {
  for (let i = s.values.length - 1; i >= 0; i--) if (!Number.isNaN(s.values[i])) return s.start + i;
  return NaN;
}

/** Status, score and trend of the latest window of `timeframe`, counted back from the last reported period. */
export function assess(
  s: { start: number; values: ArrayLike<number>; resolution: Resolution; baseline: BaselineKind },
  timeframe: Timeframe,
  end: number = lastReported(s),
): Assessment {
  const length = windowPeriods(s.resolution, timeframe);
  const current = windowSum(s.start, s.values, end, length);
  const previous = windowSum(s.start, s.values, end - length, length);
  const channel = endemicChannel(s, end, length);
  return {
    current,
    previous,
    channel,
    status: outbreakStatus(current, channel),
    score: outbreakScore(current, channel),
    trend: trendOf(current, previous),
    window: periodDates(s.resolution, end - length + 1, end),
    previousWindow: periodDates(s.resolution, end - 2 * length + 1, end - length),
  };
}
