import { describe, expect, it } from "vitest";
import { accumulate } from "../../pipeline/indices/accumulate.ts";
import { logGamma, regularizedLowerGamma } from "../../pipeline/indices/gamma-incomplete.ts";
import { lmoments } from "../../pipeline/indices/lmoments.ts";
import { normalCdf, normalQuantile } from "../../pipeline/indices/normal.ts";
import { readReference } from "./reference.ts";

const rel = (a: number, b: number) => Math.abs(a / b - 1);

describe("normal distribution", () => {
  it("Φ⁻¹ at known quantiles", () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(rel(normalQuantile(0.975), 1.959963984540054)).toBeLessThan(1e-15);
    expect(rel(normalQuantile(0.025), -1.959963984540054)).toBeLessThan(1e-15);
    expect(rel(normalQuantile(0.8413447460685429), 1)).toBeLessThan(1e-14);
    expect(rel(normalQuantile(1e-10), -6.361340902404056)).toBeLessThan(1e-14);
  });
  it("Φ⁻¹: ±Inf at 0 and 1, NaN outside", () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(-0.1)).toBeNaN();
    expect(normalQuantile(1.1)).toBeNaN();
    expect(normalQuantile(NaN)).toBeNaN();
  });
  it("Φ at known values", () => {
    expect(rel(normalCdf(1), 0.8413447460685429)).toBeLessThan(1e-15);
    expect(rel(normalCdf(-1), 0.15865525393145707)).toBeLessThan(1e-14);
    expect(rel(normalCdf(-3), 0.0013498980316300946)).toBeLessThan(1e-14);
    expect(rel(normalCdf(-8), 6.22096057427178e-16)).toBeLessThan(1e-13);
    expect(rel(normalCdf(-10), 7.619853024160527e-24)).toBeLessThan(1e-13);
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(Infinity)).toBe(1);
  });
  it("Φ(Φ⁻¹(p)) = p across the range, both tails", () => {
    // a relative error ε in z moves p by z²ε relatively, hence the tolerance grows with z²
    for (const p of [1e-100, 1e-20, 1e-8, 0.001, 0.02, 0.07, 0.2, 0.5, 0.6, 0.93, 0.999]) {
      const z = normalQuantile(p);
      expect(rel(normalCdf(z), p), `p=${p}`).toBeLessThan(2e-15 * (1 + z * z));
    }
  });
});

describe("regularized lower incomplete gamma", () => {
  it("closed forms: a = 1, a = 1/2 (erf), integer a", () => {
    for (const x of [0.01, 0.5, 1, 3, 10]) expect(rel(regularizedLowerGamma(1, x), -Math.expm1(-x))).toBeLessThan(1e-14);
    expect(rel(regularizedLowerGamma(0.5, 2), 0.9544997361036416)).toBeLessThan(1e-14); // erf(√2)
    expect(rel(regularizedLowerGamma(3, 2), 1 - 5 * Math.exp(-2))).toBeLessThan(1e-14); // series branch
    // a = 10, x = 20: continued-fraction branch, Q = e^-20 Σ_{k<10} 20^k/k!
    let q = 0;
    let term = Math.exp(-20);
    for (let k = 0; k < 10; k++) {
      q += term;
      term *= 20 / (k + 1);
    }
    expect(rel(regularizedLowerGamma(10, 20), 1 - q)).toBeLessThan(1e-14);
    expect(rel(1 - regularizedLowerGamma(10, 20), q)).toBeLessThan(1e-9); // Q itself ~5e-3: cancellation bound
  });
  it("edges", () => {
    expect(regularizedLowerGamma(2, 0)).toBe(0);
    expect(regularizedLowerGamma(2, Infinity)).toBe(1);
    expect(regularizedLowerGamma(0, 1)).toBeNaN();
    expect(regularizedLowerGamma(2, -1)).toBeNaN();
  });
  it("ln Γ", () => {
    expect(rel(logGamma(0.5), 0.5723649429247001)).toBeLessThan(1e-14);
    expect(rel(logGamma(10), Math.log(362880))).toBeLessThan(1e-14);
    expect(rel(logGamma(0.1), 2.252712651734206)).toBeLessThan(1e-14);
  });
});

describe("accumulate", () => {
  it("right-aligned k-month sums, first k−1 missing", () => {
    const out = accumulate(Float64Array.from([1, 2, 3, 4, 5]), 3);
    expect(Array.from(out)).toEqual([NaN, NaN, 6, 9, 12]);
  });
  it("any gap in the window → NaN", () => {
    const out = accumulate(Float64Array.from([1, NaN, 3, 4, 5, 6]), 2);
    expect(Array.from(out)).toEqual([NaN, NaN, NaN, 7, 9, 11]);
  });
  it("k = 1 copies; k longer than the series is all missing; bad k throws", () => {
    const x = Float64Array.from([1, NaN, 2]);
    const one = accumulate(x, 1);
    expect(Array.from(one)).toEqual([1, NaN, 2]);
    expect(one).not.toBe(x);
    expect(Array.from(accumulate(x, 4))).toEqual([NaN, NaN, NaN]);
    expect(() => accumulate(x, 0)).toThrow("scale must be a positive integer, got 0");
    expect(() => accumulate(x, 1.5)).toThrow(RangeError);
  });
});

describe("L-moments", () => {
  it("PWMs and L-moments of 1..5 by hand", () => {
    // b0 = 3; b1 = (1/5)Σ(j−1)/4·j = (0+2+6+12+20)/20 = 2; b2 = (1/5)Σ(j−1)(j−2)/12·j = (6+24+60)/60 = 1.5
    const l = lmoments(Float64Array.from([5, 3, NaN, 1, 4, 2]));
    expect(l.n).toBe(5);
    expect(l.b0).toBe(3);
    expect(l.b1).toBeCloseTo(2, 15);
    expect(l.b2).toBeCloseTo(1.5, 15);
    expect(l.l2).toBeCloseTo(1, 15);
    expect(l.l3).toBeCloseTo(0, 14);
  });
  it("Wichita k = 1 balance, January, against wichita_lmoments_k1.csv", () => {
    const bal = readReference("r_spei/generated/wichita_spei.csv").BAL;
    const ref = readReference("r_spei/generated/wichita_lmoments_k1.csv");
    for (let m = 0; m < 12; m++) {
      const l = lmoments(bal.filter((_, i) => i % 12 === m));
      expect(l.n).toBe(ref.n[m]);
      expect(rel(l.b1, ref.b1[m])).toBeLessThan(1e-12);
      expect(rel(l.b2, ref.b2[m])).toBeLessThan(1e-12);
      expect(rel(l.t3, ref.t3[m])).toBeLessThan(1e-10);
    }
  });
});
