// The tiles and GeoJSON answers as an independent GIS stack reads them: GDAL's MVT driver opens every tile of the
// provinces, cells and countries archives and GEOS (OGR IsValid) checks every geometry (test/tiles/gdal-mvt-check.py);
// ogr2ogr appends two successive batch answers into one GeoPackage layer. Needs Debian's gdal-bin and python3-gdal
// (.ci/install-test-deps.sh installs them).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { PMTiles } from "pmtiles";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { LocalFileSource } from "../../tiles/pmtiles-source.ts";
import { nodeRings, validPolygonRings } from "../../tiles/mvt-rings.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

const PYTHON = "/usr/bin/python3"; // Debian's, where python3-gdal installs osgeo
const CHECK = join(import.meta.dirname, "gdal-mvt-check.py");
let work: string;

/** Every tile of an archive inside its bounds, decompressed, written as dir/z/x/y.pbf (GDAL reads z/x/y from the path). */
async function extract(archive: string, dir: string): Promise<number> {
  const src = new LocalFileSource(archive);
  const p = new PMTiles(src);
  const h = await p.getHeader();
  let n = 0;
  for (let z = h.minZoom; z <= h.maxZoom; z++) {
    const m = 2 ** z;
    const xOf = (lng: number) => Math.min(m - 1, Math.floor(((lng + 180) / 360) * m));
    const yOf = (lat: number) => Math.min(m - 1, Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * m));
    for (let x = xOf(h.minLon); x <= xOf(h.maxLon); x++) {
      for (let y = yOf(h.maxLat); y <= yOf(h.minLat); y++) {
        const t = await p.getZxy(z, x, y);
        if (!t) continue;
        let data = new Uint8Array(t.data);
        if (data[0] === 0x1f && data[1] === 0x8b) data = gunzipSync(data);
        mkdirSync(join(dir, String(z), String(x)), { recursive: true });
        writeFileSync(join(dir, String(z), String(x), `${y}.pbf`), data);
        n++;
      }
    }
  }
  await src.close();
  return n;
}

interface CheckResult {
  gdal: string;
  tiles: number;
  features: number;
  polygons: number;
  invalid: { tile: string; layer: string | null; name: string }[];
}

function gdalCheck(dir: string): CheckResult {
  return JSON.parse(execFileSync(PYTHON, [CHECK, dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })) as CheckResult;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "gdal-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("MVT ring noding", () => {
  it("puts a vertex that lies inside another ring's edge into that edge", () => {
    // Two exteriors: the second's corner (4, 2) lies on the first's right edge (4, 0)–(4, 4), in mid-edge.
    const a = [[0, 0], [0, 4], [4, 4], [4, 0], [0, 0]];
    const b = [[4, 2], [6, 4], [6, 0], [4, 2]];
    const [na, nb] = nodeRings([a, b]);
    expect(na).toEqual([[0, 0], [0, 4], [4, 4], [4, 2], [4, 0], [0, 0]]);
    expect(nb).toEqual(b);
    // Already noded: unchanged.
    expect(nodeRings([na, nb])).toEqual([na, nb]);
  });

  it("a ring touching its own edge gets the vertex twice (a pinch, which validPolygonRings then cuts)", () => {
    const selfTouch = [[0, 0], [0, 4], [4, 4], [2, 4], [2, 2], [3, 0], [0, 0]];
    // (2, 4) lies inside the edge (0, 4)–(4, 4) of the same ring.
    expect(nodeRings([selfTouch])[0]).toEqual([[0, 0], [0, 4], [2, 4], [4, 4], [2, 4], [2, 2], [3, 0], [0, 0]]);
    const cleaned = validPolygonRings([selfTouch]);
    for (const r of cleaned) {
      const keys = r.slice(0, -1).map((q) => q.join(","));
      expect(new Set(keys).size, JSON.stringify(r)).toBe(keys.length);
    }
  });
});

describe("GDAL reads every vector tile and GEOS finds every geometry valid", () => {
  for (const tileset of ["provinces", "cells", "countries"]) {
    it(`${tileset}`, async () => {
      const dir = join(work, tileset);
      const written = await extract(join(inject("artifactsDir"), "current", `tiles-${tileset}.pmtiles`), dir);
      const r = gdalCheck(dir);
      expect(r.gdal).toMatch(/^\d+\.\d+/);
      expect(r.tiles).toBe(written);
      expect(r.tiles).toBeGreaterThan(50);
      expect(r.polygons).toBe(r.features);
      expect(r.invalid).toEqual([]);
    }, 120_000);
  }
});

describe("ogr2ogr appends successive GeoJSON answers", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir);
  }, 60_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it("two batch answers, the first all found, the second with a miss, in one GeoPackage layer", async () => {
    const batch = async (locations: unknown[]) => {
      const res = await fetch(`${server.base}/api/risk-map/batch`, {
        method: "POST",
        headers: { "x-api-key": server.key, "content-type": "application/json" },
        body: JSON.stringify({ riskType: "drought", format: "geojson", locations }),
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    const first = join(work, "first.geojson");
    const second = join(work, "second.geojson");
    writeFileSync(first, await batch([{ id: "chiang-mai", lat: 18.79, lng: 98.98 }, { id: "khon-kaen", lat: 16.44, lng: 102.83 }]));
    writeFileSync(second, await batch([{ id: "hat-yai", lat: 7.01, lng: 100.47 }, { id: "at-sea", lat: 10, lng: 95 }]));
    const gpkg = join(work, "answers.gpkg");
    execFileSync("ogr2ogr", ["-f", "GPKG", gpkg, first, "-nln", "drought"], { stdio: "pipe" });
    execFileSync("ogr2ogr", ["-append", gpkg, second, "-nln", "drought"], { stdio: "pipe" });
    const info = execFileSync("ogrinfo", ["-ro", "-al", gpkg], { encoding: "utf8" });
    expect(info).toMatch(/Feature Count: 4/);
    // The numbers stay numbers; the miss's nulls stay nulls.
    expect(info).toMatch(/riskScore: Real|riskScore: Integer/);
    expect(info).toMatch(/spei1: Real/);
    expect(info).toMatch(/id \(String\) = at-sea/);
    const atSea = info.slice(info.indexOf("id (String) = at-sea"));
    expect(atSea).toMatch(/found \(Integer\(Boolean\)\) = 0/);
    expect(atSea).toMatch(/spei1 \(Real\) = \(null\)/);
  }, 60_000);
});
