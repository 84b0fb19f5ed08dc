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
import { readManifest, verifyArtifacts, type Manifest } from "./manifest.ts";
import { readOutbreakData } from "./outbreak-snapshot.ts";
import { readPmtilesHeader } from "./pmtiles-header.ts";
import { PROVINCE_SHAPES_FILE, readProvinceShapes } from "./province-shapes.ts";
import { CONFIDENCE_FILE, ConfidenceGrid } from "./confidence-grid.ts";
import { checkCsvExport, checkParquetExport, EXPORT_FILES, readHead, readParquetFooter } from "./drought-export.ts";
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
  [EXPORT_FILES.cellsParquet]: (path, name) => void checkParquetExport(readParquetFooter(path), name),
  [EXPORT_FILES.provincesParquet]: (path, name) => void checkParquetExport(readParquetFooter(path), name),
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

/** The whole load-time check of a version directory: manifest, checksums, then every file. Problems, or []. */
export async function validateVersion(dir: string): Promise<string[]> {
  let manifest: Manifest;
  try {
    manifest = readManifest(dir);
  } catch (err) {
    return [(err as Error).message];
  }
  const problems = await verifyArtifacts(dir, manifest);
  return problems.length > 0 ? problems : checkVersionFiles(dir, manifest);
}
