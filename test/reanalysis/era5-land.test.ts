// ERA5-Land as the CDS delivers it (../shared/data/climate/era5-land-sample: int16 packed, precipitation in m per
// day as monthly means, latitudes descending) read by the NetCDF grid path, checked against the mirror's own spot
// checks (PROVENANCE.md); and the CDS job flow against a local stand-in: queued → running → successful → download,
// a failed job, and a job that never finishes.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth } from "../../lib/months.ts";
import { readMonthlyClimateGrid, seriesOffset, type MonthlyGrid } from "../../pipeline/inputs/netcdf/index.ts";
import { CdsError, ERA5_DATA_DIR_FILE, era5LandMonthlyRequest, retrieveFromCds } from "../../pipeline/sources/cds.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { doubleAttr, shortAttr, writeNetcdf3 } from "../netcdf/write-netcdf3.ts";

const sample = (f: string) => join(dataDir(), "climate/era5-land-sample", f);

function at(g: MonthlyGrid, lat: number, lng: number, month: string): number {
  let i = 0;
  let j = 0;
  for (let k = 0; k < g.lats.length; k++) if (Math.abs(g.lats[k] - lat) < Math.abs(g.lats[i] - lat)) i = k;
  for (let k = 0; k < g.lngs.length; k++) if (Math.abs(g.lngs[k] - lng) < Math.abs(g.lngs[j] - lng)) j = k;
  const t = g.months.findIndex((m) => formatMonth(m) === month);
  return g.values[seriesOffset(g, i, j) + t];
}

describe("ERA5-Land monthly means from the CDS (real sample)", () => {
  it("reads precipitation as mm per month (m per day × days) and temperature in °C, latitudes ascending", async () => {
    const p20 = await readMonthlyClimateGrid(sample("meanprecip_month_viet_2020.nc"), { kind: "precipitation", units: "m day-1" });
    const p21 = await readMonthlyClimateGrid(sample("meanprecip_month_viet_2021.nc"), { kind: "precipitation", units: "m day-1" });
    const t21 = await readMonthlyClimateGrid(sample("meantemp_month_viet_2021.nc"), { kind: "temperature" });
    expect(p20.units).toBe("mm");
    expect(t21.units).toBe("degC");
    expect(p20.lats[0]).toBeLessThan(p20.lats.at(-1)!);
    expect([p20.lats[0], p20.lats.at(-1), p20.lngs[0], p20.lngs.at(-1)]).toEqual([7.5, 24, 100, 110]);
    expect(p20.months.map(formatMonth)).toEqual(Array.from({ length: 12 }, (_, i) => `2020-${String(i + 1).padStart(2, "0")}`));
    // PROVENANCE.md spot checks at Bangkok (the 0.1° cell 13.8 N 100.5 E): June 2020 ≈ 132 mm, 2021 total
    // ≈ 1,490 mm, April 2021 ≈ 28.4 °C. Coordinates are stored as float32 (100.4000015…): the nearest is taken.
    expect(Math.round(at(p20, 13.8, 100.5, "2020-06"))).toBe(132);
    let total = 0;
    for (let m = 1; m <= 12; m++) total += at(p21, 13.8, 100.5, `2021-${String(m).padStart(2, "0")}`);
    expect(Math.round(total / 10) * 10).toBe(1_490);
    expect(Math.abs(at(t21, 13.8, 100.5, "2021-04") - 28.4)).toBeLessThan(0.3);
    // A sea cell (fill value -32767) is missing, not a number.
    expect(at(p20, 10, 109, "2020-06")).toBeNaN();
  });

  it("a month is the daily mean times its days: February 2020 has 29", async () => {
    const asStored = await readMonthlyClimateGrid(sample("meanprecip_month_viet_2020.nc"), { kind: "precipitation", units: "m" });
    const perDay = await readMonthlyClimateGrid(sample("meanprecip_month_viet_2020.nc"), { kind: "precipitation", units: "m day-1" });
    const feb = at(perDay, 13.75, 100.5, "2020-02");
    expect(feb).toBeCloseTo(at(asStored, 13.75, 100.5, "2020-02") * 29, 9);
  });
});

