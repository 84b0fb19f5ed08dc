// Every file of a published version is read and validated before the version may serve: binary formats by their
// readers (headers, sizes, value ranges), JSON files parsed and shape-checked, PMTiles archives' headers read.
// A file no reader knows is a problem too: an unchecked file would be the first thing to fail at request time.
// Used by the server's ArtifactStore (before a swap) and by retention (which keeps the newest valid version).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CoverageMask } from "./coverage-mask.ts";
import { readDaySeries } from "./day-series.ts";
import { openDroughtGridFile } from "./drought-grid.ts";
import { EventIndex } from "./event-index.ts";
import { FootprintIndex } from "./footprint-index.ts";
import { MANIFEST_FILE, readManifest, verifyArtifacts, type Manifest } from "./manifest.ts";
import { OUTBREAK_DATA_FILE, OUTBREAK_INDEX_FILE, OUTBREAK_SNAPSHOT, readOutbreakData } from "./outbreak-snapshot.ts";
import { PORTS_SNAPSHOT } from "./ports-snapshot.ts";
import { SOURCE_STATUS_FILE, SOURCES_SNAPSHOT } from "./source-status.ts";
import { readPmtilesHeader } from "./pmtiles-header.ts";
import { PROVINCE_SHAPES_FILE, readProvinceShapes } from "./province-shapes.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "./confidence-grid.ts";
import { checkCsvExport, checkParquetFile, EXPORT_FILE_NAMES, EXPORT_FILES, readHead } from "./drought-export.ts";
import { ProvinceIndexReader, readProvincesJson } from "./province-index.ts";
import { ProvinceSummariesReader } from "./province-summaries.ts";
import { checkJson } from "./json-shape.ts";
import { JSON_SHAPES } from "./snapshot-json.ts";
import { readTilesIndex } from "./tiles-index.ts";

/** A file's bytes in their own ArrayBuffer (8-byte aligned, as the typed-array readers need). */
export function readAligned(path: string): Uint8Array {
  const bytes = readFileSync(path);
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

type FileCheck = (path: string, name: string, manifest: Manifest) => void;

const text = (path: string) => readFileSync(path, "utf8");

const BY_NAME: Record<string, FileCheck> = {
  "drought-grid.bin": (path) => void openDroughtGridFile(path),
  "province-summaries.bin": (path, name) => void new ProvinceSummariesReader(readAligned(path), name),
  "province-index.bin": (path, name) => void new ProvinceIndexReader(readAligned(path), name),
  "coverage-mask.bin": (path, name) => void new CoverageMask(readAligned(path), name),
  "provinces.json": (path, name) => void readProvincesJson(text(path), name),
  [PROVINCE_SHAPES_FILE]: (path, name) => void readProvinceShapes(text(path), name),
  [CONFIDENCE_FILE]: (path, name) => void new ConfidenceGrid(readAligned(path), name),
  "tiles-index.json": (path, name, manifest) => void readTilesIndex(text(path), manifest.artifacts, name),
  "events.bin": (path) => void new EventIndex(readAligned(path)),
  "footprints.bin": (path, name) => void new FootprintIndex(readAligned(path), name),
  "outbreaks.json": (path, name) => void readOutbreakData(text(path), name),
  [EXPORT_FILES.cellsParquet]: (path, name) => void checkParquetFile(path, name),
  [EXPORT_FILES.provincesParquet]: (path, name) => void checkParquetFile(path, name),
  [EXPORT_FILES.cellsCsv]: (path, name) => checkCsvExport(readHead(path), name),
  [EXPORT_FILES.provincesCsv]: (path, name) => checkCsvExport(readHead(path), name),
  "port-calls.dseries": (path) => {
    for (const s of readDaySeries(readAligned(path))) {
      for (const [column, values] of Object.entries(s.columns)) {
        // Port calls and trade volumes are counts and tonnes.
        const negative = values.findIndex((v) => v < 0);
        if (negative >= 0) throw new Error(`${s.key}.${column}: value ${negative} is negative (${values[negative]})`);
      }
    }
  },
};

function checkerFor(name: string): FileCheck | undefined {
  if (BY_NAME[name]) return BY_NAME[name];
  if (/^tiles-[a-z0-9-]+\.pmtiles$/.test(name)) return (path) => void readPmtilesHeader(path);
  const shape = JSON_SHAPES[name];
  if (shape) return (path) => void checkJson(text(path), shape);
  return undefined;
}

/** Validates one artifact file of a version; throws with the reason. */
export function checkVersionFile(dir: string, name: string, manifest: Manifest): void {
  const check = checkerFor(name);
  if (check === undefined) throw new Error("no reader knows this file");
  check(join(dir, name), name, manifest);
}

/**
 * Validates every artifact of the manifest except those in `skip` (files the caller reads with the same readers
 * itself). Returns the problems, each "<file>: <reason>"; empty when the version is good.
 */
export function checkVersionFiles(dir: string, manifest: Manifest, skip: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(manifest.artifacts).sort()) {
    if (skip.has(name)) continue;
    try {
      checkVersionFile(dir, name, manifest);
    } catch (err) {
      const message = (err as Error).message;
      problems.push(message.startsWith(`${name}:`) ? message : `${name}: ${message}`);
    }
  }
  return problems;
}

/** The kind of a version without `kind` in its manifest (drought versions predate the field). */
export const DROUGHT_KIND = "drought";

