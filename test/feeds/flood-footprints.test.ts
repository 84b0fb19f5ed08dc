// Flood footprints: the footprint index (writer and reader side by side, refusals), the flood scoring functions
// (anchors, weights, confidence), and the real DFO polygons against turf's point-in-polygon and the Global Flood
// Database's own KML outlines, read here with plain text — not through the adapter under test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { booleanPointInPolygon, point, polygon } from "@turf/turf";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { FootprintIndex, writeFootprintIndex, type FootprintInput } from "../../formats/footprint-index.ts";
import { FLOOD_FREQUENCY_ANCHORS, floodConfidence, floodEventWeight, floodFrequencyScore, recentFloodFloor } from "../../lib/feed-risk/flood.ts";
import { readDfoFootprints, readGfdMappedEvents } from "../../pipeline/feeds/dfo-footprints.ts";
import { dataDir } from "../../lib/config.ts";

const aligned = (b: Uint8Array) => {
  const out = new Uint8Array(new ArrayBuffer(b.length));
  out.set(b);
  return out;
};
const open = (fps: FootprintInput[]) => new FootprintIndex(aligned(writeFootprintIndex(fps)));
const ids = (c: { count: number; index: Int32Array }) => Array.from(c.index.subarray(0, c.count)).sort((a, b) => a - b);

// A 2° square with a 1° hole, a disc limited to Pakistan, and a small square far away.
const SQUARE: FootprintInput = { rings: [[[10, 10], [12, 10], [12, 12], [10, 12], [10, 10]], [[10.5, 10.5], [11.5, 10.5], [11.5, 11.5], [10.5, 11.5], [10.5, 10.5]]], countries: [], weight: 1.5, mapped: true };
const DISC: FootprintInput = { disc: { lng: 68, lat: 27, radiusKm: 50 }, countries: ["PAK"], weight: 0.5 };
const FAR: FootprintInput = { rings: [[[-60, -30], [-59, -30], [-59, -29]]], countries: [], weight: 2 };

describe("footprint index format", () => {
  it("round-trips footprints: covering inside, in the hole, within and beyond the buffer", () => {
    const fp = open([SQUARE, DISC, FAR]);
    expect(fp.n).toBe(3);
    expect(Array.from(fp.weight)).toEqual([1.5, 0.5, 2]);
    expect([fp.mapped(0), fp.mapped(1), fp.isDisc(1), fp.discRadiusKm(1)]).toEqual([true, false, true, 50]);
    expect(ids(fp.covering(10.2, 10.2, 10, null))).toEqual([0]);
    // The hole is not covered by the polygon: 0.5° (≈ 54 km) from its nearest edge.
    expect(ids(fp.covering(11, 11, 10, null))).toEqual([]);
    expect(ids(fp.covering(11, 11, 60, null))).toEqual([0]);
    // 0.05° east of the square (5.4 km at 11°N): within a 10 km buffer, not within 5 km.
    const c = fp.covering(11.9, 12.05, 10, null);
    expect(ids(c)).toEqual([0]);
    expect(c.distanceKm[0]).toBeCloseTo(0.05 * 111.32 * Math.cos((11.9 * Math.PI) / 180), 1);
    expect(ids(fp.covering(11.9, 12.05, 5, null))).toEqual([]);
    // The disc counts only in its country.
    expect(ids(fp.covering(27.2, 68.2, 0, "PAK"))).toEqual([1]);
    expect(ids(fp.covering(27.2, 68.2, 0, "IND"))).toEqual([]);
    expect(ids(fp.covering(27.2, 68.2, 0, null))).toEqual([]);
    expect(ids(fp.covering(-29.9, -59.2, 0, "ARG"))).toEqual([2]);
    expect(ids(fp.covering(-29.7, -59.8, 0, "ARG"))).toEqual([]);
  });

  it("an empty index answers nothing; corrupt bytes are refused with the reason", () => {
    expect(open([]).covering(0, 0, 10, null).count).toBe(0);
    const good = writeFootprintIndex([SQUARE, DISC]);
    const header = JSON.parse(new TextDecoder().decode(good.subarray(12, 12 + new DataView(good.buffer).getUint32(8, true)))) as { n: number };
    expect(header.n).toBe(2);
    const headLen = (12 + new DataView(good.buffer).getUint32(8, true) + 7) & ~7;
    const bad = (mutate: (b: Uint8Array, dv: DataView) => void) => {
      const b = aligned(good);
      mutate(b, new DataView(b.buffer));
      return () => new FootprintIndex(b);
    };
    expect(bad((_, dv) => dv.setUint32(0, 0, true))).toThrow(/magic/);
    expect(bad((_, dv) => dv.setUint32(4, 9, true))).toThrow(/format version 9/);
    // weights follow bbox (4n doubles) and disc (3n doubles)
    expect(bad((_, dv) => dv.setFloat32(headLen + 8 * 8 + 8 * 6, NaN, true))).toThrow(/footprint 0: weight NaN/);
    expect(bad((_, dv) => dv.setFloat64(headLen + 8 * 8 + 8 * 5, -3, true))).toThrow(/footprint 1: disc radius -3 km/);
    expect(() => new FootprintIndex(aligned(good.subarray(0, good.length - 8)))).toThrow(/size|shorter/);
    expect(() => writeFootprintIndex([{ countries: [], weight: 1 }])).toThrow(/either rings or a disc/);
    expect(() => writeFootprintIndex([{ ...SQUARE, weight: Infinity }])).toThrow(/weight/);
  });
});

