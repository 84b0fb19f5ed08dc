// The grid's month axis (pure): trimmed to the months with values, the latest month with SPEI-1, the answers' default month.
import type { MonthIndex } from "../../lib/months.ts";

/** Cell-major [cell * nMonths + m] values kept for the months first .. first + n - 1. */
export function trimMonths(values: Uint8Array, nCells: number, nMonths: number, first: number, n: number): Uint8Array {
  const out = new Uint8Array(nCells * n);
  for (let c = 0; c < nCells; c++) out.set(values.subarray(c * nMonths + first, c * nMonths + first + n), c * n);
  return out;
}

/**
 * Offset of the latest month in [first, last] in which every layer has a value on at least `share` of the cells,
 * or -1. Layers are cell-major (cell × nMonths + month).
 */
export function latestServedMonth(layers: readonly Float32Array[], nCells: number, nMonths: number, share: number, first: number, last: number): number {
  for (let m = last; m >= first; m--) {
    let all = true;
    for (const layer of layers) {
      let valid = 0;
      for (let c = 0; c < nCells; c++) if (layer[c * nMonths + m] === layer[c * nMonths + m]) valid++;
      if (valid < share * nCells) {
        all = false;
        break;
      }
    }
    if (all) return m;
  }
  return -1;
}

/** The layers of a grid source on its month axis (cell-major: cell × nMonths + month). */
export interface AxisLayers {
  /** Every layer, in the grid's order. */
  layers: readonly Float32Array[];
  spei1: Float32Array;
  spi1: Float32Array;
  /** The layers every answer carries (SERVED_INDICES). */
  served: readonly Float32Array[];
}

/**
 * The month axis trimmed to the months in which some cell has SPEI-1 or SPI-1, and the layers on it; per month of
 * the source's axis the cells with SPEI-1; the latest month in which `share` of the cells have SPEI-1, and the
 * latest in which they have every served index (the default month of the answers; null: none).
 */
export function trimMonthAxis(l: AxisLayers, nCells: number, axis: { first: MonthIndex; nMonths: number }, share: number) {
  const { spei1, spi1 } = l;
  const validCells = new Uint32Array(axis.nMonths);
  const anyValid = new Uint8Array(axis.nMonths);
  for (let c = 0; c < nCells; c++) {
    for (let m = 0; m < axis.nMonths; m++) {
      const i = c * axis.nMonths + m;
      if (spei1[i] === spei1[i]) validCells[m]++;
      if (spei1[i] === spei1[i] || spi1[i] === spi1[i]) anyValid[m] = 1;
    }
  }
  const firstValid = anyValid.indexOf(1);
  const lastValid = anyValid.lastIndexOf(1);
  if (firstValid < 0) throw new Error("no month has any valid index value: nothing to publish");
  const nMonths = lastValid - firstValid + 1;
  const firstMonth = axis.first + firstValid;
  const trimmed = l.layers.map((layer) => {
    const out = new Float32Array(nCells * nMonths);
    for (let c = 0; c < nCells; c++) out.set(layer.subarray(c * axis.nMonths + firstValid, c * axis.nMonths + lastValid + 1), c * nMonths);
    return out;
  });
  // The default month of the answers (and the newest precomputed tiles) is the latest in which every index they
  // carry has values (latestServedMonth); the report also names the latest month with SPEI-1 alone.
  let latestSpei1: MonthIndex | null = null;
  for (let m = lastValid; m >= firstValid; m--) {
    if (validCells[m] >= share * nCells) {
      latestSpei1 = axis.first + m;
      break;
    }
  }
  const latestServed = latestServedMonth(l.served, nCells, axis.nMonths, share, firstValid, lastValid);
  const latestValid: MonthIndex | null = latestServed < 0 ? null : axis.first + latestServed;
  return { firstValid, nMonths, firstMonth, trimmed, validCells, latestSpei1, latestValid };
}
