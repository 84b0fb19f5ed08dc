// The `cpc_precip` source: a year of CPC daily gauge precipitation written here in PSL's layout (precip(time, lat,
// lon) float mm, latitudes north to south, longitudes 0..360 east, hours since 1900-01-01, missing_value), reduced to
// the mirror's 1° monthly layout, served by a loopback origin, kept in the raw cache, linked into the inputs tree and
// appended to the mirror's 1979–2023 series by the regional grid's reader. Broken files are refused and the previous
// copy stays.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir as mirrorDir } from "../../lib/config.ts";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { readCpcSeries } from "../../pipeline/grid/cpc-extension.ts";
import { CPC_DATA_DIR_FILE, CPC_EXTENSION_DIR, cpcExtensionFile } from "../../pipeline/grid/grid-source.ts";
import { reduceCpcDailyYear } from "../../pipeline/inputs/cpc/daily-to-monthly.ts";
import { readMonthlyClimateGrid, seriesOffset, type MonthlyGrid } from "../../pipeline/inputs/netcdf/index.ts";
import { writeNetcdf4 } from "../../pipeline/inputs/netcdf/write-netcdf4.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { cpcYears } from "../../pipeline/sources/catalog/cpc-precip.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { currentRawDir, readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { startReplay, type Replay } from "./origin-replay.ts";

const dir = mkdtempSync(join(tmpdir(), "cpc-daily-"));
const MISSING = -9.96921e36;
// The region's 0.5° cells and a margin of one cell: 29.75 → −11.25 °N, 91.75..141.25 °E.
const LATS = Array.from({ length: 83 }, (_, i) => 29.75 - 0.5 * i);
const LONS = Array.from({ length: 100 }, (_, j) => 91.75 + 0.5 * j);
/** mm on day d (0-based from 1 January) at a 0.5° cell: multiples of 1/8, exact in float32. */
const rain = (d: number, lat: number, lon: number) => (d % 7) + (lat + 11.25) * 0.5 + (lon - 91.75) * 0.25;
/** One sub-cell of the 1° cell (20.5, 100.5) and all four of (0.5, 110.5) have no value. */
const missing = (lat: number, lon: number) => (lat === 20.75 && lon === 100.25) || (Math.abs(lat - 0.5) === 0.25 && Math.abs(lon - 110.5) === 0.25);

async function daily(name: string, year: number, days: number, tweak: { value?: number; skipDay?: number } = {}): Promise<Buffer> {
  const path = join(dir, name);
  const steps = Array.from({ length: days + (tweak.skipDay === undefined ? 0 : 1) }, (_, d) => d).filter((d) => d !== tweak.skipDay);
  const data = new Float32Array(steps.length * LATS.length * LONS.length);
  let k = 0;
  for (const d of steps) for (const lat of LATS) for (const lon of LONS) data[k++] = missing(lat, lon) ? MISSING : rain(d, lat, lon);
  if (tweak.value !== undefined) data[12345] = tweak.value;
  await writeNetcdf4(path, {
    globalAttrs: { Conventions: "CF-1.0", title: "CPC GLOBAL PRCP V1.0RT" },
    coords: [
      { name: "lat", data: Float32Array.from(LATS), attrs: { units: "degrees_north", long_name: "Latitude", axis: "Y" } },
      { name: "lon", data: Float32Array.from(LONS), attrs: { units: "degrees_east", long_name: "Longitude", axis: "X" } },
      { name: "time", data: Float64Array.from(steps, (d) => (Date.UTC(year, 0, 1 + d) - Date.UTC(1900, 0, 1)) / 3600_000), attrs: { units: "hours since 1900-01-01 00:00:00", axis: "T" } },
    ],
    variables: [{ name: "precip", dims: ["time", "lat", "lon"], data, attrs: { units: "mm", long_name: "daily total of precipitation", missing_value: Float32Array.of(MISSING) }, deflate: 1 }],
  });
  return readFileSync(path);
}

function at(g: MonthlyGrid, lat: number, lng: number, month: number): number {
  const i = g.lats.findIndex((x) => x === lat);
  const j = g.lngs.findIndex((x) => x === lng);
  return g.values[seriesOffset(g, i, j) + g.months.indexOf(month)];
}

// 1 January to 14 March 2024: January and February whole, March not yet.
let good: Buffer;
let served: Buffer;
let replay: Replay;
const dataDir = mkdtempSync(join(tmpdir(), "cpc-data-"));
const artifactsDir = mkdtempSync(join(tmpdir(), "cpc-refresh-"));
beforeAll(async () => {
  good = await daily("precip.2024.nc", 2024, 74);
  replay = await startReplay((path) => (path === "/Datasets/cpc_global_precip/precip.2024.nc" ? served : undefined));
});
afterAll(() => replay.close());

const silent = { start() {}, source() {} };
async function refresh(body: Buffer) {
  served = body;
  const env = { SOURCE_URL_CPC_PRECIP: `${replay.base}/Datasets/cpc_global_precip`, SOURCES_RETRIES: "0" };
  return (await refreshSources({ dataDir, artifactsDir, env, only: ["cpc_precip"], progress: silent, now: new Date("2024-03-15T06:00:00Z") }))[0];
}

describe("cpc_precip source", () => {
  it("asks for the years after the mirror's, to the year of last month", () => {
    expect(cpcYears(new Date("2026-11-28T00:00:00Z"))).toEqual([2024, 2025, 2026]);
    expect(cpcYears(new Date("2027-01-15T00:00:00Z"))).toEqual([2024, 2025, 2026]);
    expect(cpcYears(new Date("2024-01-10T00:00:00Z"))).toEqual([]);
  });

  it("averages each day's four 0.5° cells to 1° and sums whole months; the current month is left out", async () => {
    const m = await reduceCpcDailyYear(join(dir, "precip.2024.nc"), 2024);
    expect([m.days, m.months.map(formatMonth)]).toEqual([74, ["2024-01", "2024-02"]]);
    const v = (t: number, lat: number, lng: number) => m.values[(t * 40 + (28.5 - lat)) * 49 + (lng - 92.5)];
    // Bangkok's cell: Σ_d (d mod 7) + days × (mean latitude term 12.375 + mean longitude term 2.1875).
    expect([v(0, 13.5, 100.5), v(1, 13.5, 100.5)]).toEqual([87 + 31 * 14.5625, 87 + 29 * 14.5625]);
    // Three sub-cells of four: their mean ((20.25, 100.25) 17.875, (20.25, 100.75) 18, (20.75, 100.75) 18.25).
    expect(v(0, 20.5, 100.5)).toBeCloseTo(87 + 31 * ((17.875 + 18 + 18.25) / 3), 3);
    expect(v(0, 0.5, 110.5)).toBeNaN();
  });

  it("downloads the year, keeps it in the mirror's layout and the grid's reader continues the mirror's series with it", async () => {
    const r = await refresh(good);
    expect(r).toMatchObject({ source: "cpc_precip", outcome: "updated", changed: 1, failed: 0, dataAsOf: "2024-02-29" });
    expect(readSourceState(artifactsDir, "cpc_precip")!.files["cpc_precip_seasia_1deg_monthly_2024.nc"]).toMatchObject({ from: "download", linkAs: cpcExtensionFile(2024), dataAsOf: "2024-02-29" });
    const { dir: inputs } = await writeInputOverlay(dataDir, artifactsDir, {});
    const bbox = { west: 97, east: 106, south: 5, north: 26 };
    const base = join(mirrorDir(), CPC_DATA_DIR_FILE);
    const series = await readCpcSeries(base, join(inputs, CPC_EXTENSION_DIR), bbox);
    const mirror = await readMonthlyClimateGrid(base, { kind: "precipitation", bbox });
    expect(series.appended).toEqual(["cpc_precip_seasia_1deg_monthly_2024.nc"]);
    expect([formatMonth(series.grid.months[0]), formatMonth(series.grid.months.at(-1)!), series.grid.months.length]).toEqual(["1979-01", "2024-02", 542]);
    expect(at(series.grid, 13.5, 100.5, monthIndex(2023, 12))).toBe(at(mirror, 13.5, 100.5, monthIndex(2023, 12)));
    expect(at(series.grid, 13.5, 100.5, monthIndex(2024, 1))).toBe(538.4375);
    expect(at(series.grid, 13.5, 100.5, monthIndex(2024, 2))).toBe(509.3125);
    // A cell of the Gulf of Thailand has no value in any month of the mirror: none in 2024 either (the synthetic
    // file has one there).
    const gulf = seriesOffset(mirror, mirror.lats.indexOf(7.5), mirror.lngs.indexOf(102.5));
    expect(mirror.values.subarray(gulf, gulf + 540).every(Number.isNaN)).toBe(true);
    expect(at(series.grid, 7.5, 102.5, monthIndex(2024, 1))).toBeNaN();
  });

  it("refuses a file cut short, a value no day has, a missing day, a year without a whole month; the previous copy stays", async () => {
    const version = currentRawDir(artifactsDir, "cpc_precip");
    const kept = readFileSync(join(version!, "cpc_precip_seasia_1deg_monthly_2024.nc"));
    const cut = await refresh(good.subarray(0, good.length >> 1));
    expect(cut.outcome).toBe("failed");
    expect(cut.reason).toMatch(/precip\.2024\.nc: not a readable NetCDF file/);
    const wet = await refresh(await daily("wet.nc", 2024, 74, { value: 2500 }));
    expect(wet.reason).toContain("precip.2024.nc: precip 2500 mm on day 2 is not a daily precipitation (0..2000 mm)");
    const gap = await refresh(await daily("gap.nc", 2024, 74, { skipDay: 40 }));
    expect(gap.reason).toContain("precip.2024.nc: time step 40 is 2024-02-11, expected day 41 of 2024");
    const early = await refresh(await daily("early.nc", 2024, 30));
    expect(early.reason).toContain("precip.2024.nc: no whole month yet (30 days of 2024, January has 31)");
    expect(currentRawDir(artifactsDir, "cpc_precip")).toBe(version);
    expect(readFileSync(join(version!, "cpc_precip_seasia_1deg_monthly_2024.nc")).equals(kept)).toBe(true);
  });
});
