// The banded ring test (lib/geo/ring-bands.ts) gives pnpoly's answer (pointInRing) for every ring
// and point: the served province rings at random points, at their own vertices' latitudes and longitudes (where an
// edge's end sits on the ray); small rings with flat, empty and one-vertex shapes, points on band boundaries; and a
// zig-zag ring, whose memory stays linear.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ProvinceIndexReader } from "../../formats/province-index.ts";
import { flattenRings, indexRings, type ProvinceRings } from "../../lib/geo/province-rings.ts";
import { pointInRing, RingBands } from "../../lib/geo/ring-bands.ts";
import { rng } from "../../bench/random.ts";

/** Whether ring r's answer at (x, y) differs between the bands and pnpoly. */
function disagrees(rings: ProvinceRings, bands: RingBands, x: number, y: number, r: number): boolean {
  return bands.pointInRing(r, x, y) !== pointInRing(rings.coords, rings.ringStart[r], rings.ringStart[r + 1], x, y);
}

describe("RingBands", () => {
  it("answers as pnpoly for the served province rings: 200,000 points near rings, at vertices and between them", () => {
    const reader = new ProvinceIndexReader(new Uint8Array(readFileSync(join(inject("artifactsDir"), "current", "province-index.bin"))));
    const rings = reader.rings;
    const bands = new RingBands(rings);
    const nRings = rings.ringProvince.length;
    const c = rings.coords;
    const r = rng(38);
    let inside = 0;
    const bad: string[] = [];
    for (let n = 0; n < 200_000; n++) {
      const ring = Math.floor(r() * nRings);
      const start = rings.ringStart[ring];
      const len = rings.ringStart[ring + 1] - start;
      const v = start + Math.floor(r() * len);
      const w = start + ((v - start + 1) % len);
      const kind = n % 4;
      // Near a vertex; exactly at a vertex's latitude; at a vertex itself; on an edge's midpoint.
      const x = kind === 3 ? (c[2 * v] + c[2 * w]) / 2 : c[2 * v] + (kind === 2 ? 0 : (r() - 0.5) * 0.2);
      const y = kind === 3 ? (c[2 * v + 1] + c[2 * w + 1]) / 2 : c[2 * v + 1] + (kind >= 1 ? 0 : (r() - 0.5) * 0.2);
      if (disagrees(rings, bands, x, y, ring)) bad.push(`ring ${ring} at ${x},${y}`);
      if (bands.pointInRing(ring, x, y)) inside++;
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(inside).toBeGreaterThan(40_000);
    expect(inside).toBeLessThan(160_000);
    // And the province locator over the bands names the province that the locator over pnpoly did (its code before
    // the bands: the rings whose boxes hold the point, in the index's order; the first province inside an odd number).
    const tree = indexRings(rings);
    let named = 0;
    for (let n = 0; n < 100_000; n++) {
      const lat = -2 + r() * 28;
      const lng = 95 + r() * 25;
      const order: number[] = [];
      const odd = new Map<number, number>();
      for (const ring of tree.search(lng, lat, lng, lat)) {
        if (!pointInRing(c, rings.ringStart[ring], rings.ringStart[ring + 1], lng, lat)) continue;
        const p = rings.ringProvince[ring];
        if (!odd.has(p)) order.push(p);
        odd.set(p, (odd.get(p) ?? 0) ^ 1);
      }
      const want = order.find((p) => odd.get(p) === 1) ?? -1;
      if (reader.provinceAt(lat, lng) !== want) bad.push(`province at ${lat},${lng}`);
      if (want >= 0) named++;
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(named).toBeGreaterThan(10_000);
  });

  it("answers as pnpoly on small rings: flat, empty, one vertex, a span too small to divide, and on band boundaries", () => {
    const circle = Array.from({ length: 101 }, (_, i) => [Math.cos((i / 100) * 2 * Math.PI) * 3 + 10, Math.sin((i / 100) * 2 * Math.PI) * 3]);
    const rings = flattenRings([
      { polygons: [[[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]]] },
      { polygons: [[[[0, 1], [3, 1], [6, 1], [0, 1]]]] }, // flat
      { polygons: [[[]]] }, // empty
      { polygons: [[[[2, 2]]]] }, // one vertex
      { polygons: [[circle]] }, // 101 vertices: 13 bands
      { polygons: [[Array.from({ length: 40 }, (_, i) => [i % 2, (i % 3) * 5e-324]).concat([[0, 0]])]] }, // a span of 1e-323
    ]);
    const bands = new RingBands(rings);
    const r = rng(7);
    for (let ring = 0; ring < rings.ringProvince.length; ring++) {
      for (let n = 0; n < 5000; n++) {
        const x = -1 + r() * 15;
        const y = -4 + r() * 9;
        expect(disagrees(rings, bands, x, y, ring), `ring ${ring} at ${x},${y}`).toBe(false);
      }
    }
    // Inside the sliver of ring 5, whose height is too small to divide into bands.
    let inSliver = 0;
    for (let x = -0.25; x <= 1.25; x += 1 / 64) {
      for (const y of [0, 5e-324]) {
        expect(disagrees(rings, bands, x, y, 5), `sliver at ${x},${y}`).toBe(false);
        if (bands.pointInRing(5, x, y)) inSliver++;
      }
    }
    expect(inSliver).toBeGreaterThan(0);
    // The circle's band boundaries (its box split in 13, as the bands are) and the doubles either side of each.
    const lo = Math.min(...circle.map((p) => p[1]));
    const hi = Math.max(...circle.map((p) => p[1]));
    for (let k = 0; k <= 13; k++) {
      const y = lo + k * ((hi - lo) / 13);
      for (const yy of [y, y + Math.abs(y) * 2 ** -52, y - Math.abs(y) * 2 ** -52]) {
        for (let x = 6; x <= 14; x += 0.25) expect(disagrees(rings, bands, x, yy, 4), `circle at ${x},${yy}`).toBe(false);
      }
    }
    expect(bands.pointInRing(0, 2, 2)).toBe(true);
    expect(bands.pointInRing(4, 10, 0)).toBe(true);
    expect(bands.pointInRing(4, 14, 0)).toBe(false);
  });

  it("keeps memory linear in the vertices: a zig-zag ring is read whole instead of copied into every band", () => {
    const n = 2000;
    const zigzag = Array.from({ length: n }, (_, i) => [i / n, i % 2 === 0 ? 0 : 10]);
    zigzag.push(zigzag[0]);
    const rings = flattenRings([{ polygons: [[zigzag]] }, { polygons: [[[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]]] }]);
    const bands = new RingBands(rings);
    expect(bands.entries).toBeLessThanOrEqual(4 * (n + 1 + 5));
    const r = rng(3);
    for (let k = 0; k < 5000; k++) {
      const x = r() * 1.2 - 0.1;
      const y = r() * 12 - 1;
      expect(disagrees(rings, bands, x, y, 0)).toBe(false);
    }
  });
});
