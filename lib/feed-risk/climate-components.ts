// The project's own climate data as score components (docs/methods/feed-risks.md), pure functions without I/O.
// Flood: very wet months (SPI-3 ≥ +1.5, McKee et al. 1993) of the drought grid's nearest cell. Heatwave: monthly
// mean temperature of the nearest GHCN-Daily station as a percentile of the same calendar month in 1961–1990.
// Both terms only grow with more or wetter/hotter months, and are folded into the scores so those stay monotone.

/** SPI-3 at or above this is "very wet" (McKee et al. 1993 classes: 1.5..2 very wet, ≥ 2 extremely wet). */
export const VERY_WET_SPI = 1.5;
/** Σ SPI-3/1.5 over the very wet months of the latest year that adds 1 to the flood score's exponent (63 alone). */
export const WET_REF = 3;
/** Months whose temperature percentile is above this count as hot (Perkins & Alexander 2013: 90th percentile). */
export const HOT_PERCENTILE = 90;
/** Mean hot-month excess per month of the window that gives the station term 63 alone (1: every month above all baseline years). */
export const HOT_REF = 1;

export interface WetExtremes {
  /** Months with a finite SPI-3 over the whole series. */
  validMonths: number;
  /** Months with SPI-3 ≥ 1.5 over the whole series. */
  veryWetMonths: number;
  /** Months with SPI-3 ≥ 1.5 among the last `recentMonths` months of the series. */
  veryWetLatestYear: number;
  /** Σ SPI-3 / 1.5 over those months (each very wet month adds ≥ 1, a wetter one more). */
  latestYearWetness: number;
}

/**
 * Counts very wet months in an SPI-3 series (NaN = missing). The "latest year" is the last `recentMonths`
 * entries of the series (the grid's months up to its latest valid month).
 */
export function wetExtremes(spi3: ArrayLike<number>, recentMonths = 12): WetExtremes {
  let validMonths = 0;
  let veryWetMonths = 0;
  let veryWetLatestYear = 0;
  let latestYearWetness = 0;
  const recentStart = spi3.length - recentMonths;
  for (let i = 0; i < spi3.length; i++) {
    const v = spi3[i];
    if (!Number.isFinite(v) && v !== Infinity) continue;
    validMonths++;
    if (v < VERY_WET_SPI) continue;
    veryWetMonths++;
    if (i >= recentStart) {
      veryWetLatestYear++;
      // An unbounded SPI (+Inf from a zero-variance fit) counts as extremely wet, not as infinite.
      latestYearWetness += Math.min(v, 3) / VERY_WET_SPI;
    }
  }
  return { validMonths, veryWetMonths, veryWetLatestYear, latestYearWetness };
}

/** The flood score's climate term: latest-year wetness / WET_REF; 0 without very wet months. */
export function wetTerm(w: WetExtremes, wetRef = WET_REF): number {
  return w.latestYearWetness / wetRef;
}

/**
 * Percentile (0..100) of `value` among `baseline` values (finite, any order): the share below plus half the
 * share equal (mid-rank), so a value above every baseline value is 100 and the baseline median is 50.
 * Non-decreasing in `value`. NaN when there is no baseline or the value is missing.
 */
export function percentileOf(value: number, baseline: ArrayLike<number>): number {
  if (!Number.isFinite(value) || baseline.length === 0) return NaN;
  let below = 0;
  let equal = 0;
  for (let i = 0; i < baseline.length; i++) {
    if (baseline[i] < value) below++;
    else if (baseline[i] === value) equal++;
  }
  return (100 * (below + 0.5 * equal)) / baseline.length;
}

export interface MonthlyBaseline {
  /** Per calendar month (0 = January), the baseline years' monthly means, ascending. */
  byCalendarMonth: number[][];
}

/**
 * The same-calendar-month baseline of a monthly series: values of the months in [startMonth, endMonth]
 * (MonthIndex, inclusive), grouped by calendar month. `firstMonth` is the series' first MonthIndex.
 */
export function monthlyBaseline(series: ArrayLike<number>, firstMonth: number, startMonth: number, endMonth: number): MonthlyBaseline {
  const byCalendarMonth: number[][] = Array.from({ length: 12 }, () => []);
  for (let m = Math.max(startMonth, firstMonth); m <= endMonth && m - firstMonth < series.length; m++) {
    const v = series[m - firstMonth];
    if (Number.isFinite(v)) byCalendarMonth[((m % 12) + 12) % 12].push(v);
  }
  for (const a of byCalendarMonth) a.sort((x, y) => x - y);
  return { byCalendarMonth };
}

export interface MonthPercentile {
  month: number;
  tmeanC: number;
  percentile: number;
  hot: boolean;
}

/** Percentile of each (month, value) against the baseline of its calendar month. */
export function monthPercentiles(months: ArrayLike<number>, values: ArrayLike<number>, base: MonthlyBaseline): MonthPercentile[] {
  const out: MonthPercentile[] = [];
  for (let i = 0; i < months.length; i++) {
    const p = percentileOf(values[i], base.byCalendarMonth[((months[i] % 12) + 12) % 12]);
    out.push({ month: months[i], tmeanC: values[i], percentile: p, hot: p > HOT_PERCENTILE });
  }
  return out;
}

/** Hot-month excess: Σ (percentile − 90)/10 over the hot months (each in (0, 1]); non-decreasing in every month. */
export function hotExcess(ps: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < ps.length; i++) if (ps[i] > HOT_PERCENTILE) s += (ps[i] - HOT_PERCENTILE) / (100 - HOT_PERCENTILE);
  return s;
}

/**
 * Folds the station's hot months into the country heat score (0..100) as a probabilistic OR with the station
 * term t = 1 − e^(−(excess / months) / HOT_REF): 100 (1 − (1 − s/100)(1 − t)). Equal to `countryScore` without
 * hot months; for a fixed window of `months`, non-decreasing in both the country score and the excess.
 */
export function combineHeat(countryScore: number, excess: number, months: number, hotRef = HOT_REF): number {
  const station = 1 - Math.exp(-Math.max(0, excess) / Math.max(1, months) / hotRef);
  const s = 100 * (1 - (1 - countryScore / 100) * (1 - station));
  return Math.round(10 * s) / 10;
}
