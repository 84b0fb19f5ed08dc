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

/**
 * Every vertex that lies inside an edge (not at its ends) of any ring of the feature inserted into that edge, so
 * rings meet only at shared vertices. Integer coordinates make the on-edge test exact; a Flatbush index over the
 * edges keeps it near-linear (a z0 countries tile has tens of thousands of edges).
 */
export function nodeRings(rings: number[][][]): number[][][] {
  let edges = 0;
  for (const r of rings) edges += r.length - 1;
  if (edges === 0) return rings;
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