describe("CDS job flow against a local stand-in", () => {
  let server: Server;
  let base = "";
  const seen: { method: string; url: string; token?: string; body?: string }[] = [];
  let script: { statuses: string[]; fail?: string } = { statuses: [] };
  const payload = readFileSync(sample("meantemp_month_viet_2021.nc"));
  let servedFile = payload;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, token: req.headers["private-token"] as string | undefined, body });
        const send = (status: number, obj: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(obj));
        };
        if (req.method === "POST" && req.url === "/api/retrieve/v1/processes/reanalysis-era5-land-monthly-means/execution") return send(201, { jobID: "job-1", status: "accepted" });
        if (req.url === "/api/retrieve/v1/jobs/job-1") return send(200, { jobID: "job-1", status: script.statuses.shift() ?? "running" });
        if (req.url === "/api/retrieve/v1/jobs/job-1/results") {
          if (script.fail) return send(400, { title: script.fail });
          return send(200, { asset: { value: { href: `${base}/download/file.nc`, "file:size": payload.length } } });
        }
        if (req.url === "/download/file.nc") {
          res.writeHead(200, { "content-type": "application/x-netcdf", "content-length": String(servedFile.length) });
          return res.end(servedFile);
        }
        send(404, { detail: "not found" });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const dir = mkdtempSync(join(tmpdir(), "cds-"));
  const run = (extra: Partial<Parameters<typeof retrieveFromCds>[0]> = {}) =>
    retrieveFromCds({ baseUrl: `${base}/api`, key: "secret-key-123", dataset: "reanalysis-era5-land-monthly-means", request: era5LandMonthlyRequest([2021], [97, 5, 106, 21]), output: join(dir, "era5.nc"), pollMs: 5, ...extra });

  it("submits, polls queued → running → successful, downloads the asset; the key only in the header", async () => {
    servedFile = payload;
    script = { statuses: ["accepted", "running", "successful"] };
    seen.length = 0;
    const statuses: string[] = [];
    const r = await run({ onStatus: (s) => statuses.push(s) });
    expect(r).toEqual({ jobId: "job-1", bytes: payload.length });
    expect(readFileSync(join(dir, "era5.nc")).equals(payload)).toBe(true);
    expect(statuses).toEqual(["accepted", "running", "successful"]);
    const submit = seen[0];
    expect(JSON.parse(submit.body!)).toEqual({
      inputs: {
        product_type: ["monthly_averaged_reanalysis"],
        variable: ["total_precipitation", "2m_temperature"],
        year: ["2021"],
        month: ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"],
        time: ["00:00"],
        area: [21, 97, 5, 106],
        data_format: "netcdf",
        download_format: "unarchived",
      },
    });
    expect(seen.filter((s) => s.url.startsWith("/api/")).every((s) => s.token === "secret-key-123")).toBe(true);
    expect(seen.find((s) => s.url.startsWith("/download"))!.token).toBeUndefined();
    expect(seen.some((s) => s.url.includes("secret-key-123"))).toBe(false);
    // The downloaded file is the real ERA5-Land layout the grid path reads.
    const t = await readMonthlyClimateGrid(join(dir, "era5.nc"), { kind: "temperature" });
    expect(Math.abs(at(t, 13.75, 100.5, "2021-04") - 28.4)).toBeLessThan(0.3);
  });

  it("a failed job is an error with the CDS's reason; a job that never ends is given up", async () => {
    script = { statuses: ["running", "failed"], fail: "Request too large" };
    await expect(run()).rejects.toThrow(new CdsError("job job-1 failed: Request too large"));
    script = { statuses: [] };
    await expect(run({ maxWaitMs: 50 })).rejects.toThrow(/job job-1 still running after/);
  });

  it("the registry's era5 source refreshes through the job flow into the raw cache and the inputs tree", async () => {
    // A CDS answer to the combined request: tp (m per day) and t2m (K) in one file, int16 packed, latitudes
    // descending, hours since 1900 — the layout of the mirror's sample, written here for 2020-01..2021-12.
    const combined = join(dir, "combined.nc");
    const lats = [14, 13.9, 13.8];
    const lngs = [100.4, 100.5, 100.6];
    const n = 24;
    const hours = Array.from({ length: n }, (_, t) => (Date.UTC(2020, t, 1) - Date.UTC(1900, 0, 1)) / 3600_000);
    const tp = Int16Array.from({ length: n * 9 }, (_, i) => Math.round((0.004 + 0.002 * Math.sin(i)) / 1e-7) - 20000);
    const t2m = Int16Array.from({ length: n * 9 }, (_, i) => Math.round((300 + Math.cos(i)) / 0.001) - 300000 + 15000);
    writeNetcdf3(combined, {
      dims: [{ name: "longitude", size: 3 }, { name: "latitude", size: 3 }, { name: "time", size: n }],
      globalAttrs: { Conventions: "CF-1.6" },
      variables: [
        { name: "longitude", dims: ["longitude"], type: "float", attrs: { units: "degrees_east" }, data: lngs },
        { name: "latitude", dims: ["latitude"], type: "float", attrs: { units: "degrees_north" }, data: lats },
        { name: "time", dims: ["time"], type: "int", attrs: { units: "hours since 1900-01-01 00:00:00.0", calendar: "gregorian" }, data: hours },
        { name: "tp", dims: ["time", "latitude", "longitude"], type: "short", data: tp, attrs: { units: "m", scale_factor: doubleAttr(1e-7), add_offset: doubleAttr(0.002), _FillValue: shortAttr(-32767) } },
        { name: "t2m", dims: ["time", "latitude", "longitude"], type: "short", data: t2m, attrs: { units: "K", scale_factor: doubleAttr(0.001), add_offset: doubleAttr(285), _FillValue: shortAttr(-32767) } },
      ],
    });
    servedFile = readFileSync(combined);
    const artifacts = mkdtempSync(join(tmpdir(), "cds-refresh-"));
    // From 2018: 2018–2025 is one job (8 whole years, the most one job holds over the region: cds-today.test.ts).
    const env = { SOURCE_URL_ERA5: `${base}/api/retrieve/v1/processes/reanalysis-era5-land-monthly-means/execution`, CDSAPI_KEY: "secret-key-123", CDS_POLL_MS: "5", ERA5_FROM_YEAR: "2018" };
    const silent = { start() {}, source() {} };
    const skipped = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env: { CDS_POLL_MS: "5" }, only: ["era5"], progress: silent });
    expect(skipped[0]).toMatchObject({ outcome: "skipped", reason: "CDSAPI_KEY is not set" });
    script = { statuses: ["running", "successful"] };
    // In March 2026 the newest month the CDS has is December 2025: one job, whole years (test/reanalysis/cds-today.test.ts
    // has the current year's months and the ZIP answer).
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["era5"], progress: silent, now: new Date("2026-03-10T00:00:00Z") });
    expect(r).toMatchObject({ source: "era5", outcome: "updated", changed: 1, dataAsOf: "2021-12-31" });
    const submitted = JSON.parse(seen.filter((x) => x.method === "POST").at(-1)!.body!) as { inputs: { year: string[] } };
    expect(submitted.inputs.year[0]).toBe("2018");
    expect(submitted.inputs.year.at(-1)).toBe("2025");
    const tree = (await writeInputOverlay(dataDir(), artifacts, env)).dir;
    // The file in the inputs tree is the merge (NetCDF-4): the same values as the CDS's NetCDF-3 answer.
    const t = await readMonthlyClimateGrid(join(tree, ERA5_DATA_DIR_FILE), { kind: "temperature" });
    const p = await readMonthlyClimateGrid(join(tree, ERA5_DATA_DIR_FILE), { kind: "precipitation", units: "m day-1" });
    const t0 = await readMonthlyClimateGrid(combined, { kind: "temperature" });
    const p0 = await readMonthlyClimateGrid(combined, { kind: "precipitation", units: "m day-1" });
    expect(t.lats[0]).toBe(Math.fround(13.8));
    expect(t.months).toEqual(t0.months);
    expect(Math.max(...t.values.map((v, i) => Math.abs(v - t0.values[i])))).toBeLessThan(1e-4);
    expect(Math.max(...p.values.map((v, i) => Math.abs(v - p0.values[i])))).toBeLessThan(1e-4);
    expect(JSON.stringify(readSourceState(artifacts, "era5"))).not.toContain("secret-key-123");
  });
});
