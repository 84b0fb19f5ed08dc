// The tree walk of formats/nearest-cell.ts against the box search it replaced (bench/box-search-reference.ts) and
// against brute force: same cell, same distance to the last bit, ties to the lowest cell number; and the grid's
// constant-time coverage test.
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { DroughtGridFormatError, openDroughtGrid, openDroughtGridFile, writeDroughtGrid } from "../../formats/drought-grid.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { readManifest } from "../../formats/manifest.ts";
import { isCovered, openDroughtArtifacts } from "../../formats/drought-version.ts";
import { boxSearchReference } from "../../bench/box-search-reference.ts";
import { rng } from "../../bench/random.ts";
import { gridOf } from "./grid-of.ts";

const DEG = 180 / Math.PI;

/** Every cell at the smallest distance, in cell order. */
function bruteForce(lats: Float64Array, lngs: Float64Array, lat: number, lng: number): { cells: number[]; distanceKm: number } {
  let bestKm = Infinity;
  let cells: number[] = [];
  for (let i = 0; i < lats.length; i++) {
    const d = haversineKm(lat, lng, lats[i], lngs[i]);
    if (d < bestKm) {
      bestKm = d;
      cells = [i];
    } else if (d === bestKm) cells.push(i);
  }
  return { cells, distanceKm: bestKm };
}

/** Random points: a share in the box, the rest anywhere on the sphere (uniform by area), some at the poles and ±180°. */
function points(seed: number, n: number, box: [number, number, number, number], inBoxShare: number): [number, number][] {
  const r = rng(seed);
  const [south, west, north, east] = box;
  return Array.from({ length: n }, (_, i) => {
    if (i % 500 === 0) return [i % 1000 === 0 ? 90 : -90, -180 + 360 * r()];
    if (i % 500 === 1) return [-90 + 180 * r(), i % 1000 === 1 ? 180 : -180];
    if (r() < inBoxShare) return [south + r() * (north - south), west + r() * (east - west)];
    return [Math.asin(2 * r() - 1) * DEG, -180 + 360 * r()];
  });
}

