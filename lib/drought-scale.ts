// The drought scale of the interface spec: SPEI-1 → D-level (USDM / EU CDI thresholds), SPEI-1 → score 0..100
// through the D-level anchors, and score → risk level. Pure functions; documented in docs/methods/scoring.md.

export type DroughtLevel = "D0" | "D1" | "D2" | "D3" | "D4";
export type RiskLevel = "low" | "medium" | "high" | "critical";

/**
 * Score anchors (spei1 → score), piecewise linear and decreasing in spei1, so the score is monotone.
 * The D-level anchors are the spec's (D0 ≥ 40 at −0.5, D1 ≥ 50 at −0.8, D2 ≥ 65 at −1.3, D3 ≥ 80 at −1.6,
 * D4 ≥ 95 at −2.0); the wet side (+2 → 0, 0 → 20) and the floor (−3 → 100) are ours: normal conditions score low.
 */
export const SCORE_ANCHORS: ReadonlyArray<readonly [spei1: number, score: number]> = [
  [2.0, 0],
  [0.0, 20],
  [-0.5, 40],
  [-0.8, 50],
  [-1.3, 65],
  [-1.6, 80],
  [-2.0, 95],
  [-3.0, 100],
];

/** D-level of an SPEI-1 value; null above −0.5 (no drought) and for a missing value. */
export function droughtLevel(spei1: number): DroughtLevel | null {
  if (Number.isNaN(spei1)) return null;
  if (spei1 <= -2.0) return "D4";
  if (spei1 <= -1.6) return "D3";
  if (spei1 <= -1.3) return "D2";
  if (spei1 <= -0.8) return "D1";
  if (spei1 <= -0.5) return "D0";
  return null;
}

/** Drought score 0..100 from SPEI-1, rounded to one decimal. NaN in, NaN out. */
export function droughtScore(spei1: number): number {
  if (Number.isNaN(spei1)) return NaN;
  const a = SCORE_ANCHORS;
  if (spei1 >= a[0][0]) return a[0][1];
  const last = a[a.length - 1];
  if (spei1 <= last[0]) return last[1];
  for (let i = 1; i < a.length; i++) {
    const [x1, y1] = a[i];
    if (spei1 >= x1) {
      const [x0, y0] = a[i - 1];
      const score = y0 + ((spei1 - x0) / (x1 - x0)) * (y1 - y0);
      return Math.round(score * 10) / 10;
    }
  }
  return last[1];
}

/** Risk level of the spec's table: low 0–29, medium 30–59, high 60–79, critical 80–100. */
export function riskLevel(score: number): RiskLevel {
  if (score >= 80) return "critical";
  if (score >= 60) return "high";
  if (score >= 30) return "medium";
  return "low";
}

export const D_LEVEL_NAMES: Record<DroughtLevel, string> = {
  D0: "Abnormally Dry",
  D1: "Moderate Drought",
  D2: "Severe Drought",
  D3: "Extreme Drought",
  D4: "Exceptional Drought",
};

export type ConfidenceLabel = "high" | "medium" | "low";

/** Label of a confidence (docs/methods/confidence.md): high ≥ 0.6, medium ≥ 0.3, low below. */
export function confidenceLabel(c: number): ConfidenceLabel {
  return c >= 0.6 ? "high" : c >= 0.3 ? "medium" : "low";
}