const EVENT_SNAPSHOT = ["snapshot.json", "events.bin"];

/**
 * What each kind of version holds (manifest format 1): the files its build always writes. A version lacking one
 * never serves, even when its manifest agrees with the directory (a file removed with its manifest entry), unless
 * its manifest defers the product the file belongs to (DEFERRABLE: a drought version's tiles and exports).
 * Besides these: the manifest's `report`, drought `confidence.bin` when the grid was interpolated from stations
 * (qc.gridSource "stations"), and every archive tiles-index.json names (checked by its reader).
 */
export const REQUIRED_FILES: Readonly<Record<string, readonly string[]>> = {
  [DROUGHT_KIND]: ["drought-grid.bin", "province-summaries.bin", "province-index.bin", "coverage-mask.bin", "provinces.json", PROVINCE_SHAPES_FILE, "tiles-index.json", ...EXPORT_FILE_NAMES],
  flood: [...EVENT_SNAPSHOT, "footprints.bin"],
  wildfire: EVENT_SNAPSHOT,
  storm: EVENT_SNAPSHOT,
  sea_level_rise: EVENT_SNAPSHOT,
  heatwave: ["snapshot.json"],
  [OUTBREAK_SNAPSHOT]: [OUTBREAK_DATA_FILE, OUTBREAK_INDEX_FILE],
  [PORTS_SNAPSHOT]: ["ports.json", "port-calls.dseries", "ais.json", "hazards.json"],
  [SOURCES_SNAPSHOT]: [SOURCE_STATUS_FILE],
};

/**
 * The derived products a drought version may be published without, each by the files it consists of. `make serve`
 * publishes the grid, the summaries and the province files first (`npm run pipeline -- build --defer`) and names
 * these in the manifest's `deferred`; the next `build` of the same inputs, settings and code publishes a new version
 * that holds them (pipeline/build.ts). Until then the server renders every map tile on request and the exports answer
 * 503. A deferred product's files must be absent, so a version is either complete or says what it lacks.
 */
export const DEFERRABLE: Readonly<Record<string, (name: string) => boolean>> = {
  tiles: (name) => name === "tiles-index.json" || /^tiles-[a-z0-9-]+\.pmtiles$/.test(name),
  exports: (name) => EXPORT_FILE_NAMES.includes(name),
};

/** The products a manifest defers, or the problems of its `deferred` field. */
function deferredOf(manifest: Manifest, kind: string): { deferred: string[]; problems: string[] } {
  const d = manifest.deferred;
  if (d === undefined) return { deferred: [], problems: [] };
  if (kind !== DROUGHT_KIND) return { deferred: [], problems: [`${MANIFEST_FILE}: "deferred" is only allowed in a drought version, not a ${kind} one`] };
  if (!Array.isArray(d) || d.length === 0 || d.some((p) => typeof p !== "string" || !Object.hasOwn(DEFERRABLE, p))) {
    return { deferred: [], problems: [`${MANIFEST_FILE}: "deferred" must list one or more of ${Object.keys(DEFERRABLE).join(", ")}, got ${JSON.stringify(d)}`] };
  }
  const problems = Object.keys(manifest.artifacts)
    .filter((name) => d.some((p) => DEFERRABLE[p](name)))
    .map((name) => `${name}: present, but the manifest defers ${d.find((p) => DEFERRABLE[p](name))}`);
  return { deferred: d, problems };
}

/**
 * The files a version of this manifest must list, or a problem when its kind is unknown (or not `expectedKind`).
 * Files of the products the manifest defers (DEFERRABLE) are not required, and must not be there.
 */
export function missingFiles(manifest: Manifest, expectedKind?: string): string[] {
  const kind = manifest.kind ?? DROUGHT_KIND;
  if (expectedKind !== undefined && kind !== expectedKind) return [`${MANIFEST_FILE}: kind "${kind}", expected "${expectedKind}"`];
  const required = REQUIRED_FILES[kind];
  if (required === undefined) return [`${MANIFEST_FILE}: unknown kind "${kind}"`];
  const { deferred, problems } = deferredOf(manifest, kind);
  const names = [...required, manifest.report].filter((name) => !deferred.some((p) => DEFERRABLE[p](name)));
  if (kind === DROUGHT_KIND && manifest.qc?.gridSource === "stations") names.push(CONFIDENCE_FILE);
  return [...problems, ...names.filter((name) => !Object.hasOwn(manifest.artifacts, name)).map((name) => `${name}: required of a ${kind} version, not in the manifest`)];
}

/**
 * The whole load-time check of a version whose manifest is read: its contents complete (missingFiles), the
 * directory equal to the manifest (names, bytes, sha256: verifyArtifacts), then every file by its reader, except
 * those in `skip`. Problems, or [].
 */
export async function checkVersion(dir: string, manifest: Manifest, opts: { skip?: ReadonlySet<string>; expectedKind?: string } = {}): Promise<string[]> {
  const problems = [...missingFiles(manifest, opts.expectedKind), ...(await verifyArtifacts(dir, manifest))];
  return problems.length > 0 ? problems : checkVersionFiles(dir, manifest, opts.skip);
}

/** The whole load-time check of a version directory: manifest, contents, checksums, then every file. Problems, or []. */
export async function validateVersion(dir: string): Promise<string[]> {
  let manifest: Manifest;
  try {
    manifest = readManifest(dir);
  } catch (err) {
    return [(err as Error).message];
  }
  return checkVersion(dir, manifest);
}
