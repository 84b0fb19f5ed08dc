// Feed-risk scores, pure functions without I/O (docs/methods/feed-risks.md). Event hazards (flood, wildfire,
// storm): every event within the radius contributes w = intensity(magnitude) × exp(-d / decayKm); an event
// group (one storm's track points) counts once, with its largest w. The long-record rate λ = Σw / record years
// and the recent activity A = Σw over the timeframe give score = 100 (1 - exp(-(λ/λref + A/Aref))). Each term
// only grows with more, closer or stronger events, so the score is monotone in each.
import { droughtScore } from "../drought-scale.ts";

export const DAY_MS = 86_400_000;
export const YEAR_MS = 365.2425 * DAY_MS;
export const TIMEFRAME_DAYS = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 } as const;
export type TimeframeName = keyof typeof TIMEFRAME_DAYS;

export interface HazardParams {
  radiusKm: number;
  decayKm: number;
  /** Weighted events per year that score 63 on their own (1 - e^-1). */
  annualRateRef: number;
  /** Weighted recent events that score 63 on their own. */
  recentRef: number;
}

/** Intensity of one event: increasing in magnitude, per source (units differ between feeds). */
export type IntensityFn = (magnitude: number, source: string) => number;

export const INTENSITY: Record<"flood" | "wildfire" | "storm", IntensityFn> = {
  // DFO magnitude log10(days × severity × km²) runs ~3..7.5; GDACS alert score 1 (green)..3 (red).
  flood: (m, source) => (source === "DFO" ? Math.max(0.1, m - 4) : Math.max(0.1, m)),
  // FRP (MW): log scale, 10 MW → 0.69, 100 MW → 2.4; GDACS wildfire alert score as is.
  wildfire: (m, source) => (source === "GDACS" ? Math.max(0.1, m) : Math.log1p(Math.max(0, m) / 10)),
  // Max sustained wind (kt): a tropical storm (34 kt) 0.23, a category 1 typhoon (64 kt) ~1, 100 kt 1.9.
  storm: (m, source) => (source === "GDACS" ? Math.max(0.1, m) : Math.max(0.05, (m - 25) / 40)),
};

export interface EventView {
  n: number;
  time: ArrayLike<number>;
  endTime: ArrayLike<number>;
  magnitude: ArrayLike<number>;
  group: ArrayLike<number>;
  sourceNo: ArrayLike<number>;
  sources: string[];
}

export interface Contribution {
  /** Event index of the group's strongest contribution. */
  index: number;
  distanceKm: number;
  weight: number;
}

export interface HazardResult {
  score: number;
  /** λ: weighted events per year over the record. */
  annualRate: number;
  /** Unweighted event groups within the radius over the record. */
  eventCount: number;
  /** Years between events within the radius (record years / count); null when there is none. */
  returnPeriodYears: number | null;
  recentWeighted: number;
  recentCount: number;
  /** Per group, strongest first. */
  contributions: Contribution[];
  recent: Contribution[];
}

/** `extraTerm` (≥ 0) adds to the exponent: the flood score's climate-grid term (climate-components.ts). */
export function eventScore(annualRate: number, recent: number, p: HazardParams, extraTerm = 0): number {
  const x = annualRate / p.annualRateRef + recent / p.recentRef + Math.max(0, extraTerm);
  return Math.round(1000 * (1 - Math.exp(-x))) / 10;
}

/**
 * Scores the events near a point. `near` are candidate indices and their distances (from EventIndex.near);
 * `asOf` and `windowDays` fix the recent window [asOf - window, asOf]; `recordYears` the long record.
 */
