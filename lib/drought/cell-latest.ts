// The default month of a drought answer (point, score, batch, province, choropleth, map): the grid's latest valid
// month — the latest month in which the grid holds every index (the build's rule: VALID_CELL_SHARE of land cells has
// all of them), so spei12 and mcdi are numbers as the interface types them. A cell without every index in that month
// answers its own latest month with every index, and a cell that never has every index its latest month with SPEI-1;
// the answer's monthReason names the rule. One month offset and reason per cell, computed once when a version is
// opened; a request reads them in constant time.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { DroughtGrid } from "../../formats/drought-grid.ts";

/** The grid's default month, which the province, choropleth and map answers share. */
export const GRID_DEFAULT_MONTH_RULE = "the grid's latest month with every index";
/** The cell lacks an index in the grid's default month: its own latest month with every index. */
export const CELL_COMPLETE_MONTH_RULE = "latest month with every index at this grid cell (the grid's default month lacks one here)";
/** The cell never has every index: its latest month with SPEI-1, the index the score is made from. */
export const CELL_LATEST_MONTH_RULE = "latest month with a SPEI-1 value at this grid cell (no month has every index here)";

/** Why a point answer serves its month (its `monthReason`): the request named it, or one of the rules above. */
export const MONTH_REASONS = ["requested", GRID_DEFAULT_MONTH_RULE, CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE] as const;
export type MonthReason = (typeof MONTH_REASONS)[number];
/** The default rules by their number in CellLatest.rule. */
export const DEFAULT_RULES = [GRID_DEFAULT_MONTH_RULE, CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE] as const;

/** The indices a point answer shows (the interface's indices object): "every index" means these six. */
export const ANSWER_INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;

/** A cell whose record has no SPEI-1 value at all. */
export const NO_MONTH_AT_CELL = -1;

/** Bytes of whole cells read per system call when the grid's values stay on disk (1 MiB: a larger fresh buffer costs more in page faults than it saves in calls). */
const CHUNK_BYTES = 1 << 20;

/**
 * Per cell, the offset (0..nMonths-1) of its default month (above), or NO_MONTH_AT_CELL, and the rule that chose it.
 * `gridDefault` is the offset of the grid's latest valid month (−1: none). A resident grid is read through its values
 * view (each cell backwards from its last month: about 0.2 µs a cell). A paged grid (openDroughtGridFile on a large
 * file: values empty) is read from `path` in chunks of whole cells — values are the file's last section, cell-major
 * (formats/drought-grid.md) — rather than one positioned read per cell and month (10 µs a cell, seconds for a million
 * cells); without a path, value by value. The same pass keeps each cell's SPEI-1 in that month (4 bytes a cell).
 */
export function latestByCell(grid: DroughtGrid, path?: string, gridDefault = -1): CellLatest {
  const required = Int32Array.from(ANSWER_INDICES.map((n) => grid.indexNo(n)).filter((i) => i >= 0));
  const out = new Int32Array(grid.nCells).fill(NO_MONTH_AT_CELL);
  const spei1 = new Float32Array(grid.nCells).fill(NaN);
  const rule = new Uint8Array(grid.nCells);
  const result = { offset: out, spei1, rule };
  const k = grid.indexNo("spei1");
  if (k < 0) return result;
  const { nCells, nMonths, nIndices, values } = grid;
  const perCell = nMonths * nIndices;
  if (values.length === nCells * perCell) {
    scanCells(result, values, 0, nCells, nMonths, nIndices, k, gridDefault, required);
  } else if (path !== undefined) {
    const fd = openSync(path, "r");
    try {
      const start = fstatSync(fd).size - nCells * perCell * 4;
      const cellsPerChunk = Math.max(1, Math.floor(CHUNK_BYTES / (perCell * 4)));
      const chunk = new Float32Array(cellsPerChunk * perCell);
      const bytes = new Uint8Array(chunk.buffer);
      for (let first = 0; first < nCells; first += cellsPerChunk) {
        const n = Math.min(cellsPerChunk, nCells - first);
        const want = n * perCell * 4;
        for (let done = 0; done < want; ) {
          const got = readSync(fd, bytes, done, want - done, start + first * perCell * 4 + done);
          if (got === 0) throw new Error(`${path}: unexpected end of file reading the values of cell ${first}`);
          done += got;
        }
        scanCells(result, chunk, first, n, nMonths, nIndices, k, gridDefault, required);
      }
    } finally {
      closeSync(fd);
    }
  } else {
    const one = new Float32Array(perCell);
    for (let cell = 0; cell < nCells; cell++) {
      for (let m = 0; m < nMonths; m++) for (let i = 0; i < nIndices; i++) one[m * nIndices + i] = grid.value(cell, m, i);
      scanCells(result, one, cell, 1, nMonths, nIndices, k, gridDefault, required);
    }
  }
  return result;
}

