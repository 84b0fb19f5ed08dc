// A lookup raster for scoring millions of points: the answer of locateCell (locate-cell.ts) precomputed for small
// pixels, so that most points cost two floors, an array read and a few haversines instead of a polygon test and a
// tree walk. It gives exactly locateCell's answer for every point (tested point by point against it):
//
// - Pixels subdivide the coverage mask's squares (SUBDIVISIONS per side) and a point finds its square with the
//   mask's own arithmetic, so a pixel never straddles two squares. OUTSIDE squares answer OUTSIDE_AREA; in MIXED
//   squares a pixel that no province edge crosses lies wholly on one side, which the polygon test at its centre
//   tells; a pixel an edge crosses is left to locateCell.
// - The grid's "cell near" test is constant over squares at least a pixel wide, so equal answers at the pixel's
//   four corners hold for all of it; a grid no coarser than a (padded) pixel — its squares are of its resolution, or
//   coarser — has the test asked at each point of a covered pixel, in constant time.
// - Nearest cell: with d1 the centre's nearest distance and r the pixel's radius, no cell farther than d1 + 2r from
//   the centre can be nearest anywhere in the pixel (triangle inequality on the sphere). The pixel keeps those
//   candidates (at most MAX_CANDIDATES) and a point takes the nearest of them by the
//   same haversine and the same tie rule (lowest cell number) as the grid's search. A pixel with more cells than
//   that, on a regular grid (a 0.01° grid under 1/32° pixels), takes the nearest of the 3 × 3 lattice places around
//   the point where they are sure to hold it (cell-lattice.ts), else the grid's search.
import { INSIDE, MIXED, OUTSIDE } from "../../formats/coverage-mask.ts";
import { haversineKm } from "../geo/sphere.ts";
import { CellLattice } from "./cell-lattice.ts";
import { locateCell, NO_CELL_NEAR, OUTSIDE_AREA, type CellLocatorParts } from "./locate-cell.ts";

export const SUBDIVISIONS = 32;
const MAX_CANDIDATES = 4;
const UNSURE = -3;
/** A covered pixel with too many cells to list, on a regular grid: the nearest by its lattice (cell-lattice.ts). */
const LATTICE = -4;
/** A pixel of a MIXED square before it is known (not OUTSIDE, INSIDE or MIXED). */
const UNKNOWN = 255;
/** Degrees a pixel is widened by on every side, so that rounding at its edges cannot put a point outside it. */
const PAD_DEG = 1e-9;
const KM_PER_DEG = 111.2; // more than 2πR/360 for R = 6371.0088 km (111.195): bounds stay on the safe side

export class CellRaster {
  private readonly west: number;
  private readonly south: number;
  private readonly res: number;
  private readonly nCols: number;
  private readonly nRows: number;
  /** Per pixel: OUTSIDE_AREA, NO_CELL_NEAR, UNSURE, LATTICE, or the start of its candidates in `candidates`. */
  private readonly code: Int32Array;
  private readonly count: Uint8Array;
  private candidates = new Int32Array(0);
  private readonly cellLats: Float64Array;
  private readonly cellLngs: Float64Array;
  /** Pixels by outcome, for the report: outside, no cell near, one candidate, several, left to locateCell. */
  readonly stats = { outside: 0, noCellNear: 0, single: 0, several: 0, lattice: 0, unsure: 0 };
  /** The grid's cells by lattice place, when the grid is a regular one (its pixels of many cells use it). */
  private readonly lattice: CellLattice | undefined;
  /** The near test is asked per point: its squares (the grid's resolution, or coarser) may be smaller than a pixel. */
  private readonly nearPerPoint: boolean;

  /** The whole raster at once (a CLI, a test); a server makes it with inSlices, beside its requests. */
  constructor(private readonly parts: CellLocatorParts, fill = true) {
    const { coverage, grid } = parts;
    this.west = coverage.west;
    this.south = coverage.south;
    this.res = coverage.resolutionDeg;
    this.nCols = coverage.nCols;
    this.nRows = coverage.nRows;
    this.cellLats = grid.cellLats;
    this.cellLngs = grid.cellLngs;
    const nPixels = this.nCols * this.nRows * SUBDIVISIONS * SUBDIVISIONS;
    this.code = new Int32Array(nPixels);
    this.count = new Uint8Array(nPixels);
    // Squares of the grid's near test no wider than a padded pixel may fit between its corners' squares.
    this.nearPerPoint = grid.resolutionDeg <= this.res / SUBDIVISIONS + 2 * PAD_DEG;
    // Only a grid that fine puts many cells in a pixel.
    this.lattice = this.nearPerPoint ? CellLattice.of(grid.cellLats, grid.cellLngs, grid.resolutionDeg) : undefined;
    if (fill) for (const _ of this.build());
  }

