// gridFromNetcdf ingesting SPEIbase files (NetCDF-4, spei(time, lat, lon), 0.5° CRU-like grid centred on .25/.75).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { GRID_INDICES } from "../../pipeline/build.ts";
import { gridFromNetcdf, type GridFromNetcdfResult } from "../../pipeline/grid/from-netcdf.ts";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { axis, speiValue, writeSpeibaseNc4, type CellValue, type GridSpec } from "./fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf-build-spei-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const provinces = loadProvinces();

const GRID: GridSpec = { lats: axis(5.25, 20.75, 0.5), lngs: axis(97.25, 105.75, 0.5), firstMonth: monthIndex(2000, 1), nMonths: 36 };
// SPEIbase is NaN (fill 1e30) over the sea of CRU's land mask: here one land cell, 13.75N 100.25E, all months.
const withSea = (f: CellValue): CellValue => (lat, lng, m) => (lat === 13.75 && lng === 100.25 ? NaN : f(lat, lng, m));
const K = (name: string) => GRID_INDICES.indexOf(name as (typeof GRID_INDICES)[number]);
let result: GridFromNetcdfResult;

beforeAll(async () => {
  await writeSpeibaseNc4(join(dir, "spei01.nc"), GRID, withSea(speiValue(1)));
  await writeSpeibaseNc4(join(dir, "spei03.nc"), GRID, withSea(speiValue(3)));
  // No scale in this name nor in the attributes: the layer it is given for says 12.
  await writeSpeibaseNc4(join(dir, "drought-long.nc"), { ...GRID, firstMonth: monthIndex(2000, 7) }, speiValue(12));
  result = await gridFromNetcdf({
    provinces,
    speibase: { spei1: join(dir, "spei01.nc"), spei3: join(dir, "spei03.nc"), spei12: join(dir, "drought-long.nc") },
    refStart: monthIndex(1981, 1),
    refEnd: monthIndex(2010, 12),
    indexNames: GRID_INDICES,
  });
});

function cellAt(lat: number, lng: number): number {
  for (let c = 0; c < result.cells.lat.length; c++) if (result.cells.lat[c] === lat && result.cells.lng[c] === lng) return c;
  return -1;
}

describe("gridFromNetcdf from SPEIbase files", () => {
  it("uses the native 0.5° cells over Thailand", () => {
    expect(result.cells.lat.length).toBe(243);
    expect(result.cells.resolutionDeg).toBe(0.5);
    expect(result.cells.samples).toBe(20);
    expect(result.cells.west).toBe(97);
    expect(result.cells.south).toBe(5.5);
    // Bangkok (TH-10) covers 37 % of the cell at 13.75N 100.75E (148 of 400 sub-samples).
    const bkk = provinces.findIndex((p) => p.code === "TH-10");
    const c = cellAt(13.75, 100.75);
    const e = [...result.cells.weightCell.keys()].find((i) => result.cells.weightCell[i] === c && result.cells.weightProvince[i] === bkk)!;
    expect(result.cells.weightFraction[e]).toBe(Math.fround(0.37));
    expect(cellAt(5.25, 97.25)).toBe(-1);
  });

  it("takes the common months of the files (2000-07..2002-12)", () => {
    expect(formatMonth(result.firstMonth)).toBe("2000-07");
    expect(result.nMonths).toBe(30);
  });

  it("copies the SPEI values exactly (float32) and leaves the other layers NaN", () => {
    for (const [lat, lng] of [[13.75, 100.75], [18.75, 98.75], [6.25, 101.25]]) {
      const c = cellAt(lat, lng);
      expect(c).toBeGreaterThanOrEqual(0);
      for (let t = 0; t < 30; t++) {
        const m = result.firstMonth + t;
        expect(result.layers[K("spei1")][c * 30 + t]).toBe(Math.fround(speiValue(1)(lat, lng, m)));
        expect(result.layers[K("spei3")][c * 30 + t]).toBe(Math.fround(speiValue(3)(lat, lng, m)));
        expect(result.layers[K("spei12")][c * 30 + t]).toBe(Math.fround(speiValue(12)(lat, lng, m)));
      }
    }
    for (const name of ["spei6", "spei24", "spi1", "spi3", "mcdi"]) expect(result.layers[K(name)].every(Number.isNaN), name).toBe(true);
    expect(result.report.layers).toEqual({
      spei1: "ingested", spei3: "ingested", spei6: "missing", spei12: "ingested", spei24: "missing", spi1: "missing", spi3: "missing", mcdi: "missing",
    });
    expect(result.report.petMethod).toBeUndefined();
  });

  it("turns the fill value into NaN but keeps the land cell", () => {
    const c = cellAt(13.75, 100.25);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(result.layers[K("spei1")].subarray(c * 30, (c + 1) * 30).every(Number.isNaN)).toBe(true);
    // spei12 has a value there: the cell has data.
    expect(result.layers[K("spei12")][c * 30]).toBe(Math.fround(speiValue(12)(13.75, 100.25, result.firstMonth)));
    expect(result.report.cellsWithoutData).toBe(0);
  });

  it("refuses a file whose time scale is not the layer's", async () => {
    await expect(gridFromNetcdf({
      provinces, speibase: { spei1: join(dir, "spei03.nc") }, refStart: 0, refEnd: 0, indexNames: GRID_INDICES,
    })).rejects.toThrow(`${join(dir, "spei03.nc")}: variable "spei" is SPEI at the 3-month scale, given for layer "spei1"`);
  });
});
