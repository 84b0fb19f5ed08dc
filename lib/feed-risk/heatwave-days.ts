// Heatwaves from daily maximum temperature (docs/methods/feed-risks.md#heatwave), pure functions. The definition
// is Perkins & Alexander (2013, J. Climate 26:4500-4517): a heatwave is three or more consecutive days whose
// maximum temperature exceeds the calendar-day 90th percentile (CTX90pct, a 15-day window centred on the day,
// over the base period). Per period: HWN (heatwaves), HWF (heatwave days), HWD (longest heatwave) and HWA (the
// hottest day of the hottest heatwave), plus days at or above 35 °C (an absolute threshold, ETCCDI's TX35-style).
import { standardizedAnomalyScore } from "./scoring.ts";

/** Calendar day 0..364 of an epoch day (days since 1970-01-01); 29 February shares 28 February's day. */
export function calendarDay(epochDay: number): number {
  const d = new Date(epochDay * 86_400_000);
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  const START = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
  return START[m] + Math.min(day, m === 1 ? 28 : 31) - 1;
}

export const HEATWAVE_MIN_DAYS = 3;
export const HOT_DAY_C = 35;
/** Half-width of the window of calendar days that make a day's percentile (15 days in all). */
const HALF_WINDOW = 7;

/**
 * The calendar-day 90th percentiles of daily maximum temperature over the base years [y0, y1]: for each calendar
 * day, every base-period value within ±7 days. NaN where fewer than `minValues` values exist.
 */
export function calendarDayThresholds(tmax: ArrayLike<number>, firstDay: number, y0: number, y1: number, q = 0.9, minValues = 150): Float64Array {
  const byDay: number[][] = Array.from({ length: 365 }, () => []);
  const from = Math.max(0, Date.UTC(y0, 0, 1) / 86_400_000 - firstDay);
  const to = Math.min(tmax.length - 1, Date.UTC(y1, 11, 31) / 86_400_000 - firstDay);
  for (let i = from; i <= to; i++) {
    const v = tmax[i];
    if (!Number.isFinite(v)) continue;
    const c = calendarDay(firstDay + i);
    for (let k = -HALF_WINDOW; k <= HALF_WINDOW; k++) byDay[(c + k + 365) % 365].push(v);
  }
  const out = new Float64Array(365);
  for (let c = 0; c < 365; c++) {
    const a = byDay[c];
    if (a.length < minValues) { out[c] = NaN; continue; }
    a.sort((x, y) => x - y);
    // Linear interpolation between order statistics (type 7, R's default).
    const h = (a.length - 1) * q;
    const lo = Math.floor(h);
    out[c] = a[lo] + (h - lo) * ((a[Math.min(lo + 1, a.length - 1)] ?? a[lo]) - a[lo]);
  }
  return out;
}

export interface Heatwave {
  /** First day (epoch day) and length in days. */
  start: number;
  days: number;
  /** Hottest day's maximum temperature, °C. */
  peakC: number;
}

export interface HeatwaveStats {
  /** HWN, HWF, HWD (0 with no heatwave), HWA (null with none). */
  heatwaves: number;
  heatwaveDays: number;
  longestDays: number;
  hottestPeakC: number | null;
  /** Days with TX ≥ 35 °C, and days with a value at all (for completeness). */
  hotDays: number;
  daysWithData: number;
  events: Heatwave[];
}

/**
 * Heatwaves in the days [from, to] (epoch days, inclusive). A missing day ends a run; a run that starts before
 * `from` counts from `from` (a heatwave under way when the period opens).
 */
export function heatwaveStats(tmax: ArrayLike<number>, firstDay: number, thresholds: Float64Array, from: number, to: number): HeatwaveStats {
  const events: Heatwave[] = [];
  let hotDays = 0;
  let daysWithData = 0;
  let runStart = -1;
  let runPeak = -Infinity;
  const close = (end: number) => {
    if (runStart >= 0 && end - runStart >= HEATWAVE_MIN_DAYS) events.push({ start: runStart, days: end - runStart, peakC: runPeak });
    runStart = -1;
    runPeak = -Infinity;
  };
  for (let day = from; day <= to; day++) {
    const i = day - firstDay;
    const v = i >= 0 && i < tmax.length ? tmax[i] : NaN;
    if (!Number.isFinite(v)) { close(day); continue; }
    daysWithData++;
    if (v >= HOT_DAY_C) hotDays++;
    const t = thresholds[calendarDay(day)];
    if (Number.isFinite(t) && v > t) {
      if (runStart < 0) runStart = day;
      if (v > runPeak) runPeak = v;
    } else close(day);
  }
  close(to + 1);
  let longest = 0;
  let hottest: Heatwave | undefined;
  let hwf = 0;
  for (const e of events) {
    hwf += e.days;
    if (e.days > longest) longest = e.days;
    if (!hottest || e.peakC > hottest.peakC) hottest = e;
  }
  return { heatwaves: events.length, heatwaveDays: hwf, longestDays: longest, hottestPeakC: hottest ? hottest.peakC : null, hotDays, daysWithData, events };
}

/** Days at or above 35 °C a year → score: 30 days (a month of dangerous heat) scores 60, 90 days 80, 180 days 100. */
export const HOT_DAY_ANCHORS: ReadonlyArray<readonly [days: number, score: number]> = [
  [0, 0],
  [10, 30],
  [30, 60],
  [90, 80],
  [180, 100],
];

function piecewise(x: number, anchors: ReadonlyArray<readonly [number, number]>): number {
  if (!(x > anchors[0][0])) return anchors[0][1];
  for (let i = 1; i < anchors.length; i++) {
    const [x1, y1] = anchors[i];
    if (x <= x1) {
      const [x0, y0] = anchors[i - 1];
      return y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return anchors[anchors.length - 1][1];
}

export interface HeatwaveDayScore {
  score: number;
  /** Standardised anomaly of the period's heatwave days against the base years' (z), and its score. */
  z: number;
  relativeScore: number;
  /** Score of the period's days ≥ 35 °C (per year), on HOT_DAY_ANCHORS. */
  absoluteScore: number;
}

/**
 * The heatwave score of a year of days: the larger of how unusual its heatwave days are for the place (z against
 * the base years' HWF, on the drought scale's anchors: z 0 → 20, 1.3 → 65, 2 → 95) and how many dangerous days it had
 * at all (≥ 35 °C). Increasing in both.
 */
export function heatwaveDayScore(hwf: number, baseMean: number, baseSd: number, hotDaysPerYear: number): HeatwaveDayScore {
  // A floor of 2 days on the spread: base years with almost no heatwave would make one short heatwave extreme.
  const z = (hwf - baseMean) / Math.max(2, baseSd);
  const relativeScore = standardizedAnomalyScore(z);
  const absoluteScore = Math.round(piecewise(hotDaysPerYear, HOT_DAY_ANCHORS) * 10) / 10;
  return { score: Math.max(relativeScore, absoluteScore), z, relativeScore, absoluteScore };
}