  /**
   * The same raster made a few steps at a time, giving the event loop back every `sliceMs`, so that a server
   * answers its requests meanwhile (0.7–0.9 s of CPU on the regional grid; no step is longer than a few tens of
   * milliseconds there). Undefined when `goOn` says to stop (the version is no longer served).
   */
  static async inSlices(parts: CellLocatorParts, sliceMs = 4, goOn: () => boolean = () => true): Promise<CellRaster | undefined> {
    const raster = new CellRaster(parts, false);
    let sliceStart = performance.now();
    for (const _ of raster.build()) {
      if (performance.now() - sliceStart < sliceMs) continue;
      await new Promise((resolve) => setImmediate(resolve));
      if (!goOn()) return undefined;
      sliceStart = performance.now();
    }
    return raster;
  }

  /**
   * Makes the raster, yielding after each step: 4,096 cells bucketed, a province ring's edges sorted by square (the
   * setup: 0.3–0.5 s on the regional grid, 0.7 s of buckets on a 1,000,000-cell grid), a mask square's pixels.
   */
  private *build(): Generator<void> {
    const { grid, provinceIndex } = this.parts;
    const buckets = new CellBuckets(grid.cellLats, grid.cellLngs, grid.resolutionDeg);
    for (let c = 0; c < grid.cellLats.length; c += 4096) {
      buckets.add(c, Math.min(grid.cellLats.length, c + 4096));
      yield;
    }
    const edges = new Map<number, number[]>();
    for (let ring = 0; ring + 1 < provinceIndex.rings.ringStart.length; ring++) {
      addEdgesBySquare(this.parts, edges, ring, ring + 1);
      yield;
    }
    const filler = this.filler(edges, buckets);
    for (let square = 0; square < this.nCols * this.nRows; square++) {
      filler.square(square);
      yield;
    }
    filler.done();
  }

  /** Fills the pixels of one mask square at a time; done() keeps the candidates. */
  private filler(edges: Map<number, number[]>, buckets: CellBuckets): { square(square: number): void; done(): void } {
    const { coverage, grid } = this.parts;
    const K = SUBDIVISIONS;
    const cands: number[] = [];
    const px = this.res / K;
    const square = (square: number): void => {
      const row = Math.floor(square / this.nCols);
      const col = square - row * this.nCols;
      const state = coverage.state[square];
      const inside = state === MIXED ? this.mixedSquareInside(edges.get(square), row, col, px) : null;
      for (let sy = 0; sy < K; sy++) {
        for (let sx = 0; sx < K; sx++) {
          const p = ((square * K + sy) * K) + sx;
          if (state === OUTSIDE) {
            this.code[p] = OUTSIDE_AREA;
            this.stats.outside++;
            continue;
          }
          const w = this.west + col * this.res + sx * px - PAD_DEG;
          const s = this.south + row * this.res + sy * px - PAD_DEG;
          const e = w + px + 2 * PAD_DEG;
          const n = s + px + 2 * PAD_DEG;
          const cLat = (s + n) / 2;
          const cLng = (w + e) / 2;
          if (inside !== null) {
            const where = inside[sy * K + sx];
            if (where !== INSIDE) {
              this.code[p] = where === OUTSIDE ? OUTSIDE_AREA : UNSURE;
              if (where === OUTSIDE) this.stats.outside++;
              else this.stats.unsure++;
              continue;
            }
          } else if (state !== INSIDE) throw new Error(`coverage mask: unknown state ${state}`);
          // A grid finer than the pixels: the near test is asked at each point (locate), not told by the corners.
          const near = this.nearPerPoint ? 4 : Number(grid.covers(s, w)) + Number(grid.covers(s, e)) + Number(grid.covers(n, w)) + Number(grid.covers(n, e));
          if (near === 0) {
            this.code[p] = NO_CELL_NEAR;
            this.stats.noCellNear++;
            continue;
          }
          if (near !== 4) {
            this.code[p] = UNSURE;
            this.stats.unsure++;
            continue;
          }
          const d1 = grid.nearestCell(cLat, cLng).distanceKm;
          const r = Math.max(haversineKm(cLat, cLng, s, w), haversineKm(cLat, cLng, s, e), haversineKm(cLat, cLng, n, w), haversineKm(cLat, cLng, n, e)) + 1e-9;
          // A fine grid's pixel far from every cell (its corners' near test not asked): no search over a wide circle;
          // its rare points go to locateCell.
          if (this.nearPerPoint && d1 > 2 * r) {
            this.code[p] = UNSURE;
            this.stats.unsure++;
            continue;
          }
          const found = buckets.within(cLat, cLng, d1 + 2 * r + 1e-9, MAX_CANDIDATES);
          if (found === null) {
            this.code[p] = this.lattice === undefined ? UNSURE : LATTICE;
            if (this.lattice === undefined) this.stats.unsure++;
            else this.stats.lattice++;
            continue;
          }
          this.code[p] = cands.length;
          this.count[p] = found.length;
          for (const c of found) cands.push(c);
          if (found.length === 1) this.stats.single++;
          else this.stats.several++;
        }
      }
    };
    return { square, done: () => (this.candidates = Int32Array.from(cands)) };
  }

