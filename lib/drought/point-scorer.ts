// The batch answer for one point as a CSV row, for the bulk scorer (pipeline/commands/score-points.ts): the same
// fields and values as an item of POST /api/risk-map/drought/batch (riskScore, riskLevel, severity, SPEI-1 to
// three decimals, reason when not found), located with the lookup raster (cell-raster.ts). Without a month (none in
// the row, no --month) a point gets its cell's default month, as a batch item does (cell-latest.ts). Rows of
// a cell and month are the same text after the coordinates, so each is made once.
import type { DroughtGrid } from "../../formats/drought-grid.ts";
import { droughtLevel, droughtScore, riskLevel } from "../drought-scale.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../months.ts";
import { CellRaster } from "./cell-raster.ts";
import { locateReason, noMonthReason, noValueReason, type CellLocatorParts } from "./locate-cell.ts";
import { noValueInRecordReason } from "./cell-latest.ts";

/** A month offset meaning "the point's cell's default month" (the scorer's default without --month). */
export const CELL_LATEST = -2;
/** The default offset when --month lies outside the grid: every row without a month of its own says so. */
export const MONTH_OUTSIDE_GRID = -1;

export const SCORED_COLUMNS = ["id", "lat", "lng", "month", "found", "riskScore", "riskLevel", "severity", "spei1", "reason"] as const;
export const SCORED_HEADER = SCORED_COLUMNS.join(",");

/** RFC 4180 quoting of one field, only where it needs it. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A month offset's per-cell cache, made on first use. */
function perCell<T>(caches: Map<number, (T | undefined)[]>, offset: number, nCells: number): (T | undefined)[] {
  let byCell = caches.get(offset);
  if (!byCell) {
    byCell = new Array<T | undefined>(nCells);
    caches.set(offset, byCell);
  }
  return byCell;
}

export interface ScoreCounts {
  rows: number;
  found: number;
  notFound: number;
  invalid: number;
}

export class PointScorer {
  readonly raster: CellRaster;
  readonly counts: ScoreCounts = { rows: 0, found: 0, notFound: 0, invalid: 0 };
  private readonly grid: DroughtGrid;
  /** SPEI-1's index number in the grid (the score is made from it); −1: the grid has none, so no cell has a value. */
  private readonly spei1No: number;
  /** Per month offset, per cell: the row's text from ",month" on (made on first use). */
  private readonly tails = new Map<number, (string | undefined)[]>();
  private readonly missTails = new Map<number, string>();
  /** The same tails as bytes with the newline, for the bulk scorer's byte path. */
  private readonly tailBytes = new Map<number, (Buffer | undefined)[]>();
  private readonly missTailBytes = new Map<number, Buffer>();
  /** Offset of the default month in the grid: CELL_LATEST without one, MONTH_OUTSIDE_GRID when it lies outside. */
  readonly defaultOffset: number;
  private readonly noDefaultMonth: string;
  private readonly cellLatest: Int32Array;
  /** The tail of a cell whose record has no SPEI-1 at all (no month to name). */
  private readonly noValueInRecord: string;

  /** `defaultMonth`: the --month of the command; without it, each point's cell's default month (parts.cellDefaultOffset). */
  constructor(parts: CellLocatorParts & { cellDefaultOffset: Int32Array }, defaultMonth?: MonthIndex) {
    this.grid = parts.grid;
    this.spei1No = parts.grid.indexNo("spei1");
    this.raster = new CellRaster(parts);
    this.cellLatest = parts.cellDefaultOffset;
    const first = formatMonth(this.grid.firstMonth);
    const last = formatMonth(this.grid.lastMonth);
    this.noValueInRecord = `,,false,,,,,${csvField(noValueInRecordReason(first, last))}`;
    if (defaultMonth === undefined) {
      this.defaultOffset = CELL_LATEST;
      this.noDefaultMonth = "";
    } else {
      const offset = this.grid.monthOffset(defaultMonth);
      this.defaultOffset = offset < 0 ? MONTH_OUTSIDE_GRID : offset;
      const month = formatMonth(defaultMonth);
      this.noDefaultMonth = `,${month},false,,,,,${csvField(noMonthReason(month, first, last))}`;
    }
  }

