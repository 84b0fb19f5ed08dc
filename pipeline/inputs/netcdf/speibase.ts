// SPEIbase (Beguería et al. 2010, 2014; https://spei.csic.es/database.html) ingest: spei(time, lat, lon), float,
// units "1", fill 1e30, time "days since 1900-1-1" (gregorian, mid-month), one file per time scale: spei01.nc …
// spei48.nc. The values are precomputed SPEI and are taken as they are.
import { basename } from "node:path";
import { numberAttribute, stringAttribute, type Attributes } from "./cf.ts";
import { readMonthlyVariable, type BBox, type MonthlyGrid } from "./monthly-grid.ts";
import { openNetcdf } from "./open.ts";

export interface SpeiGrid extends MonthlyGrid<"1"> {
  /** Accumulation time scale in months (SPEI-3 → 3). */
  scale: number;
}

export interface SpeibaseOptions {
  bbox?: BBox;
  /** Time scale in months, when neither the file name nor the attributes give it. */
  scale?: number;
  /** Variable name; default "spei" (SPEIbase), else "spi". */
  variable?: string;
}

/** Time scale from a SPEIbase file name: "spei03.nc" → 3, "SPEI_12.nc" → 12. */
export function scaleFromFileName(path: string): number | undefined {
  const m = /spei[_-]?(\d{1,2})(?!\d)/i.exec(basename(path));
  return m ? Number(m[1]) : undefined;
}

/**
 * Time scale from attributes: a numeric "scale"/"time_scale"/"timescale" attribute, or the SPEIbase global
 * "summary" ("… at the 3-months time scale. …").
 */
export function scaleFromAttributes(...lists: Attributes[]): number | undefined {
  for (const attrs of lists) {
    for (const name of ["scale", "time_scale", "timescale", "spei_scale"]) {
      const n = numberAttribute(attrs, name) ?? Number(stringAttribute(attrs, name) ?? NaN);
      if (Number.isInteger(n) && n > 0) return n;
    }
    const summary = stringAttribute(attrs, "summary") ?? "";
    const m = /at the (\d{1,2})-months? time scale/i.exec(summary);
    if (m) return Number(m[1]);
  }
  return undefined;
}

const DIMENSIONLESS = ["1", "", "-", "z-values", "dimensionless", "none"];

export async function readSpeibase(path: string, options: SpeibaseOptions = {}): Promise<SpeiGrid> {
  const ds = await openNetcdf(path);
  try {
    const variable = options.variable ?? (ds.variables.has("spei") ? "spei" : ds.variables.has("spi") ? "spi" : undefined);
    if (!variable || !ds.variables.has(variable)) {
      throw new Error(`${path}: no SPEI variable "${options.variable ?? "spei"}" (variables: ${[...ds.variables.keys()].join(", ")})`);
    }
    const v = ds.variables.get(variable)!;
    const units = stringAttribute(v.attributes, "units") ?? "";
    if (!DIMENSIONLESS.includes(units.trim().toLowerCase())) {
      throw new Error(`${path}: variable "${variable}" has units "${units}"; SPEI is dimensionless ("1")`);
    }
    const scale = options.scale ?? scaleFromFileName(path) ?? scaleFromAttributes(v.attributes, ds.globalAttributes);
    if (scale === undefined) {
      throw new Error(`${path}: SPEI time scale not found in the file name (speiNN.nc) or attributes; pass "scale"`);
    }
    const raw = readMonthlyVariable(ds, variable, options.bbox);
    return { path, variable, lats: raw.lats, lngs: raw.lngs, months: raw.months, values: raw.values, units: "1", scale };
  } finally {
    ds.close();
  }
}
