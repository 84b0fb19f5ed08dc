// The era5 refresh against a local CDS answering as today's CDS does. The job flow is modelled on the CDS's own
// client, ecmwf-datastores-client (ecmwf/datastores/processing.py: POST …/processes/{id}/execution with
// {"inputs": …} → {jobID, status, links[rel=monitor]}; GET …/jobs/{id} → status accepted|running|successful|failed|
// dismissed|deleted; GET …/jobs/{id}/results → asset.value {href, type, "file:size"}; 4xx bodies {title, detail}).
// The answer is what the CDS sends for a request mixing step types even with download_format "unarchived": a ZIP
// holding data_stream-moda_stepType-avgad.nc (tp) and data_stream-moda_stepType-avgua.nc (t2m), NetCDF-4 (HDF5),
// float32, deflated, with an int64 `valid_time` in seconds since 1970-01-01 and a string `expver` per step (the
// names and layout that users' scripts of today's CDS output open). The 403 body is the CDS's own wording as
// reported in ecmwf/cdsapi issue #108; the 401 body is a stand-in (only the status matters here).
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { readMonthlyClimateGrid, seriesOffset } from "../../pipeline/inputs/netcdf/index.ts";
import { writeNetcdf4 } from "../../pipeline/inputs/netcdf/write-netcdf4.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { DROUGHT_REGION_BOX, era5Requests, ERA5_DATA_DIR_FILE, yearsPerRequest } from "../../pipeline/sources/cds.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { netcdfDataAsOf } from "../../pipeline/sources/netcdf-as-of.ts";
import { readSourceState } from "../../pipeline/sources/raw-cache.ts";

const LATS = [14, 13.9, 13.8]; // descending, as the CDS writes them
const LNGS = [100.4, 100.5, 100.6];
const CELLS = LATS.length * LNGS.length;
const FIRST = monthIndex(2024, 1);
/** tp, m per day (mean of daily totals), and t2m, K, of month m at cell c (row-major over LATS × LNGS as stored). */
const tp = (m: number, c: number) => 0.001 * (1 + ((m - FIRST) % 12)) + 0.0001 * c;
const t2m = (m: number, c: number) => 290 + 0.1 * (m - FIRST) + 0.01 * c;

/** One per-step-type member as the CDS writes it, for the months [from, from + n). */
async function member(path: string, variable: "tp" | "t2m", from: number, n: number): Promise<Buffer> {
  const months = Array.from({ length: n }, (_, t) => from + t);
  const f = variable === "tp" ? tp : t2m;
  await writeNetcdf4(path, {
    globalAttrs: { GRIB_centre: "ecmf", Conventions: "CF-1.7", institution: "European Centre for Medium-Range Weather Forecasts" },
    coords: [
      { name: "valid_time", data: BigInt64Array.from(months, (m) => BigInt(Date.UTC(Math.floor(m / 12), m % 12, 1) / 1000)), attrs: { units: "seconds since 1970-01-01", calendar: "proleptic_gregorian", standard_name: "time", long_name: "time" } },
      { name: "latitude", data: Float64Array.from(LATS), attrs: { units: "degrees_north", standard_name: "latitude", long_name: "latitude" } },
      { name: "longitude", data: Float64Array.from(LNGS), attrs: { units: "degrees_east", standard_name: "longitude", long_name: "longitude" } },
    ],
    variables: [
      { name: "expver", dims: ["valid_time"], data: months.map(() => "0001") },
      {
        name: variable,
        dims: ["valid_time", "latitude", "longitude"],
        data: Float32Array.from({ length: n * CELLS }, (_, i) => f(months[Math.floor(i / CELLS)], i % CELLS)),
        attrs: variable === "tp"
          ? { units: "m", long_name: "Total precipitation", GRIB_stepType: "avgad", _FillValue: Float32Array.of(NaN) }
          : { units: "K", long_name: "2 metre temperature", standard_name: "unknown", GRIB_stepType: "avgua", _FillValue: Float32Array.of(NaN) },
        deflate: 1,
      },
    ],
  });
  return readFileSync(path);
}

