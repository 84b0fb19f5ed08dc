// Feed-risk scores, pure functions without I/O (docs/methods/feed-risks.md). Event hazards (flood, wildfire,
// storm): every event within the radius contributes w = intensity(magnitude) × exp(-d / decayKm); an event
// group (one storm's track points) counts once, with its largest w. The long-record rate λ = Σw / record years
// and the recent activity A = Σw over the timeframe give score = 100 (1 - exp(-(λ/λref + A/Aref))). Each term
// only grows with more, closer or stronger events, so the score is monotone in each.
import { droughtScore } from "../drought-scale.ts";
import { DAY_MS } from "../days.ts";

export { DAY_MS };
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
  // Max sustained wind (kt): a tropical storm (34 kt) 0.23, a category 1 typhoon (64 kt) ~1, 100 kt 1.9. A fix
  // without a reported wind (the long West Pacific record before 1977; RSMC Tokyo reports none for depressions)
  // takes the floor, a depression's weight.
  storm: (m, source) => (source === "GDACS" ? Math.max(0.1, m) : Number.isFinite(m) ? Math.max(0.05, (m - 25) / 40) : 0.05),
};

export interface EventView {
  n: number;
  /** Group names (only their number is used: the size of the per-group scratch). */
  groups: { readonly length: number };
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
  /** Per group in the record, in no particular order. */
  contributions: Contribution[];
  /** The strongest contributions (at most `top` of scoreEvents), strongest first, ties by event index. */
  strongest: Contribution[];
  recent: Contribution[];
}

/** `extraTerm` (≥ 0) adds to the exponent: the flood score's climate-grid term (climate-components.ts). */
export function eventScore(annualRate: number, recent: number, p: HazardParams, extraTerm = 0): number {
  const x = annualRate / p.annualRateRef + recent / p.recentRef + Math.max(0, extraTerm);
  return Math.round(1000 * (1 - Math.exp(-x))) / 10;
}

/**
 * The record a score counts over. Events that start before `start`, or whose group `inRecord` rejects, are not in
 * the record (they can still be recent activity). The weighted rate λ sums groups with an event from `rateStart`
 * on (default `start`) over `rateYears` (default `years`): the storm record counts tracks over 1884–2025 but
 * weighs by wind only from 1977, when wind exists.
 */
export interface RecordWindow {
  start: number;
  years: number;
  rateStart?: number;
  rateYears?: number;
  inRecord?: (group: number) => boolean;
}

/** "No weight yet" in the per-group scratch (log weights are finite). */
const NONE = -Infinity;
/** log of the weight of an event with zero intensity: finite, so it counts as an event with weight ~0. */
const MIN_LOG_WEIGHT = -700;

/** log intensity per event, per event view and intensity function: computed once, not per query. */
const logIntensityCache = new WeakMap<object, Map<IntensityFn, Float64Array>>();
function logIntensities(ev: EventView, intensity: IntensityFn): Float64Array {
  let byFn = logIntensityCache.get(ev);
  if (!byFn) logIntensityCache.set(ev, (byFn = new Map()));
  let out = byFn.get(intensity);
  if (!out || out.length !== ev.n) {
    out = new Float64Array(ev.n);
    for (let i = 0; i < ev.n; i++) {
      // A zero (or unreadable) intensity still counts as an event, with weight ~0.
      const x = intensity(ev.magnitude[i], ev.sources[ev.sourceNo[i]]);
      out[i] = x > 0 ? Math.log(x) : MIN_LOG_WEIGHT;
    }
    byFn.set(intensity, out);
  }
  return out;
}

/** Per-group best log weights of one scoring call; reused per event view, only touched entries are reset. */
interface GroupScratch {
  all: Float64Array;
  allIndex: Int32Array;
  allDistance: Float64Array;
  rate: Float64Array;
  recent: Float64Array;
  recentIndex: Int32Array;
  recentDistance: Float64Array;
  touched: Int32Array;
}
const scratchByView = new WeakMap<object, GroupScratch>();

function scratchFor(ev: EventView): GroupScratch {
  let s = scratchByView.get(ev);
  const n = ev.groups.length;
  if (!s || s.all.length !== n) {
    s = {
      all: new Float64Array(n).fill(NONE),
      allIndex: new Int32Array(n),
      allDistance: new Float64Array(n),
      rate: new Float64Array(n).fill(NONE),
      recent: new Float64Array(n).fill(NONE),
      recentIndex: new Int32Array(n),
      recentDistance: new Float64Array(n),
      touched: new Int32Array(n),
    };
    scratchByView.set(ev, s);
  }
  return s;
}

