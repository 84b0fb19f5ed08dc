// The fields every drought answer builds from: rounded values, a month's score and levels, confidence, grid ids.
import { confidenceLabel, droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { gridIdOf } from "../../lib/drought/grid-id.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";

/** `x` to `digits` decimals; null for NaN and ±Inf (a missing value stays missing). */
export function round(x: number, digits: number): number | null {
  if (!Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * The confidence fields of an answer (docs/methods/confidence.md); null with the reason where there is none. `at`:
 * the cell-month answered, whose gap names the reason (a province's mean has none).
 */
export function confidenceOf(a: DroughtArtifacts, c: number | null, at?: { cell: number; offset: number }) {
  if (c !== null) return { confidence: round(c, 2) as number, confidenceLabel: confidenceLabel(c) };
  return { confidence: null, confidenceLabel: null, confidenceReason: at ? noConfidenceReason(a, at.cell, at.offset) : noProvinceConfidenceReason(a) };
}

export const CONFIDENCE_REASONS = {
  grid: "this grid has no confidence (only the station grid and the regional CPC grid are calibrated)",
  "no-support": "no station reports this month within 250 km of the cell",
  "below-calibration": "the stations reporting this month near the cell are fewer or farther than any the confidence is calibrated on",
  province: "none of the province's cells has a confidence this month: too few stations report near them",
} as const;

/** Why the cell-month has no confidence. */
export function noConfidenceReason(a: DroughtArtifacts, cell: number, offset: number): string {
  if (!a.confidence) return CONFIDENCE_REASONS.grid;
  return CONFIDENCE_REASONS[a.confidence.cellGap(cell, offset) ?? "no-support"];
}

function noProvinceConfidenceReason(a: DroughtArtifacts): string {
  return a.confidence ? CONFIDENCE_REASONS.province : CONFIDENCE_REASONS.grid;
}

/** Score, level, D-level and validity of a month from its SPEI-1 (the drought scale of lib/drought-scale.ts). */
export function scoreOf(spei1: number) {
  if (!Number.isFinite(spei1)) return { valid: false, score: null, level: null, severity: null };
  const score = droughtScore(spei1);
  return { valid: true, score, level: riskLevel(score), severity: droughtLevel(spei1) };
}

/** Grid ids name the grid and the cell: "SEA100-<row*nCols+col>", "TH025-…" for a Thai grid (lib/drought/grid-id.ts). */
export function gridId(a: DroughtArtifacts, cell: number): string {
  return gridIdOf(a.grid.resolutionDeg, a.grid.cellId(cell), a.grid.countries);
}
