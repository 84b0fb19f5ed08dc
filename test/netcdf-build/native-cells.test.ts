// Native grids whose cell edges are not multiples of the resolution (buildLandCells' origin), and the clipping helpers.
import { describe, expect, it } from "vitest";
import { buildLandCells } from "../../pipeline/grid/land-cells.ts";
import { defaultSamples, regularSpacing, snapCellSize, subsetLandCells } from "../../pipeline/grid/from-netcdf.ts";

// One province: the square 100.1–100.6E, 10.1–10.6N.
const square = [{ polygons: [[[[100.1, 10.1], [100.6, 10.1], [100.6, 10.6], [100.1, 10.6], [100.1, 10.1]]]] }];

function fraction(cells: ReturnType<typeof buildLandCells>, lat: number, lng: number): number {
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = cells.weightCell[e];
    if (Math.abs(cells.lat[c] - lat) < 1e-9 && Math.abs(cells.lng[c] - lng) < 1e-9) return cells.weightFraction[e];
  }
  return 0;
}

describe("buildLandCells with an origin", () => {
  // ERA5-like 0.25° cells centred on multiples of 0.25: edges at .125 + k/4.
  const cells = buildLandCells(square, { resolutionDeg: 0.25, samples: 10, origin: { lng: 0.125, lat: 0.125 } });

  it("puts cell edges on origin + k × resolution", () => {
    expect(cells.west).toBeCloseTo(99.875, 12);
    expect(cells.south).toBeCloseTo(9.875, 12);
    expect(cells.nCols).toBe(3);
    expect(cells.nRows).toBe(3);
    expect(Array.from(cells.lng.subarray(0, 3), (x) => Math.round(x * 1e9) / 1e9)).toEqual([100, 100.25, 100.5]);
  });

  it("counts sub-samples inside the province per cell", () => {
    // Cell 99.875–100.125: only the last sub-sample column (100.1125) and row lie in the square → 1 of 100.
    expect(fraction(cells, 10, 100)).toBeCloseTo(0.01, 7);
    // Cell 100.125–100.375: wholly inside.
    expect(fraction(cells, 10.25, 100.25)).toBe(1);
    // Cell 100.375–100.625: sub-samples 100.3875 … 100.5875 inside (9 of 10 per side) → 81 of 100.
    expect(fraction(cells, 10.5, 100.5)).toBeCloseTo(0.81, 7);
  });

  it("takes any corner of the grid as origin", () => {
    const far = buildLandCells(square, { resolutionDeg: 0.25, samples: 10, origin: { lng: -359.875, lat: 80.125 } });
    expect(Array.from(far.weightFraction)).toEqual(Array.from(cells.weightFraction));
    expect(far.west).toBeCloseTo(99.875, 12);
  });
});

describe("clipping helpers", () => {
  it("subsetLandCells keeps the chosen cells and renumbers their weights", () => {
    const cells = buildLandCells(square, { resolutionDeg: 0.25, samples: 10, origin: { lng: 0.125, lat: 0.125 } });
    const middle = [...cells.lat.keys()].find((c) => Math.abs(cells.lat[c] - 10.25) < 1e-9 && Math.abs(cells.lng[c] - 100.25) < 1e-9)!;
    const { cells: one, kept } = subsetLandCells(cells, (c) => c === middle);
    expect(Array.from(kept)).toEqual([middle]);
    expect(one.lat.length).toBe(1);
    expect(one.row[0]).toBe(1);
    expect(one.col[0]).toBe(1);
    expect(Array.from(one.weightCell)).toEqual([0]);
    expect(Array.from(one.weightFraction)).toEqual([1]);
    expect(one.areaKm2[0]).toBe(cells.areaKm2[middle]);
  });

  it("regularSpacing tolerates float32 coordinates and refuses gaps", () => {
    // Float32 axes are off by ~1e-6° per step; the cell size snaps back to whole arc-seconds.
    const step = regularSpacing(Float64Array.from(Float32Array.of(97.1, 97.2, 97.3, 97.4)), "f.nc");
    expect(step).not.toBe(0.1);
    expect(step).toBeCloseTo(0.1, 5);
    expect(snapCellSize(step)).toBe(0.1);
    expect(snapCellSize(Math.fround(1 / 12))).toBe(1 / 12);
    expect(snapCellSize(0.25)).toBe(0.25);
    // Not within 0.1″ of a whole arc-second: left as it is.
    expect(snapCellSize(0.7654321)).toBe(0.7654321);
    expect(() => regularSpacing(Float64Array.of(0, 1, 3), "f.nc: lng")).toThrow("f.nc: lng: not a regular grid (value 1 is 1, expected 1.5)");
  });

  it("defaultSamples keeps sub-samples ~0.025° apart within 10..50", () => {
    expect([0.1, 0.25, 0.5, 1, 2.5].map(defaultSamples)).toEqual([10, 10, 20, 40, 50]);
  });
});