describe("flood scoring", () => {
  it("the frequency score passes through its anchors, rises with λ and stays within 0..100", () => {
    for (const [rate, score] of FLOOD_FREQUENCY_ANCHORS) expect(floodFrequencyScore(rate)).toBe(score);
    expect(floodFrequencyScore(0)).toBe(0);
    expect(floodFrequencyScore(NaN)).toBe(0);
    expect(floodFrequencyScore(0.01)).toBe(15);
    // log-linear between 1/50 and 1/10: the geometric mean scores halfway.
    expect(floodFrequencyScore(Math.sqrt(1 / 500))).toBe(45);
    expect(floodFrequencyScore(50)).toBe(100);
    let prev = -1;
    for (let r = 0; r < 3; r += 0.001) {
      const s = floodFrequencyScore(r);
      expect(s).toBeGreaterThanOrEqual(prev);
      prev = s;
    }
  });

  it("weights: DFO severity class ×1.5 when deadly or displacing; GDACS alert green 0.5, orange 1, red 2", () => {
    expect(floodEventWeight({ source: "DFO", severity: 1 })).toBe(1);
    expect(floodEventWeight({ source: "DFO", severity: 2, dead: 1985 })).toBe(3);
    expect(floodEventWeight({ source: "DFO", severity: 1.5, dead: 10, displaced: 100_000 })).toBe(2.25);
    expect(floodEventWeight({ source: "DFO", severity: NaN })).toBe(1);
    expect([1, 2, 3].map((a) => floodEventWeight({ source: "GDACS", severity: a }))).toEqual([0.5, 1, 2]);
    expect(recentFloodFloor([])).toBe(0);
    expect(recentFloodFloor([0.5])).toBe(30);
    expect(recentFloodFloor([0.5, 1])).toBe(60);
  });

  it("confidence: full record and drawn polygons highest; discs and no event lower; short records scale down", () => {
    expect(floodConfidence(41.4, 3, 0, true).confidence).toBe(0.9);
    expect(floodConfidence(41.4, 3, 0, false).confidence).toBe(0.8);
    expect(floodConfidence(41.4, 0, 1, false).confidence).toBe(0.5);
    expect(floodConfidence(41.4, 0, 0, false)).toMatchObject({ confidence: 0.6, confidenceLabel: "high" });
    expect(floodConfidence(6, 0, 1, false)).toMatchObject({ confidence: 0.1, confidenceLabel: "low" });
    expect(floodConfidence(0, 1, 0, false).confidence).toBe(0);
  });
});

