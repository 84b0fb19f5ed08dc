// Coastal drought cells drawn over their land only: the land mask (tiles/land-mask.ts) from province rings, and the
// raster tiles that use it (tiles/raster.ts), on a synthetic pair of provinces and on the real artifacts.
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { ProvinceIndexReader } from "../../formats/province-index.ts";
import { readAligned } from "../../formats/version-files.ts";
import { isLand, LAND_MASK_SUBDIVISION, landMask } from "../../tiles/land-mask.ts";
import { cellClasses, cellLattice, latticeLand, renderClassTile } from "../../tiles/raster.ts";
import { area, booleanPointInPolygon, point } from "@turf/turf";
import type { MultiPolygon } from "geojson";
import { readProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import { readFileSync } from "node:fs";
import { cellLand, cellsGeoJson, provincesFromRings } from "../../tiles/vector.ts";
import { latToTileY, lngToTileX, TILE_SIZE } from "../../tiles/tile-math.ts";

describe("landMask", () => {
  // Province 0: the unit square with a square hole; province 1: its neighbour to the east, sharing the edge x = 1.
  const ring = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
  const coords = [...ring(0, 0, 1, 1), ...ring(0.25, 0.25, 0.75, 0.75), ...ring(1, 0, 2, 1)];
  const rings = { coords, ringStart: [0, 4, 8, 12], ringProvince: [0, 0, 1], nProvinces: 2 };
  const m = landMask(rings, [-0.5, -0.5, 2.5, 1.5], 0.25);

  it("is land inside a province, not in its hole, across a shared border, not outside", () => {
    expect(m.res).toBe(0.25 / LAND_MASK_SUBDIVISION);
    expect(isLand(m, 0.1, 0.5)).toBe(true);
    expect(isLand(m, 0.5, 0.5)).toBe(false); // the hole
    // Both sides of the shared edge: parity per province, not over all rings.
    expect(isLand(m, 0.99, 0.5)).toBe(true);
    expect(isLand(m, 1.01, 0.5)).toBe(true);
    expect(isLand(m, 1.9, 0.9)).toBe(true);
    expect(isLand(m, 2.1, 0.5)).toBe(false);
    expect(isLand(m, 0.5, 1.1)).toBe(false);
    expect(isLand(m, -1, 0.5)).toBe(false); // outside the mask's extent
    // Land share: 2 − 0.25 of the 3 × 2 extent.
    let set = 0;
    for (const b of m.bits) for (let k = 0; k < 8; k++) set += (b >> k) & 1;
    expect(set * m.res * m.res).toBeCloseTo(1.75, 2);
  });
});

describe("raster tiles over the real artifacts", () => {
  const dir = join(inject("artifactsDir"), "current");
  const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
  const provinces = new ProvinceIndexReader(readAligned(join(dir, "province-index.bin")));
  const lattice = cellLattice(grid);
  const land = landMask(provinces.rings, lattice.bbox, grid.resolutionDeg);
  const clip = latticeLand(lattice, land);
  // The latest month in which every cell has SPEI-3.
  const k = grid.indexNo("spei3");
  let month = grid.nMonths - 1;
  while (month > 0 && grid.monthValidCount(month, k) < grid.nCells) month--;
  const classes = cellClasses(grid, month, k);
  const pixel = (z: number, lng: number, lat: number, withLand: boolean) => {
    const fx = lngToTileX(lng, z);
    const fy = latToTileY(lat, z);
    const tile = renderClassTile(lattice, classes, z, Math.floor(fx), Math.floor(fy), withLand ? clip : undefined);
    return tile ? tile[Math.floor((fy % 1) * TILE_SIZE) * TILE_SIZE + Math.floor((fx % 1) * TILE_SIZE)] : 0;
  };

  it("the mask agrees with the province index: land at Bangkok and Chiang Mai, sea in the gulf and the Andaman Sea", () => {
    for (const [lng, lat] of [[100.5, 13.75], [98.98, 18.79], [102.1, 14.97]]) {
      expect(isLand(land, lng, lat)).toBe(true);
      expect(provinces.provinceAt(lat, lng)).toBeGreaterThanOrEqual(0);
    }
    for (const [lng, lat] of [[100.95, 12.4], [98.0, 7.6], [101.3, 12.5]]) {
      expect(isLand(land, lng, lat)).toBe(false);
      expect(provinces.provinceAt(lat, lng)).toBe(-1);
    }
  });

  it("a coastal cell's sea pixels are transparent with the mask and coloured without; its land pixels keep their class", () => {
    // Coastal cells: a coloured cell with a sea point inside its square (a quarter of a cell from its centre).
    const h = grid.resolutionDeg / 4;
    const coastal: [number, number, number][] = [];
    for (let c = 0; c < grid.nCells; c++) {
      if (classes[c] === 0) continue;
      for (const [dx, dy] of [[-h, -h], [h, -h], [-h, h], [h, h]]) {
        const lng = grid.cellLng(c) + dx;
        const lat = grid.cellLat(c) + dy;
        // Sea with a margin of a mask cell or two around it, so that the pixel holding the point is sea as well.
        const sea = [-0.01, 0, 0.01].every((ex) => [-0.01, 0, 0.01].every((ey) => !isLand(land, lng + ex, lat + ey)));
        if (sea && provinces.provinceAt(lat, lng) < 0) coastal.push([c, lng, lat]);
      }
    }
    expect(coastal.length).toBeGreaterThan(50);
    for (const [c, lng, lat] of coastal) {
      expect(pixel(10, lng, lat, false)).toBe(classes[c]);
      expect(pixel(10, lng, lat, true)).toBe(0);
    }
    // Bangkok: the same class either way.
    expect(pixel(10, 100.5, 13.75, true)).toBe(pixel(10, 100.5, 13.75, false));
    expect(pixel(10, 100.5, 13.75, true)).toBeGreaterThan(0);
  });

  it("vector cells: a coastal cell is its land (the sea point outside it, smaller than its square), an inland cell its square", () => {
    const meta: ProvinceMeta[] = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    const landOf = cellLand(grid, lattice, provincesFromRings(provinces.rings, meta), clip);
    const fc = cellsGeoJson(grid, { indices: [], months: [], value: () => NaN }, landOf);
    const byCell = new Map(fc.features.map((f) => [f.properties!.cell as number, f]));
    const squareKm2 = (c: number) => (111.32 * grid.resolutionDeg) ** 2 * Math.cos((grid.cellLat(c) * Math.PI) / 180);
    let coastal = 0;
    for (let c = 0; c < grid.nCells; c++) {
      const f = byCell.get(c);
      const h = grid.resolutionDeg / 4;
      const seaCorner = [[-h, -h], [h, -h], [-h, h], [h, h]].find(([dx, dy]) => [-0.01, 0, 0.01].every((e) => !isLand(land, grid.cellLng(c) + dx + e, grid.cellLat(c) + dy + e)) && provinces.provinceAt(grid.cellLat(c) + dy, grid.cellLng(c) + dx) < 0);
      if (!seaCorner) continue;
      coastal++;
      if (!f) continue; // no land at all in the square
      const geom = f.geometry as MultiPolygon;
      expect(booleanPointInPolygon(point([grid.cellLng(c) + seaCorner[0], grid.cellLat(c) + seaCorner[1]]), geom)).toBe(false);
      expect(area(geom) / 1e6).toBeLessThan(squareKm2(c));
    }
    expect(coastal).toBeGreaterThan(50);
    // Khon Kaen's 1° cell, inland: the square itself.
    const kk = [...byCell.values()].find((f) => Math.abs((f.properties!.lat as number) - 16.5) < 1e-6 && Math.abs((f.properties!.lng as number) - 102.5) < 1e-6)!;
    expect((kk.geometry as MultiPolygon).coordinates).toEqual([[[[102, 16], [103, 16], [103, 17], [102, 17], [102, 16]]]]);
  });
});

