// What every feed adapter returns: normalised records plus an honest count of the rows it could not use.
// Times are epoch milliseconds (UTC); geometry is a point (lng/lat) with an optional bbox; NaN = missing.

export interface FeedRecord {
  /** Stable id inside its source, e.g. "DFO-3875", "FL-1103881", an IBTrACS SID. */
  id: string;
  /** Source name, e.g. "DFO", "GDACS", "IBTrACS", "FIRMS-MODIS". */
  source: string;
  /** Start of the event (ms since 1970, UTC). */
  time: number;
  /** End of the event (ms); equal to time for instantaneous observations. */
  endTime: number;
  lng: number;
  lat: number;
  /** [minLng, minLat, maxLng, maxLat] of the affected area, when the feed gives one. */
  bbox?: [number, number, number, number];
  /** Intensity in the record's own unit (see `unit`). */
  magnitude: number;
  unit: string;
  /** Event kind: "flood", "fire", "cyclone", "drought", "earthquake", ... */
  kind: string;
  /** Human name (storm name, country, place). */
  name: string;
  /** Records of one event share a group (e.g. all track points of one storm). Defaults to id. */
  group?: string;
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
