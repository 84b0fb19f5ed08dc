// Whether an answer's data reach the present (docs/methods/currency.md). Every answer states the period its data
// span (`details.period`), the newest datum it used (`details.asOf`) and, from the series' cadence, whether that
// datum is within the series' horizon of today (`details.currency`). Fields that claim the present (a status, a
// trend, a recent window) come only from a current series. Pure but for the clock, which tests and the validation can
// fix (CLOCK_TODAY).
import { STALE_FACTOR } from "../formats/source-status.ts";
import { DAY_MS, isoDay as day } from "./days.ts";


export type Cadence = "daily" | "weekly" | "monthly" | "yearly";

/**
 * How long after its newest datum a series still describes the present: three of its cadences (the same factor as a
 * stale source, formats/source-status.ts), except a yearly figure, current for two years after its year ends (the
 * next year's figure is normally out within a year of that year's end; three years would call 2023 current in 2026).
 */
export const HORIZON_DAYS: Record<Cadence, number> = {
  daily: STALE_FACTOR,
  weekly: STALE_FACTOR * 7,
  monthly: 92,
  yearly: 731,
};

/** Data dated more than this many days after today are impossible: a wrong date in a feed, not time zones. */
export const FUTURE_SLACK_DAYS = 2;

/** Whether a day (YYYY-MM-DD) lies after today beyond FUTURE_SLACK_DAYS: a snapshot holding one is refused at build. */
export function afterToday(isoDate: string, now: number): boolean {
  return isoDate.slice(0, 10) > day(now + FUTURE_SLACK_DAYS * DAY_MS);
}

/** The span of the data an answer rests on, as days (YYYY-MM-DD, both ends included). */
export interface Period {
  from: string;
  to: string;
}

export interface Currency {
  /** True when the newest datum used is within the horizon of today. */
  current: boolean;
  cadence: Cadence;
  horizonDays: number;
  /** Whole days from the end of the newest datum's day to today (0 on the day itself). */
  ageDays: number;
  /** One sentence: how old the data are against the horizon. */
  note: string;
}


/** Whole days from the end of `asOf` (YYYY-MM-DD) to `now`, never negative. */
export function ageDays(asOf: string, now: number): number {
  return Math.max(0, Math.floor((now - (Date.parse(`${asOf.slice(0, 10)}T00:00:00Z`) + DAY_MS)) / DAY_MS) + 1);
}

/** Whether a series whose newest datum is `asOf` describes the present at `now`, and the sentence that says so. */
export function currencyOf(asOf: string, cadence: Cadence, now: number): Currency {
  const horizonDays = HORIZON_DAYS[cadence];
  const age = ageDays(asOf, now);
  const current = age <= horizonDays;
  const note = current
    ? `current: the data reach ${asOf.slice(0, 10)}, ${age} day${age === 1 ? "" : "s"} before ${day(now)} (a ${cadence} series is current for ${horizonDays} days)`
    : `not current: the data end ${asOf.slice(0, 10)}, ${age} days before ${day(now)} (a ${cadence} series is current for ${horizonDays} days)`;
  return { current, cadence, horizonDays, ageDays: age, note };
}

/** The first and last day of a month "YYYY-MM". */
export function monthPeriod(month: string): Period {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return { from: `${month.slice(0, 7)}-01`, to: day(Date.UTC(y, m, 0)) };
}

/** The first and last day of a span of months "YYYY-MM".."YYYY-MM". */
export function monthsPeriod(from: string, to: string): Period {
  return { from: monthPeriod(from).from, to: monthPeriod(to).to };
}

/** A year "YYYY" as its days. */
export function yearPeriod(from: number | string, to: number | string = from): Period {
  return { from: `${from}-01-01`, to: `${to}-12-31` };
}

/**
 * The service's clock. CLOCK_TODAY (YYYY-MM-DD or an ISO time) fixes it, for the validation and tests that must
 * give the same answers on every day; unset, the machine's clock. Read once per process.
 */
export function parseClock(raw: string | undefined): number | null {
  if (raw === undefined || raw === "") return null;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T12:00:00Z` : raw);
  if (Number.isNaN(t)) throw new Error(`CLOCK_TODAY must be YYYY-MM-DD or an ISO 8601 time, got "${raw}"`);
  return t;
}

const FIXED_NOW = parseClock(process.env.CLOCK_TODAY);

export function clockNow(): number {
  return FIXED_NOW ?? Date.now();
}
