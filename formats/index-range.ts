// The value range of a standardised drought index (SPEI, SPI, mcdi) as the artifact formats store it, shared by
// the drought grid and the province summaries (see drought-grid.md "Value range").
//
// A finite index is z = Φ⁻¹(p) in double precision, then stored as float32. Φ⁻¹ of the smallest positive double
// (4.9e-324) is about −38.5 and Φ⁻¹ of the largest double below 1 about +8.3, so no computation can give a finite
// |z| above 40: such a value is a corrupt or mis-scaled file, not an extreme month. ±Inf (beyond the fitted
// distribution) is a valid value and NaN means missing.

/** Finite index values satisfy |v| ≤ MAX_ABS_INDEX. */
export const MAX_ABS_INDEX = 40;

/** True for a finite value beyond ±MAX_ABS_INDEX (NaN and ±Inf are in range). Hot path: two comparisons. */
export function indexOutOfRange(v: number): boolean {
  return (v > MAX_ABS_INDEX || v < -MAX_ABS_INDEX) && v !== Infinity && v !== -Infinity;
}

/** A float32 value as people wrote it (1e+30, not 1.0000000150474662e+30). */
export function showFloat32(v: number): string {
  return String(Number(v.toPrecision(7)));
}
