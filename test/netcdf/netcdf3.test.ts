// NetCDF-3 classic files written by the test: packed precipitation in m, 0..360 longitudes, descending latitudes,
// noleap and 360_day calendars, a record (unlimited) time dimension, and a precipitation flux.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatMonth } from "../../lib/months.ts";
import { openNetcdf, readMonthlyClimateGrid, seriesOffset } from "../../pipeline/inputs/netcdf/index.ts";
import { doubleAttr, encodeNetcdf3, shortAttr, writeNetcdf3, type Nc3File } from "./write-netcdf3.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LATS = [20, 15, 10]; // descending
const LONS = [0, 90, 180, 270];
const FILL = -32767;

/** Raw packed value at source (t, row, col); one cell is the fill value. */
function rawAt(t: number, row: number, col: number): number {
  return t === 1 && row === 0 && col === 2 ? FILL : 100 * t + 10 * row + col + 1;
}

function packedPrecipitation(time: number[], calendar: string, recordTime: boolean): Nc3File {
  const data: number[] = [];
  for (let t = 0; t < time.length; t++) for (let r = 0; r < 3; r++) for (let c = 0; c < 4; c++) data.push(rawAt(t, r, c));
  return {
    dims: [{ name: "time", size: recordTime ? 0 : time.length }, { name: "lat", size: 3 }, { name: "lon", size: 4 }],
    numRecords: recordTime ? time.length : 0,
    globalAttrs: { Conventions: "CF-1.8" },
    variables: [
      { name: "lat", dims: ["lat"], type: "float", data: LATS, attrs: { units: "degrees_north" } },
      { name: "lon", dims: ["lon"], type: "float", data: LONS, attrs: { units: "degrees_east" } },
      { name: "time", dims: ["time"], type: "double", data: time, attrs: { units: "days since 1900-01-01", calendar } },
      {
        name: "precip", dims: ["time", "lat", "lon"], type: "short", data,
        attrs: { units: "m", scale_factor: doubleAttr(1e-4), add_offset: doubleAttr(0.001), _FillValue: shortAttr(FILL) },
      },
    ],
  };
}

describe("NetCDF-3 packed precipitation", () => {
  it("reads the header and raw data (classic format, fixed time)", async () => {
    const path = join(dir, "packed.nc");
    writeNetcdf3(path, packedPrecipitation([380, 410, 439], "noleap", false));
    const ds = await openNetcdf(path);
    expect(ds.format).toBe("netcdf3");
    expect(ds.globalAttributes.Conventions).toBe("CF-1.8");
    const v = ds.variables.get("precip")!;
    expect(v).toMatchObject({ dims: ["time", "lat", "lon"], shape: [3, 3, 4], type: "short" });
    expect(v.attributes.scale_factor).toEqual([1e-4]);
    expect(Array.from(ds.read("precip", [2, 1, 1], [1, 2, 3]))).toEqual([212, 213, 214, 222, 223, 224]); // raw = 100t + 10row + col + 1
    expect(Array.from(ds.read("lat"))).toEqual([20, 15, 10]);
  });

  for (const recordTime of [false, true]) {
    it(`unpacks m → mm, flips latitudes and wraps longitudes (noleap, ${recordTime ? "record" : "fixed"} time)`, async () => {
      const path = join(dir, `noleap-${recordTime}.nc`);
      // Mid-month days since 1900-01-01 in a 365-day calendar: 1901-01-16, 1901-02-15, 1901-03-16.
      writeNetcdf3(path, packedPrecipitation([380, 410, 439], "noleap", recordTime));
      const g = await readMonthlyClimateGrid(path, { kind: "precipitation" });
      expect(g.variable).toBe("precip");
      expect(g.units).toBe("mm");
      expect(g.months.map(formatMonth)).toEqual(["1901-01", "1901-02", "1901-03"]);
      expect(Array.from(g.lats)).toEqual([10, 15, 20]);
      expect(Array.from(g.lngs)).toEqual([-180, -90, 0, 90]);
      // (lat 10, lng −90) is source row 2, col 3: raw 24, 124, 224 → (raw·1e-4 + 0.001) m = 3.4, 13.4, 23.4 mm.
      const o = seriesOffset(g, 0, 1);
      expect(g.values[o]).toBeCloseTo(3.4, 10);
      expect(g.values[o + 1]).toBeCloseTo(13.4, 10);
      expect(g.values[o + 2]).toBeCloseTo(23.4, 10);
      // (lat 20, lng −180) is source row 0, col 2: raw 3, fill, 203 → 1.3 mm, NaN, 21.3 mm.
      const f = seriesOffset(g, 2, 0);
      expect(g.values[f]).toBeCloseTo(1.3, 10);
      expect(g.values[f + 1]).toBeNaN();
      expect(g.values[f + 2]).toBeCloseTo(21.3, 10);
    });
  }

  it("reads 360_day time stamps (30-day months)", async () => {
    const path = join(dir, "360day.nc");
    // 360 + 15 = 1901-01-16; 405 = 1901-02-16; 435 = 1901-03-16 in a 360-day year.
    writeNetcdf3(path, packedPrecipitation([375, 405, 435], "360_day", true));
    const g = await readMonthlyClimateGrid(path, { kind: "precipitation", bbox: { west: -100, south: 12, east: 10, north: 25 } });
    expect(g.months.map(formatMonth)).toEqual(["1901-01", "1901-02", "1901-03"]);
    expect(Array.from(g.lats)).toEqual([15, 20]);
    expect(Array.from(g.lngs)).toEqual([-90, 0]);
    // (lat 15, lng 0) is source row 1, col 0: raw 11 → 2.1 mm.
    expect(g.values[seriesOffset(g, 0, 1)]).toBeCloseTo(2.1, 10);
  });

  it("reads the 64-bit offset format (CDF-2) the same way", async () => {
    const path = join(dir, "cdf2.nc");
    writeNetcdf3(path, { ...packedPrecipitation([380, 410, 439], "noleap", true), version: 2 });
    expect(readFileSync(path)[3]).toBe(2);
    const g = await readMonthlyClimateGrid(path, { kind: "precipitation" });
    expect(g.months.map(formatMonth)).toEqual(["1901-01", "1901-02", "1901-03"]);
    expect(g.values[seriesOffset(g, 0, 1) + 2]).toBeCloseTo(23.4, 10);
  });

  it("rejects a truncated file, naming it", async () => {
    const path = join(dir, "truncated.nc");
    const bytes = encodeNetcdf3(packedPrecipitation([380, 410, 439], "noleap", false));
    writeFileSync(path, bytes.subarray(0, bytes.length - 10));
    const ds = await openNetcdf(path);
    expect(() => ds.read("precip")).toThrow(`${path}: variable "precip": data run past the end of the file (truncated?)`);
    expect(readFileSync(path).length).toBe(bytes.length - 10);
  });
});

