import { readFileSync } from "node:fs";
import { join } from "node:path";
import { booleanPointInPolygon, point } from "@turf/turf";
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from "geojson";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import {
  IDW_DEFAULTS,
  interpolateIdw,
  interpolateToCells,
  nearestStationDistancesKm,
  stationNeighbours,
} from "../../pipeline/grid/interpolate.ts";

const f64 = (...v: number[]) => Float64Array.from(v);
const at = (lat: number, lng: number) => [f64(lat), f64(lng)] as const;

/** One-month interpolation at one target; values one per station. */
function idw1(stLats: number[], stLngs: number[], values: number[], target: readonly [Float64Array, Float64Array], opts = {}): number {
  return interpolateToCells(f64(...stLats), f64(...stLngs), f64(...values), 1, target[0], target[1], opts)[0];
}

describe("IDW hand-computed cases", () => {
  it("one station in range gives its value", () => {
    expect(idw1([14], [100.5], [-1.25], at(14.3, 100.9))).toBe(-1.25);
  });

  it("two equidistant stations give their mean", () => {
    expect(idw1([0, 0], [-1, 1], [1, -0.5], at(0, 0))).toBe(0.25);
  });

  it("no station within the limit gives NaN; the default limit is 250 km", () => {
    expect(IDW_DEFAULTS.maxDistanceKm).toBe(250);
    // 3° of latitude = 333.6 km
    expect(idw1([3], [0], [1], at(0, 0))).toBeNaN();
    expect(idw1([3], [0], [1], at(0, 0), { maxDistanceKm: 334 })).toBe(1);
    expect(idw1([2], [0], [1], at(0, 0))).toBe(1); // 222.4 km: in range
  });

  it("weights 1/d² and cuts at the N nearest stations", () => {
    // distances d, 2d, 3d along a meridian; values 1, 2, 3
    const lats = [0.1, 0.2, 0.3];
    const lngs = [0, 0, 0];
    const v = [1, 2, 3];
    expect(idw1(lats, lngs, v, at(0, 0), { maxStations: 2 })).toBeCloseTo((1 + 2 / 4) / (1 + 1 / 4), 6); // 1.2
    expect(idw1(lats, lngs, v, at(0, 0), { maxStations: 3 })).toBeCloseTo((1 + 2 / 4 + 3 / 9) / (1 + 1 / 4 + 1 / 9), 6);
    expect(idw1(lats, lngs, v, at(0, 0), { maxStations: 1 })).toBe(1);
    expect(idw1(lats, lngs, v, at(0, 0), { maxStations: 2, power: 1 })).toBeCloseTo((1 + 2 / 2) / (1 + 1 / 2), 6); // 4/3
  });

  it("the N nearest are taken among stations with a value that month", () => {
    // station 0 missing: stations 1 and 2 (2d, 3d) are used: (2/4 + 3/9) / (1/4 + 1/9) = 30/13
    expect(idw1([0.1, 0.2, 0.3], [0, 0, 0], [NaN, 2, 3], at(0, 0), { maxStations: 2 })).toBeCloseTo(30 / 13, 6);
  });

  it("clamps ±Inf (and beyond-range z) to ±3.5 before weighting", () => {
    expect(idw1([0, 0], [-1, 1], [Infinity, 0], at(0, 0))).toBe(1.75);
    expect(idw1([0, 0], [-1, 1], [-Infinity, -4], at(0, 0))).toBe(-3.5);
    expect(idw1([0, 0], [-1, 1], [Infinity, 0], at(0, 0), { clampZ: Infinity })).toBe(Infinity);
  });

  it("a station at the cell centre gives exactly its value", () => {
    expect(idw1([0, 0, 0.5], [0, 1, 0], [-0.7, 2, 2], at(0, 0))).toBeCloseTo(-0.7, 7);
  });

  it("works month by month over a [station][month] layout and reuses the neighbour lists", () => {
    // two stations equidistant from the cell, 3 months; month 1 has only station 1, month 2 has none
    const values = f64(1, NaN, NaN, -1, 0.5, NaN);
    const nb = stationNeighbours(f64(0, 0), f64(-1, 1), f64(0), f64(0));
    expect(Array.from(nb.offsets)).toEqual([0, 2]);
    const out = interpolateIdw(nb, values, 3);
    expect(out[0]).toBe(0);
    expect(out[1]).toBe(0.5);
    expect(out[2]).toBeNaN();
    expect(() => interpolateIdw(nb, f64(1, 2), 3)).toThrow("interpolateIdw: 2 station values, expected nStations*nMonths = 6");
  });
});

describe("station coverage of the Thai 0.25° land cells (real GHCN-D station list)", () => {
  it("every cell centre inside a province has a station within 197.0 km, inside the 250 km default", () => {
    const dir = dataDir();
    const csv = readFileSync(join(dir, "climate/ghcnd-thailand/_stations.csv"), "utf8").trim().split("\n").slice(1);
    const lats: number[] = [];
    const lngs: number[] = [];
    for (const line of csv) {
      const m = /^[^,]+,"[^"]*",([-\d.]+),([-\d.]+)/.exec(line);
      if (!m) throw new Error(`unparsed station line ${line}`);
      lats.push(Number(m[1]));
      lngs.push(Number(m[2]));
    }
    expect(lats.length).toBe(53);
    const provinces = JSON.parse(
      readFileSync(join(dir, "boundaries/opengisdata-thailand/provinces.geojson"), "utf8"),
    ) as FeatureCollection<Polygon | MultiPolygon>;
    const cellLats: number[] = [];
    const cellLngs: number[] = [];
    for (let lat = 5.625; lat < 20.5; lat += 0.25) {
      for (let lng = 97.375; lng < 105.7; lng += 0.25) {
        const p = point([lng, lat]);
        if (provinces.features.some((f: Feature<Polygon | MultiPolygon>) => booleanPointInPolygon(p, f))) {
          cellLats.push(lat);
          cellLngs.push(lng);
        }
      }
    }
    expect(cellLats.length).toBe(694);
    const nearest = nearestStationDistancesKm(f64(...lats), f64(...lngs), f64(...cellLats), f64(...cellLngs));
    const max = Math.max(...nearest);
    expect(max).toBeCloseTo(197.0, 1); // the Narathiwat coast, nearest station Hat Yai
    expect(max).toBeLessThan(IDW_DEFAULTS.maxDistanceKm);
  });
});
