// Polygon rings of one MVT feature made valid for GEOS after geojson-vt's simplification and the rounding to the
// tile's integer grid: unioned, pinches cut, and vertices lying on another ring's edge inserted into that edge
// (a touch at a shared vertex stays a touch when a reader scales the tile to metres; a touch in mid-edge can turn
// into a crossing under floating point, which GDAL/GEOS reported for Chile in the countries tile 0/0/0).
import Flatbush from "flatbush";
import { union } from "polyclip-ts";

/** Twice the signed area of a ring in tile coordinates (y down): positive for an exterior ring in MVT's winding. */
function ringArea2(r: readonly number[][]): number {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += r[j][0] * r[i][1] - r[i][0] * r[j][1];
  return a;
}

/**
 * The rings of one polygon feature made valid after simplification and quantisation to the tile's integer grid
 * (which can make a ring cross itself or a neighbour, or collapse it): the feature's polygons are unioned by
 * polyclip-ts (a robust Martinez–Rueda–Feito implementation, the one @turf/union uses), rounded back to integers,
 * and rings left with fewer than four positions or no area are dropped. Exterior rings come out positive, holes
 * negative (MVT 2.1, 4.3.4.4).
 */
export function validPolygonRings(rings: number[][][]): number[][][] {
  // Rings of under four positions have no area: left out, as the union below leaves them out.
  const kept = rings.some((r) => r.length < 4) ? rings.filter((r) => r.length >= 4) : rings;
  if (alreadyValid(kept)) return kept;
  // Rounding the union's intersection points back to the grid can make rings cross or pinch again: the union and the
  // cut of pinches are repeated on the rounded rings (three rounds settle every province tile of the mirror).
  // A round that changes nothing has reached the fixed point: further rounds would give the same rings again.
  let out = rings;
  for (let round = 0; round < 3; round++) {
    const next = splitAll(cleanOnce(out));
    if (sameRings(next, out)) break;
    out = next;
  }
  // A vertex on another ring's edge becomes a vertex of that edge too; on its own ring's edge that is a pinch, cut.
  return splitAll(nodeRings(out));
}

/**
 * Whether the rings are valid as they are, by a conservative test: exteriors positive, each followed by its negative
 * holes; no two edges meet except consecutive edges of a ring at their shared vertex (and not folding back along each
 * other); each hole lies inside its exterior and outside the polygon's other holes; no exterior lies inside another.
 * The union would give such rings back unchanged (perhaps from another first vertex): most province features of a
 * tile are such, and polyclip-ts's exact arithmetic on them took 11 of a regional build's 30 s.
 */
export function alreadyValid(rings: number[][][]): boolean {
  let edges = 0;
  for (const r of rings) {
    if (r.length < 4) return false;
    const first = r[0];
    const last = r[r.length - 1];
    if (first[0] !== last[0] || first[1] !== last[1]) return false;
    edges += r.length - 1;
  }
  if (edges === 0) return false;
  // Polygons: [exterior, ...holes] as ring numbers.
  const polygons: number[][] = [];
  for (let k = 0; k < rings.length; k++) {
    const a = ringArea2(rings[k]);
    if (a === 0) return false;
    if (a > 0) polygons.push([k]);
    else if (polygons.length === 0) return false;
    else polygons[polygons.length - 1].push(k);
  }
  const { index, edgeRing, edgeStart } = edgeIndex(rings, edges);
  for (let e = 0; e < edges; e++) {
    const k = edgeRing[e];
    const r = rings[k];
    const i = edgeStart[e];
    const [ax, ay] = r[i];
    const [bx, by] = r[i + 1];
    const n = r.length - 1; // edges of this ring
    for (const f of index.search(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by))) {
      if (f <= e) continue;
      const j = edgeStart[f];
      const [cx, cy] = rings[edgeRing[f]][j];
      const [dx, dy] = rings[edgeRing[f]][j + 1];
      if (edgeRing[f] === k && (j === i + 1 || (i === 0 && j === n - 1))) {
        // Consecutive edges share a vertex; they must not fold back along each other.
        const [px, py, qx, qy, sx, sy] = j === i + 1 ? [ax, ay, bx, by, dx, dy] : [cx, cy, ax, ay, bx, by];
        if (orient(px, py, qx, qy, sx, sy) === 0 && (qx - px) * (sx - qx) + (qy - py) * (sy - qy) < 0) return false;
        continue;
      }
      if (segmentsMeet(ax, ay, bx, by, cx, cy, dx, dy)) return false;
    }
  }
  // No ring meets another: containment is decided by any one vertex.
  const inside = (p: number[], k: number) => pointInRing(p[0], p[1], rings[k]);
  for (const [outer, ...holes] of polygons) {
    for (const h of holes) {
      if (!inside(rings[h][0], outer)) return false;
      for (const g of holes) if (g !== h && inside(rings[h][0], g)) return false;
    }
  }
  for (const p of polygons) for (const q of polygons) if (p !== q && inside(rings[p[0]][0], q[0])) return false;
  return true;
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