function fluxFile(units: string, time: number[], timeUnits: string, calendar: string, value: number): Nc3File {
  return {
    dims: [{ name: "time", size: 0 }, { name: "lat", size: 2 }, { name: "lon", size: 2 }],
    numRecords: time.length,
    variables: [
      { name: "lat", dims: ["lat"], type: "double", data: [13.75, 14.25], attrs: { standard_name: "latitude" } },
      { name: "lon", dims: ["lon"], type: "double", data: [100.25, 100.75], attrs: { standard_name: "longitude" } },
      { name: "time", dims: ["time"], type: "double", data: time, attrs: { units: timeUnits, calendar, axis: "T" } },
      {
        name: "pr", dims: ["time", "lat", "lon"], type: "double", data: new Array(time.length * 4).fill(value),
        attrs: { units, standard_name: "precipitation_flux" },
      },
    ],
  };
}

describe("precipitation rates → mm per month", () => {
  it("multiplies kg m-2 s-1 by 86400 s and the days of each month in a noleap calendar", async () => {
    const path = join(dir, "flux-noleap.nc");
    writeNetcdf3(path, fluxFile("kg m-2 s-1", [15, 45], "days since 2001-01-01", "noleap", 1e-5));
    const g = await readMonthlyClimateGrid(path, { kind: "precipitation" });
    expect(g.variable).toBe("pr");
    const o = seriesOffset(g, 1, 1);
    expect(g.values[o]).toBeCloseTo(26.784, 10); // 1e-5 · 86400 · 31
    expect(g.values[o + 1]).toBeCloseTo(24.192, 10); // · 28
  });

  it("uses 29 days for February 2000 in the standard calendar and 30 days in 360_day", async () => {
    const std = join(dir, "flux-std.nc");
    writeNetcdf3(std, fluxFile("kg/m2/s", [15, 45], "days since 2000-01-01", "standard", 1e-5));
    const g = await readMonthlyClimateGrid(std, { kind: "precipitation" });
    expect(g.values[1]).toBeCloseTo(25.056, 10); // 1e-5 · 86400 · 29
    const d360 = join(dir, "flux-360.nc");
    writeNetcdf3(d360, fluxFile("kg m-2 s-1", [15, 45], "days since 2000-01-01", "360_day", 1e-5));
    const h = await readMonthlyClimateGrid(d360, { kind: "precipitation" });
    expect(Array.from(h.values.subarray(0, 2)).map((x) => Number(x.toFixed(10)))).toEqual([25.92, 25.92]);
  });

  it("converts mm/day and honours a units override (ERA5-style m meaning m per day)", async () => {
    const path = join(dir, "mmday.nc");
    writeNetcdf3(path, fluxFile("mm/day", [0.5, 1.5], "months since 2001-01-01", "standard", 2));
    const g = await readMonthlyClimateGrid(path, { kind: "precipitation" });
    expect(g.months.map(formatMonth)).toEqual(["2001-01", "2001-02"]);
    expect(Array.from(g.values.subarray(0, 2))).toEqual([62, 56]);
    const tp = join(dir, "tp.nc");
    writeNetcdf3(tp, fluxFile("m", [0.5, 1.5], "months since 2001-01-01", "standard", 0.002));
    const asAmount = await readMonthlyClimateGrid(tp, { kind: "precipitation" });
    expect(asAmount.values[0]).toBe(2);
    const perDay = await readMonthlyClimateGrid(tp, { kind: "precipitation", units: "m day-1" });
    expect(Array.from(perDay.values.subarray(0, 2))).toEqual([62, 56]);
  });
});
