// Opens the files of one verified drought artifact version (the server serves it, the bulk scorer reads it; the
// checks before it: published-version.ts). The binary files become typed-array views over their bytes (read once, no per-record parsing; the readers check headers, sizes and value ranges); the small
// provinces.json is parsed and turned into the alias lookup used by the province endpoint; tiles-index.json is
// parsed and shape-checked here, so the tiles router never reads an unchecked file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openDroughtGridFile, type DroughtGrid } from "./drought-grid.ts";
import { readTilesIndex } from "./tiles-index.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "./confidence-grid.ts";
import { PROVINCE_SHAPES_FILE, readProvinceShapes, type ProvinceShapes } from "./province-shapes.ts";
import { readAligned } from "./version-files.ts";
import { TILES_INDEX_FILE, type TilesIndex } from "../tiles/build-tiles.ts";
import { ProvinceSummariesReader } from "./province-summaries.ts";
import { ProvinceIndexReader, readProvincesJson, type ProvinceMeta } from "./province-index.ts";
import type { Manifest } from "./manifest.ts";
import { CoverageMask } from "./coverage-mask.ts";
import { isCovered as isCoveredArea } from "../lib/drought/locate-cell.ts";
import { ANSWER_INDICES, gridLatestValidMonth, latestByCell } from "../lib/drought/cell-latest.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../lib/months.ts";
import { ProvinceLookup } from "../lib/province-lookup.ts";
import { gridSourceOf, publishedDroughtSources, type GridSourceName } from "../lib/drought/grid-sources.ts";

export interface DroughtArtifacts {
  version: string;
  grid: DroughtGrid;
  summaries: ProvinceSummariesReader;
  provinceIndex: ProvinceIndexReader;
  coverage: CoverageMask;
  provinces: ProvinceMeta[];
  /** A province number (position in provinces.json and the summaries) by country and spelling. */
  provinceNames: ProvinceLookup;
  /**
   * The month served when a request names none: the build's latest valid month (a share of all cells has every
   * index). A point answers it where its cell has every index then, else its cell's own (cellDefaultOffset).
   */
  defaultMonth: MonthIndex;
  /** Per grid cell, the offset of its default month (lib/drought/cell-latest.ts); −1: none. */
  cellDefaultOffset: Int32Array;
  /** Per grid cell, the rule that chose that month (an index into DEFAULT_RULES of lib/drought/cell-latest.ts). */
  cellDefaultRule: Uint8Array;
  /** Per grid cell, its SPEI-1 in that month (NaN: none); a paged grid's answers read it here, not from disk. */
  cellDefaultSpei1: Float32Array;
  /** The grid's index number of SPEI-1, the index every score is made from (a version without it never serves). */
  spei1Index: number;
  /** YYYY-MM of each month of the grid, by offset (a batch item names its month without formatting it). */
  monthLabels: readonly string[];
  baselineLabel: string;
  /** Confidence of each cell's and province's SPEI-1 (confidence.bin); absent for grids without one (NetCDF). */
  confidence: ConfidenceGrid | undefined;
  /** Simplified province outlines (province-shapes.json), in province order; absent in versions built before them. */
  shapes: ProvinceShapes["provinces"] | undefined;
  /** The version's tile build (tiles-index.json), when it has one. */
  tiles: TilesIndex | undefined;
  /**
   * Products the version was published without (manifest `deferred`: "tiles", "exports"); a later version of the
   * same data holds them. Deferred tiles are rendered on request meanwhile.
   */
  deferred: readonly string[];
  /** What the grid was built from, as the answers name it (the manifest's sources). */
  dataSources: string[];
  gridSource: GridSourceName;
}

/** Files openDroughtArtifacts reads with validating readers (the store's load-time check skips them). */
export const DROUGHT_OPENED_FILES: ReadonlySet<string> = new Set([
  "drought-grid.bin",
  "province-summaries.bin",
  "province-index.bin",
  "coverage-mask.bin",
  "provinces.json",
  PROVINCE_SHAPES_FILE,
  CONFIDENCE_FILE,
  TILES_INDEX_FILE,
]);

