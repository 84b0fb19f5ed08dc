// The recent window of a feed answer (the request's timeframe), anchored at today, against the feed's data: a window
// the data do not reach says "no data for this window" instead of counting zero events (docs/methods/currency.md).
import type { Period } from "../currency.ts";
import type { TimeframeName } from "./scoring.ts";
import { DAY_MS, isoDay as day } from "../days.ts";


export interface RecentWindow {
  /** The window: the timeframe's days up to today. */
  start: number;
  end: number;
  period: Period;
  /** "full": the data reach today's horizon; "partial": they end inside the window; "none": before it starts. */
  observed: "full" | "partial" | "none";
  /** The part of the window the data cover, or null. */
  observedPeriod: Period | null;
  /** Why the window is not fully observed (null when it is). */
  note: string | null;
  /** The day of the data's newest datum. */
  dataEnd: string;
}

/**
 * The window of `days` days ending `now`, observed as far as the data (`dataStart`..`dataEnd`, epoch ms) go. Data
 * that end within `graceDays` of today (the series' horizon) count as reaching it.
 */
export function recentWindow(now: number, days: number, dataStart: number, dataEnd: number, graceDays: number): RecentWindow {
  const start = now - days * DAY_MS;
  const period = { from: day(start), to: day(now) };
  const end = day(dataEnd);
  if (dataEnd < start) {
    return { start, end: now, period, observed: "none", observedPeriod: null, note: `no data for this window: the data end ${end}, before it starts`, dataEnd: end };
  }
  const from = day(Math.max(start, dataStart));
  if (dataEnd < now - graceDays * DAY_MS) {
    return { start, end: now, period, observed: "partial", observedPeriod: { from, to: end }, note: `the data end ${end}: only ${from}..${end} of the window is observed`, dataEnd: end };
  }
  if (dataStart > start) {
    return { start, end: now, period, observed: "partial", observedPeriod: { from, to: end }, note: `the window starts before the data (${day(dataStart)}): only ${from}..${end} of it is observed`, dataEnd: end };
  }
  return { start, end: now, period, observed: "full", observedPeriod: { from, to: end }, note: null, dataEnd: end };
}

/** The recent part of an answer's details: the window to today and how much of it the data observe. */
export function recentDetails(timeframe: TimeframeName, w: RecentWindow) {
  return {
    timeframe,
    from: w.period.from,
    to: w.period.to,
    period: w.period,
    observed: w.observed,
    observedPeriod: w.observedPeriod,
    ...(w.note === null ? {} : { note: w.note }),
  };
}

/** The recent part of a summary: events in the window to today, or why it is not (fully) observed. */
export function recentText(timeframe: string, w: RecentWindow, count: number): string {
  if (w.observed === "none") return `no data for the ${timeframe} to ${w.period.to} (the data end ${w.dataEnd})`;
  if (w.observed === "partial") return `${count} in the ${timeframe} to ${w.period.to}, observed ${w.observedPeriod!.from}..${w.observedPeriod!.to} only`;
  return `${count} in the ${timeframe} to ${w.period.to}`;
}
