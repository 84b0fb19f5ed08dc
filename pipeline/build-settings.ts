// Settings of a drought build, from the environment, with documented defaults (README "Configuration").
import { parseMonth, formatMonth, type MonthIndex } from "../lib/months.ts";
import { intSetting } from "../lib/config.ts";
import { dryDayPolicyFromEnv, type DryDayPolicy } from "./inputs/ghcnd/aggregate.ts";
import { IDW_DEFAULTS } from "./grid/interpolate.ts";

export interface BuildSettings {
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

export function buildSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BuildSettings {
  const s: BuildSettings = {
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
    concurrency: intSetting(env, "BUILD_CONCURRENCY", 2),
  };
  if (s.baselineEnd - s.baselineStart < 12 * 10 - 1) {
    throw new Error(`baseline ${formatMonth(s.baselineStart)}..${formatMonth(s.baselineEnd)} is shorter than 10 years`);
  }
  if (s.validCellShare > 1) throw new Error(`VALID_CELL_SHARE must be ≤ 1, got ${s.validCellShare}`);
  return s;
}
