// The drought build: station files → monthly series → station indices → grid cells and province summaries →
// binary artifacts → a published version. Each stage is a module of its own; this file only wires them,
// reports progress and collects the build report (its own steps in pipeline/build/).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { log } from "../lib/log.ts";
import { formatMonth } from "../lib/months.ts";
import { interleaveIndices } from "../formats/drought-grid.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "../formats/confidence-grid.ts";
import { gridFromStations } from "./grid/from-stations.ts";
import { gridFromNetcdf } from "./grid/from-netcdf.ts";
import { gridFromCpc } from "./grid/from-cpc.ts";
import { GHCND_SUBDIR, readGhcndStations, STATION_INDEX_FILE, type StationMonthly } from "./inputs/ghcnd/stations.ts";
import { loadRegion, sourceCountries } from "./provinces/region.ts";
import { summarizeProvinces } from "./provinces/summaries.ts";
import { codeFingerprint } from "./publish/code-fingerprint.ts";
import { createStaging, currentVersion, discardStaging, makeVersionId, publishStaging, pruneVersions } from "./publish/publish.ts";
import { readManifest, type Manifest } from "../formats/manifest.ts";
import type { BuildSettings } from "./build-settings.ts";
import { gridCandidates, resolvedGridSource } from "./grid/grid-source.ts";
import { droughtDataSources, GRID_SOURCES, type GridSourceName } from "../lib/drought/grid-sources.ts";
import { landCellsPerProvince, provincesWithSummaryAt } from "./build/coverage.ts";
import { buildDerived, completeDeferred, tilesReport } from "./build/derived.ts";
import { checksumInputs, DROUGHT_CODE, fingerprint } from "./build/fingerprint.ts";
import { ARTIFACT_FILES, GRID_INDICES, SERVED_INDICES } from "./build/layout.ts";
import { trimMonthAxis } from "./build/month-axis.ts";
import { stage } from "./build/stage.ts";
import { writeCoreArtifacts } from "./build/write-artifacts.ts";
import { ArtifactVerificationError, verifyStaged } from "./build/verify-artifacts.ts";

export { GRID_INDICES };

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

/**
 * The GHCN-Daily stations that calibrate the regional grid's confidence (pipeline/grid/cpc-confidence.ts), or none
 * when the data directory has none (the grid is then served without confidence, saying why).
 */
async function calibrationStations(dataDir: string, settings: BuildSettings): Promise<StationMonthly[]> {
  const dir = join(dataDir, GHCND_SUBDIR);
  if (!existsSync(join(dir, STATION_INDEX_FILE))) return [];
  return readGhcndStations({ dir, policy: settings.dryDayPolicy, concurrency: settings.concurrency });
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
      // A version that fails its verification is a fault of the build, not of the source's inputs: no fallback.
      if (i === candidates.length - 1 || err instanceof ArtifactVerificationError) throw err;
      const reason = (err as Error).message;
      log.warn({ gridSource, err: reason }, `cannot build the grid from ${gridSource}; trying ${resolvedGridSource(candidates[i + 1])}`);
      skipped.push({ gridSource, reason });
    }
  }
  throw new Error("no grid source to build from");
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

  const countries = sourceCountries(settings.source, settings.countries);
  if (countries.length < settings.countries.length) log.info({ countries, asked: settings.countries }, "the station grid covers Thailand alone (its GHCN-Daily stations are Thai)");
  const { provinces, aliases } = stage("provinces", () => loadRegion(dataDir, countries));
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
          calibrationStations: await calibrationStations(dataDir, settings),
          clampZ: settings.idwClampZ,
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
  const { firstValid, nMonths, firstMonth, trimmed, validCells, latestSpei1, latestValid } = trimMonthAxis(
    {
      layers,
      spei1: layers[0],
      spi1: layers[GRID_INDICES.indexOf("spi1")],
      served: SERVED_INDICES.map((name) => layers[GRID_INDICES.indexOf(name)]),
    },
    nCells,
    axis,
    settings.validCellShare,
  );
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
  const cellsPerProvince = landCellsPerProvince(cells, provinces.length);
  const latestOffset = latestValid === null ? -1 : latestValid - firstMonth;
  const provincesAtLatest = provincesWithSummaryAt(summaries.means, provinces.length, nMonths, GRID_INDICES.length, latestOffset);

  // Write the artifacts into a staging directory, then publish.
  const version = makeVersionId(opts.now ?? new Date(), fp.slice(0, 10));
  const staging = createStaging(artifactsDir, version);
  try {
    const { gridBytes, summaryBytes, provinceMeta } = stage("write artifacts", () =>
      writeCoreArtifacts({ dir: staging.dir, settings, cells, provinces, aliases, firstMonth, nMonths, values, summaries, confidence, sourceMonths: axis.nMonths, firstValid }),
    );

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
            method:
              gridSource === "cpc"
                ? "support of each cell-month (GHCN-Monthly stations reporting within 250 km, nearest distance) calibrated against the cells' SPEI-1 error at the Thai GHCN-Daily stations inside them; docs/methods/confidence.md"
                : "support of each SPEI-1 estimate (stations used, nearest distance, their spread) calibrated against leave-one-out errors; docs/methods/confidence.md",
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

    const body = {
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
    };
    // Everything written, read back in full before it may be published (a failure throws: nothing is published).
    await verifyStaged(staging.dir, body, { provinces: { provinces, aliases }, cells });
    const dir = await publishStaging(staging, body, opts.now);
    // The id is the staging one unless a version was published while this build ran (publishedId).
    const published = basename(dir);
    const removed = await pruneVersions(artifactsDir, settings.keepVersions);
    log.info({ version: published, ...(published === version ? {} : { startedAs: version }), dir, removed, deferred, ms: Math.round(performance.now() - t0) }, "published");
    return { status: "published", version: published, dir, ...(deferred ? { deferred } : {}) };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}