describe("nearestCell on the real regional grid", () => {
  const dir = join(inject("artifactsDir"), "current");
  const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
  const reference = boxSearchReference(grid.cellLats, grid.cellLngs, grid.resolutionDeg);
  // 60 % in and around the region's bounding box (Thailand, Vietnam, Malaysia; widened by 4°), 40 % anywhere on Earth.
  const pts = points(2024, 100_000, [-3.2, 95.3, 27.5, 123.3], 0.6);

  it("gives the cell and distance of the previous box search for 100,000 points inside and outside the region", () => {
    const differences: string[] = [];
    for (const [lat, lng] of pts) {
      const got = grid.nearestCell(lat, lng);
      const want = reference(lat, lng);
      if (got.cell !== want.cell || got.distanceKm !== want.distanceKm) {
        differences.push(`${lat},${lng}: cell ${got.cell} at ${got.distanceKm} km, box search ${want.cell} at ${want.distanceKm} km`);
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(grid.nCells).toBe(184);
  });

  it("covers every point the service's coverage mask accepts, and no point 3 grid steps from every cell", () => {
    const artifacts = openDroughtArtifacts(dir, readManifest(dir));
    let covered = 0;
    const missed: string[] = [];
    const wronglyCovered: string[] = [];
    const step = grid.resolutionDeg;
    for (const [lat, lng] of pts) {
      const nearGrid = grid.covers(lat, lng);
      if (isCovered(artifacts, lat, lng)) {
        covered++;
        if (!nearGrid) missed.push(`${lat},${lng}`);
      }
      if (nearGrid) {
        // Some cell within 3 steps in latitude and in longitude.
        let found = false;
        for (let c = 0; c < grid.nCells && !found; c++) {
          found = Math.abs(grid.cellLat(c) - lat) < 3 * step && Math.abs(grid.cellLng(c) - lng) < 3 * step;
        }
        if (!found) wronglyCovered.push(`${lat},${lng}`);
      }
    }
    expect(covered).toBeGreaterThan(5_000);
    expect(missed).toEqual([]);
    expect(wronglyCovered).toEqual([]);
  });
});

describe("nearestCell ties: the lowest cell number wins", () => {
  // A 0.25° lattice numbered in random order, with every 5th cell repeated under a higher number elsewhere in the
  // list: queries on the 0.125° half-lattice are equally far from 2 or 4 cells (the differences ±0.125° and ±0.25°
  // are exact in binary), and queries on a cell are 0 km from it and its copy.
  const r = rng(99);
  const base: [number, number][] = [];
  for (let i = 0; i < 40; i++) for (let j = 0; j < 30; j++) base.push([10 + 0.25 * i, 100 + 0.25 * j]);
  for (let i = base.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [base[i], base[j]] = [base[j], base[i]];
  }
  const all = [...base, ...base.filter((_, i) => i % 5 === 0)];
  const lats = Float64Array.from(all, (p) => p[0]);
  const lngs = Float64Array.from(all, (p) => p[1]);
  const grid = gridOf(lats, lngs, 0.25);
  const reference = boxSearchReference(lats, lngs, 0.25);

  it("on half-lattice points and on the cells themselves, as brute force and the box search", () => {
    let ties = 0;
    const wrong: string[] = [];
    for (let i = -4; i < 84; i++) {
      for (let j = -4; j < 64; j++) {
        const lat = 10 + 0.125 * i;
        const lng = 100 + 0.125 * j;
        const got = grid.nearestCell(lat, lng);
        const want = bruteForce(lats, lngs, lat, lng);
        if (want.cells.length > 1) ties++;
        if (got.cell !== want.cells[0] || got.distanceKm !== want.distanceKm) wrong.push(`${lat},${lng}: ${got.cell} vs ${want.cells.join("/")}`);
        const old = reference(lat, lng);
        if (old.cell !== got.cell || old.distanceKm !== got.distanceKm) wrong.push(`${lat},${lng}: box search ${old.cell}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(ties).toBeGreaterThan(2000);
  });
});

describe("nearestCell on a fine grid with a coastline, holes and far points", () => {
  // 0.01° cells on land only: a disc with a bay cut out and random holes, about 10,000 cells.
  const r = rng(5);
  const lats: number[] = [];
  const lngs: number[] = [];
  for (let i = 0; i < 300; i++) {
    for (let j = 0; j < 300; j++) {
      const lat = 12 + 0.01 * i;
      const lng = 100 + 0.01 * j;
      const inDisc = (lat - 13.5) ** 2 + (lng - 101.5) ** 2 < 1.44;
      const inBay = (lat - 13.0) ** 2 + (lng - 101.9) ** 2 < 0.36;
      if (inDisc && !inBay && r() < 0.3) {
        lats.push(lat);
        lngs.push(lng);
      }
    }
  }
  const la = Float64Array.from(lats);
  const ln = Float64Array.from(lngs);
  const grid = gridOf(la, ln, 0.01);

  it("matches brute force for 1,500 points in the bay, around the disc and anywhere on Earth", () => {
    const wrong: string[] = [];
    for (const [lat, lng] of points(6, 1500, [11, 99, 16, 104], 0.7)) {
      const got = grid.nearestCell(lat, lng);
      const want = bruteForce(la, ln, lat, lng);
      if (got.cell !== want.cells[0] || got.distanceKm !== want.distanceKm) wrong.push(`${lat},${lng}`);
    }
    expect(la.length).toBeGreaterThan(9_000);
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe("grid coverage test", () => {
  // 0.25° cells at 6.125..15.875°N, 98.125..104.875°E, with a hole of 10 × 10 cells at 10..12.5°N, 100..102.5°E.
  const lats: number[] = [];
  const lngs: number[] = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < 28; j++) {
      const lat = 6.125 + 0.25 * i;
      const lng = 98.125 + 0.25 * j;
      if (lat > 10 && lat < 12.5 && lng > 100 && lng < 102.5) continue;
      lats.push(lat);
      lngs.push(lng);
    }
  }
  const grid = gridOf(Float64Array.from(lats), Float64Array.from(lngs), 0.25);

  it("is true on and near cells, false beyond three grid steps", () => {
    expect(grid.covers(6.125, 98.125)).toBe(true);
    expect(grid.covers(15.875, 104.875)).toBe(true);
    expect(grid.covers(10, 105.35)).toBe(true); // 1.9 steps east of the last column
    expect(grid.covers(16.35, 100)).toBe(true); // 1.9 steps north of the last row
    expect(grid.covers(10, 105.66)).toBe(false); // 3.1 steps east
    expect(grid.covers(5.35, 100)).toBe(false); // 3.1 steps south
    expect(grid.covers(11.25, 101.25)).toBe(false); // middle of the hole: every cell is 5.5 steps away in latitude or longitude
    expect(grid.covers(48.85, 2.35)).toBe(false); // Paris
    expect(grid.covers(-13.1, -98.1)).toBe(false); // the antipode
    expect(grid.covers(Number.NaN, 100)).toBe(false);
  });

  it("reaches across the antimeridian", () => {
    const g = gridOf(new Float64Array([-16.125, -16.375]), new Float64Array([179.875, 179.625]), 0.25);
    expect(g.covers(-16.2, 179.99)).toBe(true);
    expect(g.covers(-16.2, -179.99)).toBe(true); // 0.135° east of the first cell, across ±180°
    expect(g.covers(-16.2, -179.7)).toBe(true); // 1.7 steps
    expect(g.covers(-16.2, -179.2)).toBe(false); // 3.9 steps
    expect(g.covers(-16.2, 178.8)).toBe(false); // 3.3 steps west of the second cell
    expect(g.nearestCell(-16.2, -179.99)).toEqual({ cell: 0, distanceKm: haversineKm(-16.2, -179.99, -16.125, 179.875) });
  });
});

describe("the spatial index must describe the cells", () => {
  it("refuses a file whose cell coordinates differ from the index's (BAD_INDEX)", () => {
    const bytes = writeDroughtGrid({
      firstMonth: 0, nMonths: 1, indexNames: ["spei1"], baselineStart: 0, baselineEnd: 0, resolutionDeg: 0.25,
      cellIds: new Uint32Array([1, 2, 3]), cellLats: new Float64Array([13.625, 13.875, 18.125]), cellLngs: new Float64Array([100.375, 100.375, 98.875]),
      countries: ["THA"], cellCountry: new Uint8Array(3), values: new Float32Array(3),
    });
    // Latitude of cell 1: header 72 + index names 16 + countries 8 + cell ids 16 (12 padded) + cell 0's latitude 8.
    new DataView(bytes.buffer).setFloat64(72 + 16 + 8 + 16 + 8, 13.9, true);
    let error: unknown;
    try {
      openDroughtGrid(bytes);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DroughtGridFormatError);
    expect((error as DroughtGridFormatError).code).toBe("BAD_INDEX");
    expect((error as Error).message).toMatch(/spatial index section is invalid: spatial index item \d does not match the coordinates of cell 1/);
  });
});
