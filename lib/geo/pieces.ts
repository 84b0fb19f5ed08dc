// Polygons cut into small pieces for fast point-in-polygon: every planar ring is clipped along a fixed quadtree of
// the world box (Sutherland–Hodgman against one axis-parallel line at a time) until each piece has at most
// MAX_PIECE_VERTICES vertices. Interior quadtree cells become 4-vertex rectangles, so a lookup tests a handful of
// short rings instead of Russia's 22,849-vertex outline.
//
// Why clipping keeps the answer: a clipped ring is the original with its parts beyond the clip line moved onto the
// line, which never sweeps over a point strictly inside the kept half-plane, so those points keep their crossing
// parity. Points on a clip line: the even-odd test below counts an edge only when the point is strictly left of it
// and uses half-open latitude spans, so such a point is inside the piece east (or north) of the line and outside the
// other, exactly as the unclipped ring would answer. Clip lines are dyadic fractions of the world box shared by all
// rings, and crossings are computed from the same endpoint order, so neighbouring pieces meet without gaps.
import Flatbush from "flatbush";
import { boundsOf, type Box } from "./bounds.ts";
import type { FlatRing } from "./planar-rings.ts";

export const MAX_PIECE_VERTICES = 32;
// Pieces smaller than this (deg², about 0.01 m²) are the zero-area runs Sutherland–Hodgman leaves along clip lines.
const MIN_PIECE_AREA = 1e-12;
const MAX_DEPTH = 24; // 360° / 2^12 per axis ≈ 0.09°: deep enough for any 10m outline, bounded for degenerate input

export interface Pieces {
  /** Interleaved lng, lat of every piece vertex (open rings). */
  coords: Float64Array;
  /** Piece p spans vertices start[p] .. start[p + 1] - 1; length nPieces + 1. */
  start: Uint32Array;
  /** Polygon unit (caller's numbering) of each piece. */
  unit: Uint16Array;
  /** Flatbush over piece bounding boxes, item p = piece p. */
  index: Flatbush;
}

/** Crossing of edge a–b with the vertical line x = X, computed from the western endpoint so both directions agree. */
function crossX(ax: number, ay: number, bx: number, by: number, X: number): number {
  if (ax > bx) return crossX(bx, by, ax, ay, X);
  return ay + ((X - ax) * (by - ay)) / (bx - ax);
}

/** Crossing of edge a–b with the horizontal line y = Y, computed from the southern endpoint. */
function crossY(ax: number, ay: number, bx: number, by: number, Y: number): number {
  if (ay > by) return crossY(bx, by, ax, ay, Y);
  return ax + ((Y - ay) * (bx - ax)) / (by - ay);
}

/**
 * The part of an open ring on one side of an axis-parallel line (Sutherland–Hodgman for one half-plane):
 * axis 0 clips on x, 1 on y; keepBelow keeps coordinates ≤ line, else ≥ line.
 */
export function clipRing(ring: FlatRing, axis: 0 | 1, line: number, keepBelow: boolean): FlatRing {
  const out: FlatRing = [];
  const n = ring.length / 2;
  if (n === 0) return out;
  const inside = (i: number) => (keepBelow ? ring[2 * i + axis] <= line : ring[2 * i + axis] >= line);
  let prev = n - 1;
  let prevIn = inside(prev);
  for (let cur = 0; cur < n; cur++) {
    const curIn = inside(cur);
    if (curIn !== prevIn) {
      const ax = ring[2 * prev];
      const ay = ring[2 * prev + 1];
      const bx = ring[2 * cur];
      const by = ring[2 * cur + 1];
      if (axis === 0) out.push(line, crossX(ax, ay, bx, by, line));
      else out.push(crossY(ax, ay, bx, by, line), line);
    }
    if (curIn) out.push(ring[2 * cur], ring[2 * cur + 1]);
    prev = cur;
    prevIn = curIn;
  }
  return out;
}

function shoelace(ring: FlatRing): number {
  let a = 0;
  const n = ring.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) a += ring[j] * ring[i + 1] - ring[i] * ring[j + 1];
  return a / 2;
}

function ringBox(ring: FlatRing): Box {
  return boundsOf(ring, 0, ring.length / 2 - 1);
}

/** Splits `ring` (already inside `cell`) along the quadtree until pieces are small; emits non-degenerate pieces. */
function split(ring: FlatRing, cell: Box, depth: number, emit: (piece: FlatRing) => void, box: Box = ringBox(ring)): void {
  if (ring.length < 6) return;
  if (ring.length / 2 <= MAX_PIECE_VERTICES || depth >= MAX_DEPTH) {
    if (Math.abs(shoelace(ring)) > MIN_PIECE_AREA) emit(ring);
    return;
  }
  // Halve the cell along its longer side (in degrees): every ring sees the same lines.
  const axis: 0 | 1 = cell.x1 - cell.x0 >= cell.y1 - cell.y0 ? 0 : 1;
  const mid = axis === 0 ? (cell.x0 + cell.x1) / 2 : (cell.y0 + cell.y1) / 2;
  const below: Box = axis === 0 ? { ...cell, x1: mid } : { ...cell, y1: mid };
  const above: Box = axis === 0 ? { ...cell, x0: mid } : { ...cell, y0: mid };
  // A ring within one half descends without clipping (and keeps its bbox).
  if ((axis === 0 ? box.x1 : box.y1) <= mid) return split(ring, below, depth + 1, emit, box);
  if ((axis === 0 ? box.x0 : box.y0) >= mid) return split(ring, above, depth + 1, emit, box);
  split(clipRing(ring, axis, mid, true), below, depth + 1, emit);
  split(clipRing(ring, axis, mid, false), above, depth + 1, emit);
}

