// The value range of a standardised drought index (SPEI, SPI, mcdi) as the artifact formats store it, shared by
// the drought grid and the province summaries (see drought-grid.md "Value range"). Every writer refuses a value
// outside it and every reader refuses a file that holds one, in the one pass over the values a load makes anyway.
//
// A finite SPEI or SPI is z = Φ⁻¹(p) of a fitted distribution's probability p, in double precision
// (pipeline/indices/normal.ts), then stored as float32. p is a double in (0, 1): Φ⁻¹ of the smallest positive double
// (2⁻¹⁰⁷⁴) is −38.4674 and Φ⁻¹ of the largest double below 1 (1 − 2⁻⁵³) is +8.2095, so no fitted distribution
// gives a finite z outside [Z_MIN, Z_MAX] (the range is lopsided: doubles are dense near 0, sparse near 1).
// p = 0 or 1 (beyond the fitted support) gives ±Inf, which no grid source writes: the station grid interpolates
// values clamped to ±IDW_CLAMP_Z (3.5, at most Z_MAX), the gridded sources replace ±Inf by ±3.5
// (pipeline/grid/from-netcdf.ts clampInfinite). mcdi is a weighted mean of components clamped to ±MCDI_CLAMP (3.5),
// divided by the standard deviation of that mean (pipeline/indices/mcdi.ts): at most 3.5 × 1.20736 = 4.2258 in
// magnitude (all components, the largest ratio of Σw to that deviation; test/indices/composite.test.ts). A province
// summary is an area-weighted mean of cell values, so it lies in the same range. So: ±Inf is a corrupt or broken
// file, as is 30 or 1e30; NaN means missing.

/** Φ⁻¹(2⁻¹⁰⁷⁴): the most negative finite SPEI/SPI a fitted distribution can give. */
export const Z_MIN = -38.46740561714434;
/** Φ⁻¹(1 − 2⁻⁵³): the largest finite SPEI/SPI a fitted distribution can give. */
export const Z_MAX = 8.209536151601386;
/** MCDI_CLAMP × max Σw / sqrt(Σw² + ρ((Σw)² − Σw²)) over the component sets mcdi accepts. */
export const MCDI_MAX_ABS = 4.225771273642583;

/** Bounds widened by a float32 step, so that a value computed in double and stored as float32 at the bound passes. */
const OUTWARD = 1 + 2 ** -20;

export interface IndexRange {
  min: number;
  max: number;
}

/** The range of finite values of an index layer by its name (mcdi, or a SPEI/SPI of any scale). */
export function indexRange(name: string): IndexRange {
  return name === "mcdi" ? { min: -MCDI_MAX_ABS * OUTWARD, max: MCDI_MAX_ABS * OUTWARD } : { min: Z_MIN * OUTWARD, max: Z_MAX * OUTWARD };
}

/** The ranges of a file's index layers, as two arrays the value loops read. */
export function indexRanges(names: readonly string[]): { min: Float64Array; max: Float64Array } {
  const ranges = names.map(indexRange);
  return { min: Float64Array.from(ranges, (r) => r.min), max: Float64Array.from(ranges, (r) => r.max) };
}

/** True for ±Inf and for a finite value outside [min, max]; NaN (missing) is not out of range. Hot path. */
export function outOfRange(v: number, min: number, max: number): boolean {
  return !(v >= min && v <= max) && v === v;
}

/** "[−38.4674, 8.2095]": a range as error messages name it. */
export function describeRange(r: IndexRange): string {
  return `[${Number((r.min / OUTWARD).toFixed(4))}, ${Number((r.max / OUTWARD).toFixed(4))}]`;
}

/**
 * The bound of the standardised values in the feed snapshots' JSON (formats/snapshot-json.ts): wider than the
 * drought grid's, since those values are not all made by this pipeline's indices.
 */
export const MAX_ABS_INDEX = 40;

/** A float32 value as people wrote it (1e+30, not 1.0000000150474662e+30). */
export function showFloat32(v: number): string {
  return String(Number(v.toPrecision(7)));
}
