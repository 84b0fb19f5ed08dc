// Opens the files of one verified drought artifact version. The binary files become typed-array views over
// their bytes (read once, no per-record parsing); the small provinces.json is parsed and turned into the alias
// lookup used by the province endpoint.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openDroughtGridFile, type DroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { ProvinceIndexReader, readProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import type { Manifest } from "../../formats/manifest.ts";
import { CoverageMask, INSIDE, MIXED } from "../../formats/coverage-mask.ts";
import { parseMonth, type MonthIndex } from "../../lib/months.ts";
import { normalizeName } from "../../lib/province-names.ts";

export interface DroughtArtifacts {
  version: string;
  grid: DroughtGrid;
  summaries: ProvinceSummariesReader;
  provinceIndex: ProvinceIndexReader;
  coverage: CoverageMask;
  provinces: ProvinceMeta[];
  /** Normalised spelling → province number (position in provinces.json and the summaries). */
  provinceByName: Map<string, number>;
  /** The month served when a request names none: the build's latest valid month. */
  defaultMonth: MonthIndex;
  baselineLabel: string;
}

/** Small files are read whole into their own (8-byte aligned) ArrayBuffer. */
function readAligned(path: string): Uint8Array {
  const bytes = readFileSync(path);
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

export function openDroughtArtifacts(dir: string, manifest: Manifest): DroughtArtifacts {
  const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
  const summaries = new ProvinceSummariesReader(readAligned(join(dir, "province-summaries.bin")));
  const provinceIndex = new ProvinceIndexReader(readAligned(join(dir, "province-index.bin")));
  const coverage = new CoverageMask(readAligned(join(dir, "coverage-mask.bin")));
  const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
  if (summaries.nProvinces !== provinces.length) {
    throw new Error(`province-summaries has ${summaries.nProvinces} provinces, provinces.json ${provinces.length}`);
  }
  const provinceByName = new Map<string, number>();
  provinces.forEach((p, i) => {
    for (const name of [p.code, p.code.slice(3), p.nameEn, p.nameTh, p.slug, ...p.aliases]) {
      const key = normalizeName(name);
      const prev = provinceByName.get(key);
      if (prev !== undefined && prev !== i) throw new Error(`alias "${name}" names two provinces`);
      provinceByName.set(key, i);
    }
  });
  const latest = manifest.latestValidMonth ? parseMonth(manifest.latestValidMonth) : undefined;
  if (latest === undefined) throw new Error("manifest has no latest valid month");
  if (!manifest.baseline) throw new Error("manifest has no baseline");
  return {
    version: manifest.version,
    grid,
    summaries,
    provinceIndex,
    coverage,
    provinces,
    provinceByName,
    defaultMonth: latest,
    baselineLabel: `${manifest.baseline.start.slice(0, 4)}-${manifest.baseline.end.slice(0, 4)}`,
  };
}

/**
 * Whether a point lies in the covered area (Thailand's provinces): from the coverage mask alone inside the
 * country, from the province polygons only in squares along borders and coasts.
 */
export function isCovered(a: DroughtArtifacts, lat: number, lng: number): boolean {
  const state = a.coverage.stateAt(lat, lng);
  if (state === INSIDE) return true;
  if (state === MIXED) return a.provinceIndex.provinceAt(lat, lng) >= 0;
  return false;
}
