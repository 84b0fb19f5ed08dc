// A point's drought answers: the grid cell that answers for it (or why none does), its month's answer, its history, a batch item.
import { NotFoundError } from "../errors.ts";
import { confidenceLabel, droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { coverageAt, locateCell, locateReason, NO_CELL_NEAR_REASON, NOT_COVERED, noMonthReason, noValueReason, OUTSIDE_AREA } from "../../lib/drought/locate-cell.ts";
import { ANSWER_INDICES, DEFAULT_RULES, noValueInRecordReason, type MonthReason } from "../../lib/drought/cell-latest.ts";
import { DEFAULT_HISTORY_INDICES } from "../schemas-drought.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import { confidenceOf, gridId, noConfidenceReason, round, scoreOf } from "./drought-fields.ts";
import { monthRange, type DroughtTimes } from "./drought-time.ts";
import type { BatchItem, DroughtGridData, DroughtHistoryData } from "./types.ts";

const INDEX_KEYS = ANSWER_INDICES;

/** The grid cell that answers for a point, the month it answers and that month's SPEI-1. */
export interface CellHit {
  a: DroughtArtifacts;
  cell: number;
  distanceKm: number;
  month: MonthIndex;
  offset: number;
  spei1: number;
  monthReason: MonthReason;
  /** The point's country: its province's where the polygons were asked, else its cell's (coverageAt). */
  country: string;
}

/** The point's country from coverageAt's answer: the province's, or, inside a one-country square, its cell's. */
function pointCountry(a: DroughtArtifacts, covered: number, cell: number): string {
  return covered >= 0 ? a.provinces[covered].country : a.grid.cellCountry(cell);
}

/**
 * The grid cell for a coordinate, or the reason there is none. A point is covered when it lies inside one of the
 * drought region's province polygons (sea and other countries are not), a grid cell lies near it (the grid's
 * constant-time coverage test: a grid that leaves part of the area without cells answers there with no data
 * rather than with a far cell's values), and its nearest land cell has SPEI-1 for the month. Without a month, the
 * month is the cell's default month (the grid's latest valid month where the cell has every index then, else the
 * cell's own: lib/drought/cell-latest.ts; precomputed per cell when the version was opened: one array read).
 */
export function locate(a: DroughtArtifacts, lat: number, lng: number, month: MonthIndex | undefined): CellHit | string {
  let offset = month === undefined ? -1 : a.grid.monthOffset(month);
  if (month !== undefined && offset < 0) {
    return noMonthReason(formatMonth(month), formatMonth(a.grid.firstMonth), formatMonth(a.grid.lastMonth));
  }
  const covered = coverageAt(a, lat, lng);
  if (covered === NOT_COVERED) return locateReason(OUTSIDE_AREA, a.grid.countries);
  if (!a.grid.covers(lat, lng)) return NO_CELL_NEAR_REASON;
  const { cell, distanceKm } = a.grid.nearestCell(lat, lng);
  if (month === undefined) {
    offset = a.cellDefaultOffset[cell];
    if (offset < 0) return noValueInRecordReason(formatMonth(a.grid.firstMonth), formatMonth(a.grid.lastMonth));
  }
  // The cell's own latest month: its SPEI-1 was kept when the version was opened (no read of a paged grid).
  const spei1 = month === undefined ? a.cellDefaultSpei1[cell] : a.grid.value(cell, offset, a.spei1Index);
  if (Number.isNaN(spei1)) return noValueReason(formatMonth(a.grid.firstMonth + offset));
  const monthReason: MonthReason = month === undefined ? DEFAULT_RULES[a.cellDefaultRule[cell]] : "requested";
  return { a, cell, distanceKm, month: a.grid.firstMonth + offset, offset, spei1, monthReason, country: pointCountry(a, covered, cell) };
}

/** The cell for a coordinate and an optional YYYY-MM, or a 404 with the reason there is none. */
export function locateOrThrow(a: DroughtArtifacts, lat: number, lng: number, month: string | undefined): CellHit {
  const hit = locate(a, lat, lng, month === undefined ? undefined : (parseMonth(month) as MonthIndex));
  if (typeof hit === "string") throw new NotFoundError(hit, { lat, lng, ...(month ? { month } : {}) });
  return hit;
}

/** The indices an answer carries (ANSWER_INDICES), rounded, of the hit's cell and month. */
export function cellIndices(hit: CellHit) {
  const rec = hit.a.grid.record(hit.cell, hit.offset);
  const names = hit.a.grid.indexNames;
  const out = {} as Record<(typeof INDEX_KEYS)[number], number | null>;
  for (const k of INDEX_KEYS) out[k] = round(rec[names.indexOf(k)], 3);
  return out;
}

/** Where a point's answer comes from: the point asked for and its grid cell. */
function cellLocation(a: DroughtArtifacts, cell: number, lat: number, lng: number, distanceKm: number, country: string) {
  return {
    requestedLat: lat,
    requestedLng: lng,
    gridId: gridId(a, cell),
    gridLat: a.grid.cellLat(cell),
    gridLng: a.grid.cellLng(cell),
    distanceKm: round(distanceKm, 2) as number,
    country,
  };
}

/** GET /api/risk-map/drought: the answer of the hit's cell and month. */
export function pointAnswer(hit: CellHit, lat: number, lng: number, times: DroughtTimes): DroughtGridData {
  const { a, cell } = hit;
  const score = droughtScore(hit.spei1);
  return {
    location: cellLocation(a, cell, lat, lng, hit.distanceKm, hit.country),
    period: { month: formatMonth(hit.month), monthReason: hit.monthReason, climatologyBaseline: a.baselineLabel },
    drought: {
      score,
      level: riskLevel(score),
      indices: cellIndices(hit),
      severity: { spei1: droughtLevel(hit.spei1) },
      ...confidenceOf(a, a.confidence?.cell(cell, hit.offset) ?? null, { cell, offset: hit.offset }),
    },
    details: times.of(a, hit.month, hit.month),
  };
}

/** GET /api/risk-map/drought/history: the monthly record of a point's cell, the indices asked for, rounded. */
export function pointHistory(a: DroughtArtifacts, q: { lat: number; lng: number; from?: string; to?: string; indices?: readonly string[] }, times: DroughtTimes): DroughtHistoryData {
  const covered = coverageAt(a, q.lat, q.lng);
  const cell = locateCell(a, q.lat, q.lng, covered);
  if (cell < 0) throw new NotFoundError(locateReason(cell, a.grid.countries), { lat: q.lat, lng: q.lng });
  const { distanceKm } = a.grid.nearestCell(q.lat, q.lng);
  const [lo, hi] = monthRange(a.grid.firstMonth, a.grid.lastMonth, q.from, q.to);
  const names = q.indices ?? DEFAULT_HISTORY_INDICES;
  const nos = names.map((n) => a.grid.indexNo(n));
  const series = [];
  for (let m = lo; m <= hi; m++) {
    const rec = a.grid.record(cell, m - a.grid.firstMonth);
    const indices: Record<string, number | null> = {};
    names.forEach((n, i) => (indices[n] = nos[i] < 0 ? null : round(rec[nos[i]], 3)));
    series.push({ month: formatMonth(m), ...scoreOf(rec[a.spei1Index]), indices });
  }
  return {
    location: cellLocation(a, cell, q.lat, q.lng, distanceKm, pointCountry(a, covered, cell)),
    period: { from: formatMonth(lo), to: formatMonth(hi), months: hi - lo + 1, climatologyBaseline: a.baselineLabel },
    series,
    details: times.of(a, lo, hi),
  };
}

/** One location of POST /api/risk-map/batch: found with its cell's default month, or found:false with the reason. */
export function batchItemOf(a: DroughtArtifacts, id: string | undefined, lat: number, lng: number): BatchItem {
  // A batch names no month: each point gets its cell's default month (lib/drought/cell-latest.ts), which the item states.
  const hit = locate(a, lat, lng, undefined);
  // Plain literals, no spread (this runs 100 times per batch request); the keys in the order of confidenceOf's.
  if (typeof hit === "string") {
    return { id, lat, lng, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: hit };
  }
  const score = droughtScore(hit.spei1);
  const c = a.confidence?.cell(hit.cell, hit.offset) ?? null;
  const month = a.monthLabels[hit.offset];
  const spei1 = round(hit.spei1, 3) as number;
  if (c !== null) return { id, lat, lng, found: true, month, riskScore: score, riskLevel: riskLevel(score), severity: droughtLevel(hit.spei1), spei1, confidence: round(c, 2) as number, confidenceLabel: confidenceLabel(c) };
  return { id, lat, lng, found: true, month, riskScore: score, riskLevel: riskLevel(score), severity: droughtLevel(hit.spei1), spei1, confidence: null, confidenceLabel: null, confidenceReason: noConfidenceReason(a, hit.cell, hit.offset) };
}
