import { describe, expect, it } from "vitest";
import { cellsUsedPerRecord, summarizeProvinces } from "../../pipeline/provinces/summaries.ts";

describe("summarizeProvinces", () => {
  // Two cells at lat 0 (cos 1) and lat 60 (cos 0.5), resolution 1°; 3 provinces, 2 months, 2 indices.
  // Province 0: cell 0 whole (w = 1) + half of cell 1 (w = 0.5 × 0.5 = 0.25). Province 1: other half of cell 1
  // (w = 0.25). Province 2: no cells.
  const NaN32 = NaN;
  const values = Float32Array.from([
    // cell 0: month 0 [k0, k1], month 1 [k0, k1]
    2, NaN32, NaN32, NaN32,
    // cell 1
    12, 5, NaN32, NaN32,
  ]);
  const s = summarizeProvinces({
    values,
    nCells: 2,
    nMonths: 2,
    nIndices: 2,
    cellLat: Float64Array.from([0, 60]),
    resolutionDeg: 1,
    weights: {
      cell: Uint32Array.from([0, 1, 1]),
      province: Uint8Array.from([0, 0, 1]),
      fraction: Float32Array.from([1, 0.5, 0.5]),
    },
    nProvinces: 3,
  });
  const at = (p: number, m: number, k: number) => (p * 2 + m) * 2 + k;

  it("area-weights the means over cells with a value", () => {
    // (2 × 1 + 12 × 0.25) / 1.25 = 4
    expect(s.means[at(0, 0, 0)]).toBe(4);
    expect(s.cellsUsed[at(0, 0, 0)]).toBe(2);
    // only cell 1 has index 1 in month 0
    expect(s.means[at(0, 0, 1)]).toBe(5);
    expect(s.cellsUsed[at(0, 0, 1)]).toBe(1);
    expect(s.means[at(1, 0, 0)]).toBe(12);
    expect(s.cellsUsed[at(1, 0, 0)]).toBe(1);
  });

  it("gives NaN and 0 cells when nothing has a value", () => {
    expect(s.means[at(0, 1, 0)]).toBeNaN();
    expect(s.cellsUsed[at(0, 1, 0)]).toBe(0);
    expect(s.means[at(2, 0, 0)]).toBeNaN();
    expect(s.cellsUsed[at(2, 0, 1)]).toBe(0);
  });

  it("collapses cells used to one count per record (most cells behind any index)", () => {
    expect(Array.from(cellsUsedPerRecord(s))).toEqual([2, 0, 1, 0, 0, 0]);
  });

  it("checks array sizes and ranges", () => {
    const base = {
      values: new Float32Array(4),
      nCells: 2,
      nMonths: 1,
      nIndices: 2,
      cellLat: new Float64Array(2),
      resolutionDeg: 1,
      weights: { cell: Uint32Array.from([5]), province: Uint8Array.from([0]), fraction: Float32Array.from([1]) },
      nProvinces: 1,
    };
    expect(() => summarizeProvinces({ ...base, values: new Float32Array(3) })).toThrow(
      "values has 3 entries, expected nCells×nMonths×nIndices = 4",
    );
    expect(() => summarizeProvinces(base)).toThrow("weight entry 0: cell 5 out of range (nCells 2)");
  });
});
