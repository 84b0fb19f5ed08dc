// Port activity methods, pure functions over daily series (Float32Array, one value per day, NaN = no data).
// See docs/methods/supply-chain.md for the definitions and references.

/** A window mean needs at least this share of its days present. */
export const MIN_WINDOW_COVERAGE = 0.8;

/** Mean of series[end-length+1 .. end] (indices), skipping NaN; NaN when too few days are present or out of range. */
export function windowMean(series: ArrayLike<number>, end: number, length: number): number {
  if (end < length - 1 || end >= series.length) return NaN;
  let sum = 0;
  let n = 0;
  for (let i = end - length + 1; i <= end; i++) {
    const v = series[i];
    if (!Number.isNaN(v)) {
      sum += v;
      n++;
    }
  }
  return n >= MIN_WINDOW_COVERAGE * length ? sum / n : NaN;
}

/** Sum of the last `length` days ending at `end`; NaN unless every day is present. */
export function windowSum(series: ArrayLike<number>, end: number, length: number): number {
  if (end < length - 1 || end >= series.length) return NaN;
  let sum = 0;
  for (let i = end - length + 1; i <= end; i++) {
    if (Number.isNaN(series[i])) return NaN;
    sum += series[i];
  }
  return sum;
}

export interface SeasonalBaseline {
  /** Means of the same-season windows in previous years (NaN-free). */
  samples: Float64Array;
  /** Previous years that contributed at least one window. */
  years: number;
  mean: number;
}

/**
 * Same-season windows of previous years: for k = 1..maxYears, windows of `length` days ending at
 * end - round(365.25 k) + o for o in -halfWidth..halfWidth (the seasonal "window of windows" of endemic channels /
 * climatologies). Windows with too few days are skipped.
 */
export function seasonalBaseline(series: ArrayLike<number>, end: number, length: number, halfWidth = 15, maxYears = 5): SeasonalBaseline {
  const out: number[] = [];
  let years = 0;
  for (let k = 1; k <= maxYears; k++) {
    const centre = end - Math.round(365.25 * k);
    let used = false;
    for (let o = -halfWidth; o <= halfWidth; o++) {
      const m = windowMean(series, centre + o, length);
      if (!Number.isNaN(m)) {
        out.push(m);
        used = true;
      }
    }
    if (used) years++;
  }
  const samples = Float64Array.from(out);
  let sum = 0;
  for (const s of samples) sum += s;
  return { samples, years, mean: samples.length > 0 ? sum / samples.length : NaN };
}

/** Percentile rank (0..100) of value among samples: share below plus half the ties (Hazen-style mid-rank). */
export function percentileRank(value: number, samples: ArrayLike<number>): number {
  if (samples.length === 0 || Number.isNaN(value)) return NaN;
  let below = 0;
  let equal = 0;
  for (let i = 0; i < samples.length; i++) {
    if (samples[i] < value) below++;
    else if (samples[i] === value) equal++;
  }
  return (100 * (below + 0.5 * equal)) / samples.length;
}

export type RiskLevel = "low" | "medium" | "high";

/** Points for an activity ratio (latest window / seasonal mean): a sharp fall in calls signals a disruption. */
export function anomalyPoints(ratio: number): number {
  if (Number.isNaN(ratio)) return 0;
  if (ratio < 0.5) return 2;
  if (ratio < 0.7) return 1;
  return 0;
}

/** Total points (hazard alert levels + activity anomaly points) → level: 0 low, 1–2 medium, ≥ 3 high. */
export function disruptionLevel(points: number): RiskLevel {
  if (points >= 3) return "high";
  if (points >= 1) return "medium";
  return "low";
}
