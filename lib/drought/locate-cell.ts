// Which drought grid cell answers for a point, or why none does — the one rule behind the drought, score and
// batch answers (server/services/drought-point.ts) and the bulk scorer (pipeline/commands/score-points.ts):
// the point lies in the covered area (the drought region's provinces: the coverage mask inside a country, the
// province polygons in squares along borders and coasts), a grid cell lies near it (the grid's constant-time test), and
// the answer is the great-circle nearest cell.
import { INSIDE, MIXED, type CoverageMask } from "../../formats/coverage-mask.ts";
import type { DroughtGrid } from "../../formats/drought-grid.ts";
import type { ProvinceIndexReader } from "../../formats/province-index.ts";

const COUNTRY_NAMES: Readonly<Record<string, string>> = { THA: "Thailand", VNM: "Vietnam", MYS: "Malaysia" };

/** Per grid's country table, its reason: a batch of points at sea makes it once, not once a point. */
const outsideReasons = new WeakMap<readonly string[], string>();

/** Why a point outside the grid's countries has no answer: "… (the land of Thailand, Vietnam and Malaysia)". */
export function outsideAreaReason(countries: readonly string[]): string {
  let reason = outsideReasons.get(countries);
  if (reason === undefined) {
    const names = countries.map((c) => COUNTRY_NAMES[c] ?? c);
    const list = names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    reason = `location is outside the covered area (the land of ${list})`;
    outsideReasons.set(countries, reason);
  }
  return reason;
}
export const NO_CELL_NEAR_REASON = "no drought grid cell near the location";

/** locateCell's answers other than a cell number. */
export const OUTSIDE_AREA = -1;
export const NO_CELL_NEAR = -2;

export interface CellLocatorParts {
  grid: DroughtGrid;
  coverage: CoverageMask;
  provinceIndex: ProvinceIndexReader;
}

/** coverageAt's answers other than a province number. */
export const NOT_COVERED = -1;
/** Inside a square wholly of one country's provinces: covered, the province not looked up (the cell's country is the point's). */
export const COVERED_SQUARE = -2;

/**
 * Whether a point lies in the covered area — the coverage mask alone, the province polygons in mixed squares — and,
 * where the polygons were asked, its province: NOT_COVERED, COVERED_SQUARE or the province number.
 */
export function coverageAt(a: Omit<CellLocatorParts, "grid">, lat: number, lng: number): number {
  const state = a.coverage.stateAt(lat, lng);
  if (state === INSIDE) return COVERED_SQUARE;
  if (state === MIXED) return a.provinceIndex.provinceAt(lat, lng);
  return NOT_COVERED;
}

/** Whether a point lies in the covered area. */
export function isCovered(a: Omit<CellLocatorParts, "grid">, lat: number, lng: number): boolean {
  return coverageAt(a, lat, lng) !== NOT_COVERED;
}

/** The nearest cell's number, or OUTSIDE_AREA / NO_CELL_NEAR; `covered`: coverageAt's answer when already known. */
export function locateCell(a: CellLocatorParts, lat: number, lng: number, covered = coverageAt(a, lat, lng)): number {
  if (covered === NOT_COVERED) return OUTSIDE_AREA;
  if (!a.grid.covers(lat, lng)) return NO_CELL_NEAR;
  return a.grid.nearestCell(lat, lng).cell;
}

export function locateReason(code: number, countries: readonly string[]): string {
  return code === OUTSIDE_AREA ? outsideAreaReason(countries) : NO_CELL_NEAR_REASON;
}

export function noMonthReason(month: string, first: string, last: string): string {
  return `no drought data for ${month}: the grid covers ${first} to ${last}`;
}

export function noValueReason(month: string): string {
  return `no SPEI-1 value at the nearest grid point for ${month}`;
}
