// Where the grid answers (pure): the coverage mask of grid squares, and per province its land cells, mean confidence and summaries.
import { BELOW_CALIBRATION, NO_BIN } from "../../formats/confidence-grid.ts";
import { INSIDE, MIXED, type CoverageMaskData } from "../../formats/coverage-mask.ts";
import type { Calibration } from "../grid/confidence.ts";
import type { LandCells } from "../grid/land-cells.ts";

/**
 * Squares whose sub-samples all fall in provinces of one country are inside; other land squares (a coast, or a
 * border between two of the region's countries), and empty squares next to land (a coastal sliver the sub-samples
 * missed), are mixed and get the polygon test in the server. An inside square's own cell is therefore of the point's
 * country, and a mixed square's polygon test names it: the point's country costs no test of its own.
 */
export function coverageMask(cells: LandCells, provinceCountry: readonly string[]): CoverageMaskData {
  const { nCols, nRows } = cells;
  const fraction = new Float64Array(cells.lat.length);
  for (let e = 0; e < cells.weightCell.length; e++) fraction[cells.weightCell[e]] += cells.weightFraction[e];
  const oneCountry = new Uint8Array(cells.lat.length).fill(1);
  const first = new Array<string | undefined>(cells.lat.length);
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = cells.weightCell[e];
    const country = provinceCountry[cells.weightProvince[e]];
    if (first[c] === undefined) first[c] = country;
    else if (first[c] !== country) oneCountry[c] = 0;
  }
  const state = new Uint8Array(nCols * nRows);
  for (let c = 0; c < cells.lat.length; c++) state[cells.row[c] * nCols + cells.col[c]] = fraction[c] >= 1 - 1e-6 && oneCountry[c] ? INSIDE : MIXED;
  const land = state.slice();
  for (let r = 0; r < nRows; r++) {
    for (let q = 0; q < nCols; q++) {
      if (land[r * nCols + q] === 0) continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dq = -1; dq <= 1; dq++) {
          const rr = r + dr;
          const qq = q + dq;
          if (rr >= 0 && qq >= 0 && rr < nRows && qq < nCols && state[rr * nCols + qq] === 0) state[rr * nCols + qq] = MIXED;
        }
      }
    }
  }
  return { west: cells.west, south: cells.south, resolutionDeg: cells.resolutionDeg, nCols, nRows, state };
}

/** Each land cell's country: the one with the largest share of its area (formats/drought-grid.ts countries and cellCountry). */
export function cellCountries(cells: Pick<LandCells, "lat" | "weightCell" | "weightProvince" | "weightFraction">, provinces: readonly { country: string }[]): { countries: string[]; cellCountry: Uint8Array } {
  const countries = [...new Set(provinces.map((p) => p.country))];
  const share = new Float64Array(cells.lat.length * countries.length);
  const countryNo = provinces.map((p) => countries.indexOf(p.country));
  for (let e = 0; e < cells.weightCell.length; e++) share[cells.weightCell[e] * countries.length + countryNo[cells.weightProvince[e]]] += cells.weightFraction[e];
  const cellCountry = new Uint8Array(cells.lat.length);
  for (let c = 0; c < cells.lat.length; c++) {
    let best = 0;
    for (let k = 1; k < countries.length; k++) if (share[c * countries.length + k] > share[c * countries.length + best]) best = k;
    cellCountry[c] = best;
  }
  return { countries, cellCountry };
}

/** Per province and month, the mean confidence of the cells that touch it and have an estimate (NaN: none). */
export function provinceMeanConfidence(bins: Uint8Array, calibration: Calibration, cells: { weightCell: Uint32Array; weightProvince: Uint8Array }, nMonths: number, nProvinces: number): Float32Array {
  const sum = new Float64Array(nProvinces * nMonths);
  const count = new Uint32Array(nProvinces * nMonths);
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = cells.weightCell[e];
    const p = cells.weightProvince[e];
    for (let m = 0; m < nMonths; m++) {
      const b = bins[c * nMonths + m];
      if (b === NO_BIN || b === BELOW_CALIBRATION) continue;
      sum[p * nMonths + m] += calibration.bins[b].confidence;
      count[p * nMonths + m]++;
    }
  }
  return Float32Array.from(sum, (s, i) => (count[i] ? s / count[i] : NaN));
}

/** Per province, the land cells touching it (for the report). */
export function landCellsPerProvince(cells: { weightProvince: Uint8Array }, nProvinces: number): number[] {
  const out = new Array(nProvinces).fill(0);
  for (let e = 0; e < cells.weightProvince.length; e++) out[cells.weightProvince[e]]++;
  return out;
}

/** Provinces whose summary has a value of the first layer (SPEI-1) at month `offset`; 0 when there is no such month (-1). */
export function provincesWithSummaryAt(means: Float32Array, nProvinces: number, nMonths: number, nIndices: number, offset: number): number {
  if (offset < 0) return 0;
  let n = 0;
  for (let p = 0; p < nProvinces; p++) if (means[(p * nMonths + offset) * nIndices] === means[(p * nMonths + offset) * nIndices]) n++;
  return n;
}
