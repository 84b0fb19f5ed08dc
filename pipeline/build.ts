// The drought build: station files → monthly series → station indices → grid cells and province summaries →
// binary artifacts → a published version. Each stage is a module of its own; this file only wires them,
// reports progress and collects the build report.
import { copyFileSync, existsSync, linkSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createHash } from "node:crypto";
import { log } from "../lib/log.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../lib/months.ts";
import { sha256File, type FileChecksum } from "../formats/manifest.ts";
import { writeDroughtGrid, interleaveIndices, openDroughtGrid } from "../formats/drought-grid.ts";
import { ProvinceSummariesReader, writeProvinceSummaries } from "../formats/province-summaries.ts";
import { buildTiles, type TileBuildReport } from "../tiles/build-tiles.ts";
import { writeExports, type ExportsReport } from "./publish/exports.ts";
import { CONFIDENCE_FILE, ConfidenceGrid, NO_BIN, writeConfidenceGrid } from "../formats/confidence-grid.ts";
import type { Calibration } from "./grid/confidence.ts";
import { PROVINCE_SHAPES_FILE, writeProvinceShapes } from "../formats/province-shapes.ts";
import { INSIDE, MIXED, writeCoverageMask, type CoverageMaskData } from "../formats/coverage-mask.ts";
import type { LandCells } from "./grid/land-cells.ts";
import { readProvincesJson, writeProvinceIndex, writeProvincesJson, type ProvinceMeta } from "../formats/province-index.ts";
import { GHCND_SUBDIR } from "./inputs/ghcnd/stations.ts";
import { gridFromStations } from "./grid/from-stations.ts";
import { gridFromNetcdf } from "./grid/from-netcdf.ts";
import { gridFromCpc } from "./grid/from-cpc.ts";
import { loadProvinces, provincesPath } from "./provinces/boundaries.ts";
import { buildAliases, loadAliasSources, OPENGIS_FILE, VARIANTS_FILE } from "./provinces/aliases.ts";
import { provinceMetadata } from "./provinces/metadata.ts";
import { flattenRings } from "../lib/geo/province-rings.ts";
import { cellsUsedPerRecord, summarizeProvinces } from "./provinces/summaries.ts";
import { codeFingerprint, filesUnder } from "./publish/code-fingerprint.ts";
import { createStaging, currentVersion, discardStaging, makeVersionId, publishStaging, pruneVersions, type ManifestBody } from "./publish/publish.ts";
import { readManifest, type Manifest } from "../formats/manifest.ts";
import { readAligned } from "../formats/version-files.ts";
import type { Province } from "../lib/geo/province-rings.ts";
import type { BuildSettings } from "./build-settings.ts";
import { gridCandidates, resolvedGridSource } from "./grid/grid-source.ts";
import { droughtDataSources, GRID_SOURCES, type GridSourceName } from "../lib/drought/grid-sources.ts";

/** Index layers of the grid, in record order. */
export const GRID_INDICES = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"] as const;
/** Index layers of the province summaries. */
export const PROVINCE_INDICES = GRID_INDICES;

/** Cell-major [cell * nMonths + m] values kept for the months first .. first + n - 1. */
function trimMonths(values: Uint8Array, nCells: number, nMonths: number, first: number, n: number): Uint8Array {
  const out = new Uint8Array(nCells * n);
  for (let c = 0; c < nCells; c++) out.set(values.subarray(c * nMonths + first, c * nMonths + first + n), c * n);
  return out;
}

/** Per province and month, the mean confidence of the cells that touch it and have an estimate (NaN: none). */
function provinceMeanConfidence(bins: Uint8Array, calibration: Calibration, cells: { weightCell: Uint32Array; weightProvince: Uint8Array }, nMonths: number, nProvinces: number): Float32Array {
  const sum = new Float64Array(nProvinces * nMonths);
  const count = new Uint32Array(nProvinces * nMonths);
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = cells.weightCell[e];
    const p = cells.weightProvince[e];
    for (let m = 0; m < nMonths; m++) {
      const b = bins[c * nMonths + m];
      if (b === NO_BIN) continue;
      sum[p * nMonths + m] += calibration.bins[b].confidence;
      count[p * nMonths + m]++;
    }
  }
  return Float32Array.from(sum, (s, i) => (count[i] ? s / count[i] : NaN));
}
/** The indices a drought answer carries: the default month has all of them (latestServedMonth). */
export const SERVED_INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;

