// Station → grid-cell interpolation of monthly drought indices: inverse-distance weighting (Shepard 1968) on the
// sphere, power 2, the N nearest stations that have a value that month, within a distance limit. Pure, no I/O.
// Method and the choice of defaults: docs/methods/gridding.md.
import { haversineKm } from "../../lib/geo/sphere.ts";

export interface IdwOptions {
  /** Distance exponent p in w = 1 / d^p. */
  power?: number;
  /** At most this many nearest stations with a finite value in the month. */
  maxStations?: number;
  /** Stations farther than this from the target never contribute; no station in range → NaN. */
  maxDistanceKm?: number;
  /**
   * Station values are clamped to ±clampZ before weighting, so that a single ±Inf (an index beyond the fitted
   * distribution) cannot make the weighted mean infinite. Infinity disables clamping.
   */
  clampZ?: number;
}

export const IDW_DEFAULTS: Required<IdwOptions> = {
  power: 2,
  maxStations: 8,
  // The farthest 0.25° Thai land cell (the Narathiwat coast) is 197-207 km from its nearest GHCN-D station
  // (Hat Yai); 250 km covers every cell with a margin. See docs/methods/gridding.md.
  maxDistanceKm: 250,
  clampZ: 3.5,
};

/** Distances closer than this (km) count as "at the station": its value is used as is. */
const SAME_PLACE_KM = 1e-6;

/**
 * For each target, the stations within the distance limit, nearest first, as flat arrays:
 * target t's candidates are stations[offsets[t] .. offsets[t+1]) with distancesKm alongside.
 */
export interface StationNeighbours {
  nTargets: number;
  nStations: number;
  offsets: Uint32Array;
  stations: Uint32Array;
  distancesKm: Float64Array;
}

/**
 * Candidate stations of every target point, computed once and reused for every month and index.
 * `exclude(target, station)` drops pairs (leave-one-out uses it to drop the station itself).
 */
export function stationNeighbours(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  targetLats: Float64Array,
  targetLngs: Float64Array,
  maxDistanceKm: number = IDW_DEFAULTS.maxDistanceKm,
  exclude?: (target: number, station: number) => boolean,
): StationNeighbours {
  const nStations = stationLats.length;
  const nTargets = targetLats.length;
  if (stationLngs.length !== nStations) throw new Error("stationNeighbours: station lat/lng arrays differ in length");
  if (targetLngs.length !== nTargets) throw new Error("stationNeighbours: target lat/lng arrays differ in length");
  const offsets = new Uint32Array(nTargets + 1);
  const stationList: number[] = [];
  const distanceList: number[] = [];
  const order: number[] = [];
  const d = new Float64Array(nStations);
  for (let t = 0; t < nTargets; t++) {
    order.length = 0;
    for (let s = 0; s < nStations; s++) {
      if (exclude && exclude(t, s)) continue;
      d[s] = haversineKm(targetLats[t], targetLngs[t], stationLats[s], stationLngs[s]);
      if (d[s] <= maxDistanceKm) order.push(s);
    }
    order.sort((a, b) => d[a] - d[b] || a - b);
    for (const s of order) {
      stationList.push(s);
      distanceList.push(d[s]);
    }
    offsets[t + 1] = stationList.length;
  }
  return { nTargets, nStations, offsets, stations: Uint32Array.from(stationList), distancesKm: Float64Array.from(distanceList) };
}

function clamp(v: number, limit: number): number {
  return v > limit ? limit : v < -limit ? -limit : v;
}

/**
 * IDW of one month at one target: the first `maxStations` candidates with a finite-or-infinite (non-NaN) value.
 * `stationValues` is station-major [station * nMonths + month].
 */
export function idwAt(
  nb: StationNeighbours,
  target: number,
  stationValues: Float64Array,
  nMonths: number,
  month: number,
  power: number,
  maxStations: number,
  clampZ: number,
): number {
  let used = 0;
  let sumW = 0;
  let sumWV = 0;
  let sameSum = 0;
  let sameCount = 0;
  const end = nb.offsets[target + 1];
  for (let j = nb.offsets[target]; j < end && used < maxStations; j++) {
    const raw = stationValues[nb.stations[j] * nMonths + month];
    if (Number.isNaN(raw)) continue;
    const v = clamp(raw, clampZ);
    used++;
    const dist = nb.distancesKm[j];
    if (dist < SAME_PLACE_KM) {
      sameSum += v;
      sameCount++;
      continue;
    }
    const w = power === 2 ? 1 / (dist * dist) : Math.pow(dist, -power);
    sumW += w;
    sumWV += w * v;
  }
  if (sameCount > 0) return sameSum / sameCount; // a station at the point itself: weight → ∞
  return used === 0 ? NaN : sumWV / sumW;
}

/**
 * Interpolates one index from stations to targets for every month.
 * stationValues: [station * nMonths + month], NaN = missing. Returns Float32Array [target * nMonths + month].
 */
export function interpolateIdw(nb: StationNeighbours, stationValues: Float64Array, nMonths: number, options: IdwOptions = {}): Float32Array {
  const { power, maxStations, clampZ } = { ...IDW_DEFAULTS, ...options };
  if (stationValues.length !== nb.nStations * nMonths) {
    throw new Error(`interpolateIdw: ${stationValues.length} station values, expected nStations*nMonths = ${nb.nStations * nMonths}`);
  }
  if (!(maxStations >= 1)) throw new Error(`interpolateIdw: maxStations must be at least 1, got ${maxStations}`);
  if (!(clampZ > 0)) throw new Error(`interpolateIdw: clampZ must be positive, got ${clampZ}`);
  const out = new Float32Array(nb.nTargets * nMonths);
  for (let t = 0; t < nb.nTargets; t++) {
    const row = t * nMonths;
    for (let m = 0; m < nMonths; m++) out[row + m] = idwAt(nb, t, stationValues, nMonths, m, power, maxStations, clampZ);
  }
  return out;
}

/** One-call form: neighbours + interpolation of one index to the cell centres. */
export function interpolateToCells(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  stationValues: Float64Array,
  nMonths: number,
  cellLats: Float64Array,
  cellLngs: Float64Array,
  options: IdwOptions = {},
): Float32Array {
  const nb = stationNeighbours(stationLats, stationLngs, cellLats, cellLngs, options.maxDistanceKm ?? IDW_DEFAULTS.maxDistanceKm);
  return interpolateIdw(nb, stationValues, nMonths, options);
}

/** Per target, the distance to the nearest station (no limit): the coverage figure for the build report. */
export function nearestStationDistancesKm(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  targetLats: Float64Array,
  targetLngs: Float64Array,
): Float64Array {
  const out = new Float64Array(targetLats.length).fill(Infinity);
  for (let t = 0; t < targetLats.length; t++) {
    for (let s = 0; s < stationLats.length; s++) {
      const d = haversineKm(targetLats[t], targetLngs[t], stationLats[s], stationLngs[s]);
      if (d < out[t]) out[t] = d;
    }
  }
  return out;
}
