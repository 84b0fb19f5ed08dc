// Without a hand-set variable the build picks the grid source by itself (GRID_SOURCE=auto): after a refresh of the
// keyless NOAA PSL pair from a replay of its origin, the drought grid is built from PREC/L and GHCN-CAMS with the
// 1991–2020 baseline and every drought answer names them; a gridded source that does not build is skipped for the
// next one, with its reason in the build report.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { monthIndex, type MonthIndex } from "../../lib/months.ts";
import { readManifest } from "../../formats/manifest.ts";
import { buildDrought } from "../../pipeline/build.ts";
import { buildSettingsFromEnv } from "../../pipeline/build-settings.ts";
import { GHCN_CAMS_DATA_DIR_FILE, PRECL_DATA_DIR_FILE } from "../../pipeline/grid/grid-source.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { ERA5_DATA_DIR_FILE } from "../../pipeline/sources/cds.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { publishSourceStatus } from "../../pipeline/sources/publish-status.ts";
import { startRealServer, type RealServer } from "../e2e/real-server.ts";
import { writeNetcdf3 } from "../netcdf/write-netcdf3.ts";
import { axis, plausiblePrecipitation, plausibleTemperature } from "../netcdf-build/fixtures.ts";

// 1° over Thailand, 1989-01..2022-12, in the two files' own layouts: latitudes descending, longitudes 0..360,
// time in hours since 1800-01-01 along the record dimension.
const LATS = axis(21, 5, 1);
const LNGS = axis(97, 106, 1);
const FIRST = monthIndex(1989, 1);
const N = 12 * 34;
const FILL = -9.96921e36;
const hours = (m: MonthIndex) => (Date.UTC(Math.floor(m / 12), m % 12, 1) - Date.UTC(1800, 0, 1)) / 3600_000;
const daysIn = (m: MonthIndex) => new Date(Date.UTC(Math.floor(m / 12), (m % 12) + 1, 0)).getUTCDate();

function writePsl(path: string, name: string, units: string, value: (lat: number, lng: number, m: MonthIndex) => number): void {
  mkdirSync(dirname(path), { recursive: true });
  const data: number[] = [];
  for (let t = 0; t < N; t++) for (const la of LATS) for (const lo of LNGS) data.push(value(la, lo, FIRST + t));
  writeNetcdf3(path, {
    dims: [{ name: "lat", size: LATS.length }, { name: "lon", size: LNGS.length }, { name: "time", size: 0 }],
    numRecords: N,
    variables: [
      { name: "lat", dims: ["lat"], type: "float", attrs: { units: "degrees_north" }, data: LATS },
      { name: "lon", dims: ["lon"], type: "float", attrs: { units: "degrees_east" }, data: LNGS },
      { name: "time", dims: ["time"], type: "double", attrs: { units: "hours since 1800-01-01 00:00:0.0" }, data: Array.from({ length: N }, (_, t) => hours(FIRST + t)) },
      { name, dims: ["time", "lat", "lon"], type: "float", attrs: { units, missing_value: { type: "float", values: [FILL] } }, data },
    ],
  });
}

const files = mkdtempSync(join(tmpdir(), "auto-grid-files-"));
const preclFile = join(files, "precip.mon.mean.0.5x0.5.nc");
const camsFile = join(files, "air.mon.mean.nc");
writePsl(preclFile, "precip", "mm/day", (la, lo, m) => plausiblePrecipitation(la, lo, m) / daysIn(m));
writePsl(camsFile, "air", "degK", (la, lo, m) => plausibleTemperature(la, lo, m) + 273.15);

const settings = () => buildSettingsFromEnv({ TILE_MONTHS: "1", TILE_MAX_ZOOM: "4" });

