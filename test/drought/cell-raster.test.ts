// The lookup raster must give locateCell's answer for every point: checked on the real artifacts over random
// points, the pixels' own edges (where rounding decides), the province rings' vertices (coasts and borders) and
// the midpoints between neighbouring cells (where the nearest cell changes).
import { describe, expect, inject, it } from "vitest";
import { join } from "node:path";
import { readManifest } from "../../formats/manifest.ts";
import { openDroughtArtifacts } from "../../formats/drought-version.ts";
import { CellRaster, segmentMeetsRect, SUBDIVISIONS } from "../../lib/drought/cell-raster.ts";
import { locateCell, NO_CELL_NEAR, OUTSIDE_AREA } from "../../lib/drought/locate-cell.ts";
import { CellLattice } from "../../lib/drought/cell-lattice.ts";
import { gridOf } from "../grid/grid-of.ts";
import { rng } from "../../bench/random.ts";

const dir = join(inject("artifactsDir"), "current");
const a = openDroughtArtifacts(dir, readManifest(dir));
const raster = new CellRaster(a);

function mismatches(points: Array<[number, number]>): string[] {
  const bad: string[] = [];
  for (const [lat, lng] of points) {
    const want = locateCell(a, lat, lng);
    const got = raster.locate(lat, lng);
    if (got !== want && bad.length < 5) bad.push(`${lat},${lng}: raster ${got}, locateCell ${want}`);
  }
  return bad;
}

describe("CellRaster", () => {
  it("made in slices (as a server makes it) is the same raster, and stops when told to", async () => {
    let slices = 0;
    const sliced = await CellRaster.inSlices(a, 1, () => ++slices > 0);
    expect(slices).toBeGreaterThan(1);
    expect(sliced?.stats).toEqual(raster.stats);
    const { west, south, resolutionDeg, nCols, nRows } = a.coverage;
    for (let r = 0; r < nRows * SUBDIVISIONS; r += 2) {
      for (let q = 0; q < nCols * SUBDIVISIONS; q += 2) {
        const lat = south + (r + 0.37) * (resolutionDeg / SUBDIVISIONS);
        const lng = west + (q + 0.61) * (resolutionDeg / SUBDIVISIONS);
        if (sliced!.locate(lat, lng) !== raster.locate(lat, lng)) expect.fail(`${lat},${lng}`);
      }
    }
    expect(await CellRaster.inSlices(a, 0, () => false)).toBeUndefined();
  });

  it("answers every kind of pixel on the Thai grid", () => {
    const s = raster.stats;
    expect(s.outside).toBeGreaterThan(0);
    expect(s.single).toBeGreaterThan(0);
    expect(s.several).toBeGreaterThan(0);
    expect(s.unsure).toBeGreaterThan(0);
    expect(s.outside + s.noCellNear + s.single + s.several + s.lattice + s.unsure).toBe(a.coverage.nCols * a.coverage.nRows * SUBDIVISIONS ** 2);
  });

  it("equals locateCell at 200,000 random points over the mask and beyond it", () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const { west, south, resolutionDeg, nCols, nRows } = a.coverage;
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 200_000; i++) points.push([south - 1 + rnd() * (nRows * resolutionDeg + 2), west - 1 + rnd() * (nCols * resolutionDeg + 2)]);


    expect(mismatches(points)).toEqual([]);
  });

  it("equals locateCell on the pixels' edges and corners", () => {
    const { west, south, resolutionDeg, nCols, nRows } = a.coverage;
    const px = resolutionDeg / SUBDIVISIONS;
    const points: Array<[number, number]> = [];
    for (let r = 0; r <= nRows * SUBDIVISIONS; r += 1) {
      for (let q = 0; q <= nCols * SUBDIVISIONS; q += 3) points.push([south + r * px, west + q * px], [south + r * px + 1e-12, west + q * px - 1e-12]);
    }
    expect(mismatches(points)).toEqual([]);
  });

  it("equals locateCell on coasts and borders (every ring vertex and edge midpoint)", () => {
    const { coords, ringStart } = a.provinceIndex.rings;
    const points: Array<[number, number]> = [];
    for (let ring = 0; ring + 1 < ringStart.length; ring++) {
      for (let v = ringStart[ring]; v < ringStart[ring + 1] - 1; v++) {
        points.push([coords[2 * v + 1], coords[2 * v]], [(coords[2 * v + 1] + coords[2 * v + 3]) / 2, (coords[2 * v] + coords[2 * v + 2]) / 2]);
      }
    }
    expect(points.length).toBeGreaterThan(10_000);
    expect(mismatches(points)).toEqual([]);
  });

  it("equals locateCell between neighbouring cells, where the nearest cell changes", () => {
    const { cellLats, cellLngs, resolutionDeg } = a.grid;
    const points: Array<[number, number]> = [];
    for (let c = 0; c < cellLats.length; c++) {
      for (const [dy, dx] of [[0.5, 0], [0, 0.5], [0.5, 0.5], [0.5, -0.5]]) {
        for (const eps of [0, 1e-9, -1e-9]) points.push([cellLats[c] + dy * resolutionDeg + eps, cellLngs[c] + dx * resolutionDeg - eps]);
      }
    }
    const bad = mismatches(points);
    expect(bad).toEqual([]);
  });

  it("answers OUTSIDE_AREA at sea and beyond the mask, a cell in Bangkok", () => {
    expect(raster.locate(10, 100)).toBe(OUTSIDE_AREA); // Gulf of Thailand
    expect(raster.locate(51.5, -0.1)).toBe(OUTSIDE_AREA);
    expect(raster.locate(Number.NaN, 100)).toBe(OUTSIDE_AREA);
    const bangkok = raster.locate(13.75, 100.5);
    expect(bangkok).toBe(a.grid.nearestCell(13.75, 100.5).cell);
    expect(bangkok).not.toBe(NO_CELL_NEAR);
  });
});

