import { describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import { mcdi, MCDI_CLAMP, MCDI_CORRELATION, MCDI_MIN_WEIGHT, MCDI_WEIGHTS } from "../../pipeline/indices/mcdi.ts";
import { normalQuantile } from "../../pipeline/indices/normal.ts";
import { MCDI_MAX_ABS, Z_MAX, Z_MIN } from "../../formats/index-range.ts";
import { computeStationIndices } from "../../pipeline/indices/station.ts";
import { spei } from "../../pipeline/indices/spei.ts";
import { spi } from "../../pipeline/indices/spi.ts";
import { readReference } from "./reference.ts";

describe("mcdi", () => {
  it("rescales the weighted mean to unit variance under equal correlation", () => {
    // two components, w = 1 each, ρ = 0.5: var = 1 + 1 + 2·0.5 = 3 → (1 + 2)/√3
    const z = mcdi(
      [
        { values: Float64Array.from([1, NaN, -Infinity]), weight: 1 },
        { values: Float64Array.from([2, 2, -1]), weight: 1 },
      ],
      0.5,
      0.5,
    );
    expect(z[0]).toBeCloseTo(3 / Math.sqrt(3), 15);
    // one component present with half the weight: its own z (var = w²)
    expect(z[1]).toBeCloseTo(2, 15);
    // −Inf clamped before averaging
    expect(z[2]).toBeCloseTo((-MCDI_CLAMP - 1) / Math.sqrt(3), 15);
  });
  it("identical components give back the same z (ρ = 1)", () => {
    const v = Float64Array.from([-1.3, 0.2]);
    const z = mcdi([{ values: v, weight: 0.3 }, { values: v, weight: 0.7 }], 1);
    expect(z[0]).toBeCloseTo(-1.3, 14);
    expect(z[1]).toBeCloseTo(0.2, 14);
  });
  it("too little weight present → NaN; bad input throws", () => {
    const z = mcdi(
      [
        { values: Float64Array.from([1]), weight: 0.4 },
        { values: Float64Array.from([NaN]), weight: 0.6 },
      ],
      0.6,
      0.5,
    );
    expect(z[0]).toBeNaN();
    expect(() => mcdi([])).toThrow("mcdi needs at least one component");
    expect(() => mcdi([{ values: new Float64Array(1), weight: 0 }])).toThrow("mcdi weights must be positive, got 0");
  });
  it("Wichita: near standard normal over the record", () => {
    const w = readReference("r_spei/data/wichita.csv");
    const out = computeStationIndices({ firstMonth: monthIndex(1980, 1), prcp: w.PRCP, tmean: w.TMED, lat: 37.6475 });
    expect(out.petMethod).toBe("thornthwaite");
    // dated input: R's Thornthwaite on a ts
    const ref = readReference("r_spei/generated/wichita_pet.csv");
    for (let i = 0; i < 382; i++) expect(out.balance[i]).toBeCloseTo(ref.PRCP[i] - ref.pet_thornthwaite_ts[i], 9);
    const finite = out.mcdi.filter((v) => Number.isFinite(v));
    // from month 3 SPEI-1, SPEI-3 and SPI-3 carry 0.65 of the weight (≥ 0.5); before that only SPEI-1 (0.15)
    expect(Number.isNaN(out.mcdi[1])).toBe(true);
    expect(Number.isFinite(out.mcdi[2])).toBe(true);
    const mean = finite.reduce((s, v) => s + v, 0) / finite.length;
    const sd = Math.sqrt(finite.reduce((s, v) => s + (v - mean) ** 2, 0) / finite.length);
    expect(Math.abs(mean)).toBeLessThan(0.1);
    expect(sd).toBeGreaterThan(0.85);
    expect(sd).toBeLessThan(1.15);
    const withMinMax = computeStationIndices({
      firstMonth: monthIndex(1980, 1),
      prcp: w.PRCP,
      tmin: w.TMIN,
      tmax: w.TMAX,
      lat: 37.6475,
    });
    expect(withMinMax.petMethod).toBe("hargreaves");
    expect(() => computeStationIndices({ firstMonth: 0, prcp: w.PRCP, lat: 0 })).toThrow("needs tmean");
  });
});

describe("agreement with climate_indices (different fitting methods)", () => {
  const input = readReference("climate_indices/monthly_inputs.csv");
  const expected = readReference("climate_indices/monthly_expected.csv");
  const first = monthIndex(1895, 1);
  // drought categories: ≤ −2, ≤ −1.5, ≤ −1, < 1, < 1.5, < 2, ≥ 2
  const category = (z: number) => (z <= -2 ? 0 : z <= -1.5 ? 1 : z <= -1 ? 2 : z < 1 ? 3 : z < 1.5 ? 4 : z < 2 ? 5 : 6);
  function agreement(ours: Float64Array, theirs: Float64Array): { rate: number; n: number } {
    let same = 0;
    let n = 0;
    for (let i = 0; i < ours.length; i++) {
      if (!Number.isFinite(theirs[i]) || Number.isNaN(ours[i])) continue;
      n++;
      if (category(ours[i]) === category(theirs[i])) same++;
    }
    return { rate: same / n, n };
  }
  it("SPI-1 and SPI-6 (gamma) in the same category", () => {
    const a = agreement(spi(input.precips_mm_monthly, { scale: 1, firstMonth: first }), expected.spi_01_gamma);
    const b = agreement(spi(input.precips_mm_monthly, { scale: 6, firstMonth: first }), expected.spi_06_gamma);
    expect(a.n).toBeGreaterThan(1400);
    expect(a.rate).toBeGreaterThanOrEqual(0.95);
    expect(b.rate).toBeGreaterThanOrEqual(0.95);
  });
  it("SPEI-6 (log-logistic vs their Pearson III) in the same category", () => {
    const bal = input.precips_mm_monthly.map((p, i) => p - input.pet_thornthwaite[i]);
    const r = agreement(spei(bal, { scale: 6, firstMonth: first }), expected.spei_06_pearson3);
    expect(r.n).toBeGreaterThan(1400);
    expect(r.rate).toBeGreaterThanOrEqual(0.9);
  });
});

describe("the value range the artifact formats allow (formats/index-range.ts) is the range the indices can give", () => {
  it("Z_MIN and Z_MAX are Φ⁻¹ of the smallest positive double and of the largest double below 1", () => {
    expect(normalQuantile(Number.MIN_VALUE)).toBe(Z_MIN);
    expect(normalQuantile(1 - 2 ** -53)).toBe(Z_MAX);
    expect(normalQuantile(0)).toBe(-Infinity); // p = 0: beyond the support, clamped by every grid source
  });

  it("MCDI_MAX_ABS is MCDI_CLAMP times the largest Σw / σ(Σwz) of a component set mcdi accepts, and mcdi reaches it", () => {
    const w = Object.values(MCDI_WEIGHTS);
    let best = 0;
    for (let set = 1; set < 1 << w.length; set++) {
      const used = w.filter((_, i) => set & (1 << i));
      const w1 = used.reduce((a, b) => a + b, 0);
      const w2 = used.reduce((a, b) => a + b * b, 0);
      if (w1 >= MCDI_MIN_WEIGHT) best = Math.max(best, w1 / Math.sqrt(w2 + MCDI_CORRELATION * (w1 * w1 - w2)));
    }
    expect(best * MCDI_CLAMP).toBeCloseTo(MCDI_MAX_ABS, 12);
    const extreme = mcdi(w.map((weight) => ({ values: Float64Array.of(Infinity, -50), weight })));
    expect(extreme[0]).toBeCloseTo(MCDI_MAX_ABS, 12);
    expect(extreme[1]).toBeCloseTo(-MCDI_MAX_ABS, 12);
  });
});
