import { describe, expect, it } from "vitest";
import { crossValidateIndices, leaveOneOut, scorePairs } from "../../pipeline/grid/cross-validate.ts";

const f64 = (...v: number[]) => Float64Array.from(v);

describe("scorePairs", () => {
  it("RMSE, bias, MAE, Pearson and category agreement by hand", () => {
    const s = scorePairs([1, 2, 3], [1, 2, 5]);
    expect(s.n).toBe(3);
    expect(s.rmse).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(s.bias).toBeCloseTo(-2 / 3, 12);
    expect(s.mae).toBeCloseTo(2 / 3, 12);
    expect(s.pearson).toBeCloseTo(4 / Math.sqrt((2 * 78) / 9), 12);
    expect(s.sameCategoryShare).toBe(1); // all "no drought"
    // -0.6 (D0) vs -0.9 (D1): different; -2.5 vs -2.0 (both D4): same; -0.5 (D0) vs -0.49 (none): different
    expect(scorePairs([-0.6, -2.5, -0.5], [-0.9, -2.0, -0.49]).sameCategoryShare).toBeCloseTo(1 / 3, 12);
  });

  it("no pairs gives NaN scores and n 0", () => {
    const s = scorePairs([], [], 4);
    expect(s.n).toBe(0);
    expect(s.nUnpredicted).toBe(4);
    expect(s.rmse).toBeNaN();
    expect(s.pearson).toBeNaN();
  });
});

describe("leave-one-out cross-validation", () => {
  it("a constant field is predicted exactly", () => {
    const lats = f64(13, 13.5, 14, 14.2);
    const lngs = f64(100, 100.4, 100.1, 99.8);
    const nMonths = 5;
    const values = new Float64Array(lats.length * nMonths).fill(-0.9);
    values[2] = NaN; // one missing observation is skipped
    const s = leaveOneOut(lats, lngs, values, nMonths);
    expect(s.n).toBe(19);
    expect(s.nUnpredicted).toBe(0);
    expect(s.rmse).toBeCloseTo(0, 14); // weighted mean of equal values, up to rounding
    expect(s.bias).toBeCloseTo(0, 14);
    expect(s.sameCategoryShare).toBe(1);
    expect(s.pearson).toBeNaN(); // no variance
  });

  it("a linear field along a meridian: known errors of 1/d² IDW", () => {
    // stations at 0°, 0.5°, 1° N with values -1, 0, 1. Middle: mean of the ends = 0 (exact).
    // Top left out: (0/d² − 1/(2d)²) / (1/d² + 1/(2d)²) = −0.2, error −1.2; bottom: +0.2, error +1.2.
    const lats = f64(0, 0.5, 1);
    const lngs = f64(100, 100, 100);
    const s = leaveOneOut(lats, lngs, f64(-1, 0, 1), 1);
    expect(s.n).toBe(3);
    expect(s.rmse).toBeCloseTo(Math.sqrt(0.96), 9);
    expect(s.bias).toBeCloseTo(0, 12);
    expect(s.mae).toBeCloseTo(0.8, 9);
    expect(s.pearson).toBeCloseTo(-1, 9);
    expect(s.sameCategoryShare).toBeCloseTo(2 / 3, 12); // -1 (D1) predicted 0.2 (none)
  });

  it("a smooth linear field on a dense station grid has a small error", () => {
    const lats: number[] = [];
    const lngs: number[] = [];
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) { lats.push(10 + i * 0.5); lngs.push(100 + j * 0.5); }
    const nMonths = 12;
    const values = new Float64Array(lats.length * nMonths);
    for (let s = 0; s < lats.length; s++) {
      for (let m = 0; m < nMonths; m++) values[s * nMonths + m] = 0.3 * (lats[s] - 11.75) - 0.2 * (lngs[s] - 101.75) + 0.1 * (m - 6);
    }
    const s = leaveOneOut(f64(...lats), f64(...lngs), values, nMonths);
    expect(s.n).toBe(64 * 12);
    expect(s.rmse).toBeGreaterThan(0);
    expect(s.rmse).toBeLessThan(0.12);
    expect(Math.abs(s.bias)).toBeLessThan(0.002); // near zero: the field is antisymmetric about the grid centre
    expect(s.pearson).toBeGreaterThan(0.97);
  });

  it("stations with nobody in range are counted as unpredicted", () => {
    const s = leaveOneOut(f64(0, 0.5, 10), f64(100, 100, 100), f64(1, 1, 1), 1);
    expect(s.n).toBe(2);
    expect(s.nUnpredicted).toBe(1);
  });

  it("±Inf observations are clamped like the predictors", () => {
    const s = leaveOneOut(f64(0, 0, 0), f64(99, 100, 101), f64(Infinity, 3.5, Infinity), 1);
    // all three clamp to 3.5: exact predictions
    expect(s.rmse).toBeCloseTo(0, 14);
  });

  it("excludeWithinKm drops co-located duplicate records", () => {
    // station 3 duplicates station 0 (same place, same values)
    const lats = f64(0, 0.5, 1, 0);
    const lngs = f64(100, 100, 100, 100);
    const values = f64(-1, 0, 1, -1);
    const flattering = leaveOneOut(lats, lngs, values, 1);
    const honest = leaveOneOut(lats, lngs, values, 1, { excludeWithinKm: 1 });
    // station 0 and its twin: from 0 at d and 1 at 2d → 0.2 (error 1.2); middle: (−1 −1 +1)/3 (all at d) → error −1/3;
    // top: (0/d² − 2/(2d)²) / (1/d² + 2/(2d)²) = −1/3 → error −4/3
    expect(honest.rmse).toBeCloseTo(Math.sqrt((1.44 * 2 + 1 / 9 + 16 / 9) / 4), 6);
    expect(flattering.rmse).toBeLessThan(honest.rmse);
  });

  it("crossValidateIndices returns a plain JSON-able object per index", () => {
    const r = crossValidateIndices(f64(0, 0.5, 1), f64(100, 100, 100), { spei1: f64(-1, 0, 1), spi1: f64(2, 2, 2) }, 1, { maxStations: 4 });
    expect(Object.keys(r.indices)).toEqual(["spei1", "spi1"]);
    expect(r.indices.spi1.rmse).toBe(0);
    expect(r.indices.spei1.rmse).toBeCloseTo(Math.sqrt(0.96), 9);
    expect(r.settings).toEqual({ power: 2, maxStations: 4, maxDistanceKm: 250, clampZ: 3.5, excludeWithinKm: 0 });
    expect(r.nStations).toBe(3);
    expect(JSON.parse(JSON.stringify(r)).indices.spei1.n).toBe(3);
  });
});
