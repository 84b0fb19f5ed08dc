// Distance to the coast: hand-computed distances on synthetic coastlines, the antimeridian cut, the pole artefact,
// the index search against a brute-force scan of every real coastline chunk, and the tolerance of the per-edge
// planar choice against dense sampling.
import { describe, expect, it } from "vitest";
import { buildCoastline, coastDistanceKm, type Coastline } from "../../lib/geo/coast.ts";
import { loadNaturalEarth } from "../../lib/geo/natural-earth.ts";
import { EARTH_RADIUS_KM, haversineKm, polylineDistanceKm } from "../../lib/geo/sphere.ts";
import { rng } from "../../bench/random.ts";

const KM_PER_DEG = (EARTH_RADIUS_KM * Math.PI) / 180; // 111.19508 km: one degree of a great circle

/** Spherical law of cosines: an independent formula to check haversine against. */
function cosineLawKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const c = Math.sin(lat1 * r) * Math.sin(lat2 * r) + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.cos((lng2 - lng1) * r);
  return EARTH_RADIUS_KM * Math.acos(Math.min(1, c));
}

describe("haversineKm", () => {
  it("1° along a meridian is 111.195 km; agrees with the law of cosines far apart; wraps longitude", () => {
    expect(haversineKm(0, 0, 1, 0)).toBeCloseTo(KM_PER_DEG, 9);
    expect(haversineKm(10, 170, 10, -170)).toBeCloseTo(cosineLawKm(10, 170, 10, 190), 6);
    expect(haversineKm(13.75, 100.5, 51.92, 4.48)).toBeCloseTo(cosineLawKm(13.75, 100.5, 51.92, 4.48), 6);
    expect(haversineKm(90, 0, -90, 0)).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
  });
});

describe("coastDistanceKm on synthetic coastlines", () => {
  // An east-west coast along 10°N from 0° to 10°E (straight in lng/lat, the way Natural Earth draws edges).
  const coast = buildCoastline([[[0, 10], [10, 10]]]);
  it("a point 1° of latitude south of the segment is exactly 1° of arc away: 111.195 km", () => {
    expect(coastDistanceKm(coast, 9, 5)).toBeCloseTo(KM_PER_DEG, 6);
    expect(coastDistanceKm(coast, 11, 2.5)).toBeCloseTo(KM_PER_DEG, 6);
    expect(coastDistanceKm(coast, 10, 5)).toBe(0);
  });
  it("beyond the segment's end the nearest point is the end vertex", () => {
    expect(coastDistanceKm(coast, 12, 12)).toBeCloseTo(cosineLawKm(12, 12, 10, 10), 6);
    expect(coastDistanceKm(coast, 10, -3)).toBeCloseTo(cosineLawKm(10, -3, 10, 0), 6);
  });
  it("a coast crossing the antimeridian is cut at ±180 and measured from both sides", () => {
    const c = buildCoastline([[[179, 0], [-179, 0]]]);
    expect(c.chunkFrom.length).toBe(2);
    expect(coastDistanceKm(c, 1, -180)).toBeCloseTo(KM_PER_DEG, 6);
    expect(coastDistanceKm(c, -1, 179.5)).toBeCloseTo(KM_PER_DEG, 6);
    expect(coastDistanceKm(c, -1, -179.5)).toBeCloseTo(KM_PER_DEG, 6);
    expect(coastDistanceKm(c, 0, 170)).toBeCloseTo(cosineLawKm(0, 170, 0, 179), 6);
    // An edge from exactly 180 to exactly -180 (same meridian) is cut without dividing by zero.
    const d = buildCoastline([[[179, 70], [180, 71], [-180, 72], [-179, 73]]]);
    expect(coastDistanceKm(d, 71.5, 179.9)).toBeGreaterThan(0);
    expect(coastDistanceKm(d, 71.5, 179.9)).toBeLessThan(10);
  });
  it("near the pole and far away: distances along meridians are exact", () => {
    const polar = buildCoastline([[[-180, -70], [-90, -70], [0, -70], [90, -70], [180, -70]]]);
    expect(coastDistanceKm(polar, -90, 0)).toBeCloseTo(20 * KM_PER_DEG, 6);
    expect(coastDistanceKm(polar, -80, 45)).toBeCloseTo(10 * KM_PER_DEG, 6);
    expect(coastDistanceKm(coast, -30, 5)).toBeCloseTo(40 * KM_PER_DEG, 6);
  });
  it("polylines hugging a pole are stitching artefacts, not coast; an empty coastline is infinitely far", () => {
    const c = buildCoastline([[[-180, -89.999], [0, -89.999], [180, -89.999]]]);
    expect(c.chunkFrom.length).toBe(0);
    expect(coastDistanceKm(c, 0, 0)).toBe(Infinity);
  });
});