describe("segmentMeetsRect", () => {
  it("finds segments crossing, touching, inside and missing a rectangle", () => {
    expect(segmentMeetsRect(-1, 0.5, 2, 0.5, 0, 0, 1, 1)).toBe(true); // crosses
    expect(segmentMeetsRect(0.2, 0.2, 0.3, 0.3, 0, 0, 1, 1)).toBe(true); // inside
    expect(segmentMeetsRect(1, -1, 1, 2, 0, 0, 1, 1)).toBe(true); // along the east edge
    expect(segmentMeetsRect(-1, 1.5, 1.5, -1.01, 0, 0, 1, 1)).toBe(true); // clips the corner region
    expect(segmentMeetsRect(-1, 3.1, 3.1, -1, 0, 0, 1, 1)).toBe(false); // passes the (1, 1) corner outside
    expect(segmentMeetsRect(-1, 3, 3, -1, 0, 0, 1, 1)).toBe(true); // touches that corner
    expect(segmentMeetsRect(2, 2, 3, 3, 0, 0, 1, 1)).toBe(false);
  });
});

describe("CellRaster on a dense regular grid (pixels of many cells: the lattice)", () => {
  // 0.01° cells over part of Thailand (4° × 4°: 160,000 places), numbered in a shuffled order (ties go to the lowest
  // number), with 3 % of the cells missing at random, a 0.3° hole, a sparse patch and lone cells, under the real coverage mask
  // and provinces.
  const rnd = rng(11);
  const lats: number[] = [];
  const lngs: number[] = [];
  for (let r = 0; r < 400; r++) {
    for (let q = 0; q < 400; q++) {
      const lat = 13 + r * 0.01;
      const lng = 99 + q * 0.01;
      if (rnd() < 0.03 || (lat > 14.5 && lat < 14.8 && lng > 100.2 && lng < 100.5)) continue;
      // A sparse patch (one place in 9 kept): a point's 3 × 3 block may hold a far corner while a nearer cell lies outside it.
      if (lat > 15.5 && lat < 15.8 && lng > 101.5 && lng < 101.8 && (r % 3 !== 0 || q % 3 !== 0)) continue;
      // An empty patch with a lone cell every 0.1°: pixels whose corners are far from any cell hold one.
      if (lat > 16.1 && lat < 16.7 && lng > 102.1 && lng < 102.7 && (r % 10 !== 5 || q % 10 !== 7)) continue;
      lats.push(lat);
      lngs.push(lng);
    }
  }
  const order = lats.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const parts = { ...a, grid: gridOf(Float64Array.from(order, (i) => lats[i]), Float64Array.from(order, (i) => lngs[i]), 0.01) };
  const dense = new CellRaster(parts);

  it("uses the lattice for pixels of many cells and equals locateCell at random points, midpoints and around the hole", () => {
    expect(dense.stats.lattice).toBeGreaterThan(100);
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 100_000; i++) points.push([12.8 + rnd() * 4.4, 98.8 + rnd() * 4.4]);
    // Exactly between two cells (a tie in longitude, in latitude, and at four), and around the hole's edges.
    for (let i = 0; i < 20_000; i++) {
      const r = 13 + Math.floor(rnd() * 400) * 0.01;
      const q = 99 + Math.floor(rnd() * 400) * 0.01;
      points.push([r, q + 0.005], [r + 0.005, q], [r + 0.005, q + 0.005]);
    }
    for (let i = 0; i < 20_000; i++) points.push([14.4 + rnd() * 0.5, 100.1 + rnd() * 0.5]);
    for (let i = 0; i < 20_000; i++) points.push([15.45 + rnd() * 0.4, 101.45 + rnd() * 0.4]);
    for (let i = 0; i < 20_000; i++) points.push([16.05 + rnd() * 0.7, 102.05 + rnd() * 0.7]);
    const bad: string[] = [];
    for (const [lat, lng] of points) {
      const want = locateCell(parts, lat, lng);
      const got = dense.locate(lat, lng);
      if (got !== want && bad.length < 5) bad.push(`${lat},${lng}: raster ${got}, locateCell ${want}`);
    }
    expect(bad).toEqual([]);
  });

  it("has no lattice for cells off a regular lattice or two cells on one place", () => {
    expect(CellLattice.of(Float64Array.from([13, 13.01, 13.02]), Float64Array.from([99, 99, 99]), 0.01)).toBeDefined();
    expect(CellLattice.of(Float64Array.from([13, 13.013, 13.02]), Float64Array.from([99, 99, 99]), 0.01)).toBeUndefined();
    expect(CellLattice.of(Float64Array.from([13, 13.01, 13.01]), Float64Array.from([99, 99, 99]), 0.01)).toBeUndefined();
  });
});