describe("GRID_SOURCE=auto after a refresh of the keyless sources", () => {
  let replay: Server;
  let base = "";
  let server: RealServer | undefined;
  const artifacts = mkdtempSync(join(tmpdir(), "auto-grid-art-"));

  beforeAll(async () => {
    const bodies: Record<string, Buffer> = {
      "/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc": readFileSync(preclFile),
      "/Datasets/ghcncams/air.mon.mean.nc": readFileSync(camsFile),
    };
    replay = createServer((req, res) => {
      const body = bodies[req.url ?? ""];
      res.writeHead(body ? 200 : 404, body ? { "content-type": "application/x-netcdf", "content-length": String(body.length) } : {});
      res.end(body);
    });
    await new Promise<void>((r) => replay.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((r) => replay.close(() => r()));
  });

  it("builds the grid from PREC/L and GHCN-CAMS with the 1991–2020 baseline, and the answers name them", async () => {
    const env = {
      SOURCE_URL_PRECL: `${base}/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc`,
      SOURCE_URL_GHCN_CAMS: `${base}/Datasets/ghcncams/air.mon.mean.nc`,
      SOURCES_RETRIES: "0",
      // The suite's shared file facts (test/global-setup.ts): the mirror's files are not checked again here.
      SOURCE_FACTS_FILE: process.env.SOURCE_FACTS_FILE,
    };
    const results = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["precl", "ghcn_cams"], progress: { start() {}, source() {} } });
    expect(results.map((r) => [r.source, r.outcome])).toEqual([["precl", "updated"], ["ghcn_cams", "updated"]]);
    await writeInputOverlay(dataDir(), artifacts, env);
    const inputs = effectiveDataDir(dataDir(), artifacts);
    expect(inputs).toBe(join(artifacts, "inputs"));

    const r = await buildDrought({ dataDir: inputs, artifactsDir: artifacts, settings: settings() });
    expect(r).toMatchObject({ status: "published", gridSource: "keyless" });
    const m = readManifest(r.dir!);
    expect(m.qc).toMatchObject({ source: "netcdf", gridSource: "keyless" });
    expect(m.baseline).toEqual({ start: "1991-01", end: "2020-12" });
    expect(Object.keys(m.inputs)).toEqual(expect.arrayContaining([PRECL_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE]));
    expect(m.latestValidMonth).toBe("2022-12");
    const report = JSON.parse(readFileSync(join(r.dir!, m.report), "utf8"));
    expect(report.gridSource).toMatchObject({ name: "keyless", skipped: [] });

    // The same inputs again: nothing to publish.
    expect(await buildDrought({ dataDir: inputs, artifactsDir: artifacts, settings: settings() })).toMatchObject({ status: "unchanged", version: m.version, gridSource: "keyless" });

    // The sources status as `make nightly` publishes it, for the answers' stale flags.
    await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifacts, env });
    server = await startRealServer(artifacts);
    const res = await fetch(`${server.base}/api/risk-map/drought?lat=13.75&lng=100.5`, { headers: { "x-api-key": server.key } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.period).toEqual({ month: "2022-12", monthReason: "the grid's latest month with every index", climatologyBaseline: "1991-2020" });
    // The cells are the files' own 1° cells over the region (grid id SEA100-…).
    expect(body.data.location.gridId).toMatch(/^SEA100-/);
    const score = await fetch(`${server.base}/api/risk-map/score`, {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: JSON.stringify({ lat: 13.75, lng: 100.5, riskType: "drought" }),
    });
    expect(score.status).toBe(200);
    // The map layers credit the grid's inputs too.
    const tilejson = await (await fetch(`${server.base}/tiles/drought-spei1.json`, { headers: { "x-api-key": server.key } })).json();
    expect(tilejson.attribution).toBe("Drought indices from NOAA PSL PREC/L (Chen et al. 2002) and GHCN-CAMS (Fan & van den Dool 2008); provinces © geoBoundaries (ODbL)");
    const scored = (await score.json()).data;
    // Stale by the grid's own inputs (data to 2022-12, cadence monthly), not by the station record it was not
    // built from (GHCN-Daily, whose mirror copy ends in 2019).
    expect(scored.stale).toBe(true);
    expect(scored.staleSources.map((s: { name: string }) => s.name)).toEqual(["precl", "ghcn_cams"]);
    expect(scored.dataSources).toEqual([
      "NOAA PSL PREC/L monthly precipitation over land, 0.5° (Chen et al. 2002)",
      "NOAA PSL GHCN-CAMS monthly 2 m air temperature, 0.5° (Fan & van den Dool 2008)",
      "geoBoundaries gbOpen THA ADM1 province boundaries (ODbL)",
    ]);
  }, 120_000);
});

describe("a gridded candidate that does not build", () => {
  it("is skipped for the next one, its reason in the build report", async () => {
    const dd = mkdtempSync(join(tmpdir(), "auto-grid-data-"));
    symlinkSync(join(dataDir(), "boundaries"), join(dd, "boundaries"));
    mkdirSync(dirname(join(dd, ERA5_DATA_DIR_FILE)), { recursive: true });
    // An ERA5 download cut to its signature: present, so a candidate, but unreadable.
    writeFileSync(join(dd, ERA5_DATA_DIR_FILE), Buffer.from("CDF\x01\0\0\0\0", "latin1"));
    mkdirSync(dirname(join(dd, PRECL_DATA_DIR_FILE)), { recursive: true });
    mkdirSync(dirname(join(dd, GHCN_CAMS_DATA_DIR_FILE)), { recursive: true });
    symlinkSync(preclFile, join(dd, PRECL_DATA_DIR_FILE));
    symlinkSync(camsFile, join(dd, GHCN_CAMS_DATA_DIR_FILE));
    const artifacts = mkdtempSync(join(tmpdir(), "auto-grid-art2-"));
    const r = await buildDrought({ dataDir: dd, artifactsDir: artifacts, settings: settings() });
    expect(r.gridSource).toBe("keyless");
    const report = JSON.parse(readFileSync(join(r.dir!, "build-report.json"), "utf8"));
    expect(report.gridSource.skipped).toHaveLength(1);
    expect(report.gridSource.skipped[0].gridSource).toBe("era5");
    expect(report.gridSource.skipped[0].reason).toContain(ERA5_DATA_DIR_FILE.split("/").at(-1));
  }, 120_000);
});
