// NetCDF-4 (HDF5) files written by the test with h5wasm: temperature in K with dims in (lat, lon, time) order, and
// SPEIbase-layout files.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatMonth } from "../../lib/months.ts";
import {
  readMonthlyClimateGrid, readSpeibase, scaleFromAttributes, scaleFromFileName, seriesOffset,
} from "../../pipeline/inputs/netcdf/index.ts";
import { writeNetcdf4, type H5File } from "./write-netcdf4.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf4-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("NetCDF-4 temperature in K", () => {
  it("reads tas(lat, lon, time) with a fill value, converting K to °C", async () => {
    const path = join(dir, "tas.nc");
    // lat 2 × lon 3 × time 2, time fastest: value = 280 + 10·lat index + lon index + 0.5·t.
    const data = new Float32Array(12);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) for (let t = 0; t < 2; t++) data[(y * 3 + x) * 2 + t] = 280 + 10 * y + x + 0.5 * t;
    data[(1 * 3 + 2) * 2 + 1] = -9999;
    await writeNetcdf4(path, {
      coords: [
        { name: "lat", data: Float64Array.of(-10, 10), attrs: { units: "degrees_north" } },
        { name: "lon", data: Float64Array.of(350, 0, 10), attrs: { units: "degrees_east" } },
        { name: "time", data: Float64Array.of(0, 31), attrs: { units: "days since 2020-01-01 00:00:00", calendar: "gregorian" } },
      ],
      variables: [{
        name: "tas", dims: ["lat", "lon", "time"], data,
        attrs: { units: "K", standard_name: "air_temperature", _FillValue: Float32Array.of(-9999) },
      }],
    });
    const g = await readMonthlyClimateGrid(path, { kind: "temperature" });
    expect(g.variable).toBe("tas");
    expect(g.months.map(formatMonth)).toEqual(["2020-01", "2020-02"]);
    expect(Array.from(g.lats)).toEqual([-10, 10]);
    expect(Array.from(g.lngs)).toEqual([-10, 0, 10]);
    // (lat 10, lng −10) is source y 1, x 0: 290 K, 290.5 K.
    const o = seriesOffset(g, 1, 0);
    expect(Array.from(g.values.subarray(o, o + 2))).toEqual([290 - 273.15, 290.5 - 273.15]);
    // (lat 10, lng 10) is source y 1, x 2: 292 K, then the fill value.
    const f = seriesOffset(g, 1, 2);
    expect(g.values[f]).toBe(292 - 273.15);
    expect(g.values[f + 1]).toBeNaN();
  });

  it("takes a temperature already in degC unchanged and finds it by the common name tmp", async () => {
    const path = join(dir, "tmp.nc");
    await writeNetcdf4(path, {
      coords: [
        { name: "time", data: Float64Array.of(14, 45, 73), attrs: { units: "days since 1901-01-01", calendar: "365_day" } },
        { name: "lat", data: Float32Array.of(13.75) },
        { name: "lon", data: Float32Array.of(100.25) },
      ],
      variables: [{ name: "tmp", dims: ["time", "lat", "lon"], data: Float32Array.of(25.5, 27.25, 29), attrs: { units: "degC" } }],
    });
    const g = await readMonthlyClimateGrid(path, { kind: "temperature" });
    expect(g.months.map(formatMonth)).toEqual(["1901-01", "1901-02", "1901-03"]);
    expect(Array.from(g.values)).toEqual([25.5, 27.25, 29]);
  });
});

/** A SPEIbase-layout file: spei(time, lat, lon) float, units "1", fill 1e30, days since 1900-1-1 mid-month. */
function speibaseFile(values: Float32Array, summary?: string): H5File {
  return {
    globalAttrs: summary ? { Conventions: "CF-1.8", summary } : { Conventions: "CF-1.8" },
    coords: [
      { name: "lon", data: Float64Array.of(100.25, 100.75), attrs: { units: "degrees_east", standard_name: "longitude", axis: "X" } },
      { name: "lat", data: Float64Array.of(13.25, 13.75), attrs: { units: "degrees_north", standard_name: "latitude", axis: "Y" } },
      // 2000-01-16, 2000-02-15, 2000-03-16: 36524 days from 1900-01-01 to 2000-01-01 in the Gregorian calendar.
      { name: "time", data: Float64Array.of(36539, 36569, 36599), attrs: { units: "days since 1900-1-1", calendar: "gregorian", axis: "T" } },
    ],
    variables: [{
      name: "spei", dims: ["time", "lat", "lon"], data: values,
      attrs: { units: "1", _FillValue: Float32Array.of(1e30), long_name: "Standardized Precipitation-Evapotranspiration Index" },
    }],
  };
}

describe("SPEIbase", () => {
  // time-major: t0 cells (13.25,100.25) (13.25,100.75) (13.75,100.25) (13.75,100.75), then t1, t2.
  const values = Float32Array.of(-1.5, 0.25, 1e30, 2, -0.5, 0.75, 1e30, -2, 0, 1, 1e30, 0.5);

  it("reads spei03.nc: scale 3 from the file name, values [cell][month], fill → NaN", async () => {
    const path = join(dir, "spei03.nc");
    await writeNetcdf4(path, speibaseFile(values));
    const g = await readSpeibase(path);
    expect(g.scale).toBe(3);
    expect(g.units).toBe("1");
    expect(g.variable).toBe("spei");
    expect(g.months.map(formatMonth)).toEqual(["2000-01", "2000-02", "2000-03"]);
    expect(Array.from(g.values)).toEqual([-1.5, -0.5, 0, 0.25, 0.75, 1, NaN, NaN, NaN, 2, -2, 0.5]);
  });

  it("clips to a bbox", async () => {
    const path = join(dir, "spei12.nc");
    await writeNetcdf4(path, speibaseFile(values));
    const g = await readSpeibase(path, { bbox: { west: 100.5, south: 13.5, east: 101, north: 14 } });
    expect(g.scale).toBe(12);
    expect([Array.from(g.lats), Array.from(g.lngs)]).toEqual([[13.75], [100.75]]);
    expect(Array.from(g.values)).toEqual([2, -2, 0.5]);
  });

  it("takes the scale from the SPEIbase summary attribute, or requires it", async () => {
    const withSummary = join(dir, "speibase-a.nc");
    await writeNetcdf4(withSummary, speibaseFile(values, "Global dataset of the SPEI at the 6-months time scale. "));
    expect((await readSpeibase(withSummary)).scale).toBe(6);
    const bare = join(dir, "speibase-b.nc");
    await writeNetcdf4(bare, speibaseFile(values));
    await expect(readSpeibase(bare)).rejects.toThrow(`${bare}: SPEI time scale not found in the file name (speiNN.nc) or attributes; pass "scale"`);
    expect((await readSpeibase(bare, { scale: 9 })).scale).toBe(9);
  });

  it("parses scales from names and attributes", () => {
    expect(scaleFromFileName("/data/spei01.nc")).toBe(1);
    expect(scaleFromFileName("SPEI_48.nc")).toBe(48);
    expect(scaleFromFileName("speibase.nc")).toBeUndefined();
    expect(scaleFromAttributes({ time_scale: [24] })).toBe(24);
    expect(scaleFromAttributes({}, { summary: "SPEI at the 1-month time scale." })).toBe(1);
  });
});
