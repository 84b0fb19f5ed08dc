// The bulk answer's rows, made fast where the scorer can name a point's cell: every row of a cell (or of a reason a
// point has no cell) is the same text after its coordinates, so that text is made once, from the batch item of the
// cell's first point, and each row is its id and coordinates followed by it — the same bytes as itemText() of the
// point's own batch item (test/server/bulk-rows.test.ts). A scorer without cellKey gives each row from its item.
import { csvField } from "../../lib/drought/point-scorer.ts";
import { batchCsvLine } from "../routes/drought-csv.ts";
import type { BatchItem, BatchScorer } from "../services/types.ts";
import type { BulkFormat } from "./bulk-input.ts";
import { itemText } from "./bulk-output.ts";

/** A scored row: its text with the newline, whether the point was found, and the month it was answered for. */
export interface BulkRowText {
  text: string;
  found: boolean;
  month: string | null;
}

interface Tail {
  text: string;
  found: boolean;
  month: string | null;
}

/** The text of an item after its coordinates, in `format` (with the newline): the item written with lat and lng 0 and no id, cut after them. */
function tailOf(format: BulkFormat, item: BatchItem): string {
  const blank = { ...item, id: undefined, lat: 0, lng: 0 };
  return format === "csv" ? batchCsvLine(blank).slice(",0,0".length) + "\n" : JSON.stringify(blank).slice('{"lat":0,"lng":0'.length) + "\n";
}

/** Cells whose text a request keeps at most (a 1,000,000-cell grid would otherwise hold ~200 MB for one request). */
export const MAX_CACHED_TAILS = 100_000;

export class BulkRows {
  private readonly tails = new Map<number, Tail>();

  /** Cells (and reasons) whose text is kept. */
  get cachedCells(): number {
    return this.tails.size;
  }

  constructor(
    private readonly scorer: BatchScorer,
    private readonly format: BulkFormat,
  ) {}

  row(id: string | undefined, lat: number, lng: number): BulkRowText {
    const key = this.scorer.cellKey?.(lat, lng);
    if (key === undefined) {
      const item = this.scorer.item(id, lat, lng);
      return { text: itemText(this.format, item), found: item.found, month: item.month };
    }
    let tail = this.tails.get(key);
    if (tail === undefined) {
      const item = this.scorer.item(undefined, lat, lng);
      tail = { text: tailOf(this.format, item), found: item.found, month: item.month };
      if (this.tails.size < MAX_CACHED_TAILS) this.tails.set(key, tail);
    }
    // String(n) is JSON's and the CSV writer's text of a finite number.
    const text =
      this.format === "csv"
        ? `${id === undefined ? "" : csvField(id)},${lat},${lng}${tail.text}`
        : `{${id === undefined ? "" : `"id":${JSON.stringify(id)},`}"lat":${lat},"lng":${lng}${tail.text}`;
    return { text, found: tail.found, month: tail.month };
  }
}
