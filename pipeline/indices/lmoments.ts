// Unbiased probability-weighted moments (Landwehr et al. 1979; Hosking 1990) and the first three L-moments.

export interface LMoments {
  n: number;
  b0: number;
  b1: number;
  b2: number;
  l1: number;
  l2: number;
  l3: number;
  /** L-skewness L3/L2 */
  t3: number;
}

/** Computes PWMs from a sample sorted ascending (no NaN). Requires n ≥ 3 for b2; fewer gives NaN. */
export function lmomentsOfSorted(sorted: Float64Array): LMoments {
  const n = sorted.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let j = 1; j <= n; j++) {
    const x = sorted[j - 1];
    s0 += x;
    s1 += ((j - 1) / (n - 1)) * x;
    s2 += (((j - 1) * (j - 2)) / ((n - 1) * (n - 2))) * x;
  }
  const b0 = s0 / n;
  const b1 = n > 1 ? s1 / n : NaN;
  const b2 = n > 2 ? s2 / n : NaN;
  const l1 = b0;
  const l2 = 2 * b1 - b0;
  const l3 = 6 * b2 - 6 * b1 + b0;
  return { n, b0, b1, b2, l1, l2, l3, t3: l3 / l2 };
}

/** Drops NaN, sorts ascending, computes the L-moments. */
export function lmoments(sample: Float64Array): LMoments {
  return lmomentsOfSorted(sortedFinite(sample));
}

export function sortedFinite(sample: Float64Array): Float64Array {
  let count = 0;
  for (let i = 0; i < sample.length; i++) if (!Number.isNaN(sample[i])) count++;
  const out = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < sample.length; i++) if (!Number.isNaN(sample[i])) out[k++] = sample[i];
  return out.sort();
}
