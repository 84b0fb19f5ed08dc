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

/** The confidence fields of an answer (docs/methods/confidence.md); null with the reason where there is none. */
export function confidenceOf(a: DroughtArtifacts, c: number | null) {
  if (c !== null) return { confidence: round(c, 2) as number, confidenceLabel: confidenceLabel(c) };
  return { confidence: null, confidenceLabel: null, confidenceReason: noConfidenceReason(a) };
}

export function noConfidenceReason(a: DroughtArtifacts): string {
  return a.confidence ? "no interpolation support for this month" : "this grid has no confidence (only the station grid is calibrated)";
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
