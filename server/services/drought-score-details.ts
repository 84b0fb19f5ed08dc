// The drought score answer's details from a cell's monthly values (pure): recent months, the record, the current drought run, the sentence.
import { droughtLevel, droughtScore, D_LEVEL_NAMES } from "../../lib/drought-scale.ts";
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
import { droughtRuns, rankOf } from "../../lib/drought/runs.ts";
import type { MonthReason } from "../../lib/drought/cell-latest.ts";
import { round } from "./drought-fields.ts";
import type { ScoreQuery } from "./types.ts";

/** Months of recent history that each timeframe shows (the data are monthly; shorter windows show one month). */
export const TIMEFRAME_MONTHS: Record<ScoreQuery["timeframe"], number> = { "7d": 1, "30d": 1, "90d": 3, "1y": 12 };

/** SPEI-3 below −1 (moderate drought on the McKee scale) marks a drought month for the events. */
const EVENT_THRESHOLD = -1;

/** A month that ended more than this many days ago is spoken of in the past tense. */
export const PAST_AFTER_DAYS = 365;

/**
 * The served month and the ones before it, newest first: `spei1[i]` and `spei3[i]` are the cell's values i months
 * before `served` (as far as the grid goes).
 */
export function recentMonthsOf(spei1: Float64Array, spei3: Float64Array, served: MonthIndex) {
  const out = [];
  for (let i = 0; i < spei1.length; i++) {
    const s1 = spei1[i];
    out.push({
      month: formatMonth(served - i),
      spei1: round(s1, 3),
      spei3: round(spei3[i], 3),
      score: Number.isNaN(s1) ? null : droughtScore(s1),
      severity: droughtLevel(s1),
    });
  }
  return out;
}

/**
 * The cell's whole record (`spei1` by month offset, firstMonth..lastMonth): how often each D-level occurred and where
 * the served month's SPEI-1 (`current`) ranks.
 */
export function historicalOf(spei1: Float64Array, current: number, record: { firstMonth: MonthIndex; lastMonth: MonthIndex; baseline: string }) {
  const counts: Record<string, number> = { D0: 0, D1: 0, D2: 0, D3: 0, D4: 0 };
  let n = 0;
  let drierOrEqual = 0;
  let driest = Infinity;
  let driestOff = -1;
  for (let off = 0; off < spei1.length; off++) {
    const v = spei1[off];
    if (Number.isNaN(v)) continue;
    n++;
    const d = droughtLevel(v);
    if (d) counts[d]++;
    if (v <= current) drierOrEqual++;
    if (v < driest) {
      driest = v;
      driestOff = off;
    }
  }
  return {
    baseline: record.baseline,
    recordStart: formatMonth(record.firstMonth),
    recordEnd: formatMonth(record.lastMonth),
    monthsWithData: n,
    droughtMonths: counts,
    droughtMonthShare: round((counts.D0 + counts.D1 + counts.D2 + counts.D3 + counts.D4) / n, 4),
    currentPercentile: round((100 * drierOrEqual) / n, 1),
    driestMonth: driestOff < 0 ? null : { month: formatMonth(record.firstMonth + driestOff), spei1: round(driest, 3) },
  };
}

/**
 * The run of SPEI-3 below EVENT_THRESHOLD that the served month is in (run theory, lib/drought/runs.ts), counted
 * up to the served month, and its rank among every run of the cell's record up to then. `spei3` runs from the
 * record's first month (firstMonth) to the served month, its last value.
 */
export function droughtEventOf(spei3: Float64Array, firstMonth: MonthIndex) {
  const served = spei3.length - 1;
  const servedMonth = formatMonth(firstMonth + served);
  const runs = droughtRuns(spei3, EVENT_THRESHOLD);
  const base = { index: "spei3" as const, threshold: EVENT_THRESHOLD, method: "run theory (Yevjevich 1967): consecutive months below the threshold; a missing month ends a run", recordFrom: formatMonth(firstMonth), runsInRecord: runs.length };
  const run = runs.at(-1);
  if (!run || run.end !== served) {
    const v = spei3[served];
    const why = Number.isNaN(v) ? `no SPEI-3 value in ${servedMonth}` : `SPEI-3 is ${v.toFixed(2)} in ${servedMonth}, not below ${EVENT_THRESHOLD}`;
    return { ...base, current: null, reason: `${why}: no drought run at this cell` };
  }
  let peakAt = run.start;
  for (let m = run.start; m <= run.end; m++) if (spei3[m] === run.peak) peakAt = m;
  return {
    ...base,
    current: {
      onset: formatMonth(firstMonth + run.start),
      months: run.duration,
      peak: round(run.peak, 3) as number,
      peakMonth: formatMonth(firstMonth + peakAt),
      cumulativeDeficit: round(run.deficit, 3) as number,
      rankBySeverity: rankOf(runs, run, (r) => r.deficit),
      rankByDuration: rankOf(runs, run, (r) => r.duration),
    },
  };
}

interface SummaryParts {
  severity: ReturnType<typeof droughtLevel>;
  spei1: number | null;
  spei3: number | null;
  distanceKm: number;
  month: string;
  monthReason: MonthReason;
  /** The current drought run (droughtEvent.current), or null. */
  run: { onset: string; months: number } | null;
  /** Set when the month ended more than a year ago: the sentence speaks in the past and names the data's end. */
  past: { dataEnd: string } | null;
}

/**
 * The score answer's one sentence: the D-level of SPEI-1 in the served month (and why that month), and the current
 * drought event when one is under way (docs/methods/drought-events.md) — so SPEI-1 back above −0.5 inside a run of
 * SPEI-3 below the threshold never reads as "no drought".
 */
export function summaryText(p: SummaryParts): string {
  const when = `in ${p.month} (${p.monthReason === "requested" ? "the requested month" : p.monthReason})`;
  const where = `at the nearest grid point, ${p.distanceKm.toFixed(1)} km away`;
  // A month more than a year ago is history: "was", and where the data end, so no one reads it as today.
  const is = p.past ? "was" : "is";
  const end = p.past ? ` The data end in ${p.past.dataEnd}.` : "";
  const run = p.run
    ? `a drought event ${is} under way${p.past ? ` in ${p.month}` : ""}: SPEI-3 below ${EVENT_THRESHOLD} since ${p.run.onset} (${p.run.months} month${p.run.months === 1 ? "" : "s"}; ${p.spei3?.toFixed(2)} in ${p.month})`
    : "";
  if (p.severity) {
    const cond = `${p.severity} (${D_LEVEL_NAMES[p.severity]}) ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}.`;
    return (run ? `${cond} ${run[0].toUpperCase()}${run.slice(1)}.` : cond) + end;
  }
  if (run) return `SPEI-1 ${p.spei1?.toFixed(2)} ${when} ${is} above the drought levels (D0 at -0.5) ${where}, but ${run}.${end}`;
  if (p.spei3 === null) return `No drought level ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}; SPEI-3 has no value that month, so whether a drought event ${is} under way is not known.${end}`;
  return `No drought ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}.${end}`;
}
