// SPI (McKee et al. 1993) as R SPEI 1.7: k-month precipitation sums, a two-parameter gamma fitted per calendar
// month to the non-zero values by L-moments (Hosking 1990 rational approximation, as lmomco::pargam), and the
// zero mixture H(x) = p0 + (1 − p0)·G(x) (Thom 1966), z = Φ⁻¹(H). p0 = zeros / non-missing values in the
// reference period for that calendar month. (R SPEI 1.8.1 loses the mixture: see docs/methods/indices.md.)
import { accumulate } from "./accumulate.ts";
import { calendarSlot, referenceSamples, type StandardizeOptions } from "./calibration.ts";
import { regularizedLowerGamma } from "./gamma-incomplete.ts";
import { lmomentsOfSorted } from "./lmoments.ts";
import { normalQuantile } from "./normal.ts";
import { MIN_FIT_VALUES } from "./spei.ts";

export interface GammaParams {
  /** calendar month 1..12 */
  month: number;
  /** shape α and scale β; NaN when the month could not be fitted */
  shape: number;
  scale: number;
  /** probability of a zero sum, p0 */
  probZero: number;
}

export interface SpiResult {
  values: Float64Array;
  /** twelve entries, January first */
  params: GammaParams[];
}

/** Gamma parameters from L1 and L2 (Hosking's approximation of the shape from the L-CV). */
export function gammaFromLMoments(l1: number, l2: number): { shape: number; scale: number } {
  const cv = l2 / l1;
  if (!(l1 > 0) || !(cv > 0) || !(cv < 1)) return { shape: NaN, scale: NaN };
  let shape: number;
  if (cv >= 0.5) {
    const t = 1 - cv;
    shape = (t * (0.7213 - 0.5947 * t)) / (1 - 2.1817 * t + 1.2113 * t * t);
  } else {
    const t = Math.PI * cv * cv;
    shape = (1 - 0.308 * t) / (t * (1 - 0.05812 * t + 0.01765 * t * t));
  }
  return { shape, scale: l1 / shape };
}

/** Fits one calendar month: zeros counted for p0 and removed; the gamma is fitted to the rest. */
export function fitGammaWithZeros(sample: Float64Array, month: number): GammaParams {
  let zeros = 0;
  const positive: number[] = [];
  for (const v of sample) {
    if (v === 0) zeros++;
    else positive.push(v);
  }
  const probZero = sample.length > 0 ? zeros / sample.length : NaN;
  if (positive.length < MIN_FIT_VALUES) return { month, shape: NaN, scale: NaN, probZero };
  const sorted = Float64Array.from(positive).sort();
  const { l1, l2 } = lmomentsOfSorted(sorted);
  return { month, ...gammaFromLMoments(l1, l2), probZero };
}

/** Gamma-with-zeros cumulative probability H(x). */
export function gammaMixtureCdf(x: number, p: GammaParams): number {
  if (Number.isNaN(x) || Number.isNaN(p.shape)) return NaN;
  const g = x <= 0 ? 0 : regularizedLowerGamma(p.shape, x / p.scale);
  return p.probZero + (1 - p.probZero) * g;
}

/** SPI of a monthly precipitation series (mm, NaN = missing), with the fitted parameters. */
export function spiWithParams(precipitation: Float64Array, opts: StandardizeOptions): SpiResult {
  const acc = accumulate(precipitation, opts.scale);
  const samples = referenceSamples(acc, opts);
  const params = samples.map((s, slot) => fitGammaWithZeros(s, slot + 1));
  const values = new Float64Array(acc.length);
  for (let i = 0; i < acc.length; i++) {
    values[i] = normalQuantile(gammaMixtureCdf(acc[i], params[calendarSlot(opts.firstMonth, i)]));
  }
  return { values, params };
}

export function spi(precipitation: Float64Array, opts: StandardizeOptions): Float64Array {
  return spiWithParams(precipitation, opts).values;
}