async function cdsZip(dir: string, from: number, n: number): Promise<Buffer> {
  return Buffer.from(zipSync({
    "data_stream-moda_stepType-avgad.nc": await member(join(dir, `avgad-${from}.nc`), "tp", from, n),
    "data_stream-moda_stepType-avgua.nc": await member(join(dir, `avgua-${from}.nc`), "t2m", from, n),
  }));
}

type Mode = "ok" | "current-year-not-yet" | "a-whole-year-fails" | "deleted" | "401" | "403";

describe("era5 refresh against today's CDS", () => {
  const dir = mkdtempSync(join(tmpdir(), "cds-today-"));
  let server: Server;
  let base = "";
  let mode: Mode = "ok";
  const submitted: { year: string[]; month: string[]; area: number[] }[] = [];
  const seen: string[] = [];
  const files = new Map<string, Buffer>();
  const jobs = new Map<string, { status: string[]; file: string }>();
  beforeAll(async () => {
    // 2024-01..2025-12 for the whole years; 2026-01..07 for the current year (asked up to 08: a shorter answer).
    files.set("whole-2024-2.zip", await cdsZip(dir, FIRST, 24));
    files.set("current.zip", await cdsZip(dir, monthIndex(2026, 1), 7));
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        seen.push(`${req.method} ${req.url}`);
        const send = (status: number, obj: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(obj));
        };
        const api = "/api/retrieve/v1";
        if (req.method === "POST" && req.url === `${api}/processes/reanalysis-era5-land-monthly-means/execution`) {
          if (mode === "401") return send(401, { type: "about:blank", title: "Authentication failed", status: 401, detail: "the access token is not valid" });
          if (mode === "403") {
            return send(403, { type: "about:blank", title: "required licences not accepted", status: 403, detail: "required licences not accepted; please accept the following licences to proceed: [{'id': 'cc-by-4.0', 'revision': 1}]" });
          }
          const inputs = (JSON.parse(body) as { inputs: { year: string[]; month: string[]; area: number[] } }).inputs;
          submitted.push(inputs);
          const id = `job-${submitted.length}`;
          const current = inputs.year.length === 1 && inputs.year[0] === "2026";
          const failing = (current && mode === "current-year-not-yet") || (inputs.year[0] === "2024" && mode === "a-whole-year-fails");
          const status = mode === "deleted" ? ["running", "deleted"] : failing ? ["failed"] : ["running", "successful"];
          // Whole years: the answer holds the years asked for, on the same cells.
          const file = current ? "current.zip" : `whole-${inputs.year[0]}-${inputs.year.length}.zip`;
          if (!files.has(file)) files.set(file, await cdsZip(dir, monthIndex(Number(inputs.year[0]), 1), 12 * inputs.year.length));
          jobs.set(id, { status, file });
          return send(201, { processID: "reanalysis-era5-land-monthly-means", type: "process", jobID: id, status: "accepted", links: [{ href: `${base}${api}/jobs/${id}`, rel: "monitor" }] });
        }
        const job = /^\/api\/retrieve\/v1\/jobs\/([^/?]+)(\/results)?/.exec(req.url!);
        if (job && jobs.has(job[1])) {
          const j = jobs.get(job[1])!;
          if (!job[2]) return send(200, { jobID: job[1], status: j.status.length > 1 ? j.status.shift() : j.status[0], type: "process" });
          if (j.status[0] === "failed") return send(400, { type: "about:blank", title: "There is no data matching your request", status: 400 });
          const bytes = files.get(j.file)!;
          return send(200, { asset: { value: { type: "application/zip", href: `${base}/download/${job[1]}/${j.file}`, "file:size": bytes.length } } });
        }
        const download = /^\/download\/[^/]+\/(.+)$/.exec(req.url!);
        if (download && files.has(download[1])) {
          res.writeHead(200, { "content-type": "application/zip", "content-length": String(files.get(download[1])!.length) });
          return res.end(files.get(download[1]));
        }
        send(404, { title: "not found" });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const silent = { start() {}, source() {} };
  const now = new Date("2026-11-24T00:00:00Z");
  const env = (key = "0123abcd-4567-89ef-0123-456789abcdef") => ({
    SOURCE_URL_ERA5: `${base}/api/retrieve/v1/processes/reanalysis-era5-land-monthly-means/execution`,
    CDSAPI_KEY: key,
    CDS_POLL_MS: "5",
    ERA5_FROM_YEAR: "2024",
  });
  const refresh = async (artifacts: string, e = env()) => (await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env: e, only: ["era5"], progress: silent, now }))[0];

  it("asks for the whole years, then the current year up to the month 3 months back", () => {
    expect(era5Requests(now, 1991)).toEqual([
      { years: Array.from({ length: 35 }, (_, i) => 1991 + i), months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] },
      { years: [2026], months: [1, 2, 3, 4, 5, 6, 7, 8] },
    ]);
    // March 2026: the newest month is December 2025, so whole years only; January: October 2025.
    expect(era5Requests(new Date("2026-03-10T00:00:00Z"), 1991).map((r) => [r.years.at(-1), r.months.length])).toEqual([[2025, 12]]);
    expect(era5Requests(new Date("2026-01-31T00:00:00Z"), 2024)).toEqual([{ years: [2024], months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }, { years: [2025], months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }]);
  });

  it("asks for the drought region's box, at most 8 whole years a request", () => {
    expect(yearsPerRequest(DROUGHT_REGION_BOX)).toBe(8);
    // The former single request over Thailand's box (87 × 152 points, 35 years) is the bound.
    expect(yearsPerRequest([97.2, 5.5, 105.8, 20.6])).toBe(35);
    expect(era5Requests(now, 1991, 3, 8).map((r) => [r.years[0], r.years.at(-1), r.months.length])).toEqual([
      [1991, 1998, 12], [1999, 2006, 12], [2007, 2014, 12], [2015, 2022, 12], [2023, 2025, 12], [2026, 2026, 8],
    ]);
  });

  it("splits 2016..2026-08 into requests over the region and merges their answers end to end", async () => {
    mode = "ok";
    submitted.length = 0;
    const artifacts = mkdtempSync(join(tmpdir(), "cds-today-split-"));
    const r = await refresh(artifacts, { ...env(), ERA5_FROM_YEAR: "2016" });
    expect(r).toMatchObject({ source: "era5", outcome: "updated", dataAsOf: "2026-07-31" });
    expect(submitted.map((s) => [s.year[0], s.year.at(-1), s.month.length])).toEqual([["2016", "2023", 12], ["2024", "2025", 12], ["2026", "2026", 8]]);
    // CDS areas are north, west, south, east.
    expect(submitted.every((s) => s.area.join(",") === "24,97,0.5,120")).toBe(true);
    const file = join((await writeInputOverlay(dataDir(), artifacts, env())).dir, ERA5_DATA_DIR_FILE);
    const p = await readMonthlyClimateGrid(file, { kind: "precipitation", units: "m day-1" });
    expect([formatMonth(p.months[0]), formatMonth(p.months.at(-1)!), p.months.length]).toEqual(["2016-01", "2026-07", 127]);
    // Months of the second answer follow the first's: January 2024 is tp month 1 again, cell 7 → (0.001 + 0.0007) × 31.
    expect(p.values[seriesOffset(p, 0, 1) + p.months.indexOf(monthIndex(2024, 1))]).toBeCloseTo(0.0017 * 31 * 1000, 3);
  });

  it("fails when a whole-year request fails (the series would have a gap); without the current year's it publishes", async () => {
    mode = "a-whole-year-fails";
    const gap = await refresh(mkdtempSync(join(tmpdir(), "cds-today-gap-")), { ...env(), ERA5_FROM_YEAR: "2016" });
    expect(gap.outcome).toBe("failed");
    expect(gap.reason).toMatch(/There is no data matching your request/);
    mode = "current-year-not-yet";
    const short = await refresh(mkdtempSync(join(tmpdir(), "cds-today-short-split-")), { ...env(), ERA5_FROM_YEAR: "2016" });
    expect(short).toMatchObject({ outcome: "updated", dataAsOf: "2025-12-31" });
  });

  it("unpacks the ZIP of per-step-type NetCDF-4 files, merges tp and t2m, and the inputs tree holds 2024-01..2026-07", async () => {
    mode = "ok";
    submitted.length = 0;
    seen.length = 0;
    const artifacts = mkdtempSync(join(tmpdir(), "cds-today-ok-"));
    const r = await refresh(artifacts);
    expect(r).toMatchObject({ source: "era5", outcome: "updated", changed: 1, dataAsOf: "2026-07-31" });
    expect(submitted.map((s) => [s.year.join(","), s.month.join(",")])).toEqual([
      ["2024,2025", "01,02,03,04,05,06,07,08,09,10,11,12"],
      ["2026", "01,02,03,04,05,06,07,08"],
    ]);
    expect(readSourceState(artifacts, "era5")).toMatchObject({ lastResult: "updated", dataAsOf: "2026-07-31" });
    const tree = (await writeInputOverlay(dataDir(), artifacts, env())).dir;
    const file = join(tree, ERA5_DATA_DIR_FILE);
    expect(await netcdfDataAsOf(file)).toBe("2026-07-31");
    // Read as the era5 grid preset reads it (pipeline/grid/grid-source.ts): tp in m per day → mm per month, K → °C.
    const p = await readMonthlyClimateGrid(file, { kind: "precipitation", units: "m day-1" });
    const t = await readMonthlyClimateGrid(file, { kind: "temperature" });
    expect(p.months.map(formatMonth)).toEqual(Array.from({ length: 31 }, (_, i) => formatMonth(FIRST + i)));
    expect(t.months).toEqual(p.months);
    expect(Array.from(p.lats)).toEqual([13.8, 13.9, 14]);
    // Cell 13.8 N 100.5 E is stored row 2, column 1 (cell 7); ascending it is row 0.
    const at = (g: typeof p, month: string) => g.values[seriesOffset(g, 0, 1) + g.months.findIndex((m) => formatMonth(m) === month)];
    // February 2024: (0.002 + 0.0007) m/day × 29 days = 78.3 mm; July 2026 (from the current-year job): 0.0077 × 31.
    expect(at(p, "2024-02")).toBeCloseTo(78.3, 3);
    expect(at(p, "2026-07")).toBeCloseTo(0.0077 * 31 * 1000, 3);
    // t2m 290 + 0.1 × 30 + 0.07 K in 2026-07 = 293.07 K = 19.92 °C.
    expect(at(t, "2026-07")).toBeCloseTo(19.92, 3);
    expect(at(t, "2025-12")).toBeCloseTo(290 + 2.3 + 0.07 - 273.15, 3);
    expect(seen.filter((s) => s.startsWith("GET /download/")).length).toBe(2);
  });

  it("keeps the whole years when the current year's months are not to be had yet", async () => {
    mode = "current-year-not-yet";
    const r = await refresh(mkdtempSync(join(tmpdir(), "cds-today-short-")));
    expect(r).toMatchObject({ outcome: "updated", dataAsOf: "2025-12-31" });
  });

  it("a deleted job ends the wait at once with a clear reason; the previous copy stays", async () => {
    mode = "ok";
    const artifacts = mkdtempSync(join(tmpdir(), "cds-today-deleted-"));
    await refresh(artifacts);
    mode = "deleted";
    const t0 = Date.now();
    const r = await refresh(artifacts);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.outcome).toBe("failed");
    expect(r.reason).toMatch(/^job job-\d+ ended with status "deleted" \(removed at the CDS before it finished/);
    expect(readSourceState(artifacts, "era5")).toMatchObject({ lastResult: "failed", dataAsOf: "2026-07-31" });
  });

  it("401, a UID:KEY key and 403 are explained", async () => {
    const artifacts = mkdtempSync(join(tmpdir(), "cds-today-refused-"));
    mode = "401";
    expect((await refresh(artifacts)).reason).toBe("submit: HTTP 401: the access token is not valid — the CDS did not accept the key: CDSAPI_KEY must be the personal access token shown on your CDS profile page");
    const before = seen.length;
    const r = await refresh(artifacts, env("12345:0123abcd-4567-89ef-0123-456789abcdef"));
    expect(r.reason).toMatch(/^CDSAPI_KEY looks like the old CDS's "UID:KEY" pair; today's CDS takes the personal access token alone/);
    expect(seen.length).toBe(before);
    mode = "403";
    expect((await refresh(artifacts)).reason).toMatch(/^submit: HTTP 403: required licences not accepted; .* — accept the dataset's licence on its CDS page/);
    expect(JSON.stringify(readSourceState(artifacts, "era5"))).not.toContain("0123abcd");
  });
});