/** Whether (px, py), on the line through a and b, lies on the segment ab. */
const onSegment = (ax: number, ay: number, bx: number, by: number, px: number, py: number) =>
  Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);

/** Whether the closed segments ab and cd have a point in common (exact for integer coordinates). */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy))
  );
}

/** Crossing-number test of a point that lies on no edge of the ring. */
function pointInRing(x: number, y: number, r: readonly number[][]): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = r[i];
    const [xj, yj] = r[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function sameRings(a: number[][][], b: number[][][]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) {
    const p = a[k];
    const q = b[k];
    if (p.length !== q.length) return false;
    for (let i = 0; i < p.length; i++) if (p[i][0] !== q[i][0] || p[i][1] !== q[i][1]) return false;
  }
  return true;
}

/** A Flatbush index of the rings' `edges` edges, with each edge's ring and first position. */
function edgeIndex(rings: number[][][], edges: number): { index: Flatbush; edgeRing: Int32Array; edgeStart: Int32Array } {
  const index = new Flatbush(edges);
  const edgeRing = new Int32Array(edges);
  const edgeStart = new Int32Array(edges);
  for (let k = 0, e = 0; k < rings.length; k++) {
    const r = rings[k];
    for (let i = 0; i + 1 < r.length; i++, e++) {
      const [ax, ay] = r[i];
      const [bx, by] = r[i + 1];
      index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
      edgeRing[e] = k;
      edgeStart[e] = i;
    }
  }
  index.finish();
  return { index, edgeRing, edgeStart };
}

/**
 * Every vertex that lies inside an edge (not at its ends) of any ring of the feature inserted into that edge, so
 * rings meet only at shared vertices. Integer coordinates make the on-edge test exact; a Flatbush index over the
 * edges keeps it near-linear (a z0 countries tile has tens of thousands of edges).
 */
export function nodeRings(rings: number[][][]): number[][][] {
  let edges = 0;
  for (const r of rings) edges += r.length - 1;
  if (edges === 0) return rings;
  const { index, edgeRing, edgeStart } = edgeIndex(rings, edges);
  // Edge → the points to insert into it.
  const inserts = new Map<number, number[][]>();
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i++) {
      const [px, py] = r[i];
      for (const e of index.search(px, py, px, py)) {
        const ring = rings[edgeRing[e]];
        const [ax, ay] = ring[edgeStart[e]];
        const [bx, by] = ring[edgeStart[e] + 1];
        if ((px === ax && py === ay) || (px === bx && py === by)) continue;
        if ((bx - ax) * (py - ay) - (by - ay) * (px - ax) !== 0) continue;
        const list = inserts.get(e);
        if (list === undefined) inserts.set(e, [[px, py]]);
        else if (!list.some((q) => q[0] === px && q[1] === py)) list.push([px, py]);
      }
    }
  }
  if (inserts.size === 0) return rings;
  const out: number[][][] = [];
  for (let k = 0, e = 0; k < rings.length; k++) {
    const r = rings[k];
    const ring: number[][] = [];
    for (let i = 0; i + 1 < r.length; i++, e++) {
      ring.push(r[i]);
      const list = inserts.get(e);
      if (list === undefined) continue;
      const [ax, ay] = r[i];
      list.sort((p, q) => Math.abs(p[0] - ax) + Math.abs(p[1] - ay) - (Math.abs(q[0] - ax) + Math.abs(q[1] - ay)));
      ring.push(...list);
    }
    ring.push(r[r.length - 1]);
    out.push(ring);
  }
  return out;
}

