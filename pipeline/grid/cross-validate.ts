// Leave-one-out cross-validation of the station → grid interpolation: each station value is predicted from the
// other stations with the same IDW settings, and the predictions are scored. Pure; the result goes into the
// build report. Method: docs/methods/gridding.md.
import { droughtLevel } from "../../lib/drought-scale.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { IDW_DEFAULTS, idwAt, stationNeighbours, type IdwOptions } from "./interpolate.ts";

export interface CvOptions extends IdwOptions {
  /**
   * Stations closer than this to the left-out one are left out too (km). Co-located duplicate records (e.g. two
   * GHCN-D ids for one airport) would otherwise predict each other almost perfectly and flatter the scores.
   */
  excludeWithinKm?: number;
}

export interface CvStats {
  /** (station, month) pairs with an observed value and a prediction. */
  n: number;
  /** Observed values for which no other station was in range (no prediction). */
  nUnpredicted: number;
  rmse: number;
  /** Mean error (predicted − observed); negative = interpolation too dry. */
  bias: number;
  mae: number;
  pearson: number;
  /** Share of pairs with the same drought category (none, D0..D4 at −0.5, −0.8, −1.3, −1.6, −2.0). */
  sameCategoryShare: number;
}

export interface CvReport {
  settings: Required<CvOptions>;
  nStations: number;
  nMonths: number;
  indices: Record<string, CvStats>;
}

/** Scores prediction/observation pairs (NaN pairs are skipped by the caller). */
export function scorePairs(predicted: ArrayLike<number>, observed: ArrayLike<number>, nUnpredicted = 0): CvStats {
  const n = predicted.length;
  if (observed.length !== n) throw new Error("scorePairs: arrays differ in length");
  let sumE = 0;
  let sumE2 = 0;
  let sumAbs = 0;
  let sumP = 0;
  let sumO = 0;
  let same = 0;
  for (let i = 0; i < n; i++) {
    const e = predicted[i] - observed[i];
    sumE += e;
    sumE2 += e * e;
    sumAbs += Math.abs(e);
    sumP += predicted[i];
    sumO += observed[i];
    if (droughtLevel(predicted[i]) === droughtLevel(observed[i])) same++;
  }
  // Pearson r from centred sums (two passes: stable for long series).
  const meanP = sumP / n;
  const meanO = sumO / n;
  let spp = 0;
  let soo = 0;
  let spo = 0;
  for (let i = 0; i < n; i++) {
    const dp = predicted[i] - meanP;
    const dO = observed[i] - meanO;
    spp += dp * dp;
    soo += dO * dO;
    spo += dp * dO;
  }
  return {
    n,
    nUnpredicted,
    rmse: n ? Math.sqrt(sumE2 / n) : NaN,
    bias: n ? sumE / n : NaN,
    mae: n ? sumAbs / n : NaN,
    pearson: spp > 0 && soo > 0 ? spo / Math.sqrt(spp * soo) : NaN,
    sameCategoryShare: n ? same / n : NaN,
  };
}

/**
 * Leave-one-out CV of one index. stationValues: [station * nMonths + month], NaN = missing. Observed values are
 * clamped to ±clampZ like the predictors, so one ±Inf does not dominate the RMSE.
 */
export function leaveOneOut(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  stationValues: Float64Array,
  nMonths: number,
  options: CvOptions = {},
): CvStats {
  const o = { ...IDW_DEFAULTS, excludeWithinKm: 0, ...options };
  const nStations = stationLats.length;
  if (stationValues.length !== nStations * nMonths) {
    throw new Error(`leaveOneOut: ${stationValues.length} station values, expected nStations*nMonths = ${nStations * nMonths}`);
  }
  const nb = stationNeighbours(stationLats, stationLngs, stationLats, stationLngs, o.maxDistanceKm, (target, station) =>
    target === station || haversineKm(stationLats[target], stationLngs[target], stationLats[station], stationLngs[station]) < o.excludeWithinKm,
  );
  const predicted: number[] = [];
  const observed: number[] = [];
  let nUnpredicted = 0;
  for (let s = 0; s < nStations; s++) {
    for (let m = 0; m < nMonths; m++) {
      const obs = stationValues[s * nMonths + m];
      if (Number.isNaN(obs)) continue;
      const pred = idwAt(nb, s, stationValues, nMonths, m, o.power, o.maxStations, o.clampZ);
      if (Number.isNaN(pred)) {
        nUnpredicted++;
        continue;
      }
      predicted.push(pred);
      observed.push(Math.max(-o.clampZ, Math.min(o.clampZ, obs)));
    }
  }
  return scorePairs(predicted, observed, nUnpredicted);
}

/** LOO CV of several indices (name → station-major values), as a plain object for build-report.json. */
export function crossValidateIndices(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  valuesByIndex: Record<string, Float64Array>,
  nMonths: number,
  options: CvOptions = {},
): CvReport {
  const settings = { ...IDW_DEFAULTS, excludeWithinKm: 0, ...options };
  const indices: Record<string, CvStats> = {};
  for (const [name, values] of Object.entries(valuesByIndex)) {
    indices[name] = leaveOneOut(stationLats, stationLngs, values, nMonths, settings);
  }
  return { settings, nStations: stationLats.length, nMonths, indices };
}
