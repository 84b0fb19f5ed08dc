// The shape of one feed-risk answer and what every hazard module shares: the query, where the point is, the answer
// with its coverage and time, the 404 of a point outside a type's coverage, and the record-length rules (a rate needs a
// year of record; confidence grows with the record). Hazards import from here, never from the dispatcher (assess.ts).
import { confidenceLabel, type riskLevel } from "../drought-scale.ts";
import type { FeedSnapshot } from "../../formats/feed-snapshot.ts";
import type { TimeframeName } from "./scoring.ts";
import type { Cadence, Period } from "../currency.ts";
import { r1 } from "../round.ts";


export class NotCoveredError extends Error {
  /** Where the risk type answers (the snapshot's coverage), for the 404's details. */
  constructor(message: string, readonly coverage: string) {
    super(message);
  }
}

export interface AssessQuery {
  lat: number;
  lng: number;
  timeframe: TimeframeName;
  includeHistorical: boolean;
  /** Today (epoch ms): the recent window ends here and currency is counted to it; default the service clock. */
  now?: number;
}

/** Where a point is (from lib/geo): the answer's coverage checks use nothing else. */
export interface Place {
  /**
   * ISO 3166-1 alpha-3 of the country the point is in; for a sea point within the coastal tolerance, the country
   * of the shore next to it; null at sea and where no country is.
   */
  country: string | null;
  land: boolean;
  /** km to the nearest coastline, on land and at sea. */
  coastDistanceKm: number;
  /**
   * Within this distance of the coastline the point may lie on either side of the true shore (the geography's
   * outline accuracy): a sea point that close is at the coast, not open sea.
   */
  coastalToleranceKm: number;
  /** The coastline the distance is measured to (for the answers' details). */
  coastSource: string;
}

/** What an answer covered: the point's country, the data set and the period used, where the type answers. */
export interface CoverageUsed {
  country: string | null;
  dataset: string;
  period: { start: string; end: string };
  area: string;
}

export interface Assessment {
  riskScore: number;
  /** How far to trust the answer (0..1), its label and what it rests on (docs/methods/feed-risks.md#confidence). */
  confidence?: number;
  confidenceLabel?: "high" | "medium" | "low";
  confidenceBasis?: string;
  riskLevel: ReturnType<typeof riskLevel>;
  summary: string;
  /** Per-type details object (goes under details[riskType]). */
  details: Record<string, unknown>;
  coverage: CoverageUsed;
  dataSources: string[];
  /** The data the answer rests on: their span, the newest datum used and the series' cadence (lib/currency.ts). */
  time: { period: Period; asOf: string; cadence: Cadence };
}


/** The 404 of a risk type: why this point is not covered, and the snapshot's coverage. */
export function notCovered(s: FeedSnapshot, why: string): NotCoveredError {
  return new NotCoveredError(`${s.meta.riskType}: ${why}; coverage: ${s.meta.coverage.description}`, s.meta.coverage.description);
}


export function inBbox(b: readonly number[], lat: number, lng: number): boolean {
  return lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];
}

export const onLandOrCoast = (p: Place) => p.land || p.coastDistanceKm <= p.coastalToleranceKm;

/** Records shorter than this give no rate (events per year, return period). */
export const MIN_RATE_YEARS = 1;

/**
 * Confidence of a record-based answer (docs/methods/feed-risks.md#confidence): the source's quality `q`, scaled by the
 * record length (30 years or more is full).
 */
export function recordConfidence(years: number, q: number, source: string): { confidence: number; confidenceLabel: "high" | "medium" | "low"; confidenceBasis: string } {
  // A record of days still measures what happened in it: never below 0.05, never "none".
  const c = Math.max(0.05, Math.round(Math.min(1, Math.max(0, years) / 30) * q * 100) / 100);
  return { confidence: c, confidenceLabel: confidenceLabel(c), confidenceBasis: `${source}; record ${span(years)} (30 years or more counts in full)` };
}

/** A duration in years as words: short records (FIRMS covers 48 hours) in days, not "0 years". */
export function span(years: number): string {
  if (years >= 0.1) return `${r1(years)} years`;
  const days = years * 365.25;
  return days >= 1 ? `${r1(days)} days` : `${r1(days * 24)} hours`;
}

