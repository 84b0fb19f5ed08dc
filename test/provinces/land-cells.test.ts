import * as turf from "@turf/turf";
import { describe, expect, it } from "vitest";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { buildLandCells, cellAreaKm2 } from "../../pipeline/grid/land-cells.ts";

const provinces = loadProvinces();
const t0 = performance.now();
const cells = buildLandCells(provinces);
const buildMs = performance.now() - t0;

describe("buildLandCells on the 77 provinces at 0.25°", () => {
  it("places cell centres at multiples of 0.25 plus 0.125 and finishes in a few seconds", () => {
    expect(cells.west).toBe(97.25);
    expect(cells.south).toBe(5.5);
    expect(cells.nCols).toBe(34);
    expect(cells.nRows).toBe(60);
    expect(cells.lat[0] % 0.25).toBeCloseTo(0.125, 12);
    expect(cells.lng[0] % 0.25).toBeCloseTo(0.125, 12);
    expect(buildMs).toBeLessThan(5000);
  });

  it("has a plausible land-cell count (Thailand ≈ 513,000 km² ≈ 600–900 cells)", () => {
    expect(cells.lat.length).toBe(846);
    expect(cells.lat.length).toBeGreaterThan(600);
    expect(cells.lat.length).toBeLessThan(900);
  });

  it("gives every province, the smallest too, at least one cell", () => {
    const seen = new Uint16Array(77);
    for (let i = 0; i < cells.weightProvince.length; i++) if (cells.weightFraction[i] > 0) seen[cells.weightProvince[i]]++;
    for (let p = 0; p < 77; p++) expect(seen[p], provinces[p].code).toBeGreaterThan(0);
    // Samut Songkhram (TH-75, ~417 km²) is the smallest province.
    expect(seen[provinces.findIndex((p) => p.code === "TH-75")]).toBe(2);
  });

  it("reproduces the polygon area: Σ fraction × cell area ≈ turf area of all provinces (within 1 %)", () => {
    let grid = 0;
    for (let i = 0; i < cells.weightCell.length; i++) grid += cells.weightFraction[i] * cells.areaKm2[cells.weightCell[i]];
    let polygons = 0;
    for (const p of provinces) polygons += turf.area({ type: "MultiPolygon", coordinates: p.polygons }) / 1e6;
    expect(polygons).toBeGreaterThan(505_000);
    expect(polygons).toBeLessThan(525_000);
    expect(Math.abs(grid / polygons - 1)).toBeLessThan(0.01);
  });

  it("keeps fractions of one cell at most 1 and land cells with some land", () => {
    const sum = new Float64Array(cells.lat.length);
    for (let i = 0; i < cells.weightCell.length; i++) sum[cells.weightCell[i]] += cells.weightFraction[i];
    for (let c = 0; c < sum.length; c++) {
      expect(sum[c]).toBeGreaterThan(0);
      expect(sum[c]).toBeLessThanOrEqual(1 + 1e-6);
    }
  });
});

describe("buildLandCells on a synthetic square", () => {
  // A 0.5° × 0.5° square from (100, 10) to (100.5, 10.5), cut into two provinces at lng 100.25 and shifted by 0.1°
  // so that cells are partly covered: fractions are exact multiples of 1/samples².
  const square = (w: number, e: number) => ({
    polygons: [[[[w, 10.1], [e, 10.1], [e, 10.6], [w, 10.6], [w, 10.1]]]],
  });
  const grid = buildLandCells([square(100.1, 100.35), square(100.35, 100.6)], { resolutionDeg: 0.25, samples: 10 });

  it("computes fractions from the sub-sample lattice", () => {
    expect(grid.west).toBe(100);
    expect(grid.south).toBe(10);
    expect(grid.nCols).toBe(3);
    expect(grid.nRows).toBe(3);
    expect(grid.lat.length).toBe(9);
    const frac = (row: number, col: number, p: number): number => {
      const cell = [...grid.row.keys()].find((i) => grid.row[i] === row && grid.col[i] === col)!;
      for (let i = 0; i < grid.weightCell.length; i++) {
        if (grid.weightCell[i] === cell && grid.weightProvince[i] === p) return grid.weightFraction[i];
      }
      return 0;
    };
    // Cell (0,0) spans lng 100–100.25, lat 10–10.25: province 0 covers lng ≥ 100.1 (6 of 10 columns), lat ≥ 10.1 (6 rows).
    expect(frac(0, 0, 0)).toBeCloseTo(0.36, 6);
    expect(frac(0, 0, 1)).toBe(0);
    // Cell (1,1) spans lng 100.25–100.5, lat 10.25–10.5: 4 columns in province 0, 6 in province 1, all rows.
    expect(frac(1, 1, 0)).toBeCloseTo(0.4, 6);
    expect(frac(1, 1, 1)).toBeCloseTo(0.6, 6);
  });

  it("computes spherical cell areas", () => {
    // R² Δλ (sin φ2 − sin φ1) for 0.25° at the equator ≈ 27.8 km × 27.8 km.
    expect(cellAreaKm2(0, 0.25, 0.25)).toBeCloseTo(773.0, 0);
    expect(cellAreaKm2(60, 60.25, 0.25) / cellAreaKm2(0, 0.25, 0.25)).toBeCloseTo(Math.cos((60.125 * Math.PI) / 180), 4);
  });

  it("rejects bad options", () => {
    expect(() => buildLandCells([square(100, 101)], { resolutionDeg: 0 })).toThrow("resolutionDeg must be > 0, got 0");
    expect(() => buildLandCells([square(100, 101)], { samples: 0 })).toThrow("samples must be an integer in 1..255, got 0");
  });
});