  /**
   * One output row (no newline): `head` is the row's first three fields (id, lat, lng as given, CSV-quoted where
   * needed). A coordinate or month that does not parse gives found=false with the reason: the bulk scorer reports
   * bad rows instead of stopping at the first.
   */
  row(head: string, latText: string, lngText: string, monthText: string | undefined): string {
    this.counts.rows++;
    const lat = latText.length === 0 ? NaN : Number(latText);
    const lng = lngText.length === 0 ? NaN : Number(lngText);
    let offset = this.defaultOffset;
    if (monthText !== undefined && monthText !== "") {
      const m = parseMonth(monthText.trim());
      if (m === undefined) return this.invalid(head, monthText, `month must be YYYY-MM, got "${monthText}"`);
      offset = this.grid.monthOffset(m);
      if (offset < 0) {
        this.counts.notFound++;
        const month = formatMonth(m);
        return `${head},${month},false,,,,,${csvField(noMonthReason(month, formatMonth(this.grid.firstMonth), formatMonth(this.grid.lastMonth)))}`;
      }
    }
    if (offset === MONTH_OUTSIDE_GRID) {
      this.counts.notFound++;
      return head + this.noDefaultMonth;
    }
    if (!(lat >= -90 && lat <= 90)) return this.invalid(head, this.monthText(offset), `lat must be a number from -90 to 90, got "${latText}"`);
    if (!(lng >= -180 && lng <= 180)) return this.invalid(head, this.monthText(offset), `lng must be a number from -180 to 180, got "${lngText}"`);
    const cell = this.raster.locate(lat, lng);
    if (cell < 0) {
      this.counts.notFound++;
      return head + this.missTail(offset, cell);
    }
    return head + this.cellTail(cell, offset);
  }

  /**
   * The row after its first three fields, as bytes ending in a newline, for a point already known to be valid:
   * lat and lng numbers in range, `offset` a month of the grid or CELL_LATEST. Counts the row as row() does.
   */
  validRowTail(lat: number, lng: number, offset: number): Buffer {
    this.counts.rows++;
    const cell = this.raster.locate(lat, lng);
    if (cell < 0) {
      this.counts.notFound++;
      const key = offset * 4 - cell;
      let tail = this.missTailBytes.get(key);
      if (tail === undefined) {
        tail = Buffer.from(this.missTail(offset, cell) + "\n");
        this.missTailBytes.set(key, tail);
      }
      return tail;
    }
    // The cell's default month is cached under CELL_LATEST itself: one lookup per row as for a named month.
    const byCell = perCell(this.tailBytes, offset, this.grid.nCells);
    let tail = byCell[cell];
    if (tail === undefined) {
      tail = Buffer.from(this.cellTailText(cell, offset) + "\n");
      byCell[cell] = tail;
    }
    if (tail[tail.length - 2] === 44 /* "," : found */) this.counts.found++;
    else this.counts.notFound++;
    return tail;
  }

  /** A month's offset in the grid for validRowTail; undefined when row() must answer (not YYYY-MM, or outside the grid). */
  gridOffsetOf(monthText: string): number | undefined {
    const m = parseMonth(monthText.trim());
    if (m === undefined) return undefined;
    const offset = this.grid.monthOffset(m);
    return offset < 0 ? undefined : offset;
  }

  /** The month column of an offset; empty for CELL_LATEST before a cell is known (no month was chosen). */
  private monthText(offset: number): string {
    return offset === CELL_LATEST ? "" : formatMonth(this.grid.firstMonth + offset);
  }

  private invalid(head: string, month: string, reason: string): string {
    this.counts.invalid++;
    return `${head},${csvField(month)},false,,,,,${csvField(reason)}`;
  }

  /** The tail of a point with no cell (locateCell's code) in a month, by offset. */
  private missTail(offset: number, code: number): string {
    const key = offset * 4 - code;
    let tail = this.missTails.get(key);
    if (tail === undefined) {
      tail = `,${this.monthText(offset)},false,,,,,${csvField(locateReason(code, this.grid.countries))}`;
      this.missTails.set(key, tail);
    }
    return tail;
  }

  private cellTail(cell: number, offset: number): string {
    const tail = this.cellTailText(cell, offset);
    if (tail.charCodeAt(tail.length - 1) === 44 /* "," : found */) this.counts.found++;
    else this.counts.notFound++;
    return tail;
  }

  private cellTailText(cell: number, asked: number): string {
    const byCell = perCell(this.tails, asked, this.grid.nCells);
    let tail = byCell[cell];
    if (tail === undefined) {
      const offset = asked === CELL_LATEST ? this.cellLatest[cell] : asked;
      if (offset < 0) return (byCell[cell] = this.noValueInRecord);
      const month = this.monthText(offset);
      const spei1 = this.spei1No < 0 ? NaN : this.grid.value(cell, offset, this.spei1No);
      if (Number.isNaN(spei1)) tail = `,${month},false,,,,,${csvField(noValueReason(month))}`;
      else {
        const score = droughtScore(spei1);
        tail = `,${month},true,${score},${riskLevel(score)},${droughtLevel(spei1) ?? ""},${Math.round(spei1 * 1000) / 1000},`;
      }
      byCell[cell] = tail;
    }
    return tail;
  }
}
