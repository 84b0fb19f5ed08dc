// A small synthetic drought artifact version (6 cells, 2 provinces, 2 months) for the tile tests.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeDroughtGrid, type DroughtGrid } from "../../formats/drought-grid.ts";
import { writeProvinceIndex, writeProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import { ProvinceSummariesReader, writeProvinceSummaries } from "../../formats/province-summaries.ts";
import { INSIDE, writeCoverageMask } from "../../formats/coverage-mask.ts";
import type { Manifest } from "../../formats/manifest.ts";
import { monthIndex, type MonthIndex } from "../../lib/months.ts";
import type { Province } from "../../pipeline/provinces/boundaries.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { PROVINCE_SHAPES_FILE, writeProvinceShapes } from "../../formats/province-shapes.ts";
import { writeExports } from "../../pipeline/publish/exports.ts";
import { buildTiles } from "../../tiles/build-tiles.ts";

export const INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"];
export const JAN = monthIndex(2020, 1);
export const FEB = monthIndex(2020, 2);
/** Cells: 0.5° squares centred here (lat, lng). */
export const CELLS: Array<[number, number]> = [
  [13.25, 100.25],
  [13.25, 100.75],
  [13.75, 100.25],
  [13.75, 100.75],
  [13.25, 101.25],
  [13.75, 101.25],
];
/** SPEI-1 in February per cell: D4, D3, D2, D1, near normal, W4. */
export const SPEI1_FEB = [-2.5, -1.7, -1.4, -1.0, 0.1, 2.5];
/** Every other value: index i, month m, cell c → 0.1·i − 0.2·m + 0.05·c (January SPEI-1 = 0.05·c). */
export function otherValue(c: number, m: number, i: number): number {
  return 0.1 * i - 0.2 * m + 0.05 * c;
}

export const PROVINCES: Province[] = [
  { code: "TH-10", country: "THA", nameEn: "Alpha", nameTh: "อัลฟา", slug: "alpha", region: "Central", polygons: [[[[100, 13], [101, 13], [101, 14], [100, 14], [100, 13]]]] },
  { code: "TH-11", country: "THA", nameEn: "Beta", nameTh: "เบตา", slug: "beta", region: "Central", polygons: [[[[101, 13], [101.5, 13], [101.5, 14], [101, 14], [101, 13]]]] },
];
export const PROVINCE_META: ProvinceMeta[] = PROVINCES.map((p) => ({
  code: p.code,
  country: p.country,
  nameEn: p.nameEn,
  nameTh: p.nameTh,
  slug: p.slug,
  region: p.region,
  aliases: [],
  bbox: p.code === "TH-10" ? [100, 13, 101, 14] : [101, 13, 101.5, 14],
  areaKm2: 1,
}));
/** Province means: mean of its cells' values (Alpha cells 0–3, Beta cells 4–5). */
export const PROVINCE_CELLS = [[0, 1, 2, 3], [4, 5]];

export function cellValue(c: number, m: number, i: number): number {
  return m === 1 && i === 0 ? SPEI1_FEB[c] : otherValue(c, m, i);
}

/** drought-grid.bin of the fixture's cells (0.5°, THA, INDICES) for months from `firstMonth`; values cell-major. */
export function fixtureGridBytes(firstMonth: MonthIndex, nMonths: number, values: Float32Array): Uint8Array {
  return writeDroughtGrid({
    firstMonth,
    nMonths,
    indexNames: INDICES,
    baselineStart: monthIndex(1961, 1),
    baselineEnd: monthIndex(1990, 12),
    resolutionDeg: 0.5,
    cellIds: Uint32Array.from(CELLS, (_, c) => 100 + c),
    cellLats: Float64Array.from(CELLS, (c) => c[0]),
    cellLngs: Float64Array.from(CELLS, (c) => c[1]),
    countries: ["THA"],
    cellCountry: new Uint8Array(CELLS.length),
    values,
  });
}

export interface Fixture {
  dir: string;
  version: string;
  grid: DroughtGrid;
  summaries: ProvinceSummariesReader;
  data: DroughtArtifacts;
}

export function writeFixture(dir = mkdtempSync(join(tmpdir(), "tiles-fixture-"))): Fixture {
  const nCells = CELLS.length;
  const values = new Float32Array(nCells * 2 * INDICES.length);
  for (let c = 0; c < nCells; c++) for (let m = 0; m < 2; m++) for (let i = 0; i < INDICES.length; i++) values[(c * 2 + m) * INDICES.length + i] = cellValue(c, m, i);
  writeFileSync(join(dir, "drought-grid.bin"), fixtureGridBytes(JAN, 2, values));
  const means = new Float32Array(2 * 2 * INDICES.length);
  for (let p = 0; p < 2; p++) {
    for (let m = 0; m < 2; m++) {
      for (let i = 0; i < INDICES.length; i++) {
        const cs = PROVINCE_CELLS[p];
        means[(p * 2 + m) * INDICES.length + i] = cs.reduce((s, c) => s + Math.fround(cellValue(c, m, i)), 0) / cs.length;
      }
    }
  }
  writeFileSync(
    join(dir, "province-summaries.bin"),
    writeProvinceSummaries({ indexNames: INDICES, nProvinces: 2, nMonths: 2, firstMonth: JAN, values: means, cellsUsed: Uint16Array.from([4, 4, 2, 2]) }),
  );
  writeFileSync(join(dir, "province-index.bin"), writeProvinceIndex(flattenRings(PROVINCES)));
  writeFileSync(join(dir, "provinces.json"), writeProvincesJson(PROVINCE_META));
  // Every 0.5° square of the 3 × 2 extent is inside the covered area.
  writeFileSync(join(dir, "coverage-mask.bin"), writeCoverageMask({ west: 100, south: 13, resolutionDeg: 0.5, nCols: 3, nRows: 2, state: new Uint8Array(6).fill(INSIDE) }));
  const version = "20200301T000000Z-fixture";
  const manifest = { version, latestValidMonth: "2020-02", baseline: { start: "1961-01", end: "1990-12" } } as unknown as Manifest;
  const data = openDroughtArtifacts(dir, manifest);
  return { dir, version, grid: data.grid, summaries: data.summaries, data };
}

/**
 * The rest of what a drought version holds (formats/version-files.ts REQUIRED_FILES): province shapes, a small tile
 * build (1 month, zoom ≤ 4) and the exports, for a fixture published as a version.
 */
export async function writeVersionExtras(dir: string, grid: DroughtGrid, summaries: ProvinceSummariesReader): Promise<void> {
  writeFileSync(join(dir, PROVINCE_SHAPES_FILE), writeProvinceShapes(PROVINCES));
  await buildTiles({ grid, provinces: PROVINCES, summaries, provinceMeta: PROVINCE_META, outDir: dir, months: 1, maxZoom: 4 });
  writeExports(dir, grid, summaries, PROVINCE_META);
}
