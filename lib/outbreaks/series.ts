// Case series as flat typed arrays: one value per period (NaN = not reported), periods counted as integers so a
// window is an index range. Months are MonthIndex (year*12 + month-1), years are years, days are UTC days since
// 1970-01-01.

export type Resolution = "month" | "year" | "day";
/** Diseases that have a case-count series somewhere in the data (influenza: FluNet, Thailand and Vietnam). */
export const SURVEILLED_DISEASES = ["dengue", "covid", "cholera", "malaria", "influenza"] as const;
export type SurveilledDisease = (typeof SURVEILLED_DISEASES)[number];
/** Baseline of the endemic channel: the same period of previous years, or the windows just before. */
export type BaselineKind = "seasonal" | "recent";

/** Spatial level of a series: a first-level subdivision (a Thai province) or the whole country. */
export const ADMIN_LEVELS = ["admin-1", "national"] as const;
export type AdminLevel = (typeof ADMIN_LEVELS)[number];

export interface CaseSeries {
  disease: SurveilledDisease;
  /** "TH-10" for a province (ISO 3166-2), "THA" for a country (ISO 3166-1 alpha-3). */
  area: string;
  /** ISO 3166-1 alpha-3 of the country the area lies in (= area for a national series). */
  country: string;
  level: AdminLevel;
  /** What is counted when the disease alone does not say it ("influenza A", "influenza A+B"). */
  subtype?: string;
  resolution: Resolution;
  /** Period index of values[0]. */
  start: number;
  values: Float64Array;
  baseline: BaselineKind;
  /** Short citation of the source. */
  source: string;
  /** Periods the source gave a value for that the adapter treats as missing (FluNet's zero-filled reporting gaps). */
  maskedPeriods?: number[];
}

const DAY_MS = 86_400_000;

/** "2020-01-04" → UTC day number. */
export function dayIndex(isoDate: string): number {
  const t = Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(t)) throw new Error(`not a date: "${isoDate}"`);
  return Math.round(t / DAY_MS);
}

export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Last period index of a series. */
export function lastPeriod(s: { start: number; values: ArrayLike<number> }): number {
  return s.start + s.values.length - 1;
}

/** Builds a dense series from (period, value) pairs; gaps are NaN. Throws on a period given twice. */
export function denseSeries(points: ReadonlyArray<readonly [number, number]>, what: string): { start: number; values: Float64Array } {
  if (points.length === 0) throw new Error(`${what}: no values`);
  let lo = Infinity;
  let hi = -Infinity;
  for (const [p] of points) {
    lo = Math.min(lo, p);
    hi = Math.max(hi, p);
  }
  const values = new Float64Array(hi - lo + 1).fill(NaN);
  for (const [p, v] of points) {
    if (!Number.isNaN(values[p - lo])) throw new Error(`${what}: period ${p} given twice`);
    values[p - lo] = v;
  }
  return { start: lo, values };
}
