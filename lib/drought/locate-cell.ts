// Which drought grid cell answers for a point, or why none does — the one rule behind the drought, score and
// batch answers (server/services/drought-point.ts) and the bulk scorer (pipeline/commands/score-points.ts):
// the point lies in the covered area (Thailand's provinces: the coverage mask inside the country, the province
// polygons in squares along borders and coasts), a grid cell lies near it (the grid's constant-time test), and
// the answer is the great-circle nearest cell.
import { INSIDE, MIXED, type CoverageMask } from "../../formats/coverage-mask.ts";
import type { DroughtGrid } from "../../formats/drought-grid.ts";
import type { ProvinceIndexReader } from "../../formats/province-index.ts";

export const OUTSIDE_AREA_REASON = "location is outside the covered area (Thailand's land area)";
export const NO_CELL_NEAR_REASON = "no drought grid cell near the location";

/** locateCell's answers other than a cell number. */
export const OUTSIDE_AREA = -1;
export const NO_CELL_NEAR = -2;

export interface CellLocatorParts {
  grid: DroughtGrid;
  coverage: CoverageMask;
  provinceIndex: ProvinceIndexReader;
}

/** Whether a point lies in the covered area: the coverage mask alone, the province polygons in mixed squares. */
export function isCovered(a: Omit<CellLocatorParts, "grid">, lat: number, lng: number): boolean {
  const state = a.coverage.stateAt(lat, lng);
  if (state === INSIDE) return true;
  if (state === MIXED) return a.provinceIndex.provinceAt(lat, lng) >= 0;
  return false;
}

/** The nearest cell's number, or OUTSIDE_AREA / NO_CELL_NEAR. */
export function locateCell(a: CellLocatorParts, lat: number, lng: number): number {
  if (!isCovered(a, lat, lng)) return OUTSIDE_AREA;
  if (!a.grid.covers(lat, lng)) return NO_CELL_NEAR;
  return a.grid.nearestCell(lat, lng).cell;
}

export function locateReason(code: number): string {
  return code === OUTSIDE_AREA ? OUTSIDE_AREA_REASON : NO_CELL_NEAR_REASON;
}

export function noMonthReason(month: string, first: string, last: string): string {
  return `no drought data for ${month}: the grid covers ${first} to ${last}`;
}

export function noValueReason(month: string): string {
  return `no SPEI-1 value at the nearest grid point for ${month}`;
}
