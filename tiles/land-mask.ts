// Which points of the grid's extent are land (inside a province): a bitmap at 1/64 of the cell size, filled by
// scanline from the province rings, so the raster tiles leave the sea part of a coastal cell transparent instead of
// drawing the whole square. Rings come flat (x, y interleaved; province-index.bin's layout), per province: a point
// is land when it is inside an odd number of one province's rings (its holes are rings too), for any province —
// parity per province, because two neighbours share their border edges.
import type { BBox } from "./tile-math.ts";

export interface LandMask {
  west: number;
  south: number;
  /** Degrees per mask cell. */
  res: number;
  nCols: number;
  nRows: number;
  /** Row-major from the south, one bit per mask cell (bit c & 7 of byte (row * stride + c >> 3)). */
  bits: Uint8Array;
  stride: number;
}

export interface FlatRings {
  coords: ArrayLike<number>;
  /** Start vertex of each ring, and the end of the last one. */
  ringStart: ArrayLike<number>;
  ringProvince: ArrayLike<number>;
  nProvinces: number;
}

/** Mask cells per grid cell side. */
export const LAND_MASK_SUBDIVISION = 64;

export function landMask(rings: FlatRings, bbox: BBox, cellRes: number): LandMask {
  const res = cellRes / LAND_MASK_SUBDIVISION;
  const [west, south, east, north] = bbox;
  const nCols = Math.ceil((east - west) / res - 1e-9);
  const nRows = Math.ceil((north - south) / res - 1e-9);
  const stride = (nCols + 7) >> 3;
  const bits = new Uint8Array(stride * nRows);
  const nRings = rings.ringStart.length - 1;
  const byProvince: number[][] = Array.from({ length: rings.nProvinces }, () => []);
  for (let r = 0; r < nRings; r++) byProvince[rings.ringProvince[r]].push(r);
  const { coords, ringStart } = rings;
  for (const own of byProvince) {
    // Crossings of the province's edges with the row centres, bucketed by row.
    const crossings = new Map<number, number[]>();
    for (const r of own) {
      const from = ringStart[r];
      const to = ringStart[r + 1];
      for (let i = from, j = to - 1; i < to; j = i++) {
        const x0 = coords[2 * j], y0 = coords[2 * j + 1];
        const x1 = coords[2 * i], y1 = coords[2 * i + 1];
        if (y0 === y1) continue;
        const lo = Math.min(y0, y1);
        const hi = Math.max(y0, y1);
        // Rows whose centre y lies in [lo, hi): centre = south + (row + 0.5) * res.
        const first = Math.max(0, Math.ceil((lo - south) / res - 0.5));
        const last = Math.min(nRows - 1, Math.ceil((hi - south) / res - 0.5) - 1);
        for (let row = first; row <= last; row++) {
          const y = south + (row + 0.5) * res;
          const x = x0 + ((x1 - x0) * (y - y0)) / (y1 - y0);
          let list = crossings.get(row);
          if (!list) crossings.set(row, (list = []));
          list.push(x);
        }
      }
    }
    for (const [row, xs] of crossings) {
      xs.sort((a, b) => a - b);
      const base = row * stride;
      for (let k = 0; k + 1 < xs.length; k += 2) {
        // Mask cells whose centre x lies in [xs[k], xs[k+1]).
        const c0 = Math.max(0, Math.ceil((xs[k] - west) / res - 0.5));
        const c1 = Math.min(nCols - 1, Math.ceil((xs[k + 1] - west) / res - 0.5) - 1);
        for (let c = c0; c <= c1; c++) bits[base + (c >> 3)] |= 1 << (c & 7);
      }
    }
  }
  return { west, south, res, nCols, nRows, bits, stride };
}

/** Whether the mask cell holding (lng, lat) is land; outside the mask's extent, no. */
export function isLand(m: LandMask, lng: number, lat: number): boolean {
  const c = Math.floor((lng - m.west) / m.res);
  const r = Math.floor((lat - m.south) / m.res);
  if (c < 0 || r < 0 || c >= m.nCols || r >= m.nRows) return false;
  return (m.bits[r * m.stride + (c >> 3)] & (1 << (c & 7))) !== 0;
}
