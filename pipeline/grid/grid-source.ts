// Which inputs the drought grid is built from. GRID_SOURCE=auto (the default) prefers reanalysis, as the interface
// says drought is computed from it: ERA5-Land when a CDS download is in the inputs tree, else the keyless NOAA PSL
// pair (PREC/L precipitation + GHCN-CAMS temperature) when both are, else the regional grid of CPC gauge
// precipitation (1° cells, 1979 to the last yearly file) with GHCN-Monthly station temperature
// (pipeline/grid/from-cpc.ts) — the offline default, over Thailand, Vietnam and Malaysia — else the GHCN-Daily
// station grid (Thailand alone, to 2019). The build tries the candidates in order and publishes the first that
// builds (docs/methods/reanalysis.md, "Choosing the grid source"; docs/methods/gridding.md, "Thailand: which grid").
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseMonth } from "../../lib/months.ts";
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";
import type { BuildSettings, NetcdfSource } from "../build-settings.ts";
import { ERA5_DATA_DIR_FILE } from "../sources/cds.ts";

/** Where `make refresh` links the keyless downloads in the inputs tree (pipeline/sources/registry.ts). */
export const PRECL_DATA_DIR_FILE = "climate/precl/precip.mon.mean.0.5x0.5.nc";
export const GHCN_CAMS_DATA_DIR_FILE = "climate/ghcn-cams-sample/air.mon.mean.nc";

/** The data mirror's CPC precipitation and GHCN-Monthly temperature for Southeast Asia (../shared/data PROVENANCE.md). */
export const CPC_DATA_DIR_FILE = "climate/cpc-seasia-1deg/cpc_precip_seasia_1deg_monthly_1979_2023.nc";
/** The years after the mirror's CPC series, one monthly file a year in its layout (source cpc_precip), appended to it. */
export const CPC_EXTENSION_DIR = "climate/cpc-seasia-1deg/live";
export const cpcExtensionFile = (year: number) => `${CPC_EXTENSION_DIR}/cpc_precip_seasia_1deg_monthly_${year}.nc`;
export const GHCNM_DATA_DIR_FILES = { dat: "climate/ghcnm-v4-tavg/ghcnm.tavg.v4.qcf.seasia.dat.gz", inv: "climate/ghcnm-v4-tavg/ghcnm.tavg.v4.qcf.seasia.inv" };

/** The reanalysis baseline (WMO's current normal), used by the gridded presets unless BASELINE_* are set. */
export const REANALYSIS_BASELINE = { start: "1991-01", end: "2020-12" };

type Preset = "era5" | "keyless" | "cpc";

const PRESETS: Record<Preset, NetcdfSource> = {
  // The CDS stores monthly means of daily totals in metres (docs/methods/reanalysis.md, "Units").
  era5: { precipitation: ERA5_DATA_DIR_FILE, temperature: ERA5_DATA_DIR_FILE, precipitationUnits: "m day-1" },
  keyless: { precipitation: PRECL_DATA_DIR_FILE, temperature: GHCN_CAMS_DATA_DIR_FILE },
  cpc: { precipitation: CPC_DATA_DIR_FILE, precipitationExtension: CPC_EXTENSION_DIR, temperatureStations: GHCNM_DATA_DIR_FILES },
};

/** The files of a preset, relative to the data directory. */
export function presetFiles(p: NetcdfSource): string[] {
  return [p.precipitation, p.temperature, p.temperatureStations?.dat, p.temperatureStations?.inv].filter((f): f is string => f !== undefined);
}

function presetSettings(settings: BuildSettings, name: Preset): BuildSettings {
  const baseline = settings.baselineFromEnv ? {} : { baselineStart: parseMonth(REANALYSIS_BASELINE.start)!, baselineEnd: parseMonth(REANALYSIS_BASELINE.end)! };
  return { ...settings, ...baseline, gridSource: name, source: "netcdf", netcdf: PRESETS[name] };
}

function presetPresent(dataDir: string, name: Preset): boolean {
  return presetFiles(PRESETS[name]).every((f) => existsSync(resolve(dataDir, f)));
}

/**
 * The settings to try, in order. A named source is the only candidate; auto lists the gridded presets whose files
 * are in `dataDir` (the inputs tree after a refresh, which links the mirror's CPC and GHCN-Monthly files), then the stations. The mirror's GHCN-CAMS extract alone does
 * not qualify the keyless pair: PREC/L is only ever a download.
 */
export function gridCandidates(settings: BuildSettings, dataDir: string): BuildSettings[] {
  const g = settings.gridSource;
  if (g === "stations") return [{ ...settings, source: "stations", netcdf: undefined }];
  if (g === "netcdf") return [settings];
  if (g === "era5" || g === "keyless" || g === "cpc") {
    if (!presetPresent(dataDir, g)) {
      const how = g === "cpc" ? "the data mirror's copies, ../shared/data PROVENANCE.md" : `run make refresh REFRESH_SOURCES=${g === "era5" ? "era5" : "precl,ghcn_cams"}`;
      throw new Error(`GRID_SOURCE=${g} needs ${[...new Set(presetFiles(PRESETS[g]))].join(" and ")} under ${dataDir} (${how})`);
    }
    return [presetSettings(settings, g)];
  }
  const out: BuildSettings[] = [];
  for (const name of ["era5", "keyless", "cpc"] as const) if (presetPresent(dataDir, name)) out.push(presetSettings(settings, name));
  out.push({ ...settings, gridSource: "stations", source: "stations", netcdf: undefined });
  return out;
}

/** The concrete source name of resolved settings. */
export function resolvedGridSource(settings: BuildSettings): GridSourceName {
  return settings.gridSource === "auto" ? settings.source : settings.gridSource;
}
