// Point-in-polygon on synthetic geometry: holes, multipolygons, shared edges, the quadtree clipping that cuts rings
// into pieces (checked against the unclipped ring), and rings that cross the antimeridian or wind round a pole.
import { describe, expect, it } from "vitest";
import { PieceLocator, buildPieces, clipRing, pointInRing, MAX_PIECE_VERTICES } from "../../lib/geo/pieces.ts";
import { planarRings, type FlatRing } from "../../lib/geo/planar-rings.ts";
import { rng } from "../../bench/random.ts";

/** A locator over units given as GeoJSON-like polygons ([lng, lat] rings). */
function locatorOf(units: number[][][][][]): PieceLocator {
  const rings: { ring: FlatRing; unit: number }[] = [];
  units.forEach((polygons, unit) => {
    for (const polygon of polygons) for (const ring of polygon) for (const r of planarRings(ring)) rings.push({ ring: r, unit });
  });
  return new PieceLocator(buildPieces(rings), units.length);
}

const square = (x0: number, y0: number, x1: number, y1: number): number[][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];

/** A star-shaped open ring of n vertices around (cx, cy) with radii r0 .. r0 + dr: deep concavities on every side. */
function jaggedRing(n: number, cx: number, cy: number, r0: number, dr: number, rand: () => number): number[] {
  const ring: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = r0 + dr * rand();
    ring.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return ring;
}

describe("pointInRing (even-odd)", () => {
  const ring = Float64Array.from([0, 0, 4, 0, 4, 4, 0, 4]); // open ring, 4 vertices
  it("inside, outside, and the half-open rule on edges and vertices", () => {
    expect(pointInRing(ring, 0, 4, 2, 2)).toBe(true);
    expect(pointInRing(ring, 0, 4, 5, 2)).toBe(false);
    expect(pointInRing(ring, 0, 4, -1, 2)).toBe(false);
    expect(pointInRing(ring, 0, 4, 0, 2)).toBe(true); // west edge: inside
    expect(pointInRing(ring, 0, 4, 4, 2)).toBe(false); // east edge: outside
    expect(pointInRing(ring, 0, 4, 2, 0)).toBe(true); // south edge: inside
    expect(pointInRing(ring, 0, 4, 2, 4)).toBe(false); // north edge: outside
  });
  it("a concave ring (a U shape): the notch is outside", () => {
    const u = Float64Array.from([0, 0, 3, 0, 3, 3, 2, 3, 2, 1, 1, 1, 1, 3, 0, 3]);
    expect(pointInRing(u, 0, 8, 1.5, 2)).toBe(false);
    expect(pointInRing(u, 0, 8, 0.5, 2)).toBe(true);
    expect(pointInRing(u, 0, 8, 2.5, 2)).toBe(true);
    expect(pointInRing(u, 0, 8, 1.5, 0.5)).toBe(true);
  });
});

describe("PieceLocator", () => {
  it("holes: a donut's hole is outside, its ring inside; an island in the hole belongs to its own unit", () => {
    const loc = locatorOf([[[square(0, 0, 10, 10), square(3, 3, 7, 7)]], [[square(4, 4, 6, 6)]]]);
    expect(loc.unitAt(1, 1)).toBe(0);
    expect(loc.unitAt(3.5, 3.5)).toBe(-1);
    expect(loc.unitAt(5, 5)).toBe(1);
    expect(loc.unitAt(11, 5)).toBe(-1);
  });
  it("multipolygons: every part answers for its unit", () => {
    const loc = locatorOf([[[square(0, 0, 1, 1)], [[[20, 20], [22, 20], [21, 22], [20, 20]]]], [[square(5, 5, 6, 6)]]]);
    expect(loc.unitAt(0.5, 0.5)).toBe(0);
    expect(loc.unitAt(20.5, 21)).toBe(0);
    expect(loc.unitAt(5.5, 5.5)).toBe(1);
    expect(loc.unitAt(3, 3)).toBe(-1);
  });
  it("a point on a shared edge belongs to exactly one unit: the one east of it, or north of it", () => {
    const loc = locatorOf([[[square(0, 0, 1, 1)]], [[square(1, 0, 2, 1)]], [[square(0, 1, 1, 2)]]]);
    expect(loc.unitAt(0.5, 1)).toBe(1); // on the vertical edge x = 1 between units 0 and 1
    expect(loc.unitAt(1, 0.5)).toBe(2); // on the horizontal edge y = 1 between units 0 and 2
    expect(loc.unitAt(0, 0)).toBe(0); // south-west corner of unit 0
  });
  it("a ring of 2,000 vertices cut into pieces answers exactly as the whole ring on 20,000 random points", () => {
    const rand = rng(42);
    const ring = jaggedRing(2000, 40, 20, 10, 8, rand);
    const flat = Float64Array.from(ring);
    const pieces = buildPieces([{ ring, unit: 0 }]);
    expect(pieces.unit.length).toBeGreaterThan(20);
    for (let p = 0; p < pieces.unit.length; p++) expect(pieces.start[p + 1] - pieces.start[p]).toBeLessThanOrEqual(MAX_PIECE_VERTICES);
    const loc = new PieceLocator(pieces, 1);
    let inside = 0;
    for (let i = 0; i < 20000; i++) {
      const x = 20 + 40 * rand();
      const y = 0 + 40 * rand();
      const whole = pointInRing(flat, 0, 2000, x, y);
      expect(loc.unitAt(y, x) === 0).toBe(whole);
      if (whole) inside++;
    }
    expect(inside).toBeGreaterThan(4000);
  });
  it("points on the quadtree's clip lines answer as the whole ring", () => {
    const ring = jaggedRing(400, 0, 0, 30, 40, rng(5));
    const flat = Float64Array.from(ring);
    const loc = new PieceLocator(buildPieces([{ ring, unit: 0 }]), 1);
    // The world box is halved at 0°, ±90° and ±45° of longitude and 0°, ±45° of latitude first.
    for (const line of [0, 45, -45, 22.5, -22.5, 11.25]) {
      for (let t = -80; t <= 80; t += 0.37) {
        expect(loc.unitAt(line, t) === 0).toBe(pointInRing(flat, 0, 400, t, line));
        expect(loc.unitAt(t, line) === 0).toBe(pointInRing(flat, 0, 400, line, t));
      }
    }
  });
});