export function scoreEvents(
  ev: EventView,
  near: { index: number[]; distanceKm: number[] },
  intensity: IntensityFn,
  p: HazardParams,
  asOf: number,
  windowDays: number,
  recordYears: number,
): HazardResult {
  const all = new Map<number, Contribution>();
  const recentBy = new Map<number, Contribution>();
  const windowStart = asOf - windowDays * DAY_MS;
  for (let k = 0; k < near.index.length; k++) {
    const i = near.index[k];
    const d = near.distanceKm[k];
    if (d > p.radiusKm || ev.time[i] > asOf) continue;
    const w = intensity(ev.magnitude[i], ev.sources[ev.sourceNo[i]]) * Math.exp(-d / p.decayKm);
    const g = ev.group[i];
    const prev = all.get(g);
    if (!prev || w > prev.weight) all.set(g, { index: i, distanceKm: d, weight: w });
    if (ev.endTime[i] >= windowStart) {
      const pr = recentBy.get(g);
      if (!pr || w > pr.weight) recentBy.set(g, { index: i, distanceKm: d, weight: w });
    }
  }
  const contributions = [...all.values()].sort((a, b) => b.weight - a.weight);
  const recent = [...recentBy.values()].sort((a, b) => b.weight - a.weight);
  const total = contributions.reduce((s, c) => s + c.weight, 0);
  const recentWeighted = recent.reduce((s, c) => s + c.weight, 0);
  const annualRate = total / Math.max(recordYears, 1);
  return {
    score: eventScore(annualRate, recentWeighted, p),
    annualRate,
    eventCount: contributions.length,
    returnPeriodYears: contributions.length > 0 ? recordYears / contributions.length : null,
    recentWeighted,
    recentCount: recent.length,
    contributions,
    recent,
  };
}

/** Months of anomaly averaged for a timeframe (the tables are monthly). */
export const TIMEFRAME_MONTHS: Record<TimeframeName, number> = { "7d": 1, "30d": 1, "90d": 3, "1y": 12 };

export interface HeatResult {
  score: number;
  recentMeanC: number;
  baselineMeanC: number;
  baselineSdC: number;
  z: number;
}

/**
 * Heat score: the mean anomaly of the last k months against the distribution of all k-month means of the
 * record, score = 100 Φ(z). Increasing in the recent anomaly.
 */
export function heatScore(anomalies: Float64Array, k: number): HeatResult {
  const means: number[] = [];
  for (let i = k - 1; i < anomalies.length; i++) {
    let s = 0;
    let ok = true;
    for (let j = i - k + 1; j <= i; j++) {
      if (!Number.isFinite(anomalies[j])) { ok = false; break; }
      s += anomalies[j];
    }
    if (ok) means.push(s / k);
  }
  let recent = 0;
  for (let j = anomalies.length - k; j < anomalies.length; j++) recent += anomalies[j];
  recent /= k;
  const mean = means.reduce((a, b) => a + b, 0) / means.length;
  const sd = Math.sqrt(means.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, means.length - 1));
  const z = (recent - mean) / sd;
  return { score: standardizedAnomalyScore(z), recentMeanC: recent, baselineMeanC: mean, baselineSdC: sd, z };
}

/**
 * Score of a standardized warm anomaly z, on the same anchors as the drought score of a standardized dry anomaly
 * (lib/drought-scale.ts, mirrored): z 0 → 20 (low), 0.5 → 40, 0.8 → 50, 1.3 → 65 (high), 1.6 → 80, 2.0 → 95
 * (critical), ≥ 3 → 100. A normal period is low risk; Φ(z) would have made z = 0 a "medium" 50.
 */
export function standardizedAnomalyScore(z: number): number {
  if (Number.isNaN(z)) return NaN;
  return droughtScore(-z);
}

export interface SeaLevelParams {
  /** Relative sea-level rise (mm/yr) that scores 63 at the coast. */
  rateRefMmYr: number;
  /** e-folding distance inland from the coast, km. */
  coastDecayKm: number;
}

/** Increasing in the local trend, decreasing in the distance from the coast. */
export function seaLevelScore(trendMmYr: number, coastKm: number, p: SeaLevelParams): number {
  const s = 100 * (1 - Math.exp(-Math.max(0, trendMmYr) / p.rateRefMmYr)) * Math.exp(-Math.max(0, coastKm) / p.coastDecayKm);
  return Math.round(10 * s) / 10;
}