  /**
   * For the pixels of a MIXED square: MIXED where a province edge meets the pixel, else INSIDE or OUTSIDE the
   * provinces. Two neighbouring pixels that no edge meets lie in one edge-free region (their union holds the
   * segment between them), so a pixel takes its left or lower neighbour's answer and only the first pixel of each
   * such run asks the polygons.
   */
  private mixedSquareInside(edges: number[] | undefined, row: number, col: number, px: number): Uint8Array {
    const K = SUBDIVISIONS;
    const out = new Uint8Array(K * K).fill(UNKNOWN);
    const coords = this.parts.provinceIndex.rings.coords;
    const west = this.west + col * this.res;
    const south = this.south + row * this.res;
    // Each edge marks the pixels it meets, testing only those near its bounding box (a pixel more on every side).
    if (edges) {
      for (let i = 0; i < edges.length; i += 2) {
        const x0 = coords[2 * edges[i]], y0 = coords[2 * edges[i] + 1], x1 = coords[2 * edges[i + 1]], y1 = coords[2 * edges[i + 1] + 1];
        const sx0 = Math.max(0, Math.floor((Math.min(x0, x1) - west) / px) - 1);
        const sx1 = Math.min(K - 1, Math.floor((Math.max(x0, x1) - west) / px) + 1);
        const sy0 = Math.max(0, Math.floor((Math.min(y0, y1) - south) / px) - 1);
        const sy1 = Math.min(K - 1, Math.floor((Math.max(y0, y1) - south) / px) + 1);
        for (let sy = sy0; sy <= sy1; sy++) {
          for (let sx = sx0; sx <= sx1; sx++) {
            if (out[sy * K + sx] === MIXED) continue;
            const w = this.west + col * this.res + sx * px - PAD_DEG;
            const s = this.south + row * this.res + sy * px - PAD_DEG;
            if (segmentMeetsRect(x0, y0, x1, y1, w, s, w + px + 2 * PAD_DEG, s + px + 2 * PAD_DEG)) out[sy * K + sx] = MIXED;
          }
        }
      }
    }
    for (let sy = 0; sy < K; sy++) {
      for (let sx = 0; sx < K; sx++) {
        const i = sy * K + sx;
        if (out[i] === MIXED) continue;
        if (sx > 0 && out[i - 1] !== MIXED) out[i] = out[i - 1];
        else if (sy > 0 && out[i - K] !== MIXED) out[i] = out[i - K];
        else {
          const w = this.west + col * this.res + sx * px - PAD_DEG;
          const s = this.south + row * this.res + sy * px - PAD_DEG;
          out[i] = this.parts.provinceIndex.provinceAt(s + px / 2 + PAD_DEG, w + px / 2 + PAD_DEG) >= 0 ? INSIDE : OUTSIDE;
        }
      }
    }
    return out;
  }

  /** Exactly locateCell(parts, lat, lng): the nearest cell's number, OUTSIDE_AREA or NO_CELL_NEAR. */
  locate(lat: number, lng: number): number {
    const u = (lng - this.west) / this.res;
    const v = (lat - this.south) / this.res;
    const col = Math.floor(u);
    const row = Math.floor(v);
    // Beyond the mask (or NaN): the mask says OUTSIDE there, hence not covered.
    if (!(col >= 0 && row >= 0 && col < this.nCols && row < this.nRows)) return OUTSIDE_AREA;
    const K = SUBDIVISIONS;
    const p = (((row * this.nCols + col) * K + Math.floor((v - row) * K)) * K) + Math.floor((u - col) * K);
    const code = this.code[p];
    // A pixel wider than the grid's near-test squares: equal answers at its corners do not hold inside it.
    if (this.nearPerPoint && (code >= 0 || code === LATTICE) && !this.parts.grid.covers(lat, lng)) return NO_CELL_NEAR;
    if (code >= 0) {
      const n = this.count[p];
      let best = this.candidates[code];
      if (n === 1) return best;
      let bestKm = haversineKm(lat, lng, this.cellLats[best], this.cellLngs[best]);
      for (let i = 1; i < n; i++) {
        const c = this.candidates[code + i];
        const km = haversineKm(lat, lng, this.cellLats[c], this.cellLngs[c]);
        if (km < bestKm || (km === bestKm && c < best)) {
          best = c;
          bestKm = km;
        }
      }
      return best;
    }
    if (code === LATTICE) {
      const cell = this.lattice!.nearest(lat, lng);
      return cell >= 0 ? cell : this.parts.grid.nearestCell(lat, lng).cell;
    }
    if (code === UNSURE) return locateCell(this.parts, lat, lng);
    return code;
  }
}

