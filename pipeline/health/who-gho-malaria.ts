// WHO Global Health Observatory malaria exports (OData CSV, one file per indicator): yearly values per country.
// The radar uses MALARIA_CONF_CASES (confirmed cases, all species) as the case series, for every country the
// export lists (SpatialDimension COUNTRY; regional and global aggregates are left out).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const MALARIA_DIR = join("health", "who-gho-malaria");
export const MALARIA_CASES_FILE = "MALARIA_CONF_CASES.csv";
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

/** (year, value) of one indicator for one country (ISO alpha-3), sorted by year. */
export function parseGhoIndicator(text: string, source: string, iso3: string, rejected: CsvRejection[] = []): [number, number][] {
  return parseGhoIndicatorByCountry(text, source, rejected).get(iso3) ?? [];
}

/** Yearly confirmed-case series of every country in the export, sorted by code. */
export function readMalaria(dir: string, rejected: CsvRejection[] = []): CaseSeries[] {
  const path = join(dir, MALARIA_DIR, MALARIA_CASES_FILE);
  const byCountry = parseGhoIndicatorByCountry(readFileSync(path, "utf8"), path, rejected);
  return [...byCountry.keys()].sort().map((iso3): CaseSeries => {
    const { start, values } = denseSeries(byCountry.get(iso3)!, `${path} ${iso3}`);
    return { disease: "malaria", area: iso3, country: iso3, level: "national", resolution: "year", start, values, baseline: "seasonal", source: MALARIA_SOURCE };
  });
}