describe("coastDistanceKm on the Natural Earth 1:10m coastline", () => {
  const ne = loadNaturalEarth("10m");
  const coast = buildCoastline(ne.coastline);
  const brute = (c: Coastline, lat: number, lng: number) => {
    let best = Infinity;
    for (let k = 0; k < c.chunkFrom.length; k++) best = Math.min(best, polylineDistanceKm(lat, lng, c.coords, c.chunkFrom[k], c.chunkTo[k]));
    return best;
  };
  it("the index search finds the same minimum as a scan of every chunk (random points, poles, antimeridian)", () => {
    const rand = rng(9);
    const points: [number, number][] = [[90, 0], [-90, 0], [0, -180], [71.5, 179.99], [-16.8, -179.99], [-48.8767, -123.3933]];
    for (let i = 0; i < 60; i++) points.push([(Math.asin(2 * rand() - 1) * 180) / Math.PI, rand() * 360 - 180]);
    for (const [lat, lng] of points) expect(coastDistanceKm(coast, lat, lng)).toBe(brute(coast, lat, lng));
  });
  it("the per-edge planar choice of the nearest point costs at most 0.04 % against dense sampling", () => {
    // Reference: each edge sampled at 2,000 points, plus the vertices.
    const dense = (lat: number, lng: number, from: number, to: number) => {
      let best = Infinity;
      for (let v = from; v < to; v++) {
        const [ax, ay, bx, by] = [coast.coords[2 * v], coast.coords[2 * v + 1], coast.coords[2 * v + 2], coast.coords[2 * v + 3]];
        for (let i = 0; i <= 2000; i++) best = Math.min(best, haversineKm(lat, lng, ay + ((by - ay) * i) / 2000, ax + ((bx - ax) * i) / 2000));
      }
      return best;
    };
    const rand = rng(21);
    let worst = 0;
    for (let i = 0; i < 40; i++) {
      const k = Math.floor(rand() * coast.chunkFrom.length);
      const [from, to] = [coast.chunkFrom[k], coast.chunkTo[k]];
      // Points from 1 km to 1,500 km off a random chunk, at every latitude the chunks reach (Antarctica included).
      const v = from + Math.floor(rand() * (to - from));
      const dist = 10 ** (rand() * 3.2);
      const lat = Math.max(-89.9, Math.min(89.9, coast.coords[2 * v + 1] + (rand() - 0.5) * (dist / KM_PER_DEG)));
      const lng = coast.coords[2 * v] + (rand() - 0.5) * (dist / KM_PER_DEG);
      const approx = polylineDistanceKm(lat, lng, coast.coords, from, to);
      const exact = dense(lat, lng, from, to);
      expect(approx).toBeGreaterThanOrEqual(exact - 1e-6 - exact * 1e-6); // a real distance: never below the minimum (up to sampling)
      worst = Math.max(worst, (approx - exact) / exact);
    }
    expect(worst).toBeLessThan(0.0004);
  });
});
