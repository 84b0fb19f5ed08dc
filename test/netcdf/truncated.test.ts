// Truncated and damaged NetCDF files (issue 9): every error names the file, and the variable where there is one,
// instead of the libraries' own "error - name not defined!" (h5wasm) or a bare DataView RangeError (netcdfjs).
// Files are written here, or cut from the real samples into a temporary directory (never committed).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { openNetcdf, readMonthlyClimateGrid } from "../../pipeline/inputs/netcdf/index.ts";
import { hdf5Reason } from "../../pipeline/inputs/netcdf/open.ts";
import { encodeNetcdf3 } from "./write-netcdf3.ts";
import { writeNetcdf4 } from "./write-netcdf4.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf-truncated-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the first `length` bytes of `bytes` to a file of the temporary directory. */
function cut(name: string, bytes: Uint8Array, length: number): string {
  const path = join(dir, name);
  writeFileSync(path, bytes.subarray(0, length));
  return path;
}

describe("a NetCDF-3 file written here, cut short", () => {
  // Three months of a 1 × 2 precipitation grid; the data variable is the last thing in the file.
  const bytes = encodeNetcdf3({
    dims: [{ name: "time", size: 3 }, { name: "lat", size: 1 }, { name: "lon", size: 2 }],
    variables: [
      { name: "lat", dims: ["lat"], type: "float", data: [10], attrs: { units: "degrees_north" } },
      { name: "lon", dims: ["lon"], type: "float", data: [100, 101], attrs: { units: "degrees_east" } },
      { name: "time", dims: ["time"], type: "double", data: [15, 45, 74], attrs: { units: "days since 2001-01-01" } },
      { name: "pre", dims: ["time", "lat", "lon"], type: "float", data: [1, 2, 3, 4, 5, 6], attrs: { units: "mm" } },
    ],
  });

  it("inside the header: not a readable NetCDF file, naming the file", async () => {
    const path = cut("header-cut.nc", bytes, 40);
    await expect(openNetcdf(path)).rejects.toThrow(`${path}: not a readable NetCDF file (truncated?): NetCDF-3 header: `);
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" })).rejects.toThrow(`${path}: not a readable NetCDF file (truncated?)`);
  });

  it("inside the data: naming the file and the variable", async () => {
    const path = cut("data-cut.nc", bytes, bytes.length - 6);
    await expect(readMonthlyClimateGrid(path, { kind: "precipitation" }))
      .rejects.toThrow(`${path}: variable "pre": data run past the end of the file (truncated?)`);
  });
});

describe("a NetCDF-4 (HDF5) file written here, cut short", () => {
  it("is not a readable NetCDF file, with HDF5's reason, not \"error - name not defined!\"", async () => {
    const whole = join(dir, "tas.nc");
    await writeNetcdf4(whole, {
      coords: [
        { name: "lat", data: Float64Array.of(-10, 10), attrs: { units: "degrees_north" } },
        { name: "lon", data: Float64Array.of(0, 10), attrs: { units: "degrees_east" } },
        { name: "time", data: Float64Array.of(0, 31), attrs: { units: "days since 2020-01-01" } },
      ],
      variables: [{ name: "tas", dims: ["lat", "lon", "time"], data: Float32Array.of(280, 281, 282, 283, 284, 285, 286, 287), attrs: { units: "K" } }],
    });
    const bytes = readFileSync(whole);
    expect((await readMonthlyClimateGrid(whole, { kind: "temperature" })).values).toHaveLength(8);
    const path = cut("tas-cut.nc", bytes, Math.floor(bytes.length / 2));
    await expect(openNetcdf(path)).rejects.toThrow(
      `${path}: not a readable NetCDF file (truncated?): HDF5: truncated file: eof = ${Math.floor(bytes.length / 2)}, sblock->base_addr = 0, stored_eof = ${bytes.length}`,
    );
  });

  it("the innermost cause of an HDF5 error stack is the reason", () => {
    const stack = "HDF5-DIAG: Error detected in HDF5 (2.0.0):\n  #000: H5F.c line 821 in H5Fopen(): unable to synchronously open file\n"
      + "    major: File accessibility\n  #006: H5Fsuper.c line 577 in H5F__super_read(): truncated file: eof = 50\n    minor: File has been truncated\n";
    expect(hdf5Reason(new Error(stack))).toBe("truncated file: eof = 50");
    expect(hdf5Reason(new Error("error - name not defined!"))).toBe("error - name not defined!");
  });
});

describe("the real samples, cut or damaged in a temporary copy", () => {
  const era5 = readFileSync(join(dataDir(), "climate", "era5-land-sample", "meanprecip_month_viet_2020.nc"));
  const cams = readFileSync(join(dataDir(), "climate", "ghcn-cams-sample", "air.mon.mean.nc"));

  it("ERA5-Land (NetCDF-3): cut in the header, then in the data of tp", async () => {
    const head = cut("era5-1000.nc", era5, 1000);
    await expect(readMonthlyClimateGrid(head, { kind: "precipitation" }))
      .rejects.toThrow(`${head}: not a readable NetCDF file (truncated?): NetCDF-3 header: Offset is outside the bounds of the DataView`);
    const half = cut("era5-half.nc", era5, era5.length / 2);
    await expect(readMonthlyClimateGrid(half, { kind: "precipitation" }))
      .rejects.toThrow(`${half}: variable "tp": data run past the end of the file (truncated?)`);
  });

  it("GHCN-CAMS (NetCDF-4): cut in half; a damaged compressed chunk names the variable", async () => {
    const half = cut("cams-half.nc", cams, Math.floor(cams.length / 2));
    await expect(readMonthlyClimateGrid(half, { kind: "temperature" })).rejects.toThrow(
      `${half}: not a readable NetCDF file (truncated?): HDF5: truncated file: eof = ${Math.floor(cams.length / 2)}, sblock->base_addr = 0, stored_eof = ${cams.length}`,
    );
    const damaged = Buffer.from(cams);
    damaged.fill(0x55, Math.floor(cams.length / 2), Math.floor(cams.length / 2) + 4000);
    const path = join(dir, "cams-damaged.nc");
    writeFileSync(path, damaged);
    const ds = await openNetcdf(path);
    try {
      expect(() => ds.read("air")).toThrow(`${path}: variable "air": HDF5: filter returned failure during read`);
    } finally {
      ds.close();
    }
    // HDF5 errors throw only while the reader calls into it: the intact file still reads afterwards.
    const intact = await readMonthlyClimateGrid(join(dataDir(), "climate", "ghcn-cams-sample", "air.mon.mean.nc"), { kind: "temperature" });
    expect(intact.months).toHaveLength(8);
  });
});
