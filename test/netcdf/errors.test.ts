// Error cases: each message names the file and, where there is one, the variable.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectFormat, openNetcdf, readMonthlyClimateGrid, readSpeibase } from "../../pipeline/inputs/netcdf/index.ts";
import { writeNetcdf3, type Nc3File, type Nc3Variable } from "./write-netcdf3.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 2-month, 1×2 grid file with the given data variable (dims default to time, lat, lon). */
function file(variable: Partial<Nc3Variable> & { name: string }, time = [15, 45], timeUnits = "days since 2001-01-01"): Nc3File {
  return {
    dims: [{ name: "time", size: time.length }, { name: "lat", size: 1 }, { name: "lon", size: 2 }, { name: "station", size: 2 }],
    variables: [
      { name: "lat", dims: ["lat"], type: "float", data: [10], attrs: { units: "degrees_north" } },
      { name: "lon", dims: ["lon"], type: "float", data: [100, 101], attrs: { units: "degrees_east" } },
      { name: "time", dims: ["time"], type: "double", data: time, attrs: { units: timeUnits } },
      { dims: ["time", "lat", "lon"], type: "float", data: new Array(time.length * 2).fill(1), ...variable },
    ],
  };
}

function write(name: string, spec: Nc3File): string {
  const path = join(dir, name);
  writeNetcdf3(path, spec);
  return path;
}

describe("format detection", () => {
  it("rejects unknown magic bytes, naming the file and the bytes", async () => {
    const path = join(dir, "garbage.nc");
    writeFileSync(path, "GARBAGE, not a NetCDF file");
    await expect(openNetcdf(path)).rejects.toThrow(`${path}: not a NetCDF file (unknown magic bytes 47 41 52 42)`);
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" })).rejects.toThrow(`${path}: not a NetCDF file`);
  });

  it("says so when the file is a ZIP archive (the CDS's answer to a request mixing step types)", async () => {
    const path = join(dir, "cds-answer.nc");
    writeFileSync(path, Buffer.from("PK\x03\x04 rest of the archive", "latin1"));
    await expect(openNetcdf(path)).rejects.toThrow(`${path}: a ZIP archive, not a NetCDF file (unpack it: the CDS zips one NetCDF per step type)`);
  });

  it("recognises classic, 64-bit offset and HDF5 signatures and refuses CDF-5", () => {
    expect(detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 1), "a.nc")).toBe("netcdf3");
    expect(detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 2), "a.nc")).toBe("netcdf3");
    expect(detectFormat(Uint8Array.of(0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a), "a.nc")).toBe("netcdf4");
    expect(() => detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 5), "a.nc")).toThrow("a.nc: NetCDF CDF-5 (64-bit data) files are not supported");
  });

  it("reports a damaged NetCDF-3 header", async () => {
    const path = join(dir, "header.nc");
    writeFileSync(path, Buffer.from([0x43, 0x44, 0x46, 1, 0, 0, 0, 0, 0, 0, 0, 0x0b]));
    await expect(openNetcdf(path)).rejects.toThrow(`${path}: not a readable NetCDF file (truncated?): NetCDF-3 header: `);
  });
});

describe("variables and layout", () => {
  it("names the file when no variable of the kind exists, or the asked-for variable is absent", async () => {
    const path = write("novar.nc", file({ name: "wind", attrs: { units: "m s-1" } }));
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" })).rejects.toThrow(`${path}: no precipitation variable found`);
    await expect(readMonthlyClimateGrid(path, { kind: "temperature", variable: "tas" })).rejects.toThrow(`${path}: no variable "tas"`);
    await expect(readSpeibase(path, { scale: 3 })).rejects.toThrow(`${path}: no SPEI variable "spei" (variables: lat, lon, time, wind)`);
  });

  it("names the variable and units when the units are unknown or absent", async () => {
    const path = write("units.nc", file({ name: "pre", attrs: { units: "furlongs" } }));
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" })).rejects.toThrow('variable "pre": unknown precipitation units "furlongs"');
    const noUnits = write("nounits.nc", file({ name: "tmp" }));
    await expect(readMonthlyClimateGrid(noUnits, { kind: "temperature" })).rejects.toThrow(`${noUnits}: variable "tmp" has no units attribute`);
    const spei = write("spei01.nc", file({ name: "spei", attrs: { units: "mm" } }));
    await expect(readSpeibase(spei)).rejects.toThrow(`${spei}: variable "spei" has units "mm"; SPEI is dimensionless`);
  });

  it("rejects dimensions other than (time, lat, lon)", async () => {
    const path = write("dims.nc", file({ name: "pre", dims: ["time", "lat", "station"], attrs: { units: "mm" } }));
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" }))
      .rejects.toThrow(`${path}: variable "pre": unsupported layout (time, lat, station); expected dimensions (time, lat, lon) in some order`);
    const flat = write("flat.nc", file({ name: "pre", dims: ["lat", "lon"], data: [1, 2], attrs: { units: "mm" } }));
    await expect(readMonthlyClimateGrid(flat, { kind: "precipitation" })).rejects.toThrow("unsupported layout (lat, lon)");
  });

  it("rejects daily time steps, gaps and bad time units", async () => {
    const daily = write("daily.nc", file({ name: "pre", attrs: { units: "mm" } }, [0, 1]));
    await expect(readMonthlyClimateGrid(daily, { kind: "precipitation" }))
      .rejects.toThrow(`${daily}: variable "pre": time steps are not monthly (step 1 is 2001-01 after 2001-01)`);
    const gap = write("gap.nc", file({ name: "pre", attrs: { units: "mm" } }, [15, 74]));
    await expect(readMonthlyClimateGrid(gap, { kind: "precipitation" }))
      .rejects.toThrow(`${gap}: variable "pre": gap in monthly time steps between 2001-01 and 2001-03`);
    const bad = write("badtime.nc", file({ name: "pre", attrs: { units: "mm" } }, [1, 2], "days after 2001-01-01"));
    await expect(readMonthlyClimateGrid(bad, { kind: "precipitation" }))
      .rejects.toThrow(`${bad}: time variable "time": unsupported CF time units "days after 2001-01-01"`);
  });

  it("asks for a choice when several variables carry the standard_name", async () => {
    const spec = file({ name: "tas", attrs: { units: "K", standard_name: "air_temperature" } });
    spec.variables.push({ name: "t2", dims: ["time", "lat", "lon"], type: "float", data: [1, 1, 1, 1], attrs: { units: "K", standard_name: "air_temperature" } });
    spec.variables.push({ name: "tasmax", dims: ["time", "lat", "lon"], type: "float", data: [1, 1, 1, 1],
      attrs: { units: "K", standard_name: "air_temperature", cell_methods: "time: maximum" } });
    const path = write("several.nc", spec);
    await expect(readMonthlyClimateGrid(path, { kind: "temperature" })).rejects.toThrow(`${path}: several temperature variables (tas, t2)`);
    const g = await readMonthlyClimateGrid(path, { kind: "temperature", variable: "t2" });
    expect(Array.from(g.values)).toEqual([1 - 273.15, 1 - 273.15, 1 - 273.15, 1 - 273.15]);
  });
});
