// How far to trust an outbreak answer (docs/methods/outbreaks.md#confidence): what it rests on (a province's series,
// a country's, a modelled estimate, news alone), how old the data are, and what the numbers cannot tell apart.
import { confidenceLabel, type ConfidenceLabel } from "../drought-scale.ts";

export type OutbreakBasis = "admin-1" | "national" | "estimate" | "news";

/** Quality of each basis before age: a province's series speaks for a point better than its country's. */
export const BASIS_QUALITY: Record<OutbreakBasis, number> = { "admin-1": 0.9, national: 0.75, estimate: 0.8, news: 0.2 };

export interface OutbreakConfidence {
  confidence: number;
  confidenceLabel: ConfidenceLabel;
  confidenceBasis: string;
}

/** Data up to a year old count in full; each further year takes a tenth, down to 0.1. */
export function ageFactor(ageYears: number): number {
  if (!(ageYears > 1)) return 1;
  return Math.max(0.1, 1 - (ageYears - 1) / 10);
}

export function outbreakConfidence(o: { basis: OutbreakBasis; ageYears: number; sporadic: boolean; noRate: boolean; what: string }): OutbreakConfidence {
  let c = BASIS_QUALITY[o.basis] * ageFactor(o.ageYears);
  const notes = [`${o.what}`, `data ${o.ageYears < 1 ? "under a year" : `${Math.round(o.ageYears * 10) / 10} years`} old`];
  if (o.sporadic) {
    c *= 0.5;
    notes.push("reported cases cannot be told apart from travel-acquired ones");
  }
  if (o.noRate) {
    c *= 0.7;
    notes.push("no population rate");
  }
  const r = Math.round(c * 100) / 100;
  return { confidence: r, confidenceLabel: confidenceLabel(r), confidenceBasis: notes.join("; ") };
}
