// The keyless gridded sources (NOAA PSL PREC/L precipitation, GHCN-CAMS temperature): the real GHCN-CAMS extract
// of the mirror, a file written in PREC/L's layout (float mm/day, latitudes descending, longitudes 0..360), and the
// registry's refresh of PREC/L from a replay server into the inputs tree where GRID_SOURCE=netcdf reads it.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth } from "../../lib/months.ts";
import { readMonthlyClimateGrid, seriesOffset, type MonthlyGrid } from "../../pipeline/inputs/netcdf/index.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { sourceStates } from "../../pipeline/sources/state.ts";
import { SOURCES } from "../../pipeline/sources/registry.ts";
import { writeNetcdf3 } from "../netcdf/write-netcdf3.ts";

function at(g: MonthlyGrid, lat: number, lng: number, t: number): number {
  let i = 0;
  let j = 0;
  for (let k = 0; k < g.lats.length; k++) if (Math.abs(g.lats[k] - lat) < Math.abs(g.lats[i] - lat)) i = k;
  for (let k = 0; k < g.lngs.length; k++) if (Math.abs(g.lngs[k] - lng) < Math.abs(g.lngs[j] - lng)) j = k;
  return g.values[seriesOffset(g, i, j) + t];
}

const dir = mkdtempSync(join(tmpdir(), "keyless-"));
const precl = join(dir, "precip.mon.mean.0.5x0.5.nc");
// PREC/L's layout: precip(time, lat, lon) float, units "mm/day", missing_value, lat 89.75 → -89.75, lon 0.25 → 359.75
// (here a 4 × 4 window around Bangkok), time in hours since 1800-01-01.
const lats = [14.75, 14.25, 13.75, 13.25];
const lngs = [99.75, 100.25, 100.75, 101.25];
const months = 14;
const rate = (t: number, i: number) => (t === 3 && i === 5 ? -9.96921e36 : 1 + t * 0.5 + i * 0.01);
writeNetcdf3(precl, {
  dims: [{ name: "lat", size: 4 }, { name: "lon", size: 4 }, { name: "time", size: 0 }],
  numRecords: months,
  variables: [
    { name: "lat", dims: ["lat"], type: "float", attrs: { units: "degrees_north" }, data: lats },
    { name: "lon", dims: ["lon"], type: "float", attrs: { units: "degrees_east" }, data: lngs },
    { name: "time", dims: ["time"], type: "double", attrs: { units: "hours since 1800-01-01 00:00:0.0" }, data: Array.from({ length: months }, (_, t) => (Date.UTC(2019, t, 1) - Date.UTC(1800, 0, 1)) / 3600_000) },
    { name: "precip", dims: ["time", "lat", "lon"], type: "float", attrs: { units: "mm/day", missing_value: { type: "float", values: [-9.96921e36] }, long_name: "Average Monthly Rate of Precipitation" }, data: Array.from({ length: months * 16 }, (_, k) => rate(Math.floor(k / 16), k % 16)) },
  ],
});

describe("keyless gridded sources", () => {
  it("reads the mirror's GHCN-CAMS extract: 2 m air in °C, longitudes to −180..180, Bangkok warm", async () => {
    const g = await readMonthlyClimateGrid(join(dataDir(), "climate/ghcn-cams-sample/air.mon.mean.nc"), { kind: "temperature" });
    expect([g.variable, g.units, g.lats.length, g.lngs.length, g.lngs[0]]).toEqual(["air", "degC", 360, 720, -179.75]);
    expect(g.months.map(formatMonth)[0]).toBe("2018-01");
    const apr = at(g, 13.75, 100.25, 3);
    expect(apr).toBeGreaterThan(27);
    expect(apr).toBeLessThan(33);
  });

  it("reads PREC/L's layout: mm per day × days of the month, missing values missing", async () => {
    const g = await readMonthlyClimateGrid(precl, { kind: "precipitation" });
    expect(g.units).toBe("mm");
    expect([...g.lats]).toEqual([13.25, 13.75, 14.25, 14.75]);
    // Cell lat 14.25, lon 100.25 is index 5 of the file (row 1, column 1); February 2019 has 28 days.
    expect(at(g, 14.25, 100.25, 1)).toBeCloseTo(Math.fround(1 + 0.5 + 0.05) * 28, 4);
    expect(at(g, 14.25, 100.25, 3)).toBeNaN();
    expect(at(g, 13.25, 101.25, 12)).toBeCloseTo(Math.fround(1 + 6 + 0.15) * 31, 3);
  });

  describe("refresh from a replay of the PSL origin", () => {
    let server: Server;
    let base = "";
    beforeAll(async () => {
      const bytes = readFileSync(precl);
      server = createServer((req, res) => {
        if (req.url === "/cut/precip.mon.mean.0.5x0.5.nc") {
          // The classic signature and the first half only.
          res.writeHead(200, { "content-type": "application/x-netcdf" });
          res.end(bytes.subarray(0, bytes.length >> 1));
        } else if (req.url === "/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc") {
          res.writeHead(200, { "content-type": "application/x-netcdf", "content-length": String(bytes.length), etag: '"p1"' });
          res.end(bytes);
        } else {
          res.writeHead(404);
          res.end();
        }
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it("refuses a file with the NetCDF signature that does not open as a monthly grid; the previous copy stays", async () => {
      const artifacts = mkdtempSync(join(tmpdir(), "keyless-art-"));
      const env = { SOURCE_URL_PRECL: `${base}/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc`, SOURCES_RETRIES: "0" };
      const quiet = { start() {}, source() {} };
      await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["precl"], progress: quiet });
      const cut = { ...env, SOURCE_URL_PRECL: `${base}/cut/precip.mon.mean.0.5x0.5.nc` };
      const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env: cut, only: ["precl"], progress: quiet });
      expect(r, JSON.stringify(r)).toMatchObject({ outcome: "failed" });
      expect(r.reason).toMatch(/^1 of 1 file\(s\) failed, previous copies kept: precip\.mon\.mean\.0\.5x0\.5\.nc: not a readable NetCDF grid: /);
      const { dir: tree } = await writeInputOverlay(dataDir(), artifacts, env);
      expect((await readMonthlyClimateGrid(join(tree, "climate/precl/precip.mon.mean.0.5x0.5.nc"), { kind: "precipitation" })).months.length).toBe(months);
    });

    it("the mirror's GHCN-CAMS extract is dated by its time axis (2018-01..2018-08)", async () => {
      const [report] = await sourceStates({ dataDir: dataDir(), artifactsDir: mkdtempSync(join(tmpdir(), "keyless-st-")), env: { SOURCES_OFFLINE: "1" }, sources: SOURCES.filter((s) => s.name === "ghcn_cams") });
      expect(report.dataAsOf).toBe("2018-08-31");
    });

    it("lands in the raw cache and in the inputs tree at climate/precl/", async () => {
      const artifacts = mkdtempSync(join(tmpdir(), "keyless-art-"));
      const env = { SOURCE_URL_PRECL: `${base}/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc`, SOURCES_RETRIES: "0" };
      const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["precl"], progress: { start() {}, source() {} } });
      // The download's time axis gives its data as-of: 14 months from 2019-01 end in February 2020.
      expect(r).toMatchObject({ source: "precl", outcome: "updated", changed: 1, dataAsOf: "2020-02-29" });
      const { dir: tree } = await writeInputOverlay(dataDir(), artifacts, env);
      const g = await readMonthlyClimateGrid(join(tree, "climate/precl/precip.mon.mean.0.5x0.5.nc"), { kind: "precipitation" });
      expect(g.months.length).toBe(months);
    });
  });
});
