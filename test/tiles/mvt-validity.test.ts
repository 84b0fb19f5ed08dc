// Province tiles hold valid polygons at every zoom (OGC simple-features rules, as GEOS checks them): every ring has
// at least four positions and no zero area, no ring crosses or touches itself, rings of a polygon do not cross each
// other (touching at a point is allowed), holes lie inside their exterior. Tiles are read back with
// @mapbox/vector-tile and checked with turf (kinks, line intersections, point-in-polygon); before the clean-up in
// tiles/vector.ts, 64 of 86 tiles failed this (e.g. 5/24/14, 5/24/15).
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { booleanPointInPolygon, kinks, lineIntersect, lineString, polygon } from "@turf/turf";
import { PbfReader } from "pbf";
import { PMTiles } from "pmtiles";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { LocalFileSource } from "../../tiles/pmtiles-source.ts";
import { alreadyValid, validPolygonRings } from "../../tiles/mvt-rings.ts";
import { encodeVectorTile, provincesFromRings, provincesGeoJson, vectorIndex } from "../../tiles/vector.ts";
import { ProvinceIndexReader, readProvincesJson } from "../../formats/province-index.ts";
import { readFileSync } from "node:fs";

const area2 = (r: number[][]) => r.reduce((a, p, i) => a + (r[(i + r.length - 1) % r.length][0] * p[1] - p[0] * r[(i + r.length - 1) % r.length][1]), 0);

/** Problems of one MVT polygon feature's rings (exteriors positive, each followed by its holes). */
export function polygonProblems(rings: number[][][]): string[] {
  const problems: string[] = [];
  const polys: number[][][][] = [];
  for (const r of rings) {
    if (r.length < 4) problems.push(`ring of ${r.length} positions`);
    else if (area2(r) === 0) problems.push("ring without area");
    if (area2(r) > 0 || polys.length === 0) polys.push([r]);
    else polys[polys.length - 1].push(r);
  }
  for (const poly of polys) {
    for (const r of poly) {
      if (r.length < 4 || area2(r) === 0) continue;
      if (kinks(polygon([r])).features.length > 0) problems.push(`ring crosses or touches itself at ${JSON.stringify(kinks(polygon([r])).features[0].geometry.coordinates)}`);
    }
    const [outer, ...holes] = poly;
    for (let i = 0; i < poly.length; i++) {
      for (let j = i + 1; j < poly.length; j++) {
        // Rings may touch at a point (a vertex of one on the other); a meeting at no vertex is a crossing, and more
        // than one meeting point disconnects the polygon's interior.
        if (poly[i].length < 2 || poly[j].length < 2) continue;
        const vertices = new Set([...poly[i], ...poly[j]].map((p) => `${p[0]},${p[1]}`));
        const meets = lineIntersect(lineString(poly[i]), lineString(poly[j])).features.map((f) => `${f.geometry.coordinates[0]},${f.geometry.coordinates[1]}`);
        if (meets.some((m) => !vertices.has(m))) problems.push(`rings ${i} and ${j} cross`);
        else if (new Set(meets).size > 1) problems.push(`rings ${i} and ${j} touch at ${new Set(meets).size} points`);
      }
    }
    for (const h of holes) {
      if (outer.length < 4 || area2(outer) === 0) break;
      const inside = h.some((p) => booleanPointInPolygon(p, polygon([outer]), { ignoreBoundary: true }));
      if (!inside) problems.push("hole outside its exterior");
    }
  }
  return problems;
}

