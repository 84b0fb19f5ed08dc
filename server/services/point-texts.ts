// GET /api/risk-map/drought's JSON answer written from cached text: every point that a cell answers for the same month
// shares the answer's period, drought and details, and the cell's id and centre, so those are written once (per
// version, day and cell-month) and each answer is the point's coordinates, distance and country around them. The same
// bytes as JSON.stringify of the answer object (test/server/point-texts.test.ts).
import type { FreshnessFlag } from "./source-status-service.ts";
import type { CellHit } from "./drought-point.ts";
import type { DroughtGridData } from "./types.ts";
import { round } from "./drought-fields.ts";
import { VersionDayCache } from "./drought-time.ts";

/** Cell-months whose text is kept per version and day at most (~1 KB each: ≤ ~10 MB); the cache starts again past it. */
export const MAX_CACHED_POINT_TEXTS = 10_000;

interface CellText {
  /** `,"gridId":…,"gridLat":…,"gridLng":…,"distanceKm":` */
  mid: string;
  /** The answer's keys after location: `"period":{…},"drought":{…},"details":{…}` */
  tail: string;
}

/** The cell-month's part of its answers. */
function cellTextOf(data: DroughtGridData): CellText {
  const { gridId, gridLat, gridLng } = data.location;
  // Every key of the answer after location, in its order (location: undefined is left out by JSON.stringify).
  const rest = JSON.stringify({ ...data, location: undefined });
  return { mid: `,"gridId":${JSON.stringify(gridId)},"gridLat":${gridLat},"gridLng":${gridLng},"distanceKm":`, tail: rest.slice(1, -1) };
}

export class PointTexts {
  private readonly cells: VersionDayCache<CellText>;
  private flag: FreshnessFlag | undefined;
  private flagText = "";

  constructor(now: () => number) {
    this.cells = new VersionDayCache(now, MAX_CACHED_POINT_TEXTS);
  }

  /** Cell-months whose text is kept now. */
  get cachedCells(): number {
    return this.cells.size;
  }

  /**
   * The answer's JSON text for a point whose cell-month is `hit` (with the flag appended, as the route sends it);
   * `answer` builds the answer object when the cell-month's text is not cached yet.
   */
  text(hit: CellHit, lat: number, lng: number, flag: FreshnessFlag, answer: () => DroughtGridData): string {
    // A cell's default month has its own monthReason; a month asked for says "requested".
    const key = (hit.cell * (hit.a.grid.nMonths + 1) + hit.offset) * 2 + (hit.monthReason === "requested" ? 1 : 0);
    const cell = this.cells.get(hit.a.version, key, () => cellTextOf(answer()));
    if (flag !== this.flag) {
      this.flag = flag;
      this.flagText = JSON.stringify(flag).slice(1, -1);
    }
    // String(n) is JSON's text of a finite number (and of null: a distance round() found non-finite).
    const distanceKm = round(hit.distanceKm, 2);
    const flagText = this.flagText === "" ? "" : `,${this.flagText}`;
    return `{"success":true,"data":{"location":{"requestedLat":${lat},"requestedLng":${lng}${cell.mid}${distanceKm},"country":${JSON.stringify(hit.country)}},${cell.tail}${flagText}}}`;
  }
}
