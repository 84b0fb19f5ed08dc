/* eslint-disable no-loss-of-precision -- published coefficients kept verbatim; they round to the nearest double */
// Standard normal distribution: Φ by series and continued fraction, Φ⁻¹ (Wichura 1988, AS 241 PPND16, ~1e-16 relative).

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** exp(−x²/2) without the rounding of x² magnifying the error in the far tail (split x = hi + lo, as Cody). */
function gaussianKernel(x: number): number {
  const hi = Math.trunc(x * 16) / 16;
  return Math.exp(-0.5 * hi * hi) * Math.exp(-0.5 * (x - hi) * (x + hi));
}

/**
 * Φ(x), the standard normal cumulative distribution function, ~1e-15 relative in both tails: Taylor series of
 * the integral near 0, Laplace's continued fraction for the Mills ratio (modified Lentz) beyond |x| = 1.5.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < 1.5) {
    // Φ(x) = 1/2 + φ(x)·Σ x^(2n+1)/(2n+1)!!
    let term = ax;
    let sum = ax;
    for (let k = 3; term > sum * 1e-17; k += 2) {
      term *= (ax * ax) / k;
      sum += term;
    }
    const half = (gaussianKernel(ax) / SQRT_2PI) * sum;
    return x < 0 ? 0.5 - half : 0.5 + half;
  }
  if (ax > 40) return x < 0 ? 0 : 1;
  // Mills ratio R(x) = 1/(x + 1/(x + 2/(x + 3/(x + …))))
  const tiny = 1e-300;
  let f = ax;
  let c = ax;
  let d = 0;
  for (let k = 1; k < 5000; k++) {
    d = ax + k * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = ax + k / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const tail = gaussianKernel(ax) / SQRT_2PI / f;
  return x < 0 ? tail : 1 - tail;
}

/** Φ⁻¹(p); −Inf at 0, +Inf at 1, NaN outside [0, 1]. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
          45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
          133.14166789178437745) * r + 3.387132872796366608)) /
      (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
        21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
        42.313330701600911252) * r + 1)
    );
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let z: number;
  if (r <= 5) {
    r -= 1.6;
    z =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
        1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
        4.6303378461565452959) * r + 1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
        0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
        2.05319162663775882187) * r + 1);
  } else {
    r -= 5;
    z =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 1.2426609473880784386e-3) * r +
        2.6532189526576123093e-2) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
        5.4637849111641143699) * r + 6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
        7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
        0.59983220655588793769) * r + 1);
  }
  return q < 0 ? -z : z;
}
