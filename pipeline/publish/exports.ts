// Writes the exports of a version into its staging directory (formats/drought-export.ts) and says what they hold,
// for the build report.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DroughtGrid } from "../../formats/drought-grid.ts";
import { EXPORT_FILES, writeCellExport, writeProvinceExport, type ProvinceRow } from "../../formats/drought-export.ts";
import type { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import type { ConfidenceGrid } from "../../formats/confidence-grid.ts";

export interface ExportsReport {
  cellRows: number;
  provinceRows: number;
  bytes: Record<string, number>;
}

export function writeExports(dir: string, grid: DroughtGrid, summaries: ProvinceSummariesReader, provinces: readonly ProvinceRow[], confidence?: ConfidenceGrid): ExportsReport {
  const h = grid.resolutionDeg / 2;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let c = 0; c < grid.nCells; c++) {
    w = Math.min(w, grid.cellLng(c) - h);
    e = Math.max(e, grid.cellLng(c) + h);
    s = Math.min(s, grid.cellLat(c) - h);
    n = Math.max(n, grid.cellLat(c) + h);
  }
  const cells = writeCellExport(grid, [w, s, e, n], confidence);
  const provinceExport = writeProvinceExport(summaries, provinces);
  const files: [string, Uint8Array][] = [
    [EXPORT_FILES.cellsParquet, cells.parquet],
    [EXPORT_FILES.cellsCsv, cells.csvGz],
    [EXPORT_FILES.provincesParquet, provinceExport.parquet],
    [EXPORT_FILES.provincesCsv, provinceExport.csvGz],
  ];
  for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
  return { cellRows: cells.rows, provinceRows: provinceExport.rows, bytes: Object.fromEntries(files.map(([name, b]) => [name, b.length])) };
}
