// make serve's first run (issue 25): the drought build publishes the grid with its map tiles and exports deferred
// (`build --defer`), a real server answers from it at once — real drought values, every tile rendered on request, the
// exports and the feed answers 503 with their reason, never invented values — and the next build without --defer
// publishes the same data with the tiles and exports added, which the running server takes up. The tiles and
// exports of that completion are byte for byte those of a full build with the same settings (the suite's own).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { buildDrought, type BuildResult } from "../../pipeline/build.ts";
import { buildSettingsFromEnv } from "../../pipeline/build-settings.ts";
import { readManifest } from "../../formats/manifest.ts";
import { EXPORT_FILE_NAMES } from "../../formats/drought-export.ts";
import { validateVersion } from "../../formats/version-files.ts";
import { eventually } from "../server/processes.ts";
import { startRealServer, type RealServer } from "./real-server.ts";
import { SUITE_TILE_SETTINGS } from "../suite-tiles.ts";

// The settings of the suite's own build (test/global-setup.ts), so that the completion can be compared with it.
const SETTINGS = buildSettingsFromEnv({ ...SUITE_TILE_SETTINGS });
const TILE = "/tiles/drought-spei1/6/50/29.png";
const DERIVED = (name: string) => name.startsWith("tiles-") || EXPORT_FILE_NAMES.includes(name);

let artifactsDir: string;
let core: BuildResult;
let server: RealServer;

const get = (path: string) => fetch(server.base + path, { headers: { "x-api-key": server.key } });

beforeAll(async () => {
  artifactsDir = mkdtempSync(join(tmpdir(), "first-run-"));
  core = await buildDrought({ dataDir: dataDir(), artifactsDir, settings: SETTINGS, defer: true });
  server = await startRealServer(artifactsDir);
}, 240_000);

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  rmSync(artifactsDir, { recursive: true, force: true });
});

describe("make serve's first run: the grid first, its tiles and exports after", () => {
  it("build --defer publishes a valid version without tiles and exports that says so; a second --defer changes nothing", async () => {
    expect(core).toMatchObject({ status: "published", deferred: ["tiles", "exports"] });
    const dir = realpathSync(join(artifactsDir, "current"));
    const m = readManifest(dir);
    expect(m.deferred).toEqual(["tiles", "exports"]);
    expect(Object.keys(m.artifacts).filter(DERIVED)).toEqual([]);
    expect(await validateVersion(dir)).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, "build-report.json"), "utf8"));
    expect(report).toMatchObject({ tiles: null, exports: null, deferred: ["tiles", "exports"] });
    const again = await buildDrought({ dataDir: dataDir(), artifactsDir, settings: SETTINGS, defer: true });
    expect(again).toMatchObject({ status: "unchanged", version: core.version, deferred: ["tiles", "exports"] });
  }, 60_000);

  it("the server answers real drought data at once; tiles are rendered on request; exports and feed answers are 503 with the reason", async () => {
    const d = await get("/api/risk-map/drought?lat=18.79&lng=98.98");
    expect(d.status).toBe(200);
    expect(d.headers.get("x-data-version")).toBe(core.version);
    const body = await d.json();
    expect(body.data.location.gridId).toMatch(/^SEA100-\d+$/);
    expect(typeof body.data.drought.indices.spei1).toBe("number");

    const index = (await (await get("/tiles/index.json")).json()).data;
    expect(index).toMatchObject({ version: core.version, precomputedMonths: [], archivesDeferred: true });
    const tile = await get(TILE);
    expect(tile.status).toBe(200);
    expect(tile.headers.get("content-type")).toBe("image/png");
    expect((await get("/tiles/provinces/5/25/14.mvt")).status).toBe(200);

    const list = (await (await get("/api/risk-map/drought/exports")).json()).data;
    expect(list).toMatchObject({ version: core.version, files: [], pending: expect.stringMatching(/published before its exports/) });
    const file = await get("/api/risk-map/drought/exports/drought-cells.parquet");
    expect(file.status).toBe(503);
    expect((await file.json()).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { reason: "exports-deferred" } });

    const flood = await fetch(server.base + "/api/risk-map/score", {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: JSON.stringify({ lat: 13.75, lng: 100.5, riskType: "flood", timeframe: "1y" }),
    });
    expect(flood.status).toBe(503);
    expect((await flood.json()).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: "flood snapshot not loaded yet", details: { reason: "nothing published yet" } });
  });

  it("the next build adds the tiles and exports of the same data (as a full build makes them); the server takes them up", async () => {
    const rendered = Buffer.from(await (await get(TILE)).arrayBuffer());
    const done = await buildDrought({ dataDir: dataDir(), artifactsDir, settings: SETTINGS });
    expect(done).toMatchObject({ status: "published", completed: core.version });
    expect(done.version).not.toBe(core.version);
    const dir = realpathSync(join(artifactsDir, "current"));
    const m = readManifest(dir);
    expect(m.deferred).toBeUndefined();
    expect(existsSync(join(dir, "tiles-index.json"))).toBe(true);
    expect(await validateVersion(dir)).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, "build-report.json"), "utf8"))).toMatchObject({ version: done.version, completes: { version: core.version }, tiles: { months: expect.any(Array) } });

    // The same files as the suite's full build with the same settings: the core's files unchanged, the derived ones equal.
    const full = readManifest(realpathSync(join(inject("artifactsDir"), "current")));
    expect(m.settings.fingerprint).toBe(full.settings.fingerprint);
    const sums = (a: typeof m.artifacts) => Object.fromEntries(Object.entries(a).filter(([n]) => n !== "build-report.json").map(([n, c]) => [n, c.sha256]));
    expect(sums(m.artifacts)).toEqual(sums(full.artifacts));

    await eventually(async () => (await (await get("/tiles/index.json")).json()).data.version === done.version, "the server takes up the complete version", 20_000);
    const index = (await (await get("/tiles/index.json")).json()).data;
    expect(index.archivesDeferred).toBe(false);
    expect(index.precomputedMonths).toHaveLength(2);
    const archived = Buffer.from(await (await get(TILE)).arrayBuffer());
    expect(archived.equals(rendered)).toBe(true);
    const list = (await (await get("/api/risk-map/drought/exports")).json()).data;
    expect(list.pending).toBeUndefined();
    expect(list.files.map((f: { name: string }) => f.name).sort()).toEqual([...EXPORT_FILE_NAMES].sort());
    expect((await get("/api/risk-map/drought/exports/province-summaries.csv.gz")).status).toBe(200);
    // Built once: a further build is unchanged.
    expect(await buildDrought({ dataDir: dataDir(), artifactsDir, settings: SETTINGS })).toMatchObject({ status: "unchanged", version: done.version });
  }, 300_000);
});
