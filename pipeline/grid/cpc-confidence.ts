// How far to trust the regional grid's SPEI-1 (GRID_SOURCE=cpc), as the station grid's confidence does
// (confidence.ts): a support score per cell and month, calibrated against errors actually observed. The CPC analysis
// is made from gauge reports whose number per cell the data do not carry; its support is taken from the reporting
// network that is there, the GHCN-Monthly stations that report the month within REPORTING_RADIUS_KM (synoptic
// stations, whose CLIMAT reports carry precipitation with temperature over the GTS, the reports CPC's analysis rests
// on outside national networks). The errors: the cell's SPEI-1 against the SPEI-1 of each Thai GHCN-Daily station
// inside it, both on one baseline: the point a user asks about against the 1° cell that answers it. Pure, no I/O.
// Method: docs/methods/confidence.md, "The regional grid".
import { haversineKm } from "../../lib/geo/sphere.ts";
import type { MonthIndex } from "../../lib/months.ts";
import { BELOW_CALIBRATION, NO_BIN } from "../../formats/confidence-grid.ts";
import { binOf, calibrate, supportScore, type Calibration } from "./confidence.ts";

/** Stations farther than this from a cell centre do not count as its support (the station grid's IDW radius). */
export const REPORTING_RADIUS_KM = 250;

export interface ReportingStation {
  lat: number;
  lng: number;
  firstMonth: MonthIndex;
  /** A value per month from firstMonth; NaN = not reported. */
  tavg: ArrayLike<number>;
}

/**
 * The support score of every cell-month, [cell * nMonths + month]: the station grid's score (confidence.ts
 * supportScore) of the stations reporting the month within `radiusKm` — how many, and how far the nearest — with no
 * spread term (there are no station values of the index to disagree). NaN where none reports.
 */
export function reportingSupport(
  stations: readonly ReportingStation[],
  cellLats: ArrayLike<number>,
  cellLngs: ArrayLike<number>,
  firstMonth: MonthIndex,
  nMonths: number,
  radiusKm = REPORTING_RADIUS_KM,
): Float64Array {
  const nCells = cellLats.length;
  const out = new Float64Array(nCells * nMonths).fill(NaN);
  for (let c = 0; c < nCells; c++) {
    const near = stations
      .map((s) => ({ s, d: haversineKm(cellLats[c], cellLngs[c], s.lat, s.lng) }))
      .filter((x) => x.d <= radiusKm)
      .sort((a, b) => a.d - b.d);
    for (let m = 0; m < nMonths; m++) {
      let n = 0;
      let nearestKm = Infinity;
      for (const { s, d } of near) {
        const k = firstMonth + m - s.firstMonth;
        if (k < 0 || k >= s.tavg.length || Number.isNaN(s.tavg[k])) continue;
        if (n === 0) nearestKm = d;
        n++;
      }
      if (n > 0) out[c * nMonths + m] = supportScore({ n, nearestKm, spread: 0 });
    }
  }
  return out;
}

/** A station inside a grid cell, with both SPEI-1 series on one baseline and one month axis. */
export interface CalibrationPair {
  cell: number;
  /** SPEI-1 of the station and of its cell, from `firstMonth`; NaN = missing. */
  station: ArrayLike<number>;
  cellValue: ArrayLike<number>;
  firstMonth: MonthIndex;
}

/** The share of calibration samples whose support may lie below the calibrated range's floor (outliers). */
export const FLOOR_QUANTILE = 0.01;

/**
 * The calibration (confidence.ts calibrate) of `support` by the pairs' errors: each station-month where both
 * series and the support have a value is a sample (the cell's support, |cell − station|, |station|), values clamped
 * to ±clampZ as the station grid's are. `supportFloor`: the support below which the calibration has (almost) no
 * sample, the FLOOR_QUANTILE quantile of the samples' — the error there is unknown.
 */
export function calibrateAtStations(
  pairs: readonly CalibrationPair[],
  support: Float64Array,
  gridFirst: MonthIndex,
  nMonths: number,
  clampZ: number,
  nBins = 10,
): { calibration: Calibration; supportFloor: number } {
  const sup: number[] = [];
  const absError: number[] = [];
  const absObserved: number[] = [];
  const clamp = (v: number) => Math.max(-clampZ, Math.min(clampZ, v));
  for (const p of pairs) {
    for (let k = 0; k < p.station.length; k++) {
      const m = p.firstMonth + k - gridFirst;
      if (m < 0 || m >= nMonths) continue;
      const u = support[p.cell * nMonths + m];
      const obs = p.station[k];
      const est = p.cellValue[k];
      if (Number.isNaN(u) || !Number.isFinite(obs) || !Number.isFinite(est)) continue;
      sup.push(u);
      absError.push(Math.abs(clamp(est) - clamp(obs)));
      absObserved.push(Math.abs(clamp(obs)));
    }
  }
  const calibration = calibrate(Float64Array.from(sup), Float64Array.from(absError), Float64Array.from(absObserved), nBins);
  const sorted = Float64Array.from(sup).sort();
  return { calibration, supportFloor: sorted[Math.floor(FLOOR_QUANTILE * sorted.length)] };
}

/** Each cell-month's calibration bin: NO_BIN where it has no support, BELOW_CALIBRATION under the floor. */
export function supportBins(support: Float64Array, calibration: Calibration, supportFloor: number): Uint8Array {
  const out = new Uint8Array(support.length).fill(NO_BIN);
  for (let i = 0; i < support.length; i++) {
    const u = support[i];
    if (Number.isNaN(u)) continue;
    out[i] = u < supportFloor ? BELOW_CALIBRATION : binOf(calibration.bins, u);
  }
  return out;
}
