// The cells of a regular grid by their place on its lattice, for the lookup raster (cell-raster.ts) where a pixel
// holds too many cells to list (a 0.01° grid under pixels of 1/32°): a point's nearest cell is among the 3 × 3 lattice
// places around the one it rounds to, unless that block is too sparse to be sure, and then the grid's own search
// answers. Exact, not approximate:
//
// - A cell outside the block differs from the point by at least 1.5 steps in latitude or in longitude (the point is
//   within half a step of the block's centre in both). In latitude that is at least R·Δφ away; in longitude, with
//   both latitudes within 1.5 steps of the point's, at least 2R·asin(cos φmax · sin(Δλ/2)) (the haversine's second
//   term alone). A block cell nearer than the smaller of the two is the nearest cell of the whole grid.
// - Among the block's cells the nearest is taken by the same haversine and the same tie rule (lowest cell number)
//   as the grid's search (formats/nearest-cell.ts), so the answer is the search's own.
import { EARTH_RADIUS_KM, haversineKm } from "../geo/sphere.ts";

const RAD = Math.PI / 180;
/**
 * How far a cell's coordinates may sit off the lattice, in steps: 1e-3 of a step (1e-5° on a 0.01° grid) holds
 * float32-rounded centres (half an ulp is 3.8e-6° at longitude 100) and is taken off the bound below.
 */
const ON_LATTICE_STEPS = 1e-3;
/** Lattice places kept at most (4 bytes each): beyond, the grid has no lattice here. */
const MAX_PLACES = 16_000_000;
/** Latitudes beyond which the longitude bound is not used (cos φ → 0). */
const MAX_ABS_LAT = 85;

export class CellLattice {
  private constructor(
    private readonly lat0: number,
    private readonly lng0: number,
    private readonly step: number,
    private readonly nRows: number,
    private readonly nCols: number,
    /** Cell number at each lattice place (row-major), −1 where there is none. */
    private readonly places: Int32Array,
    private readonly cellLats: Float64Array,
    private readonly cellLngs: Float64Array,
  ) {}

  /** The lattice of cells at `step` degrees; undefined when some cell is off it, two share a place, or it is too large. */
  static of(cellLats: Float64Array, cellLngs: Float64Array, step: number): CellLattice | undefined {
    const n = cellLats.length;
    if (n === 0 || !(step > 0)) return undefined;
    let minLat = Infinity, minLng = Infinity, maxLat = -Infinity, maxLng = -Infinity;
    for (let c = 0; c < n; c++) {
      minLat = Math.min(minLat, cellLats[c]);
      maxLat = Math.max(maxLat, cellLats[c]);
      minLng = Math.min(minLng, cellLngs[c]);
      maxLng = Math.max(maxLng, cellLngs[c]);
    }
    // Within 1.5 steps of the antimeridian a nearer cell may sit at the lattice's other end; near the poles the bound fails.
    if (minLng - 1.5 * step <= -180 || maxLng + 1.5 * step >= 180 || Math.max(-minLat, maxLat) > MAX_ABS_LAT - 1) return undefined;
    const tolerance = ON_LATTICE_STEPS * step;
    const nRows = Math.round((maxLat - minLat) / step) + 1;
    const nCols = Math.round((maxLng - minLng) / step) + 1;
    if (nRows * nCols > MAX_PLACES) return undefined;
    const places = new Int32Array(nRows * nCols).fill(-1);
    for (let c = 0; c < n; c++) {
      const row = Math.round((cellLats[c] - minLat) / step);
      const col = Math.round((cellLngs[c] - minLng) / step);
      if (Math.abs(minLat + row * step - cellLats[c]) > tolerance || Math.abs(minLng + col * step - cellLngs[c]) > tolerance) return undefined;
      const p = row * nCols + col;
      if (places[p] !== -1) return undefined;
      places[p] = c;
    }
    return new CellLattice(minLat, minLng, step, nRows, nCols, places, cellLats, cellLngs);
  }

  /** The grid's nearest cell to the point, or −1 when the 3 × 3 block around it cannot tell (ask the grid's search). */
  nearest(lat: number, lng: number): number {
    const row = Math.round((lat - this.lat0) / this.step);
    const col = Math.round((lng - this.lng0) / this.step);
    let best = -1;
    let bestKm = Infinity;
    for (let r = row - 1; r <= row + 1; r++) {
      if (r < 0 || r >= this.nRows) continue;
      for (let q = col - 1; q <= col + 1; q++) {
        if (q < 0 || q >= this.nCols) continue;
        const c = this.places[r * this.nCols + q];
        if (c < 0) continue;
        const km = haversineKm(lat, lng, this.cellLats[c], this.cellLngs[c]);
        if (km < bestKm || (km === bestKm && c < best)) {
          best = c;
          bestKm = km;
        }
      }
    }
    return best >= 0 && bestKm < this.outsideKm(lat) ? best : -1;
  }

  /** Less than the distance from a point at `lat` to any cell outside its 3 × 3 block (see the header). */
  private outsideKm(lat: number): number {
    // 1.5 steps less what a cell may sit off the lattice, and a little more for the rounding of the trigonometry.
    const reach = (1.5 - 2 * ON_LATTICE_STEPS) * this.step * RAD;
    const maxAbsLat = Math.abs(lat) + 1.5 * this.step;
    if (maxAbsLat > MAX_ABS_LAT) return 0;
    const byLat = EARTH_RADIUS_KM * reach;
    const byLng = 2 * EARTH_RADIUS_KM * Math.asin(Math.cos(maxAbsLat * RAD) * Math.sin(reach / 2));
    return Math.min(byLat, byLng) * (1 - 1e-9);
  }
}
