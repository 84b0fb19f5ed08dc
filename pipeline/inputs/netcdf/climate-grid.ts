// Monthly precipitation (mm per month) or mean temperature (°C) grids from CF NetCDF files.
import { calendarMonthOf, yearOf } from "../../../lib/months.ts";
import { calendarDaysInMonth, precipitationConversion, stringAttribute, temperatureOffset } from "./cf.ts";
import { readMonthlyVariable, type BBox, type MonthlyGrid } from "./monthly-grid.ts";
import { openNetcdf, type NcDataset } from "./open.ts";

export type ClimateKind = "precipitation" | "temperature";

export interface ClimateGridOptions {
  kind: ClimateKind;
  /** Variable name; default: guessed from standard_name, then from common names. */
  variable?: string;
  bbox?: BBox;
  /**
   * Overrides the file's units attribute, for files whose units are wrong or ambiguous: e.g. ERA5 monthly means
   * of "tp" say "m" but hold the mean daily total, so pass "m day-1".
   */
  units?: string;
}

/** CF standard names (CF Standard Name Table) in order of preference. */
const STANDARD_NAMES: Record<ClimateKind, string[]> = {
  precipitation: ["precipitation_amount", "lwe_thickness_of_precipitation_amount", "precipitation_flux",
    "lwe_precipitation_rate", "thickness_of_rainfall_amount", "rainfall_amount", "rainfall_flux"],
  temperature: ["air_temperature"],
};

/** Common variable names: CRU TS (pre, tmp), ERA5 (tp, t2m), NOAA PSL (precip, air), GHCN (prcp), CMIP (pr, tas). */
const COMMON_NAMES: Record<ClimateKind, string[]> = {
  precipitation: ["pre", "tp", "precip", "prcp", "pr", "precipitation", "ppt", "rr", "rain"],
  temperature: ["tmp", "t2m", "air", "tas", "tmean", "tavg", "tg", "temp", "temperature"],
};

/** The data variable for a kind: by standard_name (daily maxima/minima set aside), then by common name. */
export function guessVariable(ds: NcDataset, kind: ClimateKind): string {
  const byStandardName = [...ds.variables.values()]
    .filter((v) => STANDARD_NAMES[kind].includes(stringAttribute(v.attributes, "standard_name") ?? ""))
    .filter((v) => !/maximum|minimum/.test(stringAttribute(v.attributes, "cell_methods") ?? ""));
  if (byStandardName.length === 1) return byStandardName[0].name;
  if (byStandardName.length > 1) {
    throw new Error(`${ds.path}: several ${kind} variables (${byStandardName.map((v) => v.name).join(", ")}); choose one with "variable"`);
  }
  for (const name of COMMON_NAMES[kind]) {
    const v = [...ds.variables.keys()].find((k) => k.toLowerCase() === name);
    if (v) return v;
  }
  throw new Error(`${ds.path}: no ${kind} variable found (by standard_name ${STANDARD_NAMES[kind].join("/")} or names ${COMMON_NAMES[kind].join("/")})`);
}

/**
 * Reads a monthly precipitation or temperature grid. Precipitation becomes mm per month (rates are multiplied by
 * the days of each month in the file's calendar), temperature °C. Values are [cell][month] (see MonthlyGrid).
 */
export async function readMonthlyClimateGrid(path: string, options: ClimateGridOptions): Promise<MonthlyGrid<"mm" | "degC">> {
  const ds = await openNetcdf(path);
  try {
    const variable = options.variable ?? guessVariable(ds, options.kind);
    if (!ds.variables.has(variable)) throw new Error(`${path}: no variable "${variable}"`);
    const raw = readMonthlyVariable(ds, variable, options.bbox);
    const units = options.units ?? stringAttribute(raw.attributes, "units");
    if (units === undefined) throw new Error(`${path}: variable "${variable}" has no units attribute`);
    const nT = raw.months.length;
    const v = raw.values;
    if (options.kind === "temperature") {
      const offset = temperatureOffset(units, variable);
      for (let i = 0; i < v.length; i++) v[i] += offset;
      return { ...strip(raw), units: "degC" };
    }
    const conv = precipitationConversion(units, variable);
    const factors = raw.months.map((m) =>
      conv.perDay ? conv.factor * calendarDaysInMonth(raw.calendar, yearOf(m), calendarMonthOf(m)) : conv.factor);
    for (let i = 0; i < v.length; i++) v[i] *= factors[i % nT];
    return { ...strip(raw), units: "mm" };
  } finally {
    ds.close();
  }
}

function strip(raw: ReturnType<typeof readMonthlyVariable>): Omit<MonthlyGrid, "units"> {
  return { path: raw.path, variable: raw.variable, lats: raw.lats, lngs: raw.lngs, months: raw.months, values: raw.values };
}