describe("DFO polygons of the data mirror", () => {
  const dir = join(dataDir(), "feeds", "flood-footprints");

  it("reads every event polygon once; polygons outside their named country (ID 278's copy in the English Channel) are refused", async () => {
    const r = await readDfoFootprints(readFileSync(join(dir, "dfo_polys_20191203.zip")));
    expect(r.rows).toBe(4825);
    // The same country check as the archive rows (50 km tolerance): 129 polygons' centroids lie outside their countries.
    expect(r.reasons).toEqual({ "coordinates outside the named country": 129 });
    expect(r.records).toHaveLength(4825 - 129);
    const f278 = r.records.find((f) => f.id === "DFO-278")!;
    // The kept polygon lies in Indonesia (its box holds its centroid attributes), not at 50.96N 3.96W.
    const lats = f278.rings.flat().map((p) => p[1]);
    expect(Math.max(...lats)).toBeLessThan(10);

    // Our point-in-polygon agrees with turf's on every DFO polygon near 300 seeded points (inside/outside only).
    const fp = open(r.records.map((f) => ({ rings: f.rings, countries: [], weight: 1 })));
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let insideChecks = 0;
    for (let k = 0; k < 300; k++) {
      const lat = -40 + 80 * rnd();
      const lng = -120 + 270 * rnd();
      const ours = new Set(ids(fp.covering(lat, lng, 0, null)));
      for (let i = 0; i < r.records.length; i++) {
        const b = fp.bbox.subarray(4 * i, 4 * i + 4);
        if (lng < b[0] || lng > b[2] || lat < b[1] || lat > b[3]) continue;
        // Even-odd over all rings: count the rings that contain the point.
        let inside = false;
        for (const ring of r.records[i].rings) {
          const closed = ring[0][0] === ring.at(-1)![0] && ring[0][1] === ring.at(-1)![1] ? ring : [...ring, ring[0]];
          if (closed.length >= 4 && booleanPointInPolygon(point([lng, lat]), polygon([closed.map((p) => [Math.fround(p[0]), Math.fround(p[1])])]), { ignoreBoundary: true })) inside = !inside;
        }
        expect(ours.has(i), `point ${lat},${lng} footprint ${r.records[i].id}`).toBe(inside);
        if (inside) insideChecks++;
      }
    }
    expect(insideChecks).toBeGreaterThan(50);
  }, 120_000);

  it("the Global Flood Database's KML outlines agree with the DFO polygons it mapped (2003 Sindh: DFO-2279 covers Dadu)", async () => {
    const gz = readFileSync(join(dir, "gfd_qcdatabase_2019_08_01.csv.gz"));
    const mapped = readGfdMappedEvents(gz);
    expect(mapped.records).toHaveLength(913);
    const rows = parse(gunzipSync(gz).toString("utf8"), { columns: true }) as Record<string, string>[];
    const kmlRing = (g: string) => /<coordinates>([^<]+)<\/coordinates>/.exec(g)?.[1].trim().split(/\s+/).map((p) => p.split(",").map(Number)) ?? [];
    // DFO-2279: Pakistan, 2003-07-15, 868,201 km²; the 2010 Indus flood's polygon (DFO-3696) is drawn in the north.
    const indus = rows.find((r) => r.ID === "2279")!;
    expect(indus.Country).toBe("Pakistan");
    const DADU = [67.78, 26.73];
    expect(booleanPointInPolygon(point(DADU), polygon([kmlRing(indus.geometry)]))).toBe(true);
    let outlines = 0;
    const dfo = await readDfoFootprints(readFileSync(join(dir, "dfo_polys_20191203.zip")));
    const fp = open(dfo.records.map((f) => ({ rings: f.rings, countries: [], weight: 1 })));
    const covering = ids(fp.covering(DADU[1], DADU[0], 0, null)).map((i) => dfo.records[i].id);
    expect(covering).toContain("DFO-2279");
    expect(covering).not.toContain("DFO-3696");
    // Every GFD outline that holds Dadu is among the DFO polygons that cover it (the same events, drawn once).
    for (const r of rows) {
      const ring = kmlRing(r.geometry);
      if (!r.geometry.startsWith("<Polygon>") || r.geometry.includes("<innerBoundaryIs>") || ring.length < 4) continue;
      if (booleanPointInPolygon(point(DADU), polygon([ring]))) {
        expect(covering).toContain(`DFO-${r.ID}`);
        outlines++;
      }
    }
    expect(outlines).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
