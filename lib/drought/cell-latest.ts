// The default month of a point: the latest month with a SPEI-1 value (the index the score is made from) at its grid
// cell, not the grid's national latest valid month (the build's rule, which the province, choropleth and map defaults
// keep). Station records end at different months, so one national month would serve many cells an older month than
// they have. One month offset per cell, computed once when a version is opened; a request reads it in constant time.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { DroughtGrid } from "../../formats/drought-grid.ts";

/** What an answer says about a month it chose itself (the request named none). */
export const CELL_LATEST_MONTH_RULE = "latest month with a SPEI-1 value at this grid cell";

/** Why a point answer serves its month (its `monthReason`): the request named it, or the cell's rule above. */
export const MONTH_REASONS = ["requested", CELL_LATEST_MONTH_RULE] as const;
export type MonthReason = (typeof MONTH_REASONS)[number];

/** A cell whose record has no SPEI-1 value at all. */
export const NO_MONTH_AT_CELL = -1;

/** Bytes of whole cells read per system call when the grid's values stay on disk (1 MiB: a larger fresh buffer costs more in page faults than it saves in calls). */
const CHUNK_BYTES = 1 << 20;

/**
 * Per cell, the offset (0..nMonths-1) of the latest month whose SPEI-1 is not NaN, or NO_MONTH_AT_CELL. A resident
 * grid is read through its values view (each cell backwards from its last month, stopping at the first value: about
 * 0.2 µs a cell). A paged grid (openDroughtGridFile on a large file: values empty) is read from `path` in chunks of
 * whole cells — values are the file's last section, cell-major (formats/drought-grid.md) — rather than one positioned
 * read per cell and month (10 µs a cell, seconds for a million cells); without a path, value by value. The same pass
 * keeps each cell's SPEI-1 in that month (4 bytes a cell).
 */
export function latestByCell(grid: DroughtGrid, path?: string): CellLatest {
  const out = new Int32Array(grid.nCells).fill(NO_MONTH_AT_CELL);
  const spei1 = new Float32Array(grid.nCells).fill(NaN);
  const result = { offset: out, spei1 };
  const k = grid.indexNo("spei1");
  if (k < 0) return result;
  const { nCells, nMonths, nIndices, values } = grid;
  const perCell = nMonths * nIndices;
  if (values.length === nCells * perCell) {
    scanCells(result, values, 0, nCells, nMonths, nIndices, k);
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
        scanCells(result, chunk, first, n, nMonths, nIndices, k);
      }
    } finally {
      closeSync(fd);
    }
  } else {
    for (let cell = 0; cell < nCells; cell++) {
      for (let m = nMonths - 1; m >= 0; m--) {
        const v = grid.value(cell, m, k);
        if (!Number.isNaN(v)) {
          out[cell] = m;
          spei1[cell] = v;
          break;
        }
      }
    }
  }
  return result;
}

/** Per cell, its latest month with SPEI-1 and that SPEI-1 value (NaN where there is none). */
export interface CellLatest {
  offset: Int32Array;
  /**
   * The SPEI-1 of each cell's latest month, found by the same scan: an answer in the cell's own month (batch items)
   * reads it here instead of from the grid's values, which a paged grid would fetch with one read(2) each.
   */
  spei1: Float32Array;
}

/** Latest non-NaN month of index k for `count` cells whose values start at vals[0] (cell `first`). */
function scanCells(out: CellLatest, vals: Float32Array, first: number, count: number, nMonths: number, nIndices: number, k: number): void {
  for (let c = 0; c < count; c++) {
    const base = c * nMonths * nIndices + k;
    for (let m = nMonths - 1; m >= 0; m--) {
      const v = vals[base + m * nIndices];
      if (v === v) {
        out.offset[first + c] = m;
        out.spei1[first + c] = v;
        break;
      }
    }
  }
}

/** Why a point whose cell was found has no default month. */
export function noValueInRecordReason(first: string, last: string): string {
  return `no SPEI-1 value at the nearest grid point from ${first} to ${last}`;
}
