// GRID_SOURCE and the candidates the build tries (pipeline/grid/grid-source.ts): auto prefers ERA5, then the keyless
// NOAA pair, then the stations, by which files the data directory holds.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatMonth } from "../../lib/months.ts";
import { buildSettingsFromEnv, type BuildSettings } from "../../pipeline/build-settings.ts";
import { CPC_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE, GHCNM_DATA_DIR_FILES, gridCandidates, PRECL_DATA_DIR_FILE, resolvedGridSource } from "../../pipeline/grid/grid-source.ts";
import { ERA5_DATA_DIR_FILE } from "../../pipeline/sources/cds.ts";
import { droughtDataSources, gridSourceOf, publishedDroughtSources } from "../../lib/drought/grid-sources.ts";

function dirWith(...files: string[]): string {
  const d = mkdtempSync(join(tmpdir(), "grid-source-"));
  for (const f of files) {
    mkdirSync(dirname(join(d, f)), { recursive: true });
    writeFileSync(join(d, f), "x");
  }
  return d;
}

const names = (c: BuildSettings[]) => c.map(resolvedGridSource);
const baseline = (s: BuildSettings) => `${formatMonth(s.baselineStart)}..${formatMonth(s.baselineEnd)}`;

describe("gridCandidates", () => {
  const auto = buildSettingsFromEnv({});

  it("auto is the default; with no gridded input the stations are the only candidate", () => {
    expect(auto.gridSource).toBe("auto");
    // The mirror's GHCN-CAMS extract alone does not make the keyless pair.
    const c = gridCandidates(auto, dirWith(GHCN_CAMS_DATA_DIR_FILE, "climate/era5-land-sample/meanprecip_month_viet_2020.nc"));
    expect(names(c)).toEqual(["stations"]);
    expect(c[0].source).toBe("stations");
    expect(baseline(c[0])).toBe("1961-01..1990-12");
  });

  it("auto lists ERA5, then the keyless pair, then the stations, each gridded one with the 1991–2020 baseline", () => {
    const c = gridCandidates(auto, dirWith(ERA5_DATA_DIR_FILE, PRECL_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE));
    expect(names(c)).toEqual(["era5", "keyless", "stations"]);
    expect(c[0]).toMatchObject({ source: "netcdf", netcdf: { precipitation: ERA5_DATA_DIR_FILE, temperature: ERA5_DATA_DIR_FILE, precipitationUnits: "m day-1" } });
    expect(c[1]).toMatchObject({ source: "netcdf", netcdf: { precipitation: PRECL_DATA_DIR_FILE, temperature: GHCN_CAMS_DATA_DIR_FILE } });
    expect(c[1].netcdf!.precipitationUnits).toBeUndefined();
    expect(c.map(baseline)).toEqual(["1991-01..2020-12", "1991-01..2020-12", "1961-01..1990-12"]);
    expect(names(gridCandidates(auto, dirWith(PRECL_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE)))).toEqual(["keyless", "stations"]);
  });

  it("cpc (CPC precipitation + GHCN-Monthly stations) comes after the reanalyses and before the stations; named without its files is an error naming them", () => {
    const files = dirWith(CPC_DATA_DIR_FILE, GHCNM_DATA_DIR_FILES.dat, GHCNM_DATA_DIR_FILES.inv);
    expect(names(gridCandidates(auto, files))).toEqual(["cpc", "stations"]);
    const all = dirWith(ERA5_DATA_DIR_FILE, PRECL_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE, CPC_DATA_DIR_FILE, GHCNM_DATA_DIR_FILES.dat, GHCNM_DATA_DIR_FILES.inv);
    expect(names(gridCandidates(auto, all))).toEqual(["era5", "keyless", "cpc", "stations"]);
    const [cpc] = gridCandidates(buildSettingsFromEnv({ GRID_SOURCE: "cpc" }), files);
    expect(resolvedGridSource(cpc)).toBe("cpc");
    expect(cpc).toMatchObject({ source: "netcdf", netcdf: { precipitation: CPC_DATA_DIR_FILE, temperatureStations: GHCNM_DATA_DIR_FILES } });
    expect(baseline(cpc)).toBe("1991-01..2020-12");
    expect(() => gridCandidates(buildSettingsFromEnv({ GRID_SOURCE: "cpc" }), dirWith(CPC_DATA_DIR_FILE))).toThrow(
      `needs ${CPC_DATA_DIR_FILE} and ${GHCNM_DATA_DIR_FILES.dat} and ${GHCNM_DATA_DIR_FILES.inv} under`,
    );
    // Without the GHCN-Monthly files, CPC alone is no candidate.
    expect(names(gridCandidates(auto, dirWith(CPC_DATA_DIR_FILE)))).toEqual(["stations"]);
  });

  it("BASELINE_* set by hand win over the reanalysis baseline", () => {
    const s = buildSettingsFromEnv({ BASELINE_START: "1981-01", BASELINE_END: "2010-12" });
    const [era5] = gridCandidates(s, dirWith(ERA5_DATA_DIR_FILE));
    expect(baseline(era5)).toBe("1981-01..2010-12");
  });

  it("a named source is the only candidate; a named preset without its files is an error naming them", () => {
    const all = dirWith(ERA5_DATA_DIR_FILE, PRECL_DATA_DIR_FILE, GHCN_CAMS_DATA_DIR_FILE);
    expect(names(gridCandidates(buildSettingsFromEnv({ GRID_SOURCE: "stations" }), all))).toEqual(["stations"]);
    expect(names(gridCandidates(buildSettingsFromEnv({ GRID_SOURCE: "keyless" }), all))).toEqual(["keyless"]);
    expect(() => gridCandidates(buildSettingsFromEnv({ GRID_SOURCE: "era5" }), dirWith())).toThrow(
      /GRID_SOURCE=era5 needs climate\/era5\/era5-land-monthly\.nc under .* \(run make refresh REFRESH_SOURCES=era5\)/,
    );
    const nc = buildSettingsFromEnv({ GRID_SOURCE: "netcdf", NETCDF_PRECIPITATION: "p.nc", NETCDF_TEMPERATURE: "t.nc" });
    expect(gridCandidates(nc, all)).toEqual([nc]);
    expect(() => buildSettingsFromEnv({ GRID_SOURCE: "cru" })).toThrow('GRID_SOURCE must be one of auto, stations, era5, keyless, cpc, netcdf, got "cru"');
  });
});

describe("the grid source in the answers' dataSources", () => {
  it("names the inputs and the boundaries; versions built before the names answer as the station grid", () => {
    expect(droughtDataSources("keyless")).toEqual([
      "NOAA PSL PREC/L monthly precipitation over land, 0.5° (Chen et al. 2002)",
      "NOAA PSL GHCN-CAMS monthly 2 m air temperature, 0.5° (Fan & van den Dool 2008)",
      "geoBoundaries gbOpen THA ADM1 province boundaries (ODbL)",
    ]);
    expect(droughtDataSources("netcdf", ["climate/pre.nc", "climate/tmp.nc"])[0]).toBe("Gridded NetCDF climate inputs: climate/pre.nc, climate/tmp.nc");
    expect(publishedDroughtSources(undefined)).toEqual(droughtDataSources("stations"));
    expect(publishedDroughtSources(["A", "B"])).toEqual(["A", "B"]);
    expect(gridSourceOf({ gridSource: "era5" }).precipitation).toBe("ERA5-Land total precipitation");
    expect(gridSourceOf({}).name).toBe("stations");
  });
});