/**
 * Scores the events near a point. `near` are candidate indices and their distances (from EventIndex.near; the
 * first `count` entries); `asOf` and `windowDays` fix the recent window [asOf - window, asOf]; `record` the long
 * record (a number: its years, every event in it). Per-group best weights live in typed arrays indexed by group
 * (no maps on the hot path; the storm record puts thousands of track points around Manila).
 */
export function scoreEvents(
  ev: EventView,
  near: { count?: number; index: ArrayLike<number>; distanceKm: ArrayLike<number> },
  intensity: IntensityFn,
  p: HazardParams,
  asOf: number,
  windowDays: number,
  record: number | RecordWindow,
  top = 10,
): HazardResult {
  const r: RecordWindow = typeof record === "number" ? { start: -Infinity, years: record } : record;
  const rateStart = r.rateStart ?? r.start;
  const rateYears = r.rateYears ?? r.years;
  const windowStart = asOf - windowDays * DAY_MS;
  const sc = scratchFor(ev);
  let touched = 0;
  const count = near.count ?? near.index.length;
  // Weights compare in log space (log w = log intensity − d/decay): one exp per group, not per track point.
  const logI = logIntensities(ev, intensity);
  const invDecay = 1 / p.decayKm;
  for (let k = 0; k < count; k++) {
    const i = near.index[k];
    const d = near.distanceKm[k];
    if (d > p.radiusKm || ev.time[i] > asOf) continue;
    const recent = ev.endTime[i] >= windowStart;
    const g = ev.group[i];
    const inRecord = ev.time[i] >= r.start && (r.inRecord === undefined || r.inRecord(g));
    if (!inRecord && !recent) continue;
    const lw = logI[i] - d * invDecay;
    if (sc.all[g] === NONE && sc.recent[g] === NONE && sc.rate[g] === NONE) sc.touched[touched++] = g;
    if (inRecord) {
      if (lw > sc.all[g]) { sc.all[g] = lw; sc.allIndex[g] = i; sc.allDistance[g] = d; }
      if (ev.time[i] >= rateStart && lw > sc.rate[g]) sc.rate[g] = lw;
    }
    if (recent && lw > sc.recent[g]) { sc.recent[g] = lw; sc.recentIndex[g] = i; sc.recentDistance[g] = d; }
  }
  const contributions: Contribution[] = [];
  const recent: Contribution[] = [];
  let rateTotal = 0;
  let recentWeighted = 0;
  for (let t = 0; t < touched; t++) {
    const g = sc.touched[t];
    if (sc.all[g] !== NONE) contributions.push({ index: sc.allIndex[g], distanceKm: sc.allDistance[g], weight: Math.exp(sc.all[g]) });
    if (sc.rate[g] !== NONE) rateTotal += Math.exp(sc.rate[g]);
    if (sc.recent[g] !== NONE) {
      const w = Math.exp(sc.recent[g]);
      recent.push({ index: sc.recentIndex[g], distanceKm: sc.recentDistance[g], weight: w });
      recentWeighted += w;
    }
    sc.all[g] = NONE;
    sc.rate[g] = NONE;
    sc.recent[g] = NONE;
  }
  const annualRate = rateTotal / Math.max(rateYears, 1);
  return {
    score: eventScore(annualRate, recentWeighted, p),
    annualRate,
    eventCount: contributions.length,
    returnPeriodYears: contributions.length > 0 ? r.years / contributions.length : null,
    recentWeighted,
    recentCount: recent.length,
    contributions,
    strongest: strongestOf(contributions, top),
    recent,
  };
}

/** Strongest first; ties by event index so the order never depends on the search order. */
const byWeight = (a: Contribution, b: Contribution) => b.weight - a.weight || a.index - b.index;

/** The k strongest of a list, sorted, without sorting the whole list (hundreds of storms near Manila). */
export function strongestOf(list: Contribution[], k: number): Contribution[] {
  const out: Contribution[] = [];
  for (const c of list) {
    if (out.length === k && byWeight(c, out[k - 1]) >= 0) continue;
    let j = out.length < k ? out.length : k - 1;
    out[j] = c;
    while (j > 0 && byWeight(out[j], out[j - 1]) < 0) {
      [out[j], out[j - 1]] = [out[j - 1], out[j]];
      j--;
    }
  }
  return out;
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
