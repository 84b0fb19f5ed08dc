// Writes a drought version's core files into its staging directory: grid, summaries, coverage mask, confidence, province files.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MonthIndex } from "../../lib/months.ts";
import { flattenRings, type Province } from "../../lib/geo/province-rings.ts";
import { writeDroughtGrid } from "../../formats/drought-grid.ts";
import { writeProvinceSummaries } from "../../formats/province-summaries.ts";
import { CONFIDENCE_FILE, writeConfidenceGrid } from "../../formats/confidence-grid.ts";
import { PROVINCE_SHAPES_FILE, writeProvinceShapes } from "../../formats/province-shapes.ts";
import { writeCoverageMask } from "../../formats/coverage-mask.ts";
import { writeProvinceIndex, writeProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import type { Calibration } from "../grid/confidence.ts";
import type { LandCells } from "../grid/land-cells.ts";
import { provinceMetadata } from "../provinces/metadata.ts";
import type { ProvinceAliases } from "../../lib/province-names.ts";
import { cellsUsedPerRecord, type ProvinceSummaries } from "../provinces/summaries.ts";
import type { BuildSettings } from "../build-settings.ts";
import { cellCountries, coverageMask, provinceMeanConfidence } from "./coverage.ts";
import { ARTIFACT_FILES, GRID_INDICES, PROVINCE_INDICES } from "./layout.ts";
import { trimMonths } from "./month-axis.ts";

export interface CoreArtifactsInput {
  /** The staging directory of the version. */
  dir: string;
  settings: BuildSettings;
  cells: LandCells;
  provinces: Province[];
  aliases: readonly ProvinceAliases[];
  /** The trimmed month axis and the interleaved values on it (formats/drought-grid.ts). */
  firstMonth: MonthIndex;
  nMonths: number;
  values: Float32Array;
  summaries: ProvinceSummaries;
  /** The grid source's confidence on its own month axis, trimmed here as the values were (from firstValid on). */
  confidence: { cellBins: Uint8Array; calibration: Calibration } | undefined;
  sourceMonths: number;
  firstValid: number;
}

/** Writes the files and returns what the tiles and exports are made from. */
export function writeCoreArtifacts(x: CoreArtifactsInput): { gridBytes: Uint8Array; summaryBytes: Uint8Array; provinceMeta: ProvinceMeta[] } {
  const { dir, settings, cells, provinces, firstMonth, nMonths, values, summaries, confidence } = x;
  const nCells = cells.lat.length;
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
    ...cellCountries(cells, provinces),
    values,
  });
  writeFileSync(join(dir, ARTIFACT_FILES.grid), gridBytes);
  const summaryBytes = writeProvinceSummaries({
    indexNames: [...PROVINCE_INDICES],
    nProvinces: provinces.length,
    nMonths,
    firstMonth,
    values: summaries.means,
    cellsUsed: cellsUsedPerRecord(summaries),
  });
  writeFileSync(join(dir, ARTIFACT_FILES.provinceSummaries), summaryBytes);
  writeFileSync(join(dir, ARTIFACT_FILES.coverage), writeCoverageMask(coverageMask(cells, provinces.map((p) => p.country))));
  if (confidence) {
    const bins = trimMonths(confidence.cellBins, nCells, x.sourceMonths, x.firstValid, nMonths);
    writeFileSync(
      join(dir, CONFIDENCE_FILE),
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
  writeFileSync(join(dir, ARTIFACT_FILES.provinceIndex), writeProvinceIndex(flattenRings(provinces)));
  const provinceMeta = provinceMetadata(provinces, x.aliases);
  writeFileSync(join(dir, ARTIFACT_FILES.provinces), writeProvincesJson(provinceMeta));
  writeFileSync(join(dir, PROVINCE_SHAPES_FILE), writeProvinceShapes(provinces));
  return { gridBytes, summaryBytes, provinceMeta };
}
