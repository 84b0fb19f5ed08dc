import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import express from "express";
import sharp from "sharp";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { FetchSource, PMTiles, TileType } from "pmtiles";
import { log } from "../../lib/log.ts";
import { readTilesIndex } from "../../formats/tiles-index.ts";
import { errorHandler } from "../../server/http/error-handler.ts";
import { createTileCache, createTilesRouter, type TilesRouter } from "../../server/routes/tiles.ts";
import { createMapPageRouter } from "../../server/routes/map-page.ts";
import { buildTiles, latestMapMonth, precomputedMonths, type TileBuildReport, type TilesIndex } from "../../tiles/build-tiles.ts";
import { LocalFileSource } from "../../tiles/pmtiles-source.ts";
import { provincesFromRings } from "../../tiles/vector.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { latToTileY, lngToTileX } from "../../tiles/tile-math.ts";
import { FEB, PROVINCE_META, PROVINCES, writeFixture, type Fixture } from "./fixture.ts";

const KEY = "test-key";
let fx: Fixture;
let report: TileBuildReport;
let base: string;
let server: ReturnType<express.Express["listen"]>;
let tilesRouter: TilesRouter | undefined;
let tilesIndex: TilesIndex;
let servedVersion = "";

/** What the store hands the router for `version`: the fixture with its tiles index. */
const served = (version: string) => ({ version, dir: fx.dir, data: { ...fx.data, tiles: tilesIndex, version } });

function tileOf(lat: number, lng: number, z: number) {
  const fx_ = lngToTileX(lng, z);
  const fy = latToTileY(lat, z);
  return { x: Math.floor(fx_), y: Math.floor(fy), px: Math.floor((fx_ % 1) * 256), py: Math.floor((fy % 1) * 256) };
}

async function get(path: string, headers: Record<string, string> = { "X-API-Key": KEY }) {
  return fetch(base + path, { headers });
}

beforeAll(async () => {
  fx = writeFixture();
  servedVersion = fx.version;
  report = await buildTiles({ grid: fx.grid, provinces: PROVINCES, summaries: fx.summaries, provinceMeta: PROVINCE_META, outDir: fx.dir, months: 1, maxZoom: 8 });
  const app = express();
  app.use(createMapPageRouter());
  // The store hands the router the version's tile index, read and checked when the version loads.
  tilesIndex = readTilesIndex(readFileSync(join(fx.dir, "tiles-index.json"), "utf8"), Object.fromEntries(report.archives.map((a) => [a.name, a])));
  tilesRouter = createTilesRouter({ current: () => served(servedVersion), auth: (k) => (k === KEY ? { id: "k1" } : undefined), logger: log });
  app.use(tilesRouter);
  app.use(errorHandler(log));
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await tilesRouter?.close();
});

describe("a tile build with no month to precompute", () => {
  it("fails and writes no index (the server would refuse an index without a month)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tiles-no-month-"));
    await expect(buildTiles({ grid: fx.grid, provinces: PROVINCES, summaries: fx.summaries, provinceMeta: PROVINCE_META, outDir: dir, months: 0, maxZoom: 2 })).rejects.toThrow("no month to precompute tiles for (TILE_MONTHS=0)");
    expect(existsSync(join(dir, "tiles-index.json"))).toBe(false);
  });
});

