// Tile benchmarks (npx tsx bench/tiles.bench.ts): raster tile build time per month (6 indices, z0–TILE_MAX_ZOOM)
// and archive size on the real artifacts, then cached tiles served per second by the tiles router beside a
// plain node:http server sending the same bytes, in the same run (autocannon against 127.0.0.1), and a bare
// Express route for scale. Medians.
// Artifacts: ARTIFACTS_DIR/current, else test-output/artifacts/current (made by the test suite's global setup).
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import express from "express";
import { intSetting, PROJECT_ROOT } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { formatMonth } from "../lib/months.ts";
import { readManifest } from "../formats/manifest.ts";
import { loadProvinces } from "../pipeline/provinces/boundaries.ts";
import { openDroughtArtifacts } from "../formats/drought-version.ts";
import { createTilesRouter } from "../server/routes/tiles.ts";
import { buildDroughtArchive, buildTiles, precomputedMonths, TILE_INDICES } from "../tiles/build-tiles.ts";
import { cellLattice, latticeLand } from "../tiles/raster.ts";
import { landMask } from "../tiles/land-mask.ts";
import { cellLand } from "../tiles/vector.ts";
import { flattenRings } from "../lib/geo/province-rings.ts";
import { latToTileY, lngToTileX } from "../tiles/tile-math.ts";

interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<CannonResult>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function findArtifacts(): string {
  for (const root of [process.env.ARTIFACTS_DIR, resolve(PROJECT_ROOT, "artifacts"), resolve(PROJECT_ROOT, "test-output", "artifacts")]) {
    if (root && existsSync(join(root, "current"))) return realpathSync(join(root, "current"));
  }
  throw new Error("no published artifacts: run `npm run pipeline -- build` or the test suite first");
}

const dir = findArtifacts();
const data = openDroughtArtifacts(dir, readManifest(dir));
const grid = data.grid;
const maxZoom = intSetting(process.env, "TILE_MAX_ZOOM", 10);
const lattice = cellLattice(grid);
const months = precomputedMonths(grid, data.defaultMonth, intSetting(process.env, "BENCH_MONTHS", 3));

console.log(`artifacts ${data.version}: ${grid.nCells} cells, zooms 0-${maxZoom}, months ${months.map(formatMonth).join(", ")}`);
// The land mask (coastal cells over land only) is made once per build; the raster build runs with and without it,
// alternating per month so both see the same machine state.
const provinces = loadProvinces();
const tMask = performance.now();
const land = latticeLand(lattice, landMask(flattenRings(provinces), lattice.bbox, grid.resolutionDeg));
const maskMs = performance.now() - tMask;
const tLand = performance.now();
cellLand(grid, lattice, provinces, land);
const cellLandMs = performance.now() - tLand;
console.log(`land mask ${land.nCols} × ${land.nRows} (${(land.bits.length / 1e6).toFixed(1)} MB) in ${maskMs.toFixed(0)} ms; vector cells cut to land in ${cellLandMs.toFixed(0)} ms`);
const runs = { withLand: { ms: [] as number[], bytes: [] as number[], tiles: [] as number[] }, squares: { ms: [] as number[], bytes: [] as number[], tiles: [] as number[] } };
for (const month of months) {
  for (const [name, mask] of [["withLand", land], ["squares", undefined]] as const) {
    const t0 = performance.now();
    let bytes = 0;
    let tiles = 0;
    for (const index of TILE_INDICES) {
      const a = buildDroughtArchive(grid, lattice, index, month, maxZoom, mask);
      bytes += a.bytes.length;
      tiles += a.tiles;
    }
    runs[name].ms.push(performance.now() - t0);
    runs[name].bytes.push(bytes);
    runs[name].tiles.push(tiles);
  }
}
for (const [name, r] of Object.entries(runs)) {
  console.log(`raster build per month (6 indices, ${name === "withLand" ? "land only" : "whole squares"}): median ${median(r.ms).toFixed(0)} ms, ${median(r.tiles)} tiles, ${(median(r.bytes) / 1e6).toFixed(2)} MB of archives`);
}
console.log(`land only / whole squares build time: ${(median(runs.withLand.ms) / median(runs.squares.ms)).toFixed(2)}`);

// A full tile set for the serving benchmark: one month, in a scratch directory beside a copy of the version.
const scratch = mkdtempSync(join(tmpdir(), "tiles-bench-"));
const report = await buildTiles({ grid, provinces, summaries: data.summaries, provinceMeta: data.provinces, outDir: scratch, months: 1, maxZoom, latestMonth: data.defaultMonth });
const vectorBytes = report.archives.filter((a) => !a.name.startsWith("tiles-drought")).map((a) => `${a.name} ${(a.bytes / 1e6).toFixed(2)} MB`);
console.log(`vector archives in ${report.vectorMs.toFixed(0)} ms: ${vectorBytes.join(", ")}`);
// The router reads tiles-index.json and archives from its version directory: point it at the scratch copy,
// with the version's binary data already open.
const current = () => ({ version: data.version, dir: scratch, data });
const app = express();
app.use(createTilesRouter({ current, logger: log }));
const routerServer = app.listen(0, "127.0.0.1");
await new Promise((r) => routerServer.once("listening", r));
const routerBase = `http://127.0.0.1:${(routerServer.address() as AddressInfo).port}`;

// One z8 tile over Bangkok, fetched once to fill the cache; the static server sends exactly those bytes.
const z = Math.min(8, maxZoom);
const x = Math.floor(lngToTileX(100.5, z));
const y = Math.floor(latToTileY(13.75, z));
const path = `/tiles/v/${data.version}/drought-spei1-${formatMonth(data.defaultMonth)}/${z}/${x}/${y}.png`;
const first = await fetch(routerBase + path);
if (first.status !== 200) throw new Error(`warm-up ${path}: HTTP ${first.status}`);
const body = Buffer.from(await first.arrayBuffer());
const etag = first.headers.get("etag")!;
const staticServer: Server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "image/png", "Content-Length": body.length, ETag: etag, "Cache-Control": "private, max-age=31536000, immutable" });
  res.end(body);
});
staticServer.listen(0, "127.0.0.1");
await new Promise((r) => staticServer.once("listening", r));
const staticBase = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
// For scale: Express with one route sending the same bytes (the framework's own cost per request).
const bare = express();
bare.get("/tiles/v/:version/:tileset/:z/:x/:y.:ext", (_req, res) => {
  res.setHeader("Content-Type", "image/png");
  res.setHeader("ETag", etag);
  res.end(body);
});
const bareServer = bare.listen(0, "127.0.0.1");
await new Promise((r) => bareServer.once("listening", r));
const bareBase = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

const duration = intSetting(process.env, "BENCH_SECONDS", 3);
const rounds = 3;
const rps = { router: [] as number[], static: [] as number[], express: [] as number[] };
for (let i = 0; i < rounds; i++) {
  for (const [name, base] of [["router", routerBase], ["static", staticBase], ["express", bareBase]] as const) {
    const r = await autocannon({ url: base + path, connections: 16, duration });
    if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} non-2xx responses`);
    rps[name].push(r.requests.average);
  }
}
console.log(`cached tile (${body.length} B) over HTTP, ${rounds} × ${duration} s, 16 connections: router median ${median(rps.router).toFixed(0)} req/s, static node:http median ${median(rps.static).toFixed(0)} req/s, ratio ${(median(rps.router) / median(rps.static)).toFixed(2)}; bare Express route ${median(rps.express).toFixed(0)} req/s`);
routerServer.close();
staticServer.close();
bareServer.close();