describe("valid MVT polygons", () => {
  it("the clean-up splits a pinched ring and drops collapsed ones", () => {
    // A figure eight through (2, 2) after rounding, and a ring collapsed to a line.
    const eight = [[0, 0], [2, 2], [4, 0], [4, 4], [2, 2], [0, 4], [0, 0]];
    expect(polygonProblems([eight]).length).toBeGreaterThan(0);
    const cleaned = validPolygonRings([eight, [[5, 5], [6, 6], [7, 7], [5, 5]]]);
    expect(polygonProblems(cleaned)).toEqual([]);
    expect(cleaned.length).toBe(2);
    expect(cleaned.every((r) => area2(r) > 0)).toBe(true);
  });

  it("rings valid as they are skip the union; a contact, a fold back or a misplaced ring sends them to it", () => {
    const square = (x: number, y: number, s: number, hole = false) => {
      const r = [[x, y], [x + s, y], [x + s, y + s], [x, y + s], [x, y]];
      return hole ? r.reverse() : r;
    };
    // An exterior (positive in MVT's y-down terms) with a hole, and a second polygon apart.
    const ok = [square(0, 0, 10), square(2, 2, 3, true), square(20, 0, 5)];
    expect(ok.map(area2).map(Math.sign)).toEqual([1, -1, 1]);
    expect(alreadyValid(ok)).toBe(true);
    expect(validPolygonRings(ok)).toBe(ok);
    // Rings of under four positions are left out first, as the union leaves them out.
    expect(validPolygonRings([...ok, [[1, 1], [2, 2], [1, 1]]])).toEqual(ok);
    const notValid = {
      "hole touching its exterior": [square(0, 0, 10), square(0, 2, 3, true)],
      "hole outside its exterior": [square(0, 0, 10), square(12, 2, 3, true)],
      "hole inside another hole": [square(0, 0, 10), square(1, 1, 6, true), square(2, 2, 2, true)],
      "polygons overlapping": [square(0, 0, 10), square(5, 5, 10)],
      "polygon inside another": [square(0, 0, 10), square(2, 2, 2)],
      "polygons sharing an edge": [square(0, 0, 10), square(10, 0, 10)],
      "ring crossing itself": [[[0, 0], [4, 4], [4, 0], [0, 4], [0, 0]]],
      "ring folding back on itself": [[[0, 0], [4, 0], [4, 4], [4, 2], [4, 6], [0, 4], [0, 0]]],
      "ring without area": [[[0, 0], [0, 4], [0, 8], [0, 0]]],
      "first ring a hole": [square(0, 0, 10, true)],
    };
    for (const [what, rings] of Object.entries(notValid)) {
      expect(alreadyValid(rings), what).toBe(false);
      expect(polygonProblems(validPolygonRings(rings)), what).toEqual([]);
    }
  });

  it("a tile where polyclip-ts gives up (Sabah in 4/13/7 of a z10 index, as production builds it) still encodes", () => {
    // Before: "Unable to complete output ring" from the union: the whole build fell back to the station grid, and the
    // server's tile route would have answered 500.
    const dir = join(inject("artifactsDir"), "current");
    const index = new ProvinceIndexReader(new Uint8Array(readFileSync(join(dir, "province-index.bin"))));
    const meta = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    const fc = provincesGeoJson(provincesFromRings(index.rings, meta), { indices: [], months: [], value: () => NaN });
    const bytes = encodeVectorTile(vectorIndex(fc, 10), "provinces", 4, 13, 7);
    const layer = new VectorTile(new PbfReader(bytes!)).layers.provinces;
    const names = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.nameEn);
    expect(names).toContain("Sabah");
  });

  it("every province tile, z2 to the archive's max zoom", async () => {
    const src = new LocalFileSource(join(inject("artifactsDir"), "current", "tiles-provinces.pmtiles"));
    onTestFinished(() => src.close());
    const p = new PMTiles(src);
    const h = await p.getHeader();
    let tiles = 0;
    const bad: string[] = [];
    for (let z = 2; z <= h.maxZoom; z++) {
      const n = 2 ** z;
      const x0 = Math.floor(((h.minLon + 180) / 360) * n);
      const x1 = Math.floor(((h.maxLon + 180) / 360) * n);
      const yOf = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
      for (let x = x0; x <= x1; x++) {
        for (let y = yOf(h.maxLat); y <= yOf(h.minLat); y++) {
          const t = await p.getZxy(z, x, y);
          if (!t) continue;
          let data = new Uint8Array(t.data);
          if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
          const layer = new VectorTile(new PbfReader(data)).layers.provinces;
          if (!layer) continue;
          tiles++;
          for (let i = 0; i < layer.length; i++) {
            const f = layer.feature(i);
            if (f.type !== 3) continue;
            const problems = polygonProblems(f.loadGeometry().map((r) => r.map((pt) => [pt.x, pt.y])));
            if (problems.length) bad.push(`${z}/${x}/${y} ${f.properties.nameEn}: ${problems[0]}`);
          }
        }
      }
    }
    expect(tiles).toBeGreaterThan(80);
    expect(bad).toEqual([]);
  }, 120_000);
});
