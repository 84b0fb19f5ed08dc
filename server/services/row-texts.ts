// Batch and bulk rows made fast where the scorer can name a point's cell: every row of a cell (or of a reason a point
// has no cell) is the same text after its coordinates, so that text is made once, from the batch item of the cell's
// first point, and each row is its id and coordinates followed by it — the same bytes as the point's own batch item
// written as a CSV line or as JSON (test/server/row-texts.test.ts). The texts are kept per version
// (drought-service.ts), so the batch route and every bulk request share them. A scorer without cellKey (its lookup
// raster not made yet) makes each row's tail from its item, every time. A bulk row (CSV or NDJSON) whose input line already
// reads as its answer's id and coordinates takes only the tail (server/bulk/bulk-input.ts `head`).
import { csvField } from "../../lib/drought/point-scorer.ts";
import { batchCsvLine } from "../routes/drought-csv.ts";
import type { BatchItem, BatchScorer } from "./types.ts";
import { MonthSpan } from "../../lib/months.ts";

/** How a row is written: a batch CSV line, or the batch item as JSON (a batch's results, an NDJSON line). */
export type RowFormat = "csv" | "json";

/** A scored row's text (no newline; a cell's tail: its text after the coordinates), whether the point was found, and the month it was answered for. */
export interface RowText {
  text: string;
  found: boolean;
  month: string | null;
}

/**
 * Cells whose text a version keeps at most, per format: ~5 MB each, held while the version serves (a 1,000,000-cell
 * grid would otherwise hold ~200 MB); the rows of other cells come from their items.
 */
export const MAX_CACHED_TAILS = 25_000;

/** The cells' texts of one version, per format. */
export class RowTails {
  readonly csv = new Map<number, RowText>();
  readonly json = new Map<number, RowText>();
}

/** JSON.stringify(s), without its call for the common id (printable ASCII, no quote or backslash: nothing to escape). */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** A point's row as its batch item writes it: the bytes every row must have (test/server/row-texts.test.ts). */
export const itemRowText = (format: RowFormat, item: BatchItem): string => (format === "csv" ? batchCsvLine(item) : JSON.stringify(item));

/** The text of an item after its coordinates, in `format`: the item written with lat and lng 0 and no id, cut after them. */
function tailOf(format: RowFormat, item: BatchItem): string {
  const blank = { ...item, id: undefined, lat: 0, lng: 0 };
  return format === "csv" ? batchCsvLine(blank).slice(",0,0".length) : JSON.stringify(blank).slice('{"lat":0,"lng":0'.length);
}

export class RowTexts {
  private readonly tails: Map<number, RowText>;

  /** Cells (and reasons) whose text is kept. */
  get cachedCells(): number {
    return this.tails.size;
  }

  constructor(
    private readonly scorer: BatchScorer,
    private readonly format: RowFormat,
  ) {
    this.tails = scorer.tails?.[format] ?? new Map();
  }

  /**
   * The text after a point's coordinates (its cell's, kept for the version, or made from the point's item), whether
   * the point was found and its month: the same object for every point of a kept cell.
   */
  tail(lat: number, lng: number): RowText {
    const key = this.scorer.cellKey?.(lat, lng);
    let tail = key === undefined ? undefined : this.tails.get(key);
    if (tail === undefined) {
      const item = this.scorer.item(undefined, lat, lng);
      tail = { text: tailOf(this.format, item), found: item.found, month: item.month };
      if (key !== undefined && this.tails.size < MAX_CACHED_TAILS) this.tails.set(key, tail);
    }
    return tail;
  }

  /** A row's text before its tail: its id and coordinates. String(n) is JSON's and the CSV writer's text of a finite number. */
  head(id: string | undefined, lat: number, lng: number): string {
    return this.format === "csv"
      ? `${id === undefined ? "" : csvField(id)},${lat},${lng}`
      : `{${id === undefined ? "" : `"id":${jsonString(id)},`}"lat":${lat},"lng":${lng}`;
  }

  row(id: string | undefined, lat: number, lng: number): RowText {
    const tail = this.tail(lat, lng);
    return { text: this.head(id, lat, lng) + tail.text, found: tail.found, month: tail.month };
  }
}

/** A batch's rows through RowTexts, and the months its found rows were answered for. */
export function batchRows(scorer: BatchScorer, locations: ReadonlyArray<{ id?: string; lat: number; lng: number }>, format: RowFormat) {
  const rows = new RowTexts(scorer, format);
  const texts: string[] = new Array(locations.length);
  const months = new MonthSpan();
  for (let i = 0; i < locations.length; i++) {
    const { id, lat, lng } = locations[i];
    const r = rows.row(id, lat, lng);
    texts[i] = r.text;
    if (r.found) months.add(r.month!);
  }
  return { texts, months };
}
