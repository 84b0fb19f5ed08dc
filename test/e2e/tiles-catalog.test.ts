// The tiles catalog and TileJSON against the archives themselves: /tiles/index.json lists every tileset with a
// TileJSON URL that answers; the TileJSON's bounds and centre are the archive header's, the attribution its
// metadata's; vector archives carry a centre zoom that shows the data.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readPmtilesHeader } from "../../formats/pmtiles-header.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

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
    for (const [name, zoom, credit] of [["countries", 4, /Natural Earth/], ["provinces", 5, /geoBoundaries/], ["cells", 5, /GHCN-Daily/]] as const) {
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