describe("buildTiles", () => {
  it("precomputes the latest months ending at the latest month with SPEI-1 on ≥ 90 % of cells", () => {
    expect(latestMapMonth(fx.grid)).toBe(FEB);
    expect(precomputedMonths(fx.grid, FEB, 12)).toEqual([FEB - 1, FEB]);
    expect(report.months).toEqual(["2020-02"]);
    expect(report.indices).toEqual(["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"]);
    expect(report.archives.map((a) => a.name)).toEqual([
      "tiles-drought-spei1-2020-02.pmtiles",
      "tiles-drought-spei3-2020-02.pmtiles",
      "tiles-drought-spei6-2020-02.pmtiles",
      "tiles-drought-spei12-2020-02.pmtiles",
      "tiles-drought-spi1-2020-02.pmtiles",
      "tiles-drought-mcdi-2020-02.pmtiles",
      "tiles-provinces.pmtiles",
      "tiles-cells.pmtiles",
      "tiles-countries.pmtiles",
    ]);
    const index = JSON.parse(readFileSync(join(fx.dir, "tiles-index.json"), "utf8")) as TilesIndex;
    expect(index).toMatchObject({ version: 1, months: ["2020-02"], maxZoom: 8, countriesMaxZoom: 6, bbox: [100, 13, 101.5, 14] });
  });

  it("writes raster tiles where there is data: the 1.5° × 1° extent touches 1 tile at z0-4, 2 at z5-6 (x split at 101.25°), 4 at z7-8", async () => {
    const src = new LocalFileSource(join(fx.dir, "tiles-drought-spei1-2020-02.pmtiles"));
    onTestFinished(() => src.close());
    const p = new PMTiles(src);
    const h = await p.getHeader();
    expect(h).toMatchObject({ tileType: TileType.Png, minZoom: 0, maxZoom: 8, numAddressedTiles: report.archives[0].tiles });
    expect(report.archives[0].tiles).toBe(5 * 1 + 2 * 2 + 2 * 4);
    const c0 = tileOf(13.25, 100.25, 8);
    const t = await p.getZxy(8, c0.x, c0.y);
    const { data } = await sharp(new Uint8Array(t!.data)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const o = (c0.py * 256 + c0.px) * 4;
    expect([...data.subarray(o, o + 4)]).toEqual([0x73, 0, 0, 255]); // SPEI-1 −2.5 → D4
    expect(await p.getZxy(8, 0, 0)).toBeUndefined();
    expect((await p.getMetadata()) as Record<string, unknown>).toMatchObject({ index: "spei1", month: "2020-02" });
  });

  it("writes province, cell and country vector tiles that @mapbox/vector-tile decodes with their properties", async () => {
    const read = async (name: string, z: number, x: number, y: number) => {
      const src = new LocalFileSource(join(fx.dir, name));
      const t = await new PMTiles(src).getZxy(z, x, y).finally(() => src.close());
      return new VectorTile(new PbfReader(new Uint8Array(t!.data)));
    };
    const prov = (await read("tiles-provinces.pmtiles", 5, 24, 14)).layers.provinces;
    expect(prov.version).toBe(2);
    expect(prov.extent).toBe(4096);
    expect(prov.length).toBe(2);
    const props = [0, 1].map((i) => prov.feature(i).properties).sort((a, b) => String(a.code).localeCompare(String(b.code)));
    // Alpha = mean of cells 0-3 (−2.5, −1.7, −1.4, −1.0) = −1.65; Beta = mean(0.1, 2.5) = 1.3.
    expect(props[0]).toMatchObject({ code: "TH-10", nameEn: "Alpha", nameTh: "อัลฟา", slug: "alpha", "spei1_2020-02": -1.65 });
    expect(props[1]).toMatchObject({ code: "TH-11", nameEn: "Beta", "spei1_2020-02": 1.3, "spei3_2020-02": 0.125 }); // spei3 Feb: 0.1 − 0.2 + 0.05·c, cells 4, 5 → (0.1 + 0.15) / 2
    const alpha = [0, 1].map((i) => prov.feature(i)).find((f) => f.properties.code === "TH-10")!;
    const coords = (alpha.toGeoJSON(24, 14, 5).geometry as { coordinates: number[][][] }).coordinates[0];
    const lngs = coords.map((c) => c[0]);
    const lats = coords.map((c) => c[1]);
    expect(Math.min(...lngs)).toBeCloseTo(100, 1);
    expect(Math.max(...lngs)).toBeCloseTo(101, 1);
    expect(Math.min(...lats)).toBeCloseTo(13, 1);
    expect(Math.max(...lats)).toBeCloseTo(14, 1);

    const cells = (await read("tiles-cells.pmtiles", 5, 24, 14)).layers.cells;
    expect(cells.length).toBe(6);
    const c0 = [...Array(6).keys()].map((i) => cells.feature(i).properties).find((p) => p.cell === 0)!;
    expect(c0).toMatchObject({ gridId: "TH050-100", lat: 13.25, lng: 100.25, "spei1_2020-02": -2.5, "mcdi_2020-02": 0.3 });

    const world = (await read("tiles-countries.pmtiles", 0, 0, 0)).layers.countries;
    const names = [...Array(world.length).keys()].map((i) => world.feature(i).properties.name);
    expect(names).toContain("Thailand");
    expect(names).toContain("Myanmar");
  });
});

describe("tiles router", () => {
  it("serves the legend and the tiles index without a key", async () => {
    const legend = await (await get("/tiles/legend.json", {})).json();
    expect(legend.data.classes[1]).toMatchObject({ key: "D4", hex: "#730000" });
    const index = await (await get("/tiles/index.json", {})).json();
    expect(index.data).toMatchObject({ version: fx.version, defaultMonth: "2020-02", firstMonth: "2020-01", lastMonth: "2020-02", precomputedMonths: ["2020-02"] });
  });

  it("answers 401 without a valid X-API-Key", async () => {
    for (const headers of [{}, { "X-API-Key": "wrong" }] as Record<string, string>[]) {
      const res = await get("/tiles/drought-spei1/8/200/118.png", headers);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("INVALID_API_KEY");
    }
  });

  it("serves TileJSON 3.0 with versioned tile URLs", async () => {
    const tj = await (await get("/tiles/drought-spei1.json")).json();
    expect(tj).toEqual({
      tilejson: "3.0.0",
      name: "drought-spei1-2020-02",
      version: "1.0.0",
      attribution: expect.stringContaining("GHCN-Daily"),
      scheme: "xyz",
      tiles: [`${base}/tiles/v/${fx.version}/drought-spei1-2020-02/{z}/{x}/{y}.png`],
      minzoom: 0,
      maxzoom: 8,
      bounds: [100, 13, 101.5, 14],
      center: [100.75, 13.5, 5],
      description: expect.stringContaining("spei1 for 2020-02"),
    });
    expect((await (await get("/tiles/drought-mcdi.json?month=2020-01")).json()).tiles[0]).toBe(`${base}/tiles/v/${fx.version}/drought-mcdi-2020-01/{z}/{x}/{y}.png`);
    const prov = await (await get("/tiles/provinces.json")).json();
    expect(prov.tiles[0]).toBe(`${base}/tiles/v/${fx.version}/provinces/{z}/{x}/{y}.mvt`);
    expect(prov.vector_layers[0].id).toBe("provinces");
    expect(prov.vector_layers[0].fields).toMatchObject({ code: "String", "spei1_2020-02": "Number" });
  });

  it("serves a precomputed PNG tile (immutable when versioned) and 304 on a repeat with its ETag", async () => {
    const c = tileOf(13.25, 100.25, 8);
    const res = await get(`/tiles/v/${fx.version}/drought-spei1-2020-02/8/${c.x}/${c.y}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const { data } = await sharp(Buffer.from(await res.arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray((c.py * 256 + c.px) * 4, (c.py * 256 + c.px) * 4 + 4)]).toEqual([0x73, 0, 0, 255]);
    const again = await get(`/tiles/v/${fx.version}/drought-spei1-2020-02/8/${c.x}/${c.y}.png`, { "X-API-Key": KEY, "If-None-Match": etag });
    expect(again.status).toBe(304);
    const plain = await get(`/tiles/drought-spei1/8/${c.x}/${c.y}.png`);
    expect(plain.headers.get("cache-control")).toBe("private, no-cache");
    expect(plain.headers.get("etag")).toBe(etag.replace("drought-spei1-2020-02", "")); // same key → same ETag
  });

  it("renders a month outside the precomputed ones on request (January: near normal #EEEEEE)", async () => {
    const c = tileOf(13.25, 100.25, 8);
    for (const path of [`/tiles/drought-spei1/8/${c.x}/${c.y}.png?month=2020-01`, `/tiles/drought-spei1-2020-01/8/${c.x}/${c.y}.png`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const { data } = await sharp(Buffer.from(await res.arrayBuffer())).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([...data.subarray((c.py * 256 + c.px) * 4, (c.py * 256 + c.px) * 4 + 4)]).toEqual([0xee, 0xee, 0xee, 255]);
    }
  });

  it("answers 204 outside the data, 400 for invalid z/x/y or month, 404 for unknown tilesets, months and versions", async () => {
    expect((await get("/tiles/drought-spei1/8/10/10.png")).status).toBe(204);
    expect((await get("/tiles/drought-spei1/12/0/0.png")).status).toBe(204);
    for (const [path, details] of [
      ["/tiles/drought-spei1/8/256/0.png", { z: "8", x: "256", y: "0", maxZoom: 14 }],
      ["/tiles/drought-spei1/abc/0/0.png", { z: "abc", x: "0", y: "0", maxZoom: 14 }],
      ["/tiles/drought-spei1/15/0/0.png", { z: "15", x: "0", y: "0", maxZoom: 14 }],
      ["/tiles/drought-spei1/1/-1/0.png", { z: "1", x: "-1", y: "0", maxZoom: 14 }],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toEqual({ success: false, error: { code: "VALIDATION_ERROR", message: expect.stringMatching(/^Invalid tile /), details } });
    }
    const badMonth = await get("/tiles/drought-spei1/0/0/0.png?month=2020-13");
    expect([badMonth.status, (await badMonth.json()).error]).toEqual([400, { code: "VALIDATION_ERROR", message: "month must be YYYY-MM", details: { month: "2020-13" } }]);
    const noMonth = await get("/tiles/drought-spei1-1999-01/0/0/0.png");
    expect([noMonth.status, (await noMonth.json()).error.message]).toEqual([404, "No drought data for 1999-01"]);
    expect((await get("/tiles/drought-foo/0/0/0.png")).status).toBe(404);
    expect((await get("/tiles/provinces/0/0/0.png")).status).toBe(404);
    const old = await get("/tiles/v/20000101T000000Z-old/drought-spei1/0/0/0.png");
    expect([old.status, (await old.json()).error.details]).toEqual([404, { current: fx.version }]);
  });

  it("serves MVT gzip-encoded to clients that accept it, decoded by @mapbox/vector-tile", async () => {
    const res = await get("/tiles/provinces/5/24/14.mvt", { "X-API-Key": KEY, "Accept-Encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.mapbox-vector-tile");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const vt = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer())));
    expect(Object.keys(vt.layers)).toEqual(["provinces"]);
    expect(vt.layers.provinces.length).toBe(2);
  });

  it("negotiates the stored gzip by q-values: sent decoded when gzip is refused (gzip;q=0) or not named, gzip for *", async () => {
    for (const [accept, encoding] of [
      ["gzip;q=0", null],
      ["gzip;q=0, br", null],
      ["identity", null],
      ["*", "gzip"],
      ["br;q=1, gzip;q=0.5", "gzip"],
      ["*, gzip;q=0", null],
    ] as const) {
      const res = await get("/tiles/provinces/5/24/14.mvt", { "X-API-Key": KEY, "Accept-Encoding": accept });
      expect([accept, res.status, res.headers.get("content-encoding")]).toEqual([accept, 200, encoding]);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // fetch decodes a gzip body itself; a body sent decoded is the tile's own bytes, Content-Length and all.
      if (encoding === null) expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
      expect(Object.keys(new VectorTile(new PbfReader(bytes)).layers)).toEqual(["provinces"]);
    }
  });

  it("answers CORS preflights for the X-API-Key header", async () => {
    const res = await fetch(base + "/tiles/provinces/5/24/14.mvt", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toBe("X-API-Key, If-None-Match, Range, Accept-Encoding");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("serves PMTiles archives with Range: 206, 416, 200, 304, and readable by the pmtiles FetchSource", async () => {
    const name = "tiles-provinces.pmtiles";
    const size = readFileSync(join(fx.dir, name)).length;
    const part = await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, Range: "bytes=0-6" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-6/${size}`);
    expect(await part.text()).toBe("PMTiles");
    const tail = await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, Range: "bytes=-10" });
    expect([tail.status, tail.headers.get("content-range"), (await tail.arrayBuffer()).byteLength]).toEqual([206, `bytes ${size - 10}-${size - 1}/${size}`, 10]);
    const beyond = await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, Range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);
    // The 416 is the JSON envelope, said so by its Content-Type (not application/vnd.pmtiles).
    expect(beyond.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await beyond.json()).error.code).toBe("RANGE_NOT_SATISFIABLE");
    const none = await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, Range: "bytes=-0" });
    expect([none.status, none.headers.get("content-type")]).toEqual([416, "application/json; charset=utf-8"]);
    const whole = await get(`/tiles/archives/${name}`);
    expect([whole.status, (await whole.arrayBuffer()).byteLength, whole.headers.get("accept-ranges")]).toEqual([200, size, "bytes"]);
    const etag = whole.headers.get("etag")!;
    expect((await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, "If-None-Match": etag })).status).toBe(304);
    const failed = await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, "If-Match": '"nope"' });
    expect([failed.status, failed.headers.get("content-type"), (await failed.json()).error.code]).toEqual([412, "application/json; charset=utf-8", "PRECONDITION_FAILED"]);
    expect((await get(`/tiles/archives/${name}`, { "X-API-Key": KEY, "If-Match": etag, Range: "bytes=0-6" })).status).toBe(206);
    expect((await get(`/tiles/archives/tiles-nope.pmtiles`)).status).toBe(404);
    const remote = new PMTiles(new FetchSource(`${base}/tiles/archives/${name}`, new Headers({ "X-API-Key": KEY })));
    const t = await remote.getZxy(5, 24, 14);
    expect(new VectorTile(new PbfReader(new Uint8Array(t!.data))).layers.provinces.length).toBe(2);
  });

  it("close() closes the archive files it opened (Node warned of each one left to the garbage collector)", async () => {
    const archive = join(fx.dir, "tiles-drought-spei1-2020-02.pmtiles");
    const openFds = () => readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === archive;
      } catch {
        return false; // closed meanwhile
      }
    }).length;
    const app = express();
    const router = createTilesRouter({ current: () => served(fx.version), logger: log });
    app.use(router);
    const srv = app.listen(0, "127.0.0.1");
    await new Promise((r) => srv.once("listening", r));
    try {
      const before = openFds();
      const c = tileOf(13.25, 100.25, 8);
      expect((await fetch(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/tiles/v/${fx.version}/drought-spei1-2020-02/8/${c.x}/${c.y}.png`)).status).toBe(200);
      expect(openFds()).toBe(before + 1);
      await router.close();
      expect(openFds()).toBe(before);
    } finally {
      srv.close();
    }
  });

  it("follows a new data version: TileJSON points at it and the old versioned URLs answer 404", async () => {
    const c = tileOf(13.25, 100.25, 8);
    const oldUrl = `/tiles/v/${fx.version}/drought-spei1-2020-02/8/${c.x}/${c.y}.png`;
    expect((await get(oldUrl)).status).toBe(200);
    servedVersion = "20200401T000000Z-next";
    try {
      expect((await (await get("/tiles/drought-spei1.json")).json()).tiles[0]).toBe(`${base}/tiles/v/20200401T000000Z-next/drought-spei1-2020-02/{z}/{x}/{y}.png`);
      expect((await get(oldUrl)).status).toBe(404);
      expect((await get(oldUrl.replace(fx.version, servedVersion))).status).toBe(200);
    } finally {
      servedVersion = fx.version;
    }
  });

  it("serves the map page and MapLibre from node_modules", async () => {
    const page = await get("/", {});
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/map/map.js"></script>');
    const lib = await get("/map/vendor/maplibre-gl/maplibre-gl.mjs", {});
    expect([lib.status, lib.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    const js = await get("/map/map.js", {});
    expect(await js.text()).toContain("transformRequest");
  });
});

describe("vector tiles without archives", () => {
  it("rebuilds province polygons with their holes from the flat rings of province-index.bin", () => {
    const outer = [[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]];
    const hole = [[1, 1], [1, 3], [3, 3], [3, 1], [1, 1]];
    const island = [[10, 10], [11, 10], [11, 11], [10, 10]];
    const provinces = [
      { polygons: [[outer, hole], [island]] },
      { polygons: [[hole]] },
    ];
    const back = provincesFromRings(flattenRings(provinces), PROVINCE_META);
    expect(back.map((p) => p.polygons)).toEqual([[[outer, hole], [island]], [[hole]]]);
    expect(back[1]).toMatchObject({ code: "TH-11", nameEn: "Beta" });
  });

  it("are made in memory for a version built without tiles, with the default month's values", async () => {
    const bare = writeFixture();
    const app = express();
    const router = createTilesRouter({ current: () => ({ version: bare.version, dir: bare.dir, data: bare.data }), logger: log });
    app.use(router);
    const srv = app.listen(0, "127.0.0.1");
    await new Promise((r) => srv.once("listening", r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${url}/tiles/provinces/5/24/14.mvt`);
      expect(res.status).toBe(200);
      const layer = new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers.provinces;
      const props = [0, 1].map((i) => layer.feature(i).properties).sort((a, b) => String(a.code).localeCompare(String(b.code)));
      expect(props.map((p) => [p.code, p["spei1_2020-02"]])).toEqual([["TH-10", -1.65], ["TH-11", 1.3]]);
      const tj = await (await fetch(`${url}/tiles/provinces.json`)).json();
      expect(tj.vector_layers[0].fields["spei1_2020-02"]).toBe("Number");
      const world = await fetch(`${url}/tiles/countries/0/0/0.mvt`);
      const names = new VectorTile(new PbfReader(new Uint8Array(await world.arrayBuffer()))).layers.countries;
      expect([...Array(names.length).keys()].map((i) => names.feature(i).properties.name)).toContain("Thailand");
      // Rasters of every month are rendered on request.
      const c = tileOf(13.25, 100.25, 8);
      expect((await fetch(`${url}/tiles/drought-spei1/8/${c.x}/${c.y}.png`)).status).toBe(200);
    } finally {
      srv.close();
      await router.close();
    }
  });
});

describe("tile cache (lru-cache)", () => {
  it("evicts the least recently used tile by count and by bytes (tile + key + 64); a tile over the budget is not kept", () => {
    const tile = (n: number | null) => ({ bytes: n === null ? null : Buffer.alloc(n), etag: "", gzip: false });
    const c = createTileCache(2, 300);
    c.set("a", tile(10));
    c.set("b", tile(10));
    expect(c.get("a")).toBeDefined();
    c.set("c", tile(10));
    expect([c.has("a"), c.has("b"), c.has("c"), c.calculatedSize]).toEqual([true, false, true, 150]);
    c.set("d", tile(200)); // 265 bytes: a, then c, go to fit 300
    expect([c.size, c.calculatedSize, c.get("d")?.bytes?.length]).toEqual([1, 265, 200]);
    c.set("huge", tile(300));
    expect([c.get("huge"), c.size]).toEqual([undefined, 1]);
    c.set("empty", tile(null)); // a 204 is kept too: its key and 64
    expect([c.size, c.calculatedSize]).toEqual([1, 69]);
    expect(() => createTileCache(0, 300)).toThrow(/at least 1/);
  });
});
