// Settings of a drought build, from the environment, with documented defaults (README "Configuration").
import { parseMonth, formatMonth, type MonthIndex } from "../lib/months.ts";
import { intSetting } from "../lib/config.ts";
import { dryDayPolicyFromEnv, type DryDayPolicy } from "./inputs/ghcnd/aggregate.ts";
import { IDW_DEFAULTS } from "./grid/interpolate.ts";
import { Z_MAX } from "../formats/index-range.ts";
import type { GridSourceName } from "../lib/drought/grid-sources.ts";

export interface NetcdfSource {
  /** Paths relative to DATA_DIR (or absolute). */
  precipitation?: string;
  /** A folder of monthly files in the precipitation file's layout that continue its series (CPC: a file a year). */
  precipitationExtension?: string;
  temperature?: string;
  /** Monthly mean temperature from GHCN-Monthly stations (.dat and .inv), put on the precipitation grid's cells. */
  temperatureStations?: { dat: string; inv: string };
  /** Units override for precipitation (e.g. "m day-1" for ERA5 monthly means of daily totals). */
  precipitationUnits?: string;
  /** Precomputed SPEIbase files by layer, e.g. { spei3: "climate/spei03.nc" }. */
  speibase?: Record<string, string>;
}

export interface BuildSettings {
  /**
   * What the grid is built from (GRID_SOURCE): "auto" (the default) takes the first of era5, keyless, stations
   * whose inputs are present and that builds (pipeline/grid/grid-source.ts); the others name one (cpc: CPC
   * precipitation with GHCN-Monthly temperature, only when named).
   */
  gridSource: "auto" | GridSourceName;
  /**
   * The drought region's countries (DROUGHT_COUNTRIES, default THA,VNM,MYS; pipeline/provinces/region.ts). The station
   * grid covers Thailand alone whatever this says: its GHCN-Daily stations are Thai.
   */
  countries: string[];
  /** The grid path: "stations" (GHCN-Daily, interpolated) or "netcdf" (native cells of gridded inputs). */
  source: "stations" | "netcdf";
  netcdf?: NetcdfSource;
  /** BASELINE_START/BASELINE_END were set: a gridded preset keeps them instead of its own 1991–2020. */
  baselineFromEnv: boolean;
  dryDayPolicy: DryDayPolicy;
  baselineStart: MonthIndex;
  baselineEnd: MonthIndex;
  resolutionDeg: number;
  idwPower: number;
  idwMaxStations: number;
  idwMaxDistanceKm: number;
  idwClampZ: number;
  /** A month counts as valid for serving when at least this share of land cells has SPEI-1. */
  validCellShare: number;
  keepVersions: number;
  /** Map tiles: latest months precomputed and the deepest zoom (docs/methods/tiles.md). */
  tileMonths: number;
  tileMaxZoom: number;
  concurrency: number;
}

function monthSetting(env: NodeJS.ProcessEnv, name: string, fallback: string): MonthIndex {
  const raw = env[name] ?? fallback;
  const m = parseMonth(raw);
  if (m === undefined) throw new Error(`${name} must be YYYY-MM, got "${raw}"`);
  return m;
}

function numberSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

const GRID_SOURCE_VALUES = ["auto", "stations", "era5", "keyless", "cpc", "netcdf"] as const;

export function buildSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BuildSettings {
  const gridSource = env.GRID_SOURCE || "auto";
  if (!(GRID_SOURCE_VALUES as readonly string[]).includes(gridSource)) throw new Error(`GRID_SOURCE must be one of ${GRID_SOURCE_VALUES.join(", ")}, got "${gridSource}"`);
  const s: BuildSettings = {
    gridSource: gridSource as BuildSettings["gridSource"],
    countries: (env.DROUGHT_COUNTRIES || "THA,VNM,MYS").split(",").map((c) => c.trim().toUpperCase()).filter((c) => c !== ""),
    // Resolved for the presets by gridCandidates (pipeline/grid/grid-source.ts).
    source: gridSource === "netcdf" ? "netcdf" : "stations",
    netcdf: gridSource === "netcdf" ? netcdfSourceFromEnv(env) : undefined,
    baselineFromEnv: !!(env.BASELINE_START || env.BASELINE_END),
    dryDayPolicy: dryDayPolicyFromEnv(env),
    // WMO standard normal 1961–1990: inside the years in which the station records are complete (1955–1998).
    baselineStart: monthSetting(env, "BASELINE_START", "1961-01"),
    baselineEnd: monthSetting(env, "BASELINE_END", "1990-12"),
    resolutionDeg: numberSetting(env, "GRID_RESOLUTION_DEG", 0.25),
    idwPower: numberSetting(env, "IDW_POWER", IDW_DEFAULTS.power),
    idwMaxStations: intSetting(env, "IDW_MAX_STATIONS", IDW_DEFAULTS.maxStations),
    idwMaxDistanceKm: numberSetting(env, "IDW_MAX_DISTANCE_KM", IDW_DEFAULTS.maxDistanceKm),
    idwClampZ: numberSetting(env, "IDW_CLAMP_Z", IDW_DEFAULTS.clampZ),
    validCellShare: numberSetting(env, "VALID_CELL_SHARE", 0.9),
    keepVersions: intSetting(env, "KEEP_VERSIONS", 3),
    tileMonths: intSetting(env, "TILE_MONTHS", 12),
    tileMaxZoom: intSetting(env, "TILE_MAX_ZOOM", 10),
    concurrency: intSetting(env, "BUILD_CONCURRENCY", 2),
  };
  if (s.baselineEnd - s.baselineStart < 12 * 10 - 1) {
    throw new Error(`baseline ${formatMonth(s.baselineStart)}..${formatMonth(s.baselineEnd)} is shorter than 10 years`);
  }
  if (s.validCellShare > 1) throw new Error(`VALID_CELL_SHARE must be ≤ 1, got ${s.validCellShare}`);
  // The station grid's values lie within ±IDW_CLAMP_Z; past Z_MAX a grid would hold values no index gives (index-range.ts).
  if (!(s.idwClampZ > 0 && s.idwClampZ <= Z_MAX)) throw new Error(`IDW_CLAMP_Z must be in (0, ${Z_MAX.toFixed(4)}], got ${s.idwClampZ}`);
  return s;
}

/** NETCDF_PRECIPITATION, NETCDF_TEMPERATURE, NETCDF_PRECIPITATION_UNITS, SPEIBASE_FILES ("spei1=a.nc,spei3=b.nc"). */
function netcdfSourceFromEnv(env: NodeJS.ProcessEnv): NetcdfSource {
  const out: NetcdfSource = {};
  if (env.NETCDF_PRECIPITATION) out.precipitation = env.NETCDF_PRECIPITATION;
  if (env.NETCDF_TEMPERATURE) out.temperature = env.NETCDF_TEMPERATURE;
  if (env.NETCDF_PRECIPITATION_UNITS) out.precipitationUnits = env.NETCDF_PRECIPITATION_UNITS;
  if (env.SPEIBASE_FILES) {
    out.speibase = {};
    for (const pair of env.SPEIBASE_FILES.split(",")) {
      const [layer, path] = pair.split("=").map((x) => x.trim());
      if (!layer || !path) throw new Error(`SPEIBASE_FILES entries must be layer=path, got "${pair}"`);
      out.speibase[layer] = path;
    }
  }
  if (!out.precipitation && !out.temperature && !out.speibase) {
    throw new Error("GRID_SOURCE=netcdf needs NETCDF_PRECIPITATION and NETCDF_TEMPERATURE, or SPEIBASE_FILES");
  }
  return out;
}
