// mcdi, the multi-scale composite drought index of this project (see docs/methods/indices.md for rationale).
// A weighted mean of standardized indices, rescaled so that it is again ~N(0,1):
//   mcdi = Σ wᵢzᵢ / sqrt(Σᵢ Σⱼ wᵢwⱼρᵢⱼ)
// over the available components, with a fixed correlation ρᵢⱼ between components. Infinite components are
// clamped to ±MCDI_CLAMP first so one out-of-support month cannot dominate; a month needs components
// carrying at least MCDI_MIN_WEIGHT of the total weight, otherwise it is NaN.

export interface McdiComponent {
  values: Float64Array;
  weight: number;
}

/** Default components and weights: short-, medium- and long-term SPEI plus SPI-3 (precipitation alone). */
export const MCDI_WEIGHTS = { spei1: 0.15, spei3: 0.3, spei6: 0.2, spei12: 0.15, spi3: 0.2 } as const;
/** Assumed correlation between any two components (typical of overlapping multi-scale SPEI/SPI). */
export const MCDI_CORRELATION = 0.6;
/** Minimum share of the total weight that must be present. */
export const MCDI_MIN_WEIGHT = 0.5;
/** Magnitude that ±Inf components are clamped to (|z| beyond this is off the charts anyway). */
export const MCDI_CLAMP = 3.5;

export function mcdi(
  components: McdiComponent[],
  correlation = MCDI_CORRELATION,
  minWeight = MCDI_MIN_WEIGHT,
): Float64Array {
  if (components.length === 0) throw new RangeError("mcdi needs at least one component");
  const n = components[0].values.length;
  for (const c of components) {
    if (c.values.length !== n) throw new RangeError("mcdi components differ in length");
    if (!(c.weight > 0)) throw new RangeError(`mcdi weights must be positive, got ${c.weight}`);
  }
  const total = components.reduce((s, c) => s + c.weight, 0);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let w1 = 0; // Σ w
    let w2 = 0; // Σ w²
    for (const c of components) {
      const z = c.values[i];
      if (Number.isNaN(z)) continue;
      sum += c.weight * Math.max(-MCDI_CLAMP, Math.min(MCDI_CLAMP, z));
      w1 += c.weight;
      w2 += c.weight * c.weight;
    }
    if (w1 < minWeight * total) {
      out[i] = NaN;
      continue;
    }
    // Var(Σ wz) with unit variances and equal correlation ρ: Σw² + ρ((Σw)² − Σw²)
    const variance = w2 + correlation * (w1 * w1 - w2);
    out[i] = sum / Math.sqrt(variance);
  }
  return out;
}