/**
 * Offset of the latest month in [first, last] in which every layer has a value on at least `share` of the cells,
 * or -1. Layers are cell-major (cell × nMonths + month).
 */
export function latestServedMonth(layers: readonly Float32Array[], nCells: number, nMonths: number, share: number, first: number, last: number): number {
  for (let m = last; m >= first; m--) {
    let all = true;
    for (const layer of layers) {
      let valid = 0;
      for (let c = 0; c < nCells; c++) if (layer[c * nMonths + m] === layer[c * nMonths + m]) valid++;
      if (valid < share * nCells) {
        all = false;
        break;
      }
    }
    if (all) return m;
  }
  return -1;
}

export const ARTIFACT_FILES = {
  grid: "drought-grid.bin",
  provinceSummaries: "province-summaries.bin",
  provinceIndex: "province-index.bin",
  provinces: "provinces.json",
  coverage: "coverage-mask.bin",
  report: "build-report.json",
} as const;

export interface BuildOptions {
  dataDir: string;
  artifactsDir: string;
  settings: BuildSettings;
  /** Rebuild even when inputs, settings and code match the current version. */
  force?: boolean;
  /**
   * Publish the grid, the summaries and the province files without the map tiles and the exports (manifest
   * `deferred`: formats/version-directory.md); the next build without `defer` of the same inputs, settings and code
   * adds them in a new version (`make serve` runs it in the background). An unchanged build stays unchanged.
   */
  defer?: boolean;
  now?: Date;
}

/** The derived products a deferred build leaves to the next one (formats/version-files.ts DEFERRABLE). */
export const DEFERRED_PRODUCTS = ["tiles", "exports"] as const;

export interface BuildResult {
  status: "published" | "unchanged";
  version: string;
  dir?: string;
  /** What the grid was built from (the settings' candidate that built). */
  gridSource: GridSourceName;
  /** Published without these (defer); they come with the next build. */
  deferred?: string[];
  /** The version whose deferred tiles and exports this build added (a new version with the same data). */
  completed?: string;
}

function stage<T>(name: string, fn: () => T): T {
  const t0 = performance.now();
  log.info({ stage: name }, `${name}…`);
  const out = fn();
  log.info({ stage: name, ms: Math.round(performance.now() - t0) }, `${name} done`);
  return out;
}

/** Checksums of the inputs the build reads, keyed by their path relative to the data directory. */
async function checksumInputs(dataDir: string, settings: BuildSettings): Promise<Record<string, FileChecksum>> {
  const nc = settings.netcdf;
  const sourceFiles =
    settings.source === "netcdf"
      ? [nc?.precipitation, nc?.temperature, nc?.temperatureStations?.dat, nc?.temperatureStations?.inv, ...Object.values(nc?.speibase ?? {})].filter((f): f is string => !!f).map((f) => resolve(dataDir, f))
      : filesUnder(join(dataDir, GHCND_SUBDIR));
  // The alias lists are optional (aliases.ts): a missing one is not an input.
  const files = [
    ...sourceFiles,
    provincesPath(dataDir),
    ...[VARIANTS_FILE, OPENGIS_FILE].map((f) => join(dataDir, f)).filter((f) => existsSync(f)),
  ];
  const out: Record<string, FileChecksum> = {};
  for (const f of files) out[relative(dataDir, f)] = { bytes: statSync(f).size, sha256: await sha256File(f) };
  return out;
}

/** A fingerprint of the code that computes the artifacts, so a code change yields a new version. */
/** The code behind the drought artifacts (not the feed snapshots, the server or the tiles). */
export const DROUGHT_CODE = [
  "lib",
  "formats",
  "pipeline/inputs",
  "pipeline/indices",
  "pipeline/grid",
  "pipeline/provinces",
  "pipeline/publish",
  "pipeline/build.ts",
  "pipeline/build-settings.ts",
  "tiles",
];

