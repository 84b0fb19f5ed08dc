// The real NOAA GHCN-CAMS NetCDF-4 file: air(time=8, lat=360, lon=720) in K, lon 0..360, lat descending.
import { join } from "node:path";
import h5wasm, { type Dataset } from "h5wasm/node";
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth } from "../../lib/months.ts";
import { openNetcdf, readMonthlyClimateGrid, seriesOffset, type MonthlyGrid } from "../../pipeline/inputs/netcdf/index.ts";

const FILE = join(dataDir(), "climate", "ghcn-cams-sample", "air.mon.mean.nc");

/** Raw series at a source (lat, lon) read with h5wasm directly, independently of the reader under test. */
async function rawSeries(lat: number, lon0360: number): Promise<number[]> {
  await h5wasm.ready;
  const f = new h5wasm.File(FILE, "r");
  try {
    const lats = Array.from((f.get("lat") as Dataset).value as Float32Array);
    const lons = Array.from((f.get("lon") as Dataset).value as Float32Array);
    const row = lats.indexOf(lat);
    const col = lons.indexOf(lon0360);
    expect(row).toBeGreaterThanOrEqual(0);
    expect(col).toBeGreaterThanOrEqual(0);
    const air = f.get("air") as Dataset;
    return Array.from(air.slice([[0, 8], [row, row + 1], [col, col + 1]]) as Float32Array);
  } finally {
    f.close();
  }
}

function cellAt(grid: MonthlyGrid, lat: number, lng: number): number {
  // The 0.5° cell whose edges enclose (lat, lng).
  const i = grid.lats.findIndex((y) => Math.abs(y - lat) <= 0.25);
  const j = grid.lngs.findIndex((x) => Math.abs(x - lng) <= 0.25);
  expect(i).toBeGreaterThanOrEqual(0);
  expect(j).toBeGreaterThanOrEqual(0);
  return seriesOffset(grid, i, j);
}

describe("GHCN-CAMS air.mon.mean.nc (real NetCDF-4)", () => {
  let grid: MonthlyGrid;
  beforeAll(async () => {
    grid = await readMonthlyClimateGrid(FILE, { kind: "temperature" });
  });

  it("exposes the variables, dimensions and attributes", async () => {
    const ds = await openNetcdf(FILE);
    try {
      expect(ds.format).toBe("netcdf4");
      const air = ds.variables.get("air")!;
      expect(air.dims).toEqual(["time", "lat", "lon"]);
      expect(air.shape).toEqual([8, 360, 720]);
      expect(air.attributes.units).toBe("degK");
      expect(air.attributes.valid_range).toEqual([150, 400]);
      expect(ds.variables.get("time")!.attributes.units).toBe("hours since 1800-01-01");
      expect(Array.from(ds.read("time", [0], [2]))).toEqual([1910952, 1911696]);
    } finally {
      ds.close();
    }
  });

  it("guesses air by standard_name, reads months 2018-01..2018-08 in °C on an ascending −180..180 grid", () => {
    expect(grid.variable).toBe("air");
    expect(grid.units).toBe("degC");
    expect(grid.months.map(formatMonth)).toEqual(["2018-01", "2018-02", "2018-03", "2018-04", "2018-05", "2018-06", "2018-07", "2018-08"]);
    expect(grid.lats.length).toBe(360);
    expect(grid.lngs.length).toBe(720);
    expect([grid.lats[0], grid.lats[359]]).toEqual([-89.75, 89.75]);
    expect([grid.lngs[0], grid.lngs[359], grid.lngs[360], grid.lngs[719]]).toEqual([-179.75, -0.25, 0.25, 179.75]);
    expect(grid.values.length).toBe(360 * 720 * 8);
  });

  it("gives raw − 273.15 at Bangkok (13.75N, 100.52E → cell 13.75, 100.75)", async () => {
    const raw = await rawSeries(13.75, 100.75);
    expect(raw[0]).toBeCloseTo(300.98, 2); // January 2018, 27.83 °C
    const o = cellAt(grid, 13.75, 100.52);
    expect(Array.from(grid.values.subarray(o, o + 8))).toEqual(raw.map((k) => k - 273.15));
  });

  it("puts western-hemisphere cells (source lon 285.75) at −74.25 (New York)", async () => {
    const raw = await rawSeries(40.75, 285.75);
    const o = cellAt(grid, 40.75, -74.25);
    expect(Array.from(grid.values.subarray(o, o + 8))).toEqual(raw.map((k) => k - 273.15));
    expect(raw[0] - 273.15).toBeLessThan(raw[6] - 273.15); // January colder than July
  });

  it("marks ocean cells (NaN fill) as missing", () => {
    const o = cellAt(grid, 0.25, -150.25); // central Pacific
    expect(Array.from(grid.values.subarray(o, o + 8)).every(Number.isNaN)).toBe(true);
  });

  it("clips to a Thailand bbox with the same values as the full read", async () => {
    const th = await readMonthlyClimateGrid(FILE, { kind: "temperature", bbox: { west: 97.3, south: 5.6, east: 105.7, north: 20.5 } });
    expect(th.lats.length).toBe(30);
    expect(th.lngs.length).toBe(16);
    expect([th.lats[0], th.lats[29], th.lngs[0], th.lngs[15]]).toEqual([5.75, 20.25, 97.75, 105.25]);
    expect(th.values.length).toBe(30 * 16 * 8);
    const a = cellAt(th, 13.75, 100.52);
    const b = cellAt(grid, 13.75, 100.52);
    expect(Array.from(th.values.subarray(a, a + 8))).toEqual(Array.from(grid.values.subarray(b, b + 8)));
    const raw = await rawSeries(18.75, 98.75); // Chiang Mai
    const c = cellAt(th, 18.79, 98.98);
    expect(th.values[c + 3]).toBe(raw[3] - 273.15);
  });
});
