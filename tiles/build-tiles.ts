// Precomputes the map tiles of one artifact version into PMTiles v3 archives (docs/methods/tiles.md):
//   tiles-drought-<index>-<YYYY-MM>.pmtiles  PNG raster, one archive per index and month
//   tiles-provinces.pmtiles, tiles-cells.pmtiles, tiles-countries.pmtiles  MVT (gzip)
//   tiles-index.json  what was built (indices, months, zooms, archives)
// Raster tiles are rendered top-down: a tile without data has no child with data, so its subtree is skipped.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { DroughtGrid } from "../formats/drought-grid.ts";
import type { ProvinceMeta } from "../formats/province-index.ts";
import type { ProvinceSummariesReader } from "../formats/province-summaries.ts";
import { intSetting } from "../lib/config.ts";
import { formatMonth, type MonthIndex } from "../lib/months.ts";
import type { Province } from "../lib/geo/province-rings.ts";
import { legend } from "./colour-scale.ts";
import { PmtilesWriter } from "./pmtiles-writer.ts";
import { droughtAttribution, type GridSourceName } from "../lib/drought/grid-sources.ts";
import { flattenRings } from "../lib/geo/province-rings.ts";
import { landMask } from "./land-mask.ts";
import { cellClasses, cellLattice, encodeClassTilePng, latticeLand, renderClassTile, type CellLattice, type LatticeLand } from "./raster.ts";
import { tileRange, tilesCovering, type BBox } from "./tile-math.ts";
import { cellLand, cellsGeoJson, countriesGeoJson, encodeVectorTile, provincesGeoJson, vectorIndex, type MonthValues } from "./vector.ts";

import { TILE_INDICES } from "./tilesets.ts";
export { TILE_INDICES };
export const TILES_INDEX_FILE = "tiles-index.json";
export const DEFAULT_MAX_ZOOM = 10;
/** Country outlines are Natural Earth 1:50m: deeper zooms add nothing, clients overzoom. */
export const COUNTRIES_MAX_ZOOM = 6;
/** Countries are tiled over the data extent widened by this many degrees (the map's surroundings). */
export const COUNTRIES_MARGIN_DEG = 20;

export function droughtArchiveName(index: string, month: MonthIndex): string {
  return `tiles-drought-${index}-${formatMonth(month)}.pmtiles`;
}

