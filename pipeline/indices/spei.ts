// SPEI (Vicente-Serrano et al. 2010) as R SPEI 1.8.1 by default: k-month sums of the climatic water balance
// P − PET, a three-parameter log-logistic (Hosking's generalized logistic, GLO) fitted per calendar month by
// unbiased PWMs (Beguería et al. 2014), z = Φ⁻¹(F(x)). Outside the fitted support F is 0 or 1 and z is ±Inf.
import { accumulate } from "./accumulate.ts";
import { calendarSlot, referenceSamples, type StandardizeOptions } from "./calibration.ts";
import { lmomentsOfSorted } from "./lmoments.ts";
import { normalQuantile } from "./normal.ts";

export interface LogLogisticParams {
  /** calendar month 1..12 */
  month: number;
  /** location ξ, scale α, shape κ (Hosking's GLO); all NaN when the month could not be fitted */
  xi: number;
  alpha: number;
  kappa: number;
}

export interface SpeiResult {
  values: Float64Array;
  /** twelve entries, January first */
  params: LogLogisticParams[];
}

/** Minimum number of values to fit a calendar month (as R SPEI). */
export const MIN_FIT_VALUES = 4;

/** GLO parameters from a sample sorted ascending; NaN parameters when n < 4, zero spread or |t3| ≥ 1. */
export function fitLogLogistic(sorted: Float64Array, month: number): LogLogisticParams {
  const missing = { month, xi: NaN, alpha: NaN, kappa: NaN };
  if (sorted.length < MIN_FIT_VALUES) return missing;
  const { l1, l2, t3 } = lmomentsOfSorted(sorted);
  if (!(l2 > 0) || !(Math.abs(t3) < 1)) return missing;
  const kappa = -t3;
  if (Math.abs(kappa) <= 1e-6) return { month, xi: l1, alpha: l2, kappa: 0 };
  const kpi = kappa * Math.PI;
  const alpha = (l2 * Math.sin(kpi)) / kpi;
  const xi = l1 - alpha * (1 / kappa - Math.PI / Math.sin(kpi));
  return { month, xi, alpha, kappa };
}

/** GLO cumulative distribution; 0 or 1 outside the support. */
export function logLogisticCdf(x: number, p: LogLogisticParams): number {
  if (Number.isNaN(x) || Number.isNaN(p.alpha)) return NaN;
  let y = (x - p.xi) / p.alpha;
  if (p.kappa !== 0) {
    const arg = 1 - p.kappa * y;
    if (!(arg > 0)) return p.kappa < 0 ? 0 : 1;
    y = -Math.log(arg) / p.kappa;
  }
  return 1 / (1 + Math.exp(-y));
}

/** SPEI of a monthly water-balance series (mm, NaN = missing), with the fitted parameters. */
export function speiWithParams(balance: Float64Array, opts: StandardizeOptions): SpeiResult {
  const acc = accumulate(balance, opts.scale);
  const samples = referenceSamples(acc, opts);
  const params = samples.map((s, slot) => fitLogLogistic(s.sort(), slot + 1));
  const values = new Float64Array(acc.length);
  for (let i = 0; i < acc.length; i++) {
    values[i] = normalQuantile(logLogisticCdf(acc[i], params[calendarSlot(opts.firstMonth, i)]));
  }
  return { values, params };
}

export function spei(balance: Float64Array, opts: StandardizeOptions): Float64Array {
  return speiWithParams(balance, opts).values;
}
