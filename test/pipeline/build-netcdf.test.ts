// The drought build from gridded NetCDF inputs (GRID_SOURCE=netcdf): native cells clipped to Thailand, indices
// computed per cell, published like the station build. Inputs are small files the test writes; the province
// boundaries come from the data mirror.
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { monthIndex } from "../../lib/months.ts";
import { buildDrought } from "../../pipeline/build.ts";
import { buildSettingsFromEnv } from "../../pipeline/build-settings.ts";
import { readManifest } from "../../formats/manifest.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { axis, writePrecipitationNc3, writeTemperatureNc4 } from "../netcdf-build/fixtures.ts";

describe("drought build from NetCDF grids", () => {
  it("publishes native 1° cells over Thailand with indices from the gridded inputs", async () => {
    const dd = mkdtempSync(join(tmpdir(), "nc-data-"));
    symlinkSync(join(dataDir(), "boundaries"), join(dd, "boundaries"));
    mkdirSync(join(dd, "climate"));
    const grid = { lats: axis(22, 4, 1), lngs: axis(96, 107, 1), firstMonth: monthIndex(1958, 1), nMonths: 12 * 40 };
    writePrecipitationNc3(join(dd, "climate", "pre.nc"), grid);
    await writeTemperatureNc4(join(dd, "climate", "tmp.nc"), grid);

    const settings = buildSettingsFromEnv({
      GRID_SOURCE: "netcdf",
      // The files of this test cover Thailand's box; the region's other countries are asked of the regional build.
      DROUGHT_COUNTRIES: "THA",
      NETCDF_PRECIPITATION: "climate/pre.nc",
      NETCDF_TEMPERATURE: "climate/tmp.nc",
      TILE_MONTHS: "1",
      TILE_MAX_ZOOM: "5",
    });
    const artifacts = mkdtempSync(join(tmpdir(), "nc-art-"));
    const r = await buildDrought({ dataDir: dd, artifactsDir: artifacts, settings });
    expect(r.status).toBe("published");
    const m = readManifest(r.dir!);
    expect(Object.keys(m.inputs)).toEqual(expect.arrayContaining(["climate/pre.nc", "climate/tmp.nc"]));
    expect(m.qc.source).toBe("netcdf");
    const g = openDroughtGrid(new Uint8Array(readFileSync(join(r.dir!, "drought-grid.bin"))));
    expect(g.resolutionDeg).toBe(1);
    // Native cells are centred on whole degrees.
    for (let c = 0; c < g.nCells; c++) {
      expect(Number.isInteger(g.cellLat(c))).toBe(true);
      expect(Number.isInteger(g.cellLng(c))).toBe(true);
    }
    expect(g.nCells).toBeGreaterThan(60);
    expect(g.nCells).toBeLessThan(90);
    const report = JSON.parse(readFileSync(join(r.dir!, "build-report.json"), "utf8"));
    expect(report.source.source).toBe("netcdf");
    expect(m.latestValidMonth).toBe("1997-12");
    expect(g.monthValidCount(g.monthOffset(monthIndex(1997, 12)), g.indexNo("spei12"))).toBe(g.nCells);
    // A whole build with tiles: 30 s quiet, past 60 s on a loaded 2-core machine; the limit only stops a hang.
  }, 300_000);

  it("refuses GRID_SOURCE=netcdf without inputs", () => {
    expect(() => buildSettingsFromEnv({ GRID_SOURCE: "netcdf" })).toThrow(/NETCDF_PRECIPITATION/);
    expect(() => buildSettingsFromEnv({ GRID_SOURCE: "era" })).toThrow(/one of auto, stations, era5, keyless, cpc, netcdf/);
  });
});
