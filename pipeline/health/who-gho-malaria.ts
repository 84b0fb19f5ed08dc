// WHO Global Health Observatory malaria indicators: yearly values per country, in two layouts — the portal's CSV
// export (the data mirror) and the OData API's JSON (what `make refresh` downloads). The radar uses
// MALARIA_CONF_CASES (confirmed cases, all species) as the case series, for every country listed (SpatialDimension
// COUNTRY; regional and global aggregates are left out).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const MALARIA_DIR = join("health", "who-gho-malaria");
/** The GHO indicator the radar reads. */
export const MALARIA_CONF_CASES = "MALARIA_CONF_CASES";
export const MALARIA_CASES_FILE = `${MALARIA_CONF_CASES}.csv`;
/** The OData download of the same indicator, linked into the inputs tree by `make refresh`. */
export const MALARIA_CASES_JSON = `${MALARIA_CONF_CASES}.json`;
export const MALARIA_SOURCE = "WHO Global Health Observatory, MALARIA_CONF_CASES (confirmed malaria cases)";

/**
 * (year, value) per country (ISO alpha-3), sorted by year. Rows of regions and the globe (SpatialDimension other than
 * COUNTRY, when the column is there) are skipped.
 */
export function parseGhoIndicatorByCountry(text: string, source: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  const csv = readCsvRecords(text, source, { required: ["SpatialDimensionValueCode", "TimeDim", "NumericValue", "Value"] });
  rejected.push(...csv.rejected);
  const out = new Map<string, [number, number][]>();
  for (const r of csv.records) {
    if (r.SpatialDimension !== undefined && r.SpatialDimension !== "COUNTRY") continue;
    const year = Number(r.TimeDim);
    // NumericValue is the number; Value is its display form ("28 569") and a fallback.
    const v = r.NumericValue !== "" ? parseCount(r.NumericValue) : parseCount(r.Value);
    if (!Number.isInteger(year) || Number.isNaN(v)) continue;
    const iso3 = r.SpatialDimensionValueCode;
    let list = out.get(iso3);
    if (list === undefined) out.set(iso3, (list = []));
    list.push([year, v]);
  }
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/** One observation of a GHO OData answer ({ value: [...] }); only the fields the radar reads. */
interface GhoObservation {
  SpatialDimType?: unknown;
  SpatialDim?: unknown;
  TimeDim?: unknown;
  NumericValue?: unknown;
  Value?: unknown;
}

/**
 * The OData layout of parseGhoIndicatorByCountry: `{ value: [ { SpatialDimType, SpatialDim, TimeDim, NumericValue,
 * Value, … } ] }`. Observations of regions and the globe are skipped; one without a country code or a year is
 * rejected (its position in `value` as the line).
 */
export function parseGhoJsonByCountry(text: string, source: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON (${(err as Error).message})`);
  }
  const rows = (doc as { value?: unknown }).value;
  if (!Array.isArray(rows)) throw new Error(`${source}: no "value" array (not a GHO OData answer)`);
  const out = new Map<string, [number, number][]>();
  rows.forEach((r: GhoObservation, i) => {
    if (r.SpatialDimType !== undefined && r.SpatialDimType !== "COUNTRY") return;
    const year = Number(r.TimeDim);
    if (typeof r.SpatialDim !== "string" || !/^[A-Z]{3}$/.test(r.SpatialDim) || !Number.isInteger(year)) {
      rejected.push({ file: source, line: i + 1, reason: `observation ${i + 1}: no country code (SpatialDim) or year (TimeDim)` });
      return;
    }
    const v = typeof r.NumericValue === "number" ? r.NumericValue : parseCount(typeof r.Value === "string" ? r.Value : undefined);
    if (Number.isNaN(v)) return;
    let list = out.get(r.SpatialDim);
    if (list === undefined) out.set(r.SpatialDim, (list = []));
    list.push([year, v]);
  });
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/** (year, value) of one indicator for one country (ISO alpha-3), sorted by year. */
export function parseGhoIndicator(text: string, source: string, iso3: string, rejected: CsvRejection[] = []): [number, number][] {
  return parseGhoIndicatorByCountry(text, source, rejected).get(iso3) ?? [];
}

/** The input a build reads for one GHO indicator (relative to the data directory): the OData download when a refresh linked it. */
export function ghoInput(dir: string, code: string): string {
  const json = join(MALARIA_DIR, `${code}.json`);
  return existsSync(join(dir, json)) ? json : join(MALARIA_DIR, `${code}.csv`);
}

/** The malaria case input a build reads (relative to the data directory). */
export function malariaInput(dir: string): string {
  return ghoInput(dir, MALARIA_CONF_CASES);
}

/** (year, value) per country of one GHO indicator in the data directory (JSON download or CSV export). */
function readGhoByCountry(dir: string, code: string, rejected: CsvRejection[]): { path: string; byCountry: Map<string, [number, number][]> } {
  const path = join(dir, ghoInput(dir, code));
  const text = readFileSync(path, "utf8");
  return { path, byCountry: path.endsWith(".json") ? parseGhoJsonByCountry(text, path, rejected) : parseGhoIndicatorByCountry(text, path, rejected) };
}

/** Yearly confirmed-case series of every country in the input, sorted by code. */
export function readMalaria(dir: string, rejected: CsvRejection[] = []): CaseSeries[] {
  const { path, byCountry } = readGhoByCountry(dir, MALARIA_CONF_CASES, rejected);
  return [...byCountry.keys()].sort().map((iso3): CaseSeries => {
    const { start, values } = denseSeries(byCountry.get(iso3)!, `${path} ${iso3}`);
    return { disease: "malaria", area: iso3, country: iso3, level: "national", resolution: "year", start, values, baseline: "seasonal", source: MALARIA_SOURCE };
  });
}

/** The GHO indicator of WHO's estimated malaria incidence per 1,000 population at risk (World Malaria Report). */
export const MALARIA_EST_INCIDENCE = "MALARIA_EST_INCIDENCE";
export const MALARIA_INCIDENCE_SOURCE = "WHO Global Health Observatory, MALARIA_EST_INCIDENCE (estimated incidence per 1,000 population at risk, World Malaria Report)";

/** (year, estimated cases per 1,000 at risk) per country; values outside 0..1,000 are rejected. */
export function readMalariaIncidence(dir: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  const { path, byCountry } = readGhoByCountry(dir, MALARIA_EST_INCIDENCE, rejected);
  for (const [iso3, list] of byCountry) {
    const ok = list.filter(([y, v]) => v >= 0 && v <= 1000 && y >= 1900);
    if (ok.length < list.length) rejected.push({ file: path, line: 0, reason: `${iso3}: ${list.length - ok.length} estimate(s) outside 0..1,000 per 1,000` });
    byCountry.set(iso3, ok);
  }
  return byCountry;
}
