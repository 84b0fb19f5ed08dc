// Each ring's edges bucketed by horizontal bands of its bounding box, so that a ray test reads only the few edges
// that can cross the point's latitude instead of the whole ring (a province ring has up to ~20,000 vertices).
// The test is pnpoly's (pointInRing, below) edge by edge, with the same arithmetic: an edge left out lies
// wholly above or below the latitude, and pnpoly skips it too, so the answer is the same bit for bit. An edge is in
// every band from its lower end's to its upper end's, each found by the same monotone expression as a query's band,
// so no edge that spans the query's latitude is missed.
import type { ProvinceRings } from "./province-rings.ts";

/** Whether the ray east of (x, y) crosses the edge from vertex j to vertex i: pnpoly's test, one edge. */
export function edgeCrossesRay(coords: Float64Array, i: number, j: number, x: number, y: number): boolean {
  const yi = coords[2 * i + 1];
  const yj = coords[2 * j + 1];
  if (yi > y === yj > y) return false;
  const xi = coords[2 * i];
  return x < ((coords[2 * j] - xi) * (y - yi)) / (yj - yi) + xi;
}

/**
 * Even-odd ray casting (W. R. Franklin's pnpoly) on one ring of the flat coordinate array. RingBands reads only a ring's
 * edges near the point, with the same answer.
 */
export function pointInRing(coords: Float64Array, start: number, end: number, x: number, y: number): boolean {
  let inside = false;
  for (let i = start, j = end - 1; i < end; j = i++) if (edgeCrossesRay(coords, i, j, x, y)) inside = !inside;
  return inside;
}

/** Bands per edge of a ring: about 11 edges a band on the served rings (an edge sits in each band its span meets). */
const EDGES_PER_BAND = 8;
/**
 * Band entries a ring may hold per edge: a ring whose edges span many bands each (a zig-zag: vertices² entries) is
 * read whole instead, as one band, so memory stays linear in the vertices whatever the boundary file holds.
 */
const MAX_ENTRIES_PER_EDGE = 4;

/** Band k (clamped to 0..n-1) of latitude y among n bands of `height` from `low`: one monotone expression for all. */
function bandOf(y: number, low: number, height: number, n: number): number {
  const k = Math.floor((y - low) / height);
  return k < 0 ? 0 : k >= n ? n - 1 : k;
}

export class RingBands {
  /** Ring r's bands are bandStart[firstBand[r]] .. ; length nRings + 1. */
  private readonly firstBand: Uint32Array;
  private readonly minY: Float64Array;
  private readonly bandHeight: Float64Array;
  /** Band b's edges are edges[bandStart[b]] .. edges[bandStart[b + 1] - 1]. */
  private readonly bandStart: Uint32Array;
  /** An edge by its second vertex i: the edge from the vertex before it (the ring's last for its first) to i. */
  private readonly edges: Uint32Array;

  constructor(private readonly rings: ProvinceRings) {
    const { coords, ringStart } = rings;
    const nRings = ringStart.length - 1;
    this.firstBand = new Uint32Array(nRings + 1);
    this.minY = new Float64Array(nRings);
    this.bandHeight = new Float64Array(nRings);
    for (let r = 0; r < nRings; r++) {
      const start = ringStart[r];
      const end = ringStart[r + 1];
      let lo = Infinity;
      let hi = -Infinity;
      for (let v = start; v < end; v++) {
        const y = coords[2 * v + 1];
        if (y < lo) lo = y;
        if (y > hi) hi = y;
      }
      let n = Math.max(1, Math.ceil((end - start) / EDGES_PER_BAND));
      let height = (hi - lo) / n;
      if (!(height > 0)) {
        // A flat or empty ring, or a span too small to divide: one band.
        n = 1;
        height = 1;
      } else {
        let entries = 0;
        for (let i = start; i < end; i++) {
          const yi = coords[2 * i + 1];
          const yj = coords[2 * (i === start ? end - 1 : i - 1) + 1];
          entries += bandOf(Math.max(yi, yj), lo, height, n) - bandOf(Math.min(yi, yj), lo, height, n) + 1;
        }
        if (entries > MAX_ENTRIES_PER_EDGE * (end - start)) {
          n = 1;
          height = 1;
        }
      }
      this.minY[r] = lo === Infinity ? 0 : lo;
      this.bandHeight[r] = height;
      this.firstBand[r + 1] = this.firstBand[r] + n;
    }
    // Two passes over the edges: count each band's, then place them.
    const counts = new Uint32Array(this.firstBand[nRings] + 1);
    this.forEachEdgeBand((band) => counts[band + 1]++);
    for (let b = 1; b < counts.length; b++) counts[b] += counts[b - 1];
    this.bandStart = counts.slice();
    this.edges = new Uint32Array(counts[counts.length - 1]);
    this.forEachEdgeBand((band, i) => (this.edges[counts[band]++] = i));
  }

  /** Band entries in all: about 1.4 per edge on the served rings, at most MAX_ENTRIES_PER_EDGE (tests, reports). */
  get entries(): number {
    return this.edges.length;
  }

  /** The band of ring r holding latitude y: its bands are clamped at the ring's ends. */
  private band(r: number, y: number): number {
    return this.firstBand[r] + bandOf(y, this.minY[r], this.bandHeight[r], this.firstBand[r + 1] - this.firstBand[r]);
  }

  private forEachEdgeBand(visit: (band: number, i: number) => void): void {
    const { coords, ringStart } = this.rings;
    for (let r = 0; r + 1 < ringStart.length; r++) {
      const start = ringStart[r];
      const end = ringStart[r + 1];
      for (let i = start; i < end; i++) {
        const j = i === start ? end - 1 : i - 1;
        const yi = coords[2 * i + 1];
        const yj = coords[2 * j + 1];
        const to = this.band(r, Math.max(yi, yj));
        for (let b = this.band(r, Math.min(yi, yj)); b <= to; b++) visit(b, i);
      }
    }
  }

  /** pnpoly's answer for ring r (pointInRing above), from the edges of the point's band only. */
  pointInRing(r: number, x: number, y: number): boolean {
    const coords = this.rings.coords;
    const start = this.rings.ringStart[r];
    const end = this.rings.ringStart[r + 1];
    const b = this.band(r, y);
    let inside = false;
    for (let e = this.bandStart[b], last = this.bandStart[b + 1]; e < last; e++) {
      const i = this.edges[e];
      if (edgeCrossesRay(coords, i, i === start ? end - 1 : i - 1, x, y)) inside = !inside;
    }
    return inside;
  }
}
