// The tiles catalog and TileJSON against the archives themselves: /tiles/index.json lists every tileset with a
// TileJSON URL that answers; the TileJSON's bounds and centre are the archive header's, the attribution its
// metadata's; vector archives carry a centre zoom that shows the data.
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { parse } from "csv-parse/sync";
import { PbfReader } from "pbf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readPmtilesHeader } from "../../formats/pmtiles-header.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";
import { SUITE_TILE_SETTINGS } from "../suite-tiles.ts";

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});
const get = (path: string) => fetch(server.base + path, { headers: { "X-API-Key": server.key } });

describe("tiles catalog and TileJSON", () => {
  it("lists each tileset with a TileJSON URL that answers with that tileset", async () => {
    const { data } = (await (await get("/tiles/index.json")).json()) as { data: { catalog: { name: string; kind: string; format: string; tilejson: string }[]; tilesets: string[] } };
    expect(data.catalog.map((c) => c.name)).toEqual(data.tilesets);
    expect(data.catalog.find((c) => c.name === "provinces")).toMatchObject({ kind: "vector", format: "mvt" });
    for (const c of data.catalog) {
      expect(c.tilejson).toBe(`${server.base}/tiles/${c.name}.json`);
      const tj = (await (await get(new URL(c.tilejson).pathname)).json()) as { tilejson: string; name: string; attribution: string };
      expect(tj.tilejson).toBe("3.0.0");
      expect(tj.name.startsWith(c.name)).toBe(true);
      expect(tj.attribution.length).toBeGreaterThan(10);
    }
  });

  it("bounds, centre and attribution come from the archive", async () => {
    const dir = join(server.artifactsDir, "current");
    for (const [name, zoom, credit] of [["countries", 4, /Natural Earth/], ["provinces", 5, /geoBoundaries/], ["cells", 5, /NOAA CPC gauge-based precipitation .* GHCN-Monthly/]] as const) {
      const h = readPmtilesHeader(join(dir, `tiles-${name}.pmtiles`));
      const tj = (await (await get(`/tiles/${name}.json`)).json()) as { bounds: number[]; center: number[]; attribution: string };
      expect(tj.bounds).toEqual([h.minLon, h.minLat, h.maxLon, h.maxLat]);
      expect(tj.center).toEqual([h.centerLon, h.centerLat, h.centerZoom]);
      expect(h.centerZoom).toBe(zoom);
      expect(tj.attribution).toMatch(credit);
    }
    // The countries archive covers the region around Thailand, not the world: its TileJSON says so.
    const c = (await (await get("/tiles/countries.json")).json()) as { bounds: number[] };
    expect(c.bounds[0]).toBeGreaterThan(-180);
    expect(c.bounds[2]).toBeLessThan(180);
  });
});

describe("one identifier of a grid cell", () => {
  it("the cells tiles, the point answer and the cells export name Bangkok's cell alike (SEA100-<cell id>)", async () => {
    const answer = (await (await get("/api/risk-map/drought?lat=13.75&lng=100.5")).json()) as { data: { location: { gridId: string; gridLat: number; gridLng: number } } };
    const { gridId, gridLat, gridLng } = answer.data.location;
    expect(gridId).toMatch(/^SEA100-\d+$/);
    // The tile of the suite build's top zoom holding the cell's centre (Web Mercator tile numbers).
    const z = Number(SUITE_TILE_SETTINGS.TILE_MAX_ZOOM);
    const x = Math.floor(((gridLng + 180) / 360) * 2 ** z);
    const rad = (gridLat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z);
    const tile = await get(`/tiles/cells/${z}/${x}/${y}.mvt`);
    expect(tile.status).toBe(200);
    const layer = new VectorTile(new PbfReader(new Uint8Array(await tile.arrayBuffer()))).layers.cells;
    const props = [...Array(layer.length).keys()].map((i) => layer.feature(i).properties);
    const cell = props.find((p) => p.lat === gridLat && p.lng === gridLng);
    expect(cell?.gridId).toBe(gridId);
    // Every feature of the tile carries an identifier of the same form.
    for (const p of props) expect(p.gridId).toMatch(/^SEA100-\d+$/);
    const exported = parse(gunzipSync(await (await get("/api/risk-map/drought/exports/drought-cells.csv.gz")).arrayBuffer().then((b) => Buffer.from(b))), { columns: true }) as { grid_id: string; lat: string; lng: string }[];
    expect(exported.find((r) => Number(r.lat) === gridLat && Number(r.lng) === gridLng)?.grid_id).toBe(gridId);
  });
});
