// What every feed adapter returns: normalised records plus an honest count of the rows it could not use.
// Times are epoch milliseconds (UTC); geometry is a point (lng/lat) with an optional bbox; NaN = missing.
import type { EventInput } from "../../formats/event-index.ts";

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
}

export interface AdapterResult<T = FeedRecord> extends Rejections {
  records: T[];
}

export class RejectCounter implements Rejections {
  rows = 0;
  rejected = 0;
  reasons: Record<string, number> = {};
  reject(reason: string): void {
    this.rejected++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
  }
  result<T>(records: T[]): AdapterResult<T> {
    return { records, rows: this.rows, rejected: this.rejected, reasons: { ...this.reasons } };
  }
}

export function validLatLng(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}