export function openDroughtArtifacts(dir: string, manifest: Manifest): DroughtArtifacts {
  const gridPath = join(dir, "drought-grid.bin");
  const grid = openDroughtGridFile(gridPath);
  const summaries = new ProvinceSummariesReader(readAligned(join(dir, "province-summaries.bin")));
  const provinceIndex = new ProvinceIndexReader(readAligned(join(dir, "province-index.bin")));
  const coverage = new CoverageMask(readAligned(join(dir, "coverage-mask.bin")));
  const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
  const artifacts = manifest.artifacts ?? {};
  const confidence = CONFIDENCE_FILE in artifacts ? new ConfidenceGrid(readAligned(join(dir, CONFIDENCE_FILE))) : undefined;
  if (confidence && (confidence.nCells !== grid.nCells || confidence.nMonths !== grid.nMonths || confidence.firstMonth !== grid.firstMonth || confidence.nProvinces !== provinces.length)) {
    throw new Error(`${CONFIDENCE_FILE}: its cells, months or provinces differ from the grid's`);
  }
  const shapes = PROVINCE_SHAPES_FILE in artifacts ? readProvinceShapes(readFileSync(join(dir, PROVINCE_SHAPES_FILE), "utf8")).provinces : undefined;
  if (shapes && shapes.map((x) => x.code).join() !== provinces.map((p) => p.code).join()) throw new Error(`${PROVINCE_SHAPES_FILE}: provinces differ from provinces.json`);
  const tiles = TILES_INDEX_FILE in artifacts ? readTilesIndex(readFileSync(join(dir, TILES_INDEX_FILE), "utf8"), artifacts) : undefined;
  if (summaries.nProvinces !== provinces.length) {
    throw new Error(`province-summaries has ${summaries.nProvinces} provinces, provinces.json ${provinces.length}`);
  }
  const provinceNames = new ProvinceLookup(provinces);
  const latest = manifest.latestValidMonth ? parseMonth(manifest.latestValidMonth) : undefined;
  if (latest === undefined) throw new Error("manifest has no latest valid month");
  checkLatestValidMonth(grid, latest, manifest.settings?.validCellShare);
  if (!manifest.baseline) throw new Error("manifest has no baseline");
  const spei1Index = grid.indexNo("spei1");
  if (spei1Index < 0) throw new Error(`drought-grid.bin: no spei1 index (indices: ${grid.indexNames.join(", ")}); every score is made from SPEI-1`);
  const defaultOfCells = latestByCell(grid, gridPath, grid.monthOffset(latest as MonthIndex));
  return {
    version: manifest.version,
    grid,
    summaries,
    provinceIndex,
    coverage,
    provinces,
    provinceNames,
    defaultMonth: latest,
    cellDefaultOffset: defaultOfCells.offset,
    cellDefaultSpei1: defaultOfCells.spei1,
    cellDefaultRule: defaultOfCells.rule,
    spei1Index,
    monthLabels: Array.from({ length: grid.nMonths }, (_, m) => formatMonth(grid.firstMonth + m)),
    shapes,
    confidence,
    baselineLabel: `${manifest.baseline.start.slice(0, 4)}-${manifest.baseline.end.slice(0, 4)}`,
    tiles,
    deferred: manifest.deferred ?? [],
    dataSources: publishedDroughtSources(manifest.sources),
    gridSource: gridSourceOf(manifest.settings).name,
  };
}

/**
 * The manifest's latestValidMonth — every answer's default month — against the grid (issue 39: a manifest saying
 * 2001-01 over a grid whose data run to 2023 loaded, and every answer served 2001): the month lies in the grid and has
 * every answer index; with the build's VALID_CELL_SHARE (the manifest's settings) it is the month the build's rule
 * gives (gridLatestValidMonth). Months × indices reads of the grid's validity counts.
 */
export function checkLatestValidMonth(grid: DroughtGrid, latest: MonthIndex, share: unknown): void {
  const offset = grid.monthOffset(latest);
  if (offset < 0) throw new Error(`${MANIFEST}: latestValidMonth ${formatMonth(latest)} lies outside the grid's months ${formatMonth(grid.firstMonth)}..${formatMonth(grid.lastMonth)}`);
  const lacking = ANSWER_INDICES.filter((n) => grid.indexNo(n) >= 0 && grid.monthValidCount(offset, grid.indexNo(n)) === 0);
  if (lacking.length > 0) throw new Error(`${MANIFEST}: latestValidMonth ${formatMonth(latest)} has no value of ${lacking.join(", ")} in the grid`);
  if (typeof share === "number" && share > 0 && share <= 1) {
    const rule = gridLatestValidMonth(grid, share);
    if (rule !== latest) {
      throw new Error(`${MANIFEST}: latestValidMonth ${formatMonth(latest)} is not the grid's (${rule === null ? "none" : formatMonth(rule)}: the latest month with each answer index on ${share * 100} % of the cells)`);
    }
  }
}

const MANIFEST = "manifest.json";

/** Whether a point lies in the covered area (lib/drought/locate-cell.ts). */
export function isCovered(a: DroughtArtifacts, lat: number, lng: number): boolean {
  return isCoveredArea(a, lat, lng);
}
