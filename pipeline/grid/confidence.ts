// How far to trust an interpolated SPEI-1: the support of the inverse-distance estimate at a point and month — how
// many stations took part, how far the nearest is, how much they disagree — condensed into one number, then
// calibrated against the leave-one-out errors at the stations, so that a confidence stands for an error actually
// observed. Pure, no I/O. Method: docs/methods/confidence.md.
import type { StationNeighbours } from "./interpolate.ts";

/** Distance scale of the support (km): beyond a few station spacings a neighbour says little. */
const DISTANCE_SCALE_KM = 100;

export interface Support {
  /** Stations with a value used by the estimate (at most maxStations). */
  n: number;
  /** Distance to the nearest of them (km). */
  nearestKm: number;
  /** Inverse-distance-weighted standard deviation of their (clamped) values. */
  spread: number;
}

/** The support of the IDW estimate of `target` in `month`: the same stations idwAt uses. */
export function supportAt(nb: StationNeighbours, target: number, values: Float64Array, nMonths: number, month: number, maxStations: number, clampZ: number): Support | null {
  let n = 0;
  let nearestKm = Infinity;
  let sw = 0;
  let swv = 0;
  let swv2 = 0;
  const end = nb.offsets[target + 1];
  for (let j = nb.offsets[target]; j < end && n < maxStations; j++) {
    const raw = values[nb.stations[j] * nMonths + month];
    if (Number.isNaN(raw)) continue;
    const v = Math.max(-clampZ, Math.min(clampZ, raw));
    const d = nb.distancesKm[j];
    if (n === 0) nearestKm = d;
    n++;
    const w = 1 / Math.max(d, 1) ** 2;
    sw += w;
    swv += w * v;
    swv2 += w * v * v;
  }
  if (n === 0) return null;
  const mean = swv / sw;
  return { n, nearestKm, spread: Math.sqrt(Math.max(0, swv2 / sw - mean * mean)) };
}

/**
 * One number in (0, 1] that grows with the stations used and shrinks with the distance to the nearest and their
 * disagreement. Only its order matters: the calibration maps it to confidence.
 */
export function supportScore(s: Support): number {
  return (1 - Math.exp(-s.n / 3)) * Math.exp(-s.nearestKm / DISTANCE_SCALE_KM) / (1 + s.spread);
}

export interface ConfidenceBin {
  /** Support scores of the bin: [from, to). */
  from: number;
  to: number;
  samples: number;
  /** Mean absolute leave-one-out error of SPEI-1 in the bin (after pooling, non-increasing with support). */
  mae: number;
  /** 1 − mae / maeClimatology, within [0, 1]. */
  confidence: number;
}

export interface Calibration {
  bins: ConfidenceBin[];
  /** Mean |SPEI-1| of the held-out values: the error of guessing "normal" (0) everywhere. */
  maeClimatology: number;
  samples: number;
}

/**
 * Bins the (support, |error|) pairs into `nBins` of equal count, pools adjacent bins whose error rises with support
 * (pool-adjacent-violators), and turns each bin's error into a confidence relative to the climatological guess.
 */
export function calibrate(support: Float64Array, absError: Float64Array, absObserved: Float64Array, nBins = 10): Calibration {
  const n = support.length;
  if (n < nBins) throw new Error(`calibrate: ${n} samples for ${nBins} bins`);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => support[a] - support[b]);
  let maeClim = 0;
  for (let i = 0; i < n; i++) maeClim += absObserved[i];
  maeClim /= n;
  type Block = { from: number; to: number; samples: number; sum: number };
  const blocks: Block[] = [];
  for (let b = 0; b < nBins; b++) {
    const lo = Math.floor((b * n) / nBins);
    const hi = Math.floor(((b + 1) * n) / nBins);
    let sum = 0;
    for (let k = lo; k < hi; k++) sum += absError[order[k]];
    blocks.push({ from: b === 0 ? 0 : support[order[lo]], to: b === nBins - 1 ? Infinity : support[order[hi]], samples: hi - lo, sum });
    // Pool while the error does not fall as support rises.
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1];
      const prev = blocks[blocks.length - 2];
      if (last.sum / last.samples < prev.sum / prev.samples) break;
      blocks.splice(blocks.length - 2, 2, { from: prev.from, to: last.to, samples: prev.samples + last.samples, sum: prev.sum + last.sum });
    }
  }
  const bins = blocks.map((b) => {
    const mae = b.sum / b.samples;
    return { from: b.from, to: b.to, samples: b.samples, mae, confidence: Math.max(0, Math.min(1, 1 - mae / maeClim)) };
  });
  return { bins, maeClimatology: maeClim, samples: n };
}

/** The bin of a support score (the last whose `from` is at most the score). */
export function binOf(bins: readonly ConfidenceBin[], score: number): number {
  let b = 0;
  while (b + 1 < bins.length && score >= bins[b + 1].from) b++;
  return b;
}

/** Leave-one-out (support, |error|, |observed|) of SPEI-1 at the stations, with the IDW settings of the grid. */
export function looSamples(
  stationLats: Float64Array,
  stationLngs: Float64Array,
  values: Float64Array,
  nMonths: number,
  nbLoo: StationNeighbours,
  o: { power: number; maxStations: number; clampZ: number },
  idwAt: (nb: StationNeighbours, target: number, values: Float64Array, nMonths: number, month: number, power: number, maxStations: number, clampZ: number) => number,
): { support: Float64Array; absError: Float64Array; absObserved: Float64Array } {
  const support: number[] = [];
  const absError: number[] = [];
  const absObserved: number[] = [];
  for (let s = 0; s < stationLats.length; s++) {
    for (let m = 0; m < nMonths; m++) {
      const obsRaw = values[s * nMonths + m];
      if (Number.isNaN(obsRaw)) continue;
      const pred = idwAt(nbLoo, s, values, nMonths, m, o.power, o.maxStations, o.clampZ);
      const sup = supportAt(nbLoo, s, values, nMonths, m, o.maxStations, o.clampZ);
      if (Number.isNaN(pred) || sup === null) continue;
      const obs = Math.max(-o.clampZ, Math.min(o.clampZ, obsRaw));
      support.push(supportScore(sup));
      absError.push(Math.abs(pred - obs));
      absObserved.push(Math.abs(obs));
    }
  }
  return { support: Float64Array.from(support), absError: Float64Array.from(absError), absObserved: Float64Array.from(absObserved) };
}
