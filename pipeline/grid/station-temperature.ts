// Monthly mean temperature at grid cells from stations, for the PET of a gridded precipitation source
// (docs/methods/gridding.md, "Temperature from GHCN-Monthly"). A cell's temperature is its normal plus its anomaly,
// each interpolated by inverse distance from the stations (Shepard 1968): the normal (the calendar month's mean over
// the baseline) from every station that has one, the anomaly from the stations that report the month. Interpolating
// anomalies rather than temperatures keeps a cell's series from jumping when a station at another elevation starts
// or stops reporting; anomalies are coherent over ~1,200 km (Hansen & Lebedeff 1987), normals are not, so the
// nearest stations dominate them (power 2). Where no station within range reports a month the anomaly is 0: the
// cell's PET is its normal's, and the month's index rests on precipitation. Elevation is not corrected (the data
// directory holds no elevation model): a cell takes its stations' level, which the per-cell fit of the indices
// absorbs as a near-constant offset of PET. Pure, no I/O.
import { calendarMonthOf, type MonthIndex } from "../../lib/months.ts";
import { interpolateIdw, stationNeighbours } from "./interpolate.ts";

export interface TemperatureStation {
  lat: number;
  lng: number;
  firstMonth: MonthIndex;
  /** °C per month from firstMonth; NaN = missing. */
  tavg: Float64Array;
}

export interface StationTemperatureOptions {
  /** Months whose mean is a station's normal (inclusive). */
  baselineStart: MonthIndex;
  baselineEnd: MonthIndex;
  /** A calendar month's normal needs this many years of the baseline. */
  minNormalYears?: number;
  /** Stations farther than this never contribute. */
  maxDistanceKm?: number;
  maxStations?: number;
}

export const STATION_TEMPERATURE_DEFAULTS = { minNormalYears: 10, maxDistanceKm: 1200, maxStations: 8 };

export interface StationTemperatureGrid {
  /** °C, [target * nMonths + month]; NaN where no station with a normal is in range. */
  values: Float64Array;
  /** Stations with a normal for at least one calendar month (the others carry no weight). */
  stationsUsed: number;
  /** Target-months whose anomaly no station in range reported (temperature = normal there). */
  normalOnly: number;
}

/** Per station, the 12 calendar-month normals over the baseline (NaN: fewer than minNormalYears years). */
export function stationNormals(s: TemperatureStation, baselineStart: MonthIndex, baselineEnd: MonthIndex, minYears: number): Float64Array {
  const sum = new Float64Array(12);
  const n = new Uint16Array(12);
  const from = Math.max(baselineStart, s.firstMonth);
  const to = Math.min(baselineEnd, s.firstMonth + s.tavg.length - 1);
  for (let m = from; m <= to; m++) {
    const v = s.tavg[m - s.firstMonth];
    if (v !== v) continue;
    const k = calendarMonthOf(m) - 1;
    sum[k] += v;
    n[k]++;
  }
  return Float64Array.from(sum, (v, k) => (n[k] >= minYears ? v / n[k] : NaN));
}

/** Temperature of every target for months firstMonth..firstMonth+nMonths−1. */
export function stationTemperatureGrid(
  stations: readonly TemperatureStation[],
  targetLats: Float64Array,
  targetLngs: Float64Array,
  firstMonth: MonthIndex,
  nMonths: number,
  options: StationTemperatureOptions,
): StationTemperatureGrid {
  const { minNormalYears, maxDistanceKm, maxStations } = { ...STATION_TEMPERATURE_DEFAULTS, ...options };
  const normals = stations.map((s) => stationNormals(s, options.baselineStart, options.baselineEnd, minNormalYears));
  const used = stations.map((_, i) => i).filter((i) => normals[i].some((v) => v === v));
  const lats = Float64Array.from(used, (i) => stations[i].lat);
  const lngs = Float64Array.from(used, (i) => stations[i].lng);
  const nb = stationNeighbours(lats, lngs, targetLats, targetLngs, maxDistanceKm);
  const idw = { power: 2, maxStations, maxDistanceKm, clampZ: Infinity };

  // Station-major normals (12 a station) and anomalies (nMonths a station) for interpolateIdw.
  const normalValues = new Float64Array(used.length * 12);
  const anomalies = new Float64Array(used.length * nMonths).fill(NaN);
  used.forEach((i, k) => {
    normalValues.set(normals[i], k * 12);
    const s = stations[i];
    for (let m = 0; m < nMonths; m++) {
      const at = firstMonth + m - s.firstMonth;
      if (at < 0 || at >= s.tavg.length) continue;
      const normal = normals[i][calendarMonthOf(firstMonth + m) - 1];
      anomalies[k * nMonths + m] = s.tavg[at] - normal; // NaN when either is missing
    }
  });
  const cellNormals = interpolateIdw(nb, normalValues, 12, idw);
  const cellAnomalies = interpolateIdw(nb, anomalies, nMonths, idw);

  const nTargets = targetLats.length;
  const values = new Float64Array(nTargets * nMonths);
  let normalOnly = 0;
  for (let t = 0; t < nTargets; t++) {
    for (let m = 0; m < nMonths; m++) {
      const normal = cellNormals[t * 12 + calendarMonthOf(firstMonth + m) - 1];
      let anomaly = cellAnomalies[t * nMonths + m];
      if (anomaly !== anomaly && normal === normal) {
        anomaly = 0;
        normalOnly++;
      }
      values[t * nMonths + m] = normal + anomaly;
    }
  }
  return { values, stationsUsed: used.length, normalOnly };
}