const WORLD: Box = { x0: -180, y0: -90, x1: 180, y1: 90 };

/** Cuts planar rings (each tagged with its unit) into pieces within the world box and indexes their bboxes. */
export function buildPieces(rings: readonly { ring: FlatRing; unit: number }[]): Pieces {
  const coords: number[] = [];
  const start: number[] = [];
  const unit: number[] = [];
  const boxes: Box[] = [];
  for (const r of rings) {
    // First the world box's own sides (planar rings may reach beyond ±180 before their shifted copy takes over).
    let ring = r.ring;
    const b = ringBox(ring);
    if (b.x0 < -180) ring = clipRing(ring, 0, -180, false);
    if (b.x1 > 180) ring = clipRing(ring, 0, 180, true);
    split(ring, WORLD, 0, (piece) => {
      start.push(coords.length / 2);
      unit.push(r.unit);
      boxes.push(ringBox(piece));
      for (const v of piece) coords.push(v);
    });
  }
  start.push(coords.length / 2);
  const index = new Flatbush(Math.max(boxes.length, 1));
  for (const b of boxes) index.add(b.x0, b.y0, b.x1, b.y1);
  if (boxes.length === 0) index.add(0, 0, 0, 0); // flatbush needs one item; it names no piece
  index.finish();
  return { coords: Float64Array.from(coords), start: Uint32Array.from(start), unit: Uint16Array.from(unit), index };
}

/**
 * Even-odd ray casting (W. R. Franklin's pnpoly) on the open ring coords[2*start .. 2*end-1]: an edge counts when
 * the point is strictly west of its crossing and its latitude span is half-open. The crossing is computed from the
 * edge's southern endpoint, so two polygons sharing an edge (in opposite directions) compute the same crossing and
 * a point on that edge belongs to exactly one of them: the one east of it (north of it for an east-west edge).
 */
export function pointInRing(coords: Float64Array, start: number, end: number, x: number, y: number): boolean {
  let inside = false;
  for (let i = start, j = end - 1; i < end; j = i++) {
    const yi = coords[2 * i + 1];
    const yj = coords[2 * j + 1];
    if (yi > y !== yj > y) {
      const s = yi < yj ? i : j; // southern endpoint
      const n = s === i ? j : i;
      const xs = coords[2 * s];
      const ys = coords[2 * s + 1];
      if (x < ((coords[2 * n] - xs) * (y - ys)) / (coords[2 * n + 1] - ys) + xs) inside = !inside;
    }
  }
  return inside;
}

const NEAR_NORTH_POLE = 90 - 1e-9;

/** Which unit a point lies in: flatbush finds the pieces whose bbox holds the point, pnpoly decides. */
export class PieceLocator {
  // Scratch state reused by every query so a lookup allocates (almost) nothing.
  private readonly parity: Uint8Array;
  private readonly touched: Uint16Array;
  private nTouched = 0;
  private qx = 0;
  private qy = 0;
  private readonly visit: (piece: number) => boolean;

  constructor(readonly pieces: Pieces, nUnits: number) {
    this.parity = new Uint8Array(nUnits);
    this.touched = new Uint16Array(nUnits);
    const nPieces = pieces.unit.length;
    this.visit = (p) => {
      const { coords, start, unit } = this.pieces;
      if (p < nPieces && pointInRing(coords, start[p], start[p + 1], this.qx, this.qy)) {
        const u = unit[p];
        if ((this.parity[u] & 2) === 0) {
          this.touched[this.nTouched++] = u;
          this.parity[u] = 2; // bit 2: listed in `touched`; bit 1: odd number of containing pieces
        }
        this.parity[u] ^= 1;
      }
      return false;
    };
  }

  /**
   * The unit whose pieces contain the point an odd number of times (outer rings and holes), or -1. Longitude in
   * [-180, 180). The north pole is looked up a hair south of it: the half-open rule leaves a polygon's northern
   * edge outside it, and a ring closed along the north pole has its northern edge at exactly 90°.
   */
  unitAt(lat: number, lng: number): number {
    this.qx = lng;
    this.qy = lat < 90 ? lat : NEAR_NORTH_POLE;
    this.nTouched = 0;
    this.pieces.index.search(lng, this.qy, lng, this.qy, this.visit);
    let found = -1;
    for (let i = 0; i < this.nTouched; i++) {
      const u = this.touched[i];
      if (found < 0 && (this.parity[u] & 1) === 1) found = u;
      this.parity[u] = 0;
    }
    return found;
  }
}
