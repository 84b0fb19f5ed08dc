// Burden: how many people in a population fall ill, as a rate on a scale that means the same in every country
// (docs/methods/outbreaks.md#burden). Pure functions over CaseSeries and a population; each disease's scale (period,
// unit, anchors, reference) is in lib/outbreaks/diseases/.
import { anchoredScore, type Anchors } from "../anchored-score.ts";
import { periodDates } from "./endemic-channel.ts";
import type { CaseSeries, Resolution } from "./series.ts";

export interface BurdenScale {
  /** Days the rate is counted over: 365 (a year of cases) or 14 (a fortnight's notifications). */
  periodDays: number;
  /** Persons the rate is per: 100,000 or 1,000. */
  per: number;
  /** "reported cases per 100,000 a year". */
  unit: string;
  /** Rate → score; below the first anchor the score is linear from 0 (under 1 per 100,000 is always "low"). */
  anchors: Anchors;
  /** Where the bands come from. */
  reference: string;
}

/** Periods of a series that make `days`: 12 months for 365 days, 1 year, or the days themselves. */
export function periodsFor(resolution: Resolution, days: number): number {
  if (resolution === "day") return days;
  if (resolution === "month") return Math.max(1, Math.round(days / 30.44));
  return Math.max(1, Math.round(days / 365));
}

/** At least this share of the periods must be reported for a rate; the sum is scaled up to the whole period. */
export const MIN_REPORTED_SHARE = 0.75;

export interface CountedCases {
  /** Cases over the whole period (reported periods scaled up when some are missing). */
  cases: number;
  reported: number;
  periods: number;
  from: string;
  to: string;
}

/** Cases over the `periods` periods ending at `end`; null when fewer than MIN_REPORTED_SHARE of them are reported. */
export function casesOver(s: Pick<CaseSeries, "start" | "values" | "resolution">, end: number, periods: number): CountedCases | null {
  let sum = 0;
  let reported = 0;
  for (let p = end - periods + 1; p <= end; p++) {
    const i = p - s.start;
    const v = i >= 0 && i < s.values.length ? s.values[i] : NaN;
    if (Number.isNaN(v)) continue;
    sum += v;
    reported++;
  }
  if (reported < Math.ceil(periods * MIN_REPORTED_SHARE)) return null;
  const d = periodDates(s.resolution, end - periods + 1, end);
  return { cases: Math.max(0, (sum * periods) / reported), reported, periods, from: d.from, to: d.to };
}

/** Rate per `per` persons over the scale's period, from cases counted over `days` days. */
export function ratePer(cases: number, population: number, per: number): number {
  return (cases / population) * per;
}

export function burdenScore(rate: number, scale: BurdenScale): number {
  return anchoredScore(rate, scale.anchors);
}

/** Population of `year` from (year, population) pairs sorted by year: that year, else the nearest year before, else the first after. */
export function populationOf(byYear: ReadonlyArray<readonly [number, number]>, year: number): { year: number; population: number } | null {
  let best: readonly [number, number] | undefined;
  for (const p of byYear) if (p[0] <= year) best = p;
  best ??= byYear[0];
  return best === undefined ? null : { year: best[0], population: best[1] };
}

export interface Burden {
  /** Rate on the disease's scale (`unit`), three significant digits. */
  rate: number;
  unit: string;
  score: number;
  /** Cases the rate is made of (null for a modelled estimate). */
  cases: number | null;
  period: { from: string; to: string };
  population: number | null;
  populationYear: number | null;
  /** What the rate rests on: reported cases of the series, or WHO's modelled estimate. */
  basis: string;
  reference: string;
}

const sig3 = (x: number) => (x === 0 ? 0 : Number(x.toPrecision(3)));

/** A rate from counted cases and the population of the period's last year. */
export function burdenFromCases(scale: BurdenScale, counted: CountedCases, pop: { year: number; population: number }, basis: string): Burden {
  const rate = ratePer(counted.cases, pop.population, scale.per);
  return {
    rate: sig3(rate),
    unit: scale.unit,
    score: burdenScore(rate, scale),
    cases: Math.round(counted.cases),
    period: { from: counted.from, to: counted.to },
    population: pop.population,
    populationYear: pop.year,
    basis,
    reference: scale.reference,
  };
}

/** A rate that is itself the estimate (WHO's malaria incidence per 1,000 at risk for `year`). */
export function burdenFromEstimate(scale: BurdenScale, year: number, rate: number, basis: string): Burden {
  return { rate: sig3(rate), unit: scale.unit, score: burdenScore(rate, scale), cases: null, period: { from: `${year}-01-01`, to: `${year}-12-31` }, population: null, populationYear: null, basis, reference: scale.reference };
}

/**
 * Median yearly rate per 100,000 over a series' calendar years with at least MIN_REPORTED_SHARE of their periods
 * (NaN without any): under a disease's `sporadicBelowPer100k`, the country has no established local transmission.
 */
/** Calendar year of a period index (months year*12 + month-1, years, UTC days). */
export function yearOfPeriod(resolution: Resolution, p: number): number {
  return resolution === "year" ? p : resolution === "month" ? Math.floor(p / 12) : new Date(p * 86_400_000).getUTCFullYear();
}

export function medianYearlyRate(s: Pick<CaseSeries, "start" | "values" | "resolution">, populationOfYear: (year: number) => number | null): number {
  const perYear = s.resolution === "year" ? 1 : s.resolution === "month" ? 12 : 365;
  const rates: number[] = [];
  const yearOf = (p: number) => yearOfPeriod(s.resolution, p);
  const first = yearOf(s.start);
  const last = yearOf(s.start + s.values.length - 1);
  for (let y = first; y <= last; y++) {
    const end = s.resolution === "year" ? y : s.resolution === "month" ? y * 12 + 11 : Math.round(Date.UTC(y, 11, 31) / 86_400_000);
    const c = casesOver(s, end, perYear);
    const pop = populationOfYear(y);
    if (c !== null && pop !== null) rates.push(ratePer(c.cases, pop, 100_000));
  }
  if (rates.length === 0) return NaN;
  rates.sort((a, b) => a - b);
  const m = rates.length >> 1;
  return rates.length % 2 ? rates[m] : (rates[m - 1] + rates[m]) / 2;
}

/** A scale of reported cases per 100,000 a year (dengue, cholera). */
export function reportedPer100kAYear(anchors: Anchors, reference: string): BurdenScale {
  return { periodDays: 365, per: 100_000, unit: "reported cases per 100,000 a year", anchors, reference };
}
