// Per-calendar-month calibration samples: the distributions behind SPEI and SPI are fitted separately for each
// calendar month over a reference period, then applied to the whole series.
import { type MonthIndex } from "../../lib/months.ts";

export interface StandardizeOptions {
  /** accumulation scale in months (k ≥ 1) */
  scale: number;
  /** month of element 0 */
  firstMonth: MonthIndex;
  /** first month of the reference (calibration) period, inclusive; default: start of the series */
  refStart?: MonthIndex;
  /** last month of the reference period, inclusive; default: end of the series */
  refEnd?: MonthIndex;
}

/** Calendar month (0..11) of element i. */
export function calendarSlot(firstMonth: MonthIndex, i: number): number {
  return (((firstMonth + i) % 12) + 12) % 12;
}

/**
 * Non-missing values of the (accumulated) series inside the reference period, grouped by calendar month 0..11.
 * The reference period selects accumulated values by their own (end) month, so a k-month sum ending at refStart
 * counts even though its window starts earlier (as R's window() on the accumulated series).
 */
export function referenceSamples(accumulated: Float64Array, opts: StandardizeOptions): Float64Array[] {
  const { firstMonth } = opts;
  const n = accumulated.length;
  const from = Math.max(0, (opts.refStart ?? firstMonth) - firstMonth);
  const to = Math.min(n - 1, (opts.refEnd ?? firstMonth + n - 1) - firstMonth);
  // a reference period outside the series leaves every month unfitted (all NaN), like too few values
  const groups: number[][] = Array.from({ length: 12 }, () => []);
  for (let i = from; i <= to; i++) {
    const v = accumulated[i];
    if (!Number.isNaN(v)) groups[calendarSlot(firstMonth, i)].push(v);
  }
  return groups.map((g) => Float64Array.from(g));
}