/**
 * Each pinch (a ring meeting itself at a vertex, which GEOS rejects) cut into its loops: a loop of the exterior's
 * winding becomes a polygon of its own, one of the other winding a hole (touching at a point, which is valid).
 */
function splitAll(rings: number[][][]): number[][][] {
  const out: number[][][] = [];
  const holes: number[][][] = [];
  for (const ring of rings) {
    for (const piece of splitPinches(ring)) {
      const a = ringArea2(piece);
      if (a === 0 || piece.length < 4) continue;
      // A new exterior: the holes gathered so far belong to the previous one.
      if (a > 0) out.push(...holes.splice(0), piece);
      else holes.push(piece);
    }
  }
  out.push(...holes);
  return out;
}

/** A closed ring cut at every vertex it meets twice into simple closed loops. */
function splitPinches(ring: number[][]): number[][][] {
  const open = ring.slice(0, -1);
  const seen = new Map<number, number>();
  for (let i = 0; i < open.length; i++) {
    const key = open[i][0] * 65536 + open[i][1];
    const first = seen.get(key);
    if (first !== undefined) {
      const loop = open.slice(first, i);
      const rest = [...open.slice(0, first), ...open.slice(i)];
      return [...splitPinches([...rest, rest[0]]), ...splitPinches([...loop, loop[0]])];
    }
    seen.set(key, i);
  }
  return [ring];
}

/**
 * polyclip-ts's union of the polygons; where it gives up on a degenerate input ("Unable to complete output ring",
 * met on Sabah's coast in tile 4/13/7 of a z10 archive), each polygon's own union, and a polygon that fails alone as
 * it is: a tile with a ring GEOS may call invalid is drawn, a tile that throws is a failed build or a 500.
 */
function robustUnion(polygons: [number, number][][][]): [number, number][][][] {
  try {
    return polygons.length === 1 ? union(polygons[0]) : union(polygons[0], ...polygons.slice(1));
  } catch {
    return polygons.flatMap((p) => {
      try {
        return union(p);
      } catch {
        return [p];
      }
    });
  }
}

function cleanOnce(rings: number[][][]): number[][][] {
  // geojson-vt gives the rings in order, each exterior followed by its holes, exteriors positive.
  const polygons: [number, number][][][] = [];
  for (const r of rings) {
    if (r.length < 4) continue;
    const ring = r.map(([x, y]) => [x, y] as [number, number]);
    if (ringArea2(r) > 0 || polygons.length === 0) polygons.push([ring]);
    else polygons[polygons.length - 1].push(ring);
  }
  if (polygons.length === 0) return [];
  const merged = robustUnion(polygons);
  const out: number[][][] = [];
  for (const poly of merged) {
    poly.forEach((ring, k) => {
      const pts: number[][] = [];
      for (const [x, y] of ring) {
        const p = [Math.round(x), Math.round(y)];
        const last = pts[pts.length - 1];
        if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
      }
      if (pts.length > 1 && (pts[0][0] !== pts[pts.length - 1][0] || pts[0][1] !== pts[pts.length - 1][1])) pts.push([...pts[0]]);
      const area = ringArea2(pts);
      if (pts.length < 4 || area === 0) return;
      // polyclip gives exteriors counter-clockwise in y-up terms: as numbers, the same sign MVT wants for y-down.
      out.push((k === 0) === area > 0 ? pts : pts.reverse());
    });
  }
  return out;
}