describe("CellRaster on a grid exactly as fine as its pixels", () => {
  it("asks the near test per point: a pixel's padded corners can all fall in near squares while its own square is not", () => {
    // Cells at the pixels' centres (the near test's squares then end where the pixels do), in two columns 6 apart and
    // every 4th row: the middle column's squares are 3 from any cell (not near), their neighbours' 2 (near), and a
    // pixel there has few enough cells around it to list them.
    const { west, south, resolutionDeg } = a.coverage;
    const px = resolutionDeg / SUBDIVISIONS;
    const col0 = Math.round((100 - west) / px);
    const row0 = Math.round((14 - south) / px);
    const lats: number[] = [];
    const lngs: number[] = [];
    for (let r = 0; r < 64; r++) {
      for (let q = 0; q < 64; q++) {
        if ((q !== 29 && q !== 35) || r % 4 !== 0) continue;
        lats.push(south + (row0 + r + 0.5) * px);
        lngs.push(west + (col0 + q + 0.5) * px);
      }
    }
    const parts = { ...a, grid: gridOf(Float64Array.from(lats), Float64Array.from(lngs), px) };
    const raster = new CellRaster(parts);
    const rnd = rng(3);
    const bad: string[] = [];
    let notNear = 0;
    for (let i = 0; i < 20_000; i++) {
      const lat = south + (row0 + 2 + rnd() * 60) * px;
      const lng = west + (col0 + 29 + rnd() * 7) * px;
      const want = locateCell(parts, lat, lng);
      if (want === NO_CELL_NEAR) notNear++;
      const got = raster.locate(lat, lng);
      if (got !== want && bad.length < 5) bad.push(`${lat},${lng}: raster ${got}, locateCell ${want}`);
    }
    expect(notNear).toBeGreaterThan(100);
    expect(bad).toEqual([]);
  });
});