/** Per cell, its default month, that month's SPEI-1 (NaN where there is none) and the rule that chose it. */
export interface CellLatest {
  offset: Int32Array;
  /**
   * The SPEI-1 of each cell's default month, found by the same scan: an answer in the cell's own month (batch items)
   * reads it here instead of from the grid's values, which a paged grid would fetch with one read(2) each.
   */
  spei1: Float32Array;
  /** Index into DEFAULT_RULES. */
  rule: Uint8Array;
}

/** Whether the record at `base` (one cell-month) has every required index. */
function complete(vals: Float32Array, base: number, required: Int32Array): boolean {
  for (let i = 0; i < required.length; i++) if (vals[base + required[i]] !== vals[base + required[i]]) return false;
  return true;
}

/** The default month of `count` cells whose values start at vals[0] (cell `first`). */
function scanCells(out: CellLatest, vals: Float32Array, first: number, count: number, nMonths: number, nIndices: number, k: number, gridDefault: number, required: Int32Array): void {
  const perCell = nMonths * nIndices;
  for (let c = 0; c < count; c++) {
    const base = c * perCell;
    let m = -1;
    let rule = 0;
    if (gridDefault >= 0 && gridDefault < nMonths && complete(vals, base + gridDefault * nIndices, required)) m = gridDefault;
    else {
      rule = 1;
      for (let j = nMonths - 1; j >= 0; j--) {
        if (complete(vals, base + j * nIndices, required)) {
          m = j;
          break;
        }
      }
      if (m < 0) {
        rule = 2;
        for (let j = nMonths - 1; j >= 0; j--) {
          const v = vals[base + j * nIndices + k];
          if (v === v) {
            m = j;
            break;
          }
        }
      }
    }
    if (m >= 0) {
      out.offset[first + c] = m;
      out.spei1[first + c] = vals[base + m * nIndices + k];
      out.rule[first + c] = rule;
    }
  }
}

/** Why a point whose cell was found has no default month. */
export function noValueInRecordReason(first: string, last: string): string {
  return `no SPEI-1 value at the nearest grid point from ${first} to ${last}`;
}

/**
 * The grid's latest valid month by the build's rule (pipeline/build/month-axis.ts latestServedMonth): the latest month
 * in which each of ANSWER_INDICES the grid holds has a value on at least `share` (VALID_CELL_SHARE) of its cells; null
 * when no month does. Read from the validity counts the grid file stores (checked against its values when it opened):
 * months × indices reads, so the load can check a manifest's latestValidMonth against it.
 */
export function gridLatestValidMonth(grid: Pick<DroughtGrid, "nCells" | "nMonths" | "firstMonth" | "indexNo" | "monthValidCount">, share: number): number | null {
  const indices = ANSWER_INDICES.map((n) => grid.indexNo(n)).filter((k) => k >= 0);
  for (let m = grid.nMonths - 1; m >= 0; m--) {
    if (indices.every((k) => grid.monthValidCount(m, k) >= share * grid.nCells)) return grid.firstMonth + m;
  }
  return null;
}