function fingerprint(inputs: Record<string, FileChecksum>, settings: BuildSettings, code: string): string {
  return createHash("sha256").update(JSON.stringify({ inputs, settings, code })).digest("hex");
}

/**
 * Squares whose sub-samples all fall in a province are inside; other land squares, and empty squares next to
 * land (a coastal sliver the sub-samples missed), are mixed and get the polygon test in the server.
 */
export function coverageMask(cells: LandCells): CoverageMaskData {
  const { nCols, nRows } = cells;
  const fraction = new Float64Array(cells.lat.length);
  for (let e = 0; e < cells.weightCell.length; e++) fraction[cells.weightCell[e]] += cells.weightFraction[e];
  const state = new Uint8Array(nCols * nRows);
  for (let c = 0; c < cells.lat.length; c++) state[cells.row[c] * nCols + cells.col[c]] = fraction[c] >= 1 - 1e-6 ? INSIDE : MIXED;
  const land = state.slice();
  for (let r = 0; r < nRows; r++) {
    for (let q = 0; q < nCols; q++) {
      if (land[r * nCols + q] === 0) continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dq = -1; dq <= 1; dq++) {
          const rr = r + dr;
          const qq = q + dq;
          if (rr >= 0 && qq >= 0 && rr < nRows && qq < nCols && state[rr * nCols + qq] === 0) state[rr * nCols + qq] = MIXED;
        }
      }
    }
  }
  return { west: cells.west, south: cells.south, resolutionDeg: cells.resolutionDeg, nCols, nRows, state };
}

function stationQcOf(report: object): Record<string, unknown> {
  return "stationQc" in report ? { stations: report.stationQc } : {};
}

/**
 * Builds and publishes the drought artifacts from the first grid source candidate that builds (GRID_SOURCE=auto:
 * reanalysis when its inputs are present, else the stations; pipeline/grid/grid-source.ts). A candidate that
 * fails is logged with its reason and the next one tried; the last one's failure is the build's.
 */
export async function buildDrought(opts: BuildOptions): Promise<BuildResult> {
  const candidates = gridCandidates(opts.settings, opts.dataDir);
  const skipped: { gridSource: string; reason: string }[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const settings = candidates[i];
    const gridSource = resolvedGridSource(settings);
    log.info({ gridSource, candidates: candidates.map(resolvedGridSource) }, `drought grid from ${GRID_SOURCES[gridSource].label}`);
    try {
      const r = await buildFromSource({ ...opts, settings }, skipped);
      return { ...r, gridSource };
    } catch (err) {
      if (i === candidates.length - 1) throw err;
      const reason = (err as Error).message;
      log.warn({ gridSource, err: reason }, `cannot build the grid from ${gridSource}; trying ${resolvedGridSource(candidates[i + 1])}`);
      skipped.push({ gridSource, reason });
    }
  }
  throw new Error("no grid source to build from");
}

/** What the tiles and the exports are made from: the version's grid and summaries and the province boundaries. */
interface DerivedInput {
  dir: string;
  gridBytes: Uint8Array;
  summaryBytes: Uint8Array;
  provinces: Province[];
  provinceMeta: ProvinceMeta[];
  confidence: ConfidenceGrid | undefined;
  settings: BuildSettings;
  latestValid: MonthIndex | null;
  gridSource: GridSourceName;
}

