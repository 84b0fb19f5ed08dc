// The map tiles and exports of a version, built with it or added later to a version published without them (defer).
import { copyFileSync, linkSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { log } from "../../lib/log.ts";
import { parseMonth, type MonthIndex } from "../../lib/months.ts";
import type { Province } from "../../lib/geo/province-rings.ts";
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "../../formats/confidence-grid.ts";
import { readProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import type { Manifest } from "../../formats/manifest.ts";
import { readAligned } from "../../formats/version-files.ts";
import { buildTiles, type TileBuildReport } from "../../tiles/build-tiles.ts";
import { writeExports, type ExportsReport } from "../publish/exports.ts";
import { createStaging, discardStaging, makeVersionId, publishStaging, pruneVersions, type ManifestBody } from "../publish/publish.ts";
import { loadRegion } from "../provinces/region.ts";
import type { BuildSettings } from "../build-settings.ts";
import type { BuildOptions, BuildResult } from "../build.ts";
import { ARTIFACT_FILES } from "./layout.ts";
import { stage } from "./stage.ts";
import { verifyStaged } from "./verify-artifacts.ts";

/** What the tiles and the exports are made from: the version's grid and summaries and the province boundaries. */
export interface DerivedInput {
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
export async function buildDerived(d: DerivedInput): Promise<{ tiles: TileBuildReport; exports: ExportsReport }> {
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

/** The tiles part of the build report. */
export function tilesReport(tiles: TileBuildReport) {
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
export async function completeDeferred(opts: BuildOptions, m: Manifest, gridSource: GridSourceName): Promise<Omit<BuildResult, "gridSource">> {
  const t0 = performance.now();
  const { artifactsDir, settings } = opts;
  const from = realpathSync(join(artifactsDir, "current"));
  log.info({ version: m.version, deferred: m.deferred }, `adding the deferred ${m.deferred!.join(" and ")} to ${m.version}`);
  const fp = String(m.settings.fingerprint);
  const version = makeVersionId(opts.now ?? new Date(), fp.slice(0, 10));
  const staging = createStaging(artifactsDir, version);
  try {
    for (const name of Object.keys(m.artifacts)) if (name !== m.report) linkOrCopy(join(from, name), join(staging.dir, name));
    const provinceMeta = readProvincesJson(readFileSync(join(staging.dir, ARTIFACT_FILES.provinces), "utf8"));
    const { provinces, aliases } = stage("provinces", () => loadRegion(opts.dataDir, [...new Set(provinceMeta.map((p) => p.country))]));
    if (provinces.map((p) => p.code).join() !== provinceMeta.map((p) => p.code).join()) throw new Error(`the boundary files' units differ from ${m.version}'s provinces.json: rebuild without defer`);
    const derived = await buildDerived({
      dir: staging.dir,
      gridBytes: readAligned(join(staging.dir, ARTIFACT_FILES.grid)),
      summaryBytes: readAligned(join(staging.dir, ARTIFACT_FILES.provinceSummaries)),
      provinces,
      provinceMeta,
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
    await verifyStaged(staging.dir, body as ManifestBody, { provinces: { provinces, aliases } });
    const dir = await publishStaging(staging, body as ManifestBody, opts.now);
    const published = basename(dir); // the staging id unless a version was published meanwhile (publishedId)
    const removed = await pruneVersions(artifactsDir, settings.keepVersions);
    log.info({ version: published, ...(published === version ? {} : { startedAs: version }), completes: m.version, dir, removed, ms: Math.round(performance.now() - t0) }, "published with tiles and exports");
    return { status: "published", version: published, dir, completed: m.version };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}