/** Cells bucketed by grid squares, for "every cell within d km" around a point. */
class CellBuckets {
  private readonly byKey = new Map<number, number[]>();
  constructor(
    private readonly lats: Float64Array,
    private readonly lngs: Float64Array,
    private readonly step: number,
  ) {}

  /** Buckets cells from..to-1 (all of them, in turn, before within() is asked). */
  add(from: number, to: number): void {
    for (let c = from; c < to; c++) {
      const key = this.key(Math.floor(this.lats[c] / this.step), Math.floor(this.lngs[c] / this.step));
      const list = this.byKey.get(key);
      if (list) list.push(c);
      else this.byKey.set(key, [c]);
    }
  }

  private key(r: number, q: number): number {
    return (r + 4096) * 16384 + (q + 8192);
  }

  /** Cells within `km` of the point, by cell number; null when there are more than `max`. */
  within(lat: number, lng: number, km: number, max: number): number[] | null {
    const dLat = km / KM_PER_DEG + this.step;
    const maxAbsLat = Math.min(89.9, Math.abs(lat) + dLat);
    const dLng = km / (KM_PER_DEG * Math.cos((maxAbsLat * Math.PI) / 180)) + this.step;
    const out: number[] = [];
    for (let r = Math.floor((lat - dLat) / this.step); r <= Math.floor((lat + dLat) / this.step); r++) {
      for (let q = Math.floor((lng - dLng) / this.step); q <= Math.floor((lng + dLng) / this.step); q++) {
        const list = this.byKey.get(this.key(r, q));
        if (!list) continue;
        for (const c of list) {
          if (haversineKm(lat, lng, this.lats[c], this.lngs[c]) <= km) {
            if (out.length === max) return null;
            out.push(c);
          }
        }
      }
    }
    return out.sort((a, b) => a - b);
  }
}

/** Adds to `out`, per MIXED square of the mask, the segments (vertex pairs, rings closed) of rings from..to-1 whose bounding box touches it. */
function addEdgesBySquare(parts: CellLocatorParts, out: Map<number, number[]>, from: number, to: number): void {
  const { coverage } = parts;
  const { coords, ringStart } = parts.provinceIndex.rings;
  const res = coverage.resolutionDeg;
  for (let ring = from; ring < to; ring++) {
    const first = ringStart[ring];
    const last = ringStart[ring + 1] - 1;
    for (let v = first; v <= last; v++) {
      const next = v === last ? first : v + 1;
      const x0 = coords[2 * v], y0 = coords[2 * v + 1], x1 = coords[2 * next], y1 = coords[2 * next + 1];
      const q0 = Math.max(0, Math.floor((Math.min(x0, x1) - coverage.west) / res) - 1);
      const q1 = Math.min(coverage.nCols - 1, Math.floor((Math.max(x0, x1) - coverage.west) / res) + 1);
      const r0 = Math.max(0, Math.floor((Math.min(y0, y1) - coverage.south) / res) - 1);
      const r1 = Math.min(coverage.nRows - 1, Math.floor((Math.max(y0, y1) - coverage.south) / res) + 1);
      for (let r = r0; r <= r1; r++) {
        for (let q = q0; q <= q1; q++) {
          const square = r * coverage.nCols + q;
          if (coverage.state[square] !== MIXED) continue;
          const list = out.get(square);
          if (list) list.push(v, next);
          else out.set(square, [v, next]);
        }
      }
    }
  }
}

/** Whether the segment (x0, y0)–(x1, y1) has a point in the closed rectangle (Liang–Barsky clipping). */
export function segmentMeetsRect(x0: number, y0: number, x1: number, y1: number, w: number, s: number, e: number, n: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const p = [-dx, dx, -dy, dy];
  const q = [x0 - w, e - x0, y0 - s, n - y0];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return false;
    } else {
      const t = q[i] / p[i];
      if (p[i] < 0) {
        if (t > t1) return false;
        if (t > t0) t0 = t;
      } else {
        if (t < t0) return false;
        if (t < t1) t1 = t;
      }
    }
  }
  return true;
}
