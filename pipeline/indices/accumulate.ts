// k-month running sum, right-aligned: out[i] = x[i-k+1] + … + x[i]. The first k−1 values and any window
// containing a missing value are NaN (as R SPEI and climate_indices).

export function accumulate(values: Float64Array, scale: number): Float64Array {
  if (!Number.isInteger(scale) || scale < 1) throw new RangeError(`scale must be a positive integer, got ${scale}`);
  const n = values.length;
  const out = new Float64Array(n).fill(NaN);
  if (scale === 1) {
    out.set(values);
    return out;
  }
  // Recompute each window instead of a sliding sum: no cancellation drift, and NaN handling stays trivial.
  for (let i = scale - 1; i < n; i++) {
    let sum = 0;
    for (let j = i - scale + 1; j <= i; j++) sum += values[j];
    out[i] = sum; // NaN propagates
  }
  return out;
}
