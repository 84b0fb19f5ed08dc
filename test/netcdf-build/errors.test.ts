// gridFromNetcdf refuses inputs it cannot grid, with errors that name the files and variables.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import { GRID_INDICES } from "../../pipeline/build.ts";
import { gridFromNetcdf, regularSpacing } from "../../pipeline/grid/from-netcdf.ts";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { axis, speiValue, writePrecipitationNc3, writeSpeibaseNc4, writeTemperatureNc4, type GridSpec } from "./fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf-build-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const provinces = loadProvinces();
const p = (name: string) => join(dir, name);
const REF = { refStart: monthIndex(1981, 1), refEnd: monthIndex(2010, 12), indexNames: GRID_INDICES };

const ONE_DEG: GridSpec = { lats: axis(21, 5, 1), lngs: axis(97, 106, 1), firstMonth: monthIndex(1981, 1), nMonths: 24 };
const HALF_DEG: GridSpec = { lats: axis(5.25, 20.75, 0.5), lngs: axis(97.25, 105.75, 0.5), firstMonth: monthIndex(1981, 1), nMonths: 24 };

beforeAll(async () => {
  writePrecipitationNc3(p("prcp-1deg.nc"), ONE_DEG);
  await writeTemperatureNc4(p("tas-1deg.nc"), ONE_DEG);
  await writeTemperatureNc4(p("tas-half.nc"), HALF_DEG);
  await writeTemperatureNc4(p("tas-1990s.nc"), { ...ONE_DEG, firstMonth: monthIndex(1990, 1) });
  // Over Europe (far from Thailand), and over the South China Sea east of Vietnam (read, but no cell on a province).
  writePrecipitationNc3(p("prcp-europe.nc"), { ...ONE_DEG, lats: axis(40, 50, 1), lngs: axis(0, 9, 1) });
  await writeTemperatureNc4(p("tas-europe.nc"), { ...ONE_DEG, lats: axis(40, 50, 1), lngs: axis(0, 9, 1) });
  writePrecipitationNc3(p("prcp-sea.nc"), { ...ONE_DEG, lngs: axis(108, 110, 1) });
  await writeTemperatureNc4(p("tas-sea.nc"), { ...ONE_DEG, lngs: axis(108, 110, 1) });
  await writeSpeibaseNc4(p("spei01.nc"), HALF_DEG, speiValue(1));
  await writeSpeibaseNc4(p("spei03.nc"), ONE_DEG, speiValue(3));
  writePrecipitationNc3(p("prcp-irregular.nc"), { ...ONE_DEG, lngs: [97, 98, 99, 100.5, 101, 102] });
  await writeTemperatureNc4(p("tas-irregular.nc"), { ...ONE_DEG, lngs: [97, 98, 99, 100.5, 101, 102] });
});

describe("gridFromNetcdf errors", () => {
  it("names both files when precipitation and temperature grids differ", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-1deg.nc"), temperature: p("tas-half.nc"), ...REF })).rejects.toThrow(
      `grids differ: ${p("prcp-1deg.nc")} (precipitation, variable "prcp") has lat 5..21 (17), lng 97..106 (10), ` +
        `${p("tas-half.nc")} (temperature, variable "tas") has lat 5.25..20.75 (32), lng 97.25..105.75 (18); regrid them to one grid first`,
    );
  });

  it("names both files and their months when the months do not overlap", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-1deg.nc"), temperature: p("tas-1990s.nc"), ...REF })).rejects.toThrow(
      `no month in common: ${p("prcp-1deg.nc")} (precipitation, variable "prcp") has 1981-01..1982-12, ` +
        `${p("tas-1990s.nc")} (temperature, variable "tas") has 1990-01..1991-12`,
    );
  });

  it("refuses a file with no cell near Thailand", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-europe.nc"), temperature: p("tas-europe.nc"), ...REF })).rejects.toThrow(
      new RegExp(`^${p("prcp-europe.nc")} \\(precipitation, variable "prcp"\\): no cell over Thailand \\(the file covers none of lat 0\\.6`),
    );
  });

  it("refuses a grid none of whose cells overlaps a province", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-sea.nc"), temperature: p("tas-sea.nc"), ...REF })).rejects.toThrow(
      `${p("prcp-sea.nc")} (precipitation, variable "prcp"), ${p("tas-sea.nc")} (temperature, variable "tas"): ` +
        "no native cell over Thailand's provinces (lat 5..21 (17), lng 108..110 (3))",
    );
  });

  it("names both SPEIbase files when their grids differ", async () => {
    await expect(gridFromNetcdf({ provinces, speibase: { spei1: p("spei01.nc"), spei3: p("spei03.nc") }, ...REF })).rejects.toThrow(
      `grids differ: ${p("spei01.nc")} (SPEIbase spei1, variable "spei") has lat 5.25..20.75 (32), lng 97.25..105.75 (18), ` +
        `${p("spei03.nc")} (SPEIbase spei3, variable "spei") has lat 5..21 (17)`,
    );
  });

  it("refuses an irregular grid, naming the file and variable", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-irregular.nc"), temperature: p("tas-irregular.nc"), ...REF })).rejects.toThrow(
      `${p("prcp-irregular.nc")}: longitudes of "prcp": not a regular grid (value 3 is 100.5, expected 100)`,
    );
    expect(() => regularSpacing(Float64Array.of(13.75), "f.nc: latitudes")).toThrow("f.nc: latitudes: needs at least 2 values to know the cell size, has 1");
  });

  it("refuses half an input pair, a reference period outside the months, and unknown layers", async () => {
    await expect(gridFromNetcdf({ provinces, precipitation: p("prcp-1deg.nc"), ...REF })).rejects.toThrow(
      `${p("prcp-1deg.nc")}: a precipitation grid needs a temperature grid (temperature) for PET`,
    );
    await expect(gridFromNetcdf({ provinces, ...REF })).rejects.toThrow("gridFromNetcdf needs precipitation and temperature grids, or SPEIbase files");
    await expect(gridFromNetcdf({
      provinces, precipitation: p("prcp-1deg.nc"), temperature: p("tas-1deg.nc"), ...REF, refStart: monthIndex(1991, 1), refEnd: monthIndex(2020, 12),
    })).rejects.toThrow(`reference period 1991-01..2020-12 lies outside the months 1981-01..1982-12 of ${p("prcp-1deg.nc")} and ${p("tas-1deg.nc")}`);
    await expect(gridFromNetcdf({ provinces, speibase: { spei3: p("spei03.nc") }, ...REF, indexNames: ["spei3", "pdsi"] })).rejects.toThrow(
      'unknown index layer "pdsi" (known: spei1, spei3, spei6, spei12, spei24, spi1, spi3, spi6, spi12, mcdi)',
    );
    await expect(gridFromNetcdf({ provinces, speibase: { spei6: p("spei03.nc") }, ...REF, indexNames: ["spei3"] })).rejects.toThrow(
      `${p("spei03.nc")}: SPEIbase layer "spei6" is not one of the layers spei3`,
    );
  });
});