describe("clipRing (one half-plane)", () => {
  it("clips a square to x ≤ 1 and y ≥ 1, crossing points on the line", () => {
    expect(clipRing([0, 0, 2, 0, 2, 2, 0, 2], 0, 1, true)).toEqual([0, 0, 1, 0, 1, 2, 0, 2]);
    expect(clipRing([0, 0, 2, 0, 2, 2, 0, 2], 1, 1, false)).toEqual([0, 1, 2, 1, 2, 2, 0, 2]);
    expect(clipRing([0, 0, 2, 0, 2, 2, 0, 2], 0, 5, false)).toEqual([]);
  });
  it("computes a crossing the same way whichever direction the edge runs", () => {
    const a = clipRing([0.1, 0.3, 2.7, 1.9, 0.1, 1.9], 0, 1.3, true);
    const b = clipRing([0.1, 1.9, 2.7, 1.9, 0.1, 0.3], 0, 1.3, true);
    const yA = a.filter((_, i) => i % 2 === 1 && a[i - 1] === 1.3);
    const yB = b.filter((_, i) => i % 2 === 1 && b[i - 1] === 1.3);
    expect(yA.sort()).toEqual(yB.sort());
  });
});

describe("planarRings: the antimeridian and the poles", () => {
  it("a ring stepping across 180° is unwrapped and repeated on the other side", () => {
    const rings = planarRings([[178, -17], [-178, -17], [-178, -15], [178, -15], [178, -17]]);
    expect(rings).toHaveLength(2);
    const loc = locatorOf([[[[[178, -17], [-178, -17], [-178, -15], [178, -15], [178, -17]]]]]);
    expect(loc.unitAt(-16, 179)).toBe(0);
    expect(loc.unitAt(-16, -179)).toBe(0);
    expect(loc.unitAt(-16, -180)).toBe(0);
    expect(loc.unitAt(-16, 0)).toBe(-1);
    expect(loc.unitAt(-16, 177)).toBe(-1);
    expect(loc.unitAt(-16, -177)).toBe(-1);
  });
  it("a ring winding round the south pole is closed along the pole; one hugging the pole is an artefact and dropped", () => {
    const around: number[][] = [];
    for (let lng = -180; lng < 180; lng += 10) around.push([lng, -60 - 5 * Math.sin((lng * Math.PI) / 90)]);
    const loc = locatorOf([[[around]]]);
    expect(loc.unitAt(-70, 0)).toBe(0);
    expect(loc.unitAt(-90, 0)).toBe(0);
    expect(loc.unitAt(-89.9999, 123)).toBe(0);
    expect(loc.unitAt(-50, 0)).toBe(-1);
    expect(loc.unitAt(-64, 179.9)).toBe(0);
    const artefact: number[][] = [];
    for (let lng = -180; lng < 180; lng += 10) artefact.push([lng, -89.999]);
    expect(planarRings(artefact)).toEqual([]);
  });
  it("a northern ring winding round the north pole is closed along the north pole", () => {
    const around: number[][] = [];
    for (let lng = 180; lng > -180; lng -= 15) around.push([lng, 80]);
    const loc = locatorOf([[[around]]]);
    expect(loc.unitAt(85, 40)).toBe(0);
    expect(loc.unitAt(90, 0)).toBe(0);
    expect(loc.unitAt(75, 40)).toBe(-1);
  });
});