/** The map tiles of the latest months and the exports, written into `dir` (a staging directory). */
async function buildDerived(d: DerivedInput): Promise<{ tiles: TileBuildReport; exports: ExportsReport }> {
  // Map tiles of the latest months, inside the version so they are checksummed and swapped with it.
  log.info({ stage: "tiles", months: d.settings.tileMonths, maxZoom: d.settings.tileMaxZoom }, "tiles…");
  const tiles = await buildTiles({
    grid: openDroughtGrid(d.gridBytes),
    provinces: d.provinces,
    summaries: new ProvinceSummariesReader(d.summaryBytes),
    provinceMeta: d.provinceMeta,
    outDir: d.dir,
    months: d.settings.tileMonths,
    maxZoom: d.settings.tileMaxZoom,
    latestMonth: d.latestValid ?? undefined,
    gridSource: d.gridSource,
    // Every 12th raster archive, and each vector archive (several seconds each).
    onProgress: (done, total, label) => {
      if (done % 12 === 0 || !label.startsWith("tiles-drought-")) log.info({ stage: "tiles", done, total, label }, "progress");
    },
  });
  log.info({ stage: "tiles", tiles: tiles.tilesWritten, bytes: tiles.bytes, ms: tiles.totalMs }, "tiles done");
  // Exports for other engines (formats/drought-export.md): GeoParquet and CSV of the grid and the summaries.
  const exports = stage("exports", () => writeExports(d.dir, openDroughtGrid(d.gridBytes), new ProvinceSummariesReader(d.summaryBytes), d.provinceMeta, d.confidence));
  return { tiles, exports };
}

function tilesReport(tiles: TileBuildReport) {
  return { tilesWritten: tiles.tilesWritten, bytes: tiles.bytes, msPerMonth: tiles.msPerMonth, months: tiles.months, indices: tiles.indices };
}

/** A hard link of a published file (versions are never written in place), or a copy where links fail. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Adds the deferred tiles and exports to the current version `m` (same inputs, settings and code): a new version
 * with the current one's files (hard links), the tiles and exports made from them and the province boundaries, the
 * build report completed, and no `deferred` in the manifest.
 */
