// What every feed adapter returns: normalised records plus an honest count of the rows it could not use.
// Times are epoch milliseconds (UTC); geometry is a point (lng/lat) with an optional bbox; NaN = missing.
import type { EventInput } from "../../formats/event-index.ts";
import type { CsvRejection } from "./csv.ts";

/** A normalised feed record: an event-index entry plus its unit and kind. */
export interface FeedRecord extends EventInput {
  /** Unit of `magnitude`. */
  unit: string;
  /** Event kind: "flood", "fire", "cyclone", "drought", "earthquake", ... */
  kind: string;
}

export interface Rejections {
  /** Rows looked at (data rows, not headers). */
  rows: number;
  rejected: number;
  /** reason → count, so a report shows why rows were refused. */
  reasons: Record<string, number>;
  /** reason → where the rows were, one "file:lines" entry per file ("FloodArchive.csv:51,90-92"). */
  rejectedAt: Record<string, string[]>;
}

export interface AdapterResult<T = FeedRecord> extends Rejections {
  records: T[];
}

export class RejectCounter {
  rows = 0;
  rejected = 0;
  reasons: Record<string, number> = {};
  /** reason → file → lines */
  private readonly at = new Map<string, Map<string, number[]>>();

  /** One row refused; `file` and `line` say where when the input has lines. */
  reject(reason: string, file?: string, line?: number): void {
    this.rejected++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
    if (file === undefined || line === undefined) return;
    let byFile = this.at.get(reason);
    if (!byFile) this.at.set(reason, (byFile = new Map()));
    let lines = byFile.get(file);
    if (!lines) byFile.set(file, (lines = []));
    lines.push(line);
  }

  /** Rows the CSV reader refused (malformed lines): looked at, and rejected with their line. */
  addCsvRejections(list: readonly CsvRejection[]): void {
    for (const r of list) {
      this.rows++;
      this.reject(r.reason, r.file, r.line);
    }
  }

  result<T>(records: T[]): AdapterResult<T> {
    const rejectedAt: Record<string, string[]> = {};
    for (const [reason, byFile] of this.at) rejectedAt[reason] = [...byFile].map(([file, lines]) => `${file}:${lineRanges(lines)}`);
    return { records, rows: this.rows, rejected: this.rejected, reasons: { ...this.reasons }, rejectedAt };
  }
}

/** Sorted line numbers as ranges: [3,4,5,9] → "3-5,9". */
export function lineRanges(lines: readonly number[]): string {
  const s = [...lines].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] <= s[j] + 1) j++;
    parts.push(s[j] === s[i] ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

export function validLatLng(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}
