import { describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import { thornthwaite } from "../../pipeline/indices/pet-thornthwaite.ts";
import { fitLogLogistic, logLogisticCdf, spei, speiWithParams } from "../../pipeline/indices/spei.ts";
import { expectSeriesClose, readReference } from "./reference.ts";

const JAN_1980 = monthIndex(1980, 1);
const JAN_1900 = monthIndex(1900, 1);
const wichita = readReference("r_spei/generated/wichita_spei.csv");

describe("SPEI against R SPEI 1.8.1 (log-logistic, unbiased PWM)", () => {
  for (const k of [1, 3, 6, 12, 24]) {
    it(`Wichita SPEI-${k}: |Δz| < 1e-6, same NA/±Inf positions`, () => {
      const col = `spei_${String(k).padStart(2, "0")}_ubpwm`;
      const n = expectSeriesClose(spei(wichita.BAL, { scale: k, firstMonth: JAN_1980 }), wichita[col], 1e-6, col);
      expect(n).toBe(382 - (k - 1));
    });
  }

  it("fitted parameters per calendar month and scale", () => {
    const ref = readReference("r_spei/generated/wichita_spei_params.csv");
    for (let r = 0; r < ref.scale.length; r++) {
      const { params } = speiWithParams(wichita.BAL, { scale: ref.scale[r], firstMonth: JAN_1980 });
      const p = params[ref.month[r] - 1];
      expect(p.month).toBe(ref.month[r]);
      expect(p.xi).toBeCloseTo(ref.xi[r], 8);
      expect(p.alpha).toBeCloseTo(ref.alpha[r], 8);
      expect(p.kappa).toBeCloseTo(ref.kappa[r], 10);
    }
  });

  it("upstream vectors: spei(PRCP − thornthwaite(TMED)) at 1 and 12", () => {
    const w = readReference("r_spei/data/wichita.csv");
    const pet = thornthwaite(w.TMED, 37.6475, { plain: true });
    const bal = w.PRCP.map((p, i) => p - pet[i]);
    for (const k of [1, 12]) {
      const opts = { scale: k, firstMonth: monthIndex(1, 1) };
      expectSeriesClose(spei(bal, opts), readReference(`r_spei/upstream_expected/spei_${k}_vector.csv`).value, 1e-6);
      expectSeriesClose(spei(bal, opts), readReference(`r_spei/upstream_expected/spei_${k}_tsvector.csv`).value, 1e-6);
    }
  });

  it("reference periods (R's year-1 calendar for plain vectors)", () => {
    const w = readReference("r_spei/data/wichita.csv");
    const pet = thornthwaite(w.TMED, 37.6475, { plain: true });
    const bal = w.PRCP.map((p, i) => p - pet[i]);
    const first = monthIndex(1, 1);
    const refStart = monthIndex(10, 1);
    const refEnd = monthIndex(25, 12);
    // scale 12; spei_refend matches ref.end = c(10,1) (fit on years 1..9 plus January of year 10), not c(25,12)
    const cases: [string, { refStart?: number; refEnd?: number }][] = [
      ["spei_refst", { refStart }],
      ["spei_refend", { refEnd: monthIndex(10, 1) }],
      ["spei_refst_refend", { refStart, refEnd }],
    ];
    for (const [file, ref] of cases) {
      const expected = readReference(`r_spei/upstream_expected/${file}.csv`).value;
      expectSeriesClose(spei(bal, { scale: 12, firstMonth: first, ...ref }), expected, 1e-6, file);
    }
  });

  it("balance matrix: 11 stations at 1, 3, 12 months", () => {
    const bal = readReference("r_spei/data/balance.csv");
    const s03 = readReference("r_spei/generated/balance_spei_03.csv");
    const m1 = readReference("r_spei/upstream_expected/spei_1_matrix.csv");
    const m12 = readReference("r_spei/upstream_expected/spei_12_matrix.csv");
    const stations = Object.keys(s03).filter((c) => c !== "year" && c !== "month");
    expect(stations.length).toBe(11);
    for (const st of stations) {
      expectSeriesClose(spei(bal[st], { scale: 3, firstMonth: JAN_1900 }), s03[st], 1e-6, `${st} k=3`);
      expectSeriesClose(spei(bal[st], { scale: 1, firstMonth: JAN_1900 }), m1[st], 1e-6, `${st} k=1`);
      expectSeriesClose(spei(bal[st], { scale: 12, firstMonth: JAN_1900 }), m12[st], 1e-6, `${st} k=12`);
    }
  });

  it("CRU TS array: 6 cells at 1 and 12 months", () => {
    const cru = readReference("r_spei/data/cruts4_long.csv");
    for (const k of [1, 12]) {
      const ref = readReference(`r_spei/upstream_expected/spei_${k}_array.csv`);
      const cells = new Map<string, number[]>();
      for (let r = 0; r < ref.value.length; r++) {
        const key = `${ref.i[r]},${ref.j[r]}`;
        if (!cells.has(key)) cells.set(key, []);
        cells.get(key)!.push(r);
      }
      expect(cells.size).toBe(6);
      // input cells in order of first appearance of (lon, lat) in the long file
      const inputCells = new Map<string, number[]>();
      for (let r = 0; r < cru.bal_mm.length; r++) {
        const key = `${cru.lon[r]},${cru.lat[r]}`;
        if (!inputCells.has(key)) inputCells.set(key, []);
        inputCells.get(key)!.push(r);
      }
      // match each expected cell to the input cell whose SPEI agrees (R's i,j ordering is its own)
      let matched = 0;
      for (const rows of cells.values()) {
        const expected = Float64Array.from(rows, (r) => ref.value[r]);
        for (const inRows of inputCells.values()) {
          const z = spei(Float64Array.from(inRows, (r) => cru.bal_mm[r]), { scale: k, firstMonth: JAN_1900 });
          if (Math.abs(z[k + 5] - expected[k + 5]) < 1e-6) {
            expectSeriesClose(z, expected, 1e-6, `cell k=${k}`);
            matched++;
            break;
          }
        }
      }
      expect(matched).toBe(6);
    }
  });
});

describe("log-logistic details", () => {
  it("fewer than 4 values or zero spread: NaN parameters", () => {
    expect(fitLogLogistic(Float64Array.from([1, 2, 3]), 1).xi).toBeNaN();
    expect(fitLogLogistic(Float64Array.from([2, 2, 2, 2, 2]), 1).alpha).toBeNaN();
  });
  it("outside the support: F = 0, z = −Inf (no clipping)", () => {
    const p = { month: 1, xi: 0, alpha: 1, kappa: -0.5 }; // lower bound ξ + α/κ = −2
    expect(logLogisticCdf(-2.5, p)).toBe(0);
    expect(logLogisticCdf(0, p)).toBe(0.5);
    // calibrated on the first 4 years; a huge deficit in year 5 falls below the fitted lower bound
    const series = Float64Array.from({ length: 60 }, (_, i) => (i === 59 ? -1e6 : 10 + ((i * 7) % 13)));
    const z = spei(series, { scale: 1, firstMonth: 0, refEnd: 47 });
    expect(z[59]).toBe(-Infinity);
    expect(Number.isFinite(z[58])).toBe(true);
  });
  it("a calendar month with fewer than 4 values is NaN throughout", () => {
    const x = Float64Array.from({ length: 36 }, (_, i) => (i * 37) % 11);
    const z = spei(x, { scale: 1, firstMonth: 0 });
    expect(z.every((v) => Number.isNaN(v))).toBe(true);
  });
});