export interface TileBuildInput {
  grid: DroughtGrid;
  provinces: Province[];
  summaries: ProvinceSummariesReader;
  provinceMeta: ProvinceMeta[];
  outDir: string;
  /** Latest months to precompute (default 12, env TILE_MONTHS). */
  months?: number;
  /** Deepest zoom (default 10, env TILE_MAX_ZOOM). */
  maxZoom?: number;
  indices?: string[];
  /** Last precomputed month (default latestMapMonth(grid); the build passes its latest valid month). */
  latestMonth?: MonthIndex;
  /** What the grid was built from, for the archives' attribution (default: the station grid). */
  gridSource?: GridSourceName;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface TileArchiveReport {
  name: string;
  tiles: number;
  bytes: number;
}

export interface TileBuildReport {
  indices: string[];
  months: string[];
  maxZoom: number;
  archives: TileArchiveReport[];
  tilesWritten: number;
  bytes: number;
  /** Raster build time per month (all indices), milliseconds. */
  msPerMonth: number;
  vectorMs: number;
  totalMs: number;
}

/** What tiles-index.json holds; the tiles router reads it. */
export interface TilesIndex {
  version: 1;
  indices: string[];
  months: string[];
  maxZoom: number;
  countriesMaxZoom: number;
  bbox: BBox;
  archives: TileArchiveReport[];
}

/**
 * The month the map opens on: the latest month in which SPEI-1 covers at least `share` of the cells (the
 * build's "latest valid month" rule), else the grid's last month with any value, else its last month.
 */
export function latestMapMonth(grid: DroughtGrid, share = 0.9): MonthIndex {
  const spei1 = grid.indexNames.indexOf("spei1");
  if (spei1 >= 0) {
    for (let off = grid.nMonths - 1; off >= 0; off--) if (grid.monthValidCount(off, spei1) >= share * grid.nCells) return grid.firstMonth + off;
  }
  return grid.latestValidMonth ?? grid.lastMonth;
}

/** The latest `count` months ending at `last`, none before the grid's first month. */
export function precomputedMonths(grid: Pick<DroughtGrid, "firstMonth">, last: MonthIndex, count: number): MonthIndex[] {
  const out: MonthIndex[] = [];
  for (let m = Math.max(grid.firstMonth, last - count + 1); m <= last; m++) out.push(m);
  return out;
}

/** Writes every tile of one index and month that has data; resolves with the archive bytes. */
export function buildDroughtArchive(grid: DroughtGrid, lattice: CellLattice, index: string, month: MonthIndex, maxZoom: number, land?: LatticeLand, attribution = DROUGHT_ATTRIBUTION): { bytes: Uint8Array; tiles: number } {
  const indexPos = grid.indexNames.indexOf(index);
  if (indexPos < 0) throw new Error(`index ${index} is not in the grid (${grid.indexNames.join(", ")})`);
  const monthOffset = grid.monthOffset(month);
  if (monthOffset < 0) throw new Error(`month ${formatMonth(month)} is not in the grid`);
  const classes = cellClasses(grid, monthOffset, indexPos);
  const writer = new PmtilesWriter({
    tileType: "png",
    tileCompression: "none",
    bbox: lattice.bbox,
    minZoom: 0,
    maxZoom,
    center: [(lattice.bbox[0] + lattice.bbox[2]) / 2, (lattice.bbox[1] + lattice.bbox[3]) / 2, 5],
    metadata: { name: `drought-${index}-${formatMonth(month)}`, index, month: formatMonth(month), format: "png", attribution, legend: legend([index]) },
  });
  // Identical class tiles (uniform tiles at deep zooms) are encoded once.
  const pngOf = new Map<string, Buffer>();
  const visit = (z: number, x: number, y: number): void => {
    const classTile = renderClassTile(lattice, classes, z, x, y, land);
    if (classTile === null) return;
    const key = createHash("sha1").update(classTile).digest("base64");
    let png = pngOf.get(key);
    if (png === undefined) {
      png = encodeClassTilePng(classTile);
      pngOf.set(key, png);
    }
    writer.add(z, x, y, png);
    if (z === maxZoom) return;
    const r = tileRange(lattice.bbox, z + 1);
    for (let cx = 2 * x; cx <= 2 * x + 1; cx++) {
      for (let cy = 2 * y; cy <= 2 * y + 1; cy++) if (cx >= r.minX && cx <= r.maxX && cy >= r.minY && cy <= r.maxY) visit(z + 1, cx, cy);
    }
  };
  visit(0, 0, 0);
  return { bytes: writer.finish(), tiles: writer.size };
}

/** Credits every archive's metadata carries (TileJSON `attribution`). */
export const DROUGHT_ATTRIBUTION = droughtAttribution("stations");
export const COUNTRIES_ATTRIBUTION = "Country outlines: Natural Earth (public domain)";

function vectorArchive(name: string, fc: Parameters<typeof vectorIndex>[0], layer: string, bbox: BBox, maxZoom: number, metadataExtra: Record<string, unknown>, centerZoom = 5, attribution = DROUGHT_ATTRIBUTION): { bytes: Uint8Array; tiles: number } {
  const index = vectorIndex(fc, maxZoom);
  const writer = new PmtilesWriter({
    tileType: "mvt",
    tileCompression: "gzip",
    bbox,
    minZoom: 0,
    maxZoom,
    // A centre zoom that shows the data (5: the country; 4: the countries around it), not 0 (Thailand as a dot).
    center: [(bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2, Math.min(centerZoom, maxZoom)],
    metadata: { name, format: "pbf", attribution: name === "countries" ? COUNTRIES_ATTRIBUTION : attribution, ...metadataExtra },
  });
  for (const [z, x, y] of tilesCovering(bbox, 0, maxZoom)) {
    const mvt = encodeVectorTile(index, layer, z, x, y);
    if (mvt !== null) writer.add(z, x, y, gzipSync(mvt));
  }
  return { bytes: writer.finish(), tiles: writer.size };
}

export async function buildTiles(input: TileBuildInput): Promise<TileBuildReport> {
  const t0 = performance.now();
  const { grid, summaries, outDir } = input;
  const monthCount = input.months ?? intSetting(process.env, "TILE_MONTHS", 12);
  const maxZoom = input.maxZoom ?? intSetting(process.env, "TILE_MAX_ZOOM", DEFAULT_MAX_ZOOM);
  if (maxZoom > 14) throw new Error(`maxZoom ${maxZoom} is above 14`);
  const indices = (input.indices ?? [...TILE_INDICES]).filter((i) => grid.indexNames.includes(i));
  if (indices.length === 0) throw new Error(`none of the tile indices is in the grid (${grid.indexNames.join(", ")})`);
  const months = precomputedMonths(grid, input.latestMonth ?? latestMapMonth(grid), monthCount);
  // The server refuses a tiles index without a month (formats/tiles-index.ts): so does the build that would write one.
  if (months.length === 0) throw new Error(`no month to precompute tiles for (TILE_MONTHS=${monthCount})`);
  const lattice = cellLattice(grid);
  // Coastal cells are drawn over their land only (the mask is month-independent: made once).
  const land = latticeLand(lattice, landMask(flattenRings(input.provinces), lattice.bbox, grid.resolutionDeg));
  const attribution = droughtAttribution(input.gridSource ?? "stations");
  const archives: TileArchiveReport[] = [];
  const total = months.length * indices.length + 3;
  let done = 0;
  const save = (name: string, a: { bytes: Uint8Array; tiles: number }) => {
    writeFileSync(join(outDir, name), a.bytes);
    archives.push({ name, tiles: a.tiles, bytes: a.bytes.length });
    input.onProgress?.(++done, total, name);
  };

  const tRaster = performance.now();
  for (const month of months) {
    for (const index of indices) save(droughtArchiveName(index, month), buildDroughtArchive(grid, lattice, index, month, maxZoom, land, attribution));
  }
  const rasterMs = performance.now() - tRaster;

  const tVector = performance.now();
  const sumIndex = new Map(summaries.indexNames.map((n, i) => [n, i]));
  const provinceValues: MonthValues = {
    indices,
    months,
    value: (p, index, month) => {
      const off = summaries.monthOffset(month);
      const pos = sumIndex.get(index);
      return off < 0 || pos === undefined ? NaN : summaries.record(p, off)[pos];
    },
  };
  const gridIndex = new Map(grid.indexNames.map((n, i) => [n, i]));
  const cellValues: MonthValues = {
    indices,
    months,
    value: (c, index, month) => grid.values[(c * grid.nMonths + grid.monthOffset(month)) * grid.nIndices + gridIndex.get(index)!],
  };
  const provinces = provincesGeoJson(input.provinces, provinceValues);
  provinces.features.forEach((f, i) => {
    if (input.provinceMeta[i]) f.properties = { ...f.properties, slug: input.provinceMeta[i].slug };
  });
  const monthLabels = months.map(formatMonth);
  const layerMeta = (id: string, fields: Record<string, string>) => ({ vector_layers: [{ id, fields, minzoom: 0, maxzoom: maxZoom }], indices, months: monthLabels });
  const valueFields = Object.fromEntries(months.flatMap((m) => indices.map((i) => [`${i}_${formatMonth(m)}`, "Number"])));
  save("tiles-provinces.pmtiles", vectorArchive("provinces", provinces, "provinces", lattice.bbox, maxZoom, layerMeta("provinces", { code: "String", nameEn: "String", nameTh: "String", slug: "String", ...valueFields }), 5, attribution));
  save("tiles-cells.pmtiles", vectorArchive("cells", cellsGeoJson(grid, cellValues, cellLand(grid, lattice, input.provinces, land)), "cells", lattice.bbox, maxZoom, layerMeta("cells", { cell: "Number", gridId: "String", lat: "Number", lng: "Number", ...valueFields }), 5, attribution));
  const m = COUNTRIES_MARGIN_DEG;
  const b = lattice.bbox;
  const countriesBBox: BBox = [b[0] - m, Math.max(-85, b[1] - m), b[2] + m, Math.min(85, b[3] + m)];
  const countriesZoom = Math.min(COUNTRIES_MAX_ZOOM, maxZoom);
  save("tiles-countries.pmtiles", vectorArchive("countries", countriesGeoJson(), "countries", countriesBBox, countriesZoom, { vector_layers: [{ id: "countries", fields: { name: "String", id: "String" }, minzoom: 0, maxzoom: countriesZoom }] }, 4));
  const vectorMs = performance.now() - tVector;

  const tilesIndex: TilesIndex = { version: 1, indices, months: monthLabels, maxZoom, countriesMaxZoom: countriesZoom, bbox: lattice.bbox, archives };
  writeFileSync(join(outDir, TILES_INDEX_FILE), JSON.stringify(tilesIndex, null, 1) + "\n");
  return {
    indices,
    months: monthLabels,
    maxZoom,
    archives,
    tilesWritten: archives.reduce((s, a) => s + a.tiles, 0),
    bytes: archives.reduce((s, a) => s + a.bytes, 0),
    msPerMonth: months.length ? rasterMs / months.length : 0,
    vectorMs,
    totalMs: performance.now() - t0,
  };
}