async function completeDeferred(opts: BuildOptions, m: Manifest, gridSource: GridSourceName): Promise<Omit<BuildResult, "gridSource">> {
  const t0 = performance.now();
  const { artifactsDir, settings } = opts;
  const from = realpathSync(join(artifactsDir, "current"));
  log.info({ version: m.version, deferred: m.deferred }, `adding the deferred ${m.deferred!.join(" and ")} to ${m.version}`);
  const fp = String(m.settings.fingerprint);
  const version = makeVersionId(opts.now ?? new Date(), fp.slice(0, 10));
  const staging = createStaging(artifactsDir, version);
  try {
    for (const name of Object.keys(m.artifacts)) if (name !== m.report) linkOrCopy(join(from, name), join(staging.dir, name));
    const provinces = stage("provinces", () => loadProvinces(provincesPath(opts.dataDir)));
    const derived = await buildDerived({
      dir: staging.dir,
      gridBytes: readAligned(join(staging.dir, ARTIFACT_FILES.grid)),
      summaryBytes: readAligned(join(staging.dir, ARTIFACT_FILES.provinceSummaries)),
      provinces,
      provinceMeta: readProvincesJson(readFileSync(join(staging.dir, ARTIFACT_FILES.provinces), "utf8")),
      confidence: CONFIDENCE_FILE in m.artifacts ? new ConfidenceGrid(readAligned(join(staging.dir, CONFIDENCE_FILE))) : undefined,
      settings,
      latestValid: m.latestValidMonth ? (parseMonth(m.latestValidMonth) ?? null) : null,
      gridSource,
    });
    const { deferred: _deferred, ...report } = JSON.parse(readFileSync(join(from, m.report), "utf8")) as Record<string, unknown>;
    const completedAt = (opts.now ?? new Date()).toISOString();
    const full = { ...report, version, tiles: tilesReport(derived.tiles), exports: derived.exports, completes: { version: m.version, at: completedAt, ms: Math.round(performance.now() - t0) } };
    writeFileSync(join(staging.dir, m.report), JSON.stringify(full, null, 2) + "\n");
    const { manifestFormat: _f, version: _v, artifacts: _a, deferred: _d, ...body } = m;
    const dir = await publishStaging(staging, body as ManifestBody);
    const removed = await pruneVersions(artifactsDir, settings.keepVersions);
    log.info({ version, completes: m.version, dir, removed, ms: Math.round(performance.now() - t0) }, "published with tiles and exports");
    return { status: "published", version, dir, completed: m.version };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}

async function buildFromSource(opts: BuildOptions, skipped: { gridSource: string; reason: string }[]): Promise<Omit<BuildResult, "gridSource">> {
  const { dataDir, artifactsDir, settings } = opts;
  const gridSource = resolvedGridSource(settings);
  const t0 = performance.now();
  const inputs = await checksumInputs(dataDir, settings);
  const code = codeFingerprint(DROUGHT_CODE);
  const fp = fingerprint(inputs, settings, code);

  const current = currentVersion(artifactsDir);
  if (current && !opts.force) {
    let m: Manifest | undefined;
    try {
      m = readManifest(join(artifactsDir, "current"));
    } catch {
      // An unreadable current manifest is rebuilt over.
    }
    if (m?.settings.fingerprint === fp) {
      if (m.deferred?.length && !opts.defer) return await completeDeferred(opts, m, gridSource);
      log.info({ version: current, deferred: m.deferred }, "inputs, settings and code unchanged: nothing to publish");
      return { status: "unchanged", version: current, deferred: m.deferred };
    }
  }

  const provinces = stage("provinces", () => loadProvinces(provincesPath(dataDir)));
  const aliases = buildAliases(loadAliasSources(provinces, dataDir));
  const stationTemperature = settings.netcdf?.temperatureStations;
  const source =
    settings.source === "netcdf" && stationTemperature !== undefined
      ? await gridFromCpc({
          provinces,
          precipitation: resolve(dataDir, settings.netcdf!.precipitation!),
          precipitationExtension: settings.netcdf!.precipitationExtension && resolve(dataDir, settings.netcdf!.precipitationExtension),
          ghcnmDat: resolve(dataDir, stationTemperature.dat),
          ghcnmInv: resolve(dataDir, stationTemperature.inv),
          refStart: settings.baselineStart,
          refEnd: settings.baselineEnd,
          indexNames: GRID_INDICES,
        })
      : settings.source === "netcdf"
      ? await gridFromNetcdf({
          provinces,
          precipitation: settings.netcdf?.precipitation && resolve(dataDir, settings.netcdf.precipitation),
          temperature: settings.netcdf?.temperature && resolve(dataDir, settings.netcdf.temperature),
          precipitationUnits: settings.netcdf?.precipitationUnits,
          speibase: settings.netcdf?.speibase && Object.fromEntries(Object.entries(settings.netcdf.speibase).map(([k, v]) => [k, resolve(dataDir, v)])),
          refStart: settings.baselineStart,
          refEnd: settings.baselineEnd,
          indexNames: GRID_INDICES,
        })
      : await gridFromStations({ dataDir, provinces, settings, indexNames: GRID_INDICES });
  const { cells, layers } = source;
  const nc = settings.netcdf;
  const dataSources = droughtDataSources(gridSource, gridSource === "netcdf" ? [nc?.precipitation, nc?.temperature, ...Object.values(nc?.speibase ?? {})].filter((f): f is string => !!f) : []);
  const confidence = "confidence" in source ? source.confidence : undefined;
  const axis = { first: source.firstMonth, nMonths: source.nMonths };
  const nCells = cells.lat.length;

  // Trim the month axis to months in which some cell has SPEI-1 or SPI-1.
  const spei1 = layers[0];
  const spi1 = layers[GRID_INDICES.indexOf("spi1")];
  const validCells = new Uint32Array(axis.nMonths);
  const anyValid = new Uint8Array(axis.nMonths);
  for (let c = 0; c < nCells; c++) {
    for (let m = 0; m < axis.nMonths; m++) {
      const i = c * axis.nMonths + m;
      if (spei1[i] === spei1[i]) validCells[m]++;
      if (spei1[i] === spei1[i] || spi1[i] === spi1[i]) anyValid[m] = 1;
    }
  }
  const firstValid = anyValid.indexOf(1);
  const lastValid = anyValid.lastIndexOf(1);
  if (firstValid < 0) throw new Error("no month has any valid index value: nothing to publish");
  const nMonths = lastValid - firstValid + 1;
  const firstMonth = axis.first + firstValid;
  const trimmed = layers.map((layer) => {
    const out = new Float32Array(nCells * nMonths);
    for (let c = 0; c < nCells; c++) out.set(layer.subarray(c * axis.nMonths + firstValid, c * axis.nMonths + lastValid + 1), c * nMonths);
    return out;
  });
  // The default month of the answers (and the newest precomputed tiles) is the latest in which every index they
  // carry has values (latestServedMonth); the report also names the latest month with SPEI-1 alone.
  let latestSpei1: MonthIndex | null = null;
  for (let m = lastValid; m >= firstValid; m--) {
    if (validCells[m] >= settings.validCellShare * nCells) {
      latestSpei1 = axis.first + m;
      break;
    }
  }
  const latestServed = latestServedMonth(
    SERVED_INDICES.map((name) => layers[GRID_INDICES.indexOf(name)]),
    nCells,
    axis.nMonths,
    settings.validCellShare,
    firstValid,
    lastValid,
  );
  const latestValid: MonthIndex | null = latestServed < 0 ? null : axis.first + latestServed;
  const values = interleaveIndices(trimmed, nCells, nMonths);

  const summaries = stage("province summaries", () =>
    summarizeProvinces({
      values,
      nCells,
      nMonths,
      nIndices: GRID_INDICES.length,
      cellLat: cells.lat,
      resolutionDeg: cells.resolutionDeg,
      weights: { cell: cells.weightCell, province: cells.weightProvince, fraction: cells.weightFraction },
      nProvinces: provinces.length,
    }),
  );

  // Per-province coverage, for the report: land cells touching it and months with a value.
  const cellsPerProvince = new Array(provinces.length).fill(0);
  for (let e = 0; e < cells.weightProvince.length; e++) cellsPerProvince[cells.weightProvince[e]]++;
  const latestOffset = latestValid === null ? -1 : latestValid - firstMonth;
  const provincesAtLatest =
    latestOffset < 0
      ? 0
      : provinces.filter((_, p) => summaries.means[(p * nMonths + latestOffset) * GRID_INDICES.length] === summaries.means[(p * nMonths + latestOffset) * GRID_INDICES.length]).length;

  // Write the artifacts into a staging directory, then publish.
  const version = makeVersionId(opts.now ?? new Date(), fp.slice(0, 10));
  const staging = createStaging(artifactsDir, version);
  try {
    const { gridBytes, summaryBytes, provinceMeta } = stage("write artifacts", () => {
      const gridBytes = writeDroughtGrid({
          firstMonth,
          nMonths,
          indexNames: [...GRID_INDICES],
          baselineStart: settings.baselineStart,
          baselineEnd: settings.baselineEnd,
          resolutionDeg: cells.resolutionDeg,
          cellIds: Uint32Array.from({ length: nCells }, (_, c) => cells.row[c] * cells.nCols + cells.col[c]),
          cellLats: cells.lat,
          cellLngs: cells.lng,
          countries: ["THA"],
          cellCountry: new Uint8Array(nCells),
          values,
      });
      writeFileSync(join(staging.dir, ARTIFACT_FILES.grid), gridBytes);
      const summaryBytes = writeProvinceSummaries({
        indexNames: [...PROVINCE_INDICES],
        nProvinces: provinces.length,
        nMonths,
        firstMonth,
        values: summaries.means,
        cellsUsed: cellsUsedPerRecord(summaries),
      });
      writeFileSync(join(staging.dir, ARTIFACT_FILES.provinceSummaries), summaryBytes);
      writeFileSync(join(staging.dir, ARTIFACT_FILES.coverage), writeCoverageMask(coverageMask(cells)));
      if (confidence) {
        const bins = trimMonths(confidence.cellBins, nCells, axis.nMonths, firstValid, nMonths);
        writeFileSync(
          join(staging.dir, CONFIDENCE_FILE),
          writeConfidenceGrid({
            nCells,
            nMonths,
            firstMonth,
            binConfidence: Float64Array.from(confidence.calibration.bins, (b) => b.confidence),
            cellBins: bins,
            nProvinces: provinces.length,
            provinceConfidence: provinceMeanConfidence(bins, confidence.calibration, cells, nMonths, provinces.length),
          }),
        );
      }
      writeFileSync(join(staging.dir, ARTIFACT_FILES.provinceIndex), writeProvinceIndex(flattenRings(provinces)));
      const provinceMeta = provinceMetadata(provinces, aliases);
      writeFileSync(join(staging.dir, ARTIFACT_FILES.provinces), writeProvincesJson(provinceMeta));
      writeFileSync(join(staging.dir, PROVINCE_SHAPES_FILE), writeProvinceShapes(provinces));
      return { gridBytes, summaryBytes, provinceMeta };
    });

    // The map tiles and the exports, unless they are left to the next build (defer: make serve's first run).
    const deferred = opts.defer ? [...DEFERRED_PRODUCTS] : undefined;
    const derived = deferred
      ? undefined
      : await buildDerived({
          dir: staging.dir,
          gridBytes,
          summaryBytes,
          provinces,
          provinceMeta,
          confidence: existsSync(join(staging.dir, CONFIDENCE_FILE)) ? new ConfidenceGrid(new Uint8Array(readFileSync(join(staging.dir, CONFIDENCE_FILE)))) : undefined,
          settings,
          latestValid,
          gridSource,
        });
    if (deferred) log.info({ deferred }, "map tiles and exports deferred to the next build (`npm run pipeline -- build`)");

    const report = {
      version,
      builtAt: (opts.now ?? new Date()).toISOString(),
      durationMs: Math.round(performance.now() - t0),
      baseline: { start: formatMonth(settings.baselineStart), end: formatMonth(settings.baselineEnd) },
      monthRange: { first: formatMonth(firstMonth), last: formatMonth(firstMonth + nMonths - 1) },
      latestValidMonth: latestValid === null ? null : formatMonth(latestValid),
      latestValidRule: `latest month in which at least ${settings.validCellShare * 100} % of land cells have each of ${SERVED_INDICES.join(", ")} (the default month of the answers)`,
      latestSpei1Month: latestSpei1 === null ? null : formatMonth(latestSpei1),
      gridSource: { name: gridSource, label: GRID_SOURCES[gridSource].label, dataSources, skipped },
      source: source.report as Record<string, unknown>,
      grid: {
        resolutionDeg: cells.resolutionDeg,
        landCells: nCells,
        cellsWithSpei1AtLatestValidMonth: latestOffset < 0 ? 0 : validCells[latestOffset + firstValid],
      },
      tiles: derived ? tilesReport(derived.tiles) : null,
      exports: derived ? derived.exports : null,
      ...(deferred ? { deferred } : {}),
      confidence: confidence
        ? {
            method: "support of each SPEI-1 estimate (stations used, nearest distance, their spread) calibrated against leave-one-out errors; docs/methods/confidence.md",
            samples: confidence.calibration.samples,
            maeClimatology: confidence.calibration.maeClimatology,
            bins: confidence.calibration.bins,
          }
        : null,
      provinces: {
        count: provinces.length,
        withSummaryAtLatestValidMonth: provincesAtLatest,
        landCellsPerProvince: Object.fromEntries(provinces.map((p, i) => [p.code, cellsPerProvince[i]])),
      },
    };
    writeFileSync(join(staging.dir, ARTIFACT_FILES.report), JSON.stringify(report, null, 2) + "\n");

    const dir = await publishStaging(staging, {
      builtAt: report.builtAt,
      inputs,
      baseline: report.baseline,
      monthRange: report.monthRange,
      latestValidMonth: report.latestValidMonth,
      sources: dataSources,
      qc: { source: settings.source, gridSource, ...stationQcOf(source.report), landCells: nCells, provinces: provinces.length, provincesAtLatestValidMonth: provincesAtLatest },
      report: ARTIFACT_FILES.report,
      ...(deferred ? { deferred } : {}),
      settings: { ...settings, fingerprint: fp, codeFingerprint: code },
    });
    const removed = await pruneVersions(artifactsDir, settings.keepVersions);
    log.info({ version, dir, removed, deferred, ms: Math.round(performance.now() - t0) }, "published");
    return { status: "published", version, dir, ...(deferred ? { deferred } : {}) };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}

