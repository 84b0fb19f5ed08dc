// WHO Global Health Observatory malaria exports (OData CSV, one file per indicator): yearly values per country.
// The radar uses MALARIA_CONF_CASES (confirmed cases, all species) as the case series.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const MALARIA_DIR = join("health", "who-gho-malaria");
export const MALARIA_CASES_FILE = "MALARIA_CONF_CASES.csv";
export const MALARIA_SOURCE = "WHO Global Health Observatory, MALARIA_CONF_CASES (confirmed malaria cases)";

/** (year, value) of one indicator for one country (ISO alpha-3), sorted by year. */
export function parseGhoIndicator(text: string, source: string, iso3: string, rejected: CsvRejection[] = []): [number, number][] {
  const csv = readCsvRecords(text, source, { required: ["SpatialDimensionValueCode", "TimeDim", "NumericValue", "Value"] });
  rejected.push(...csv.rejected);
  const rows = csv.records;
  const out: [number, number][] = [];
  for (const r of rows) {
    if (r.SpatialDimensionValueCode !== iso3) continue;
    const year = Number(r.TimeDim);
    // NumericValue is the number; Value is its display form ("28 569") and a fallback.
    const v = r.NumericValue !== "" ? parseCount(r.NumericValue) : parseCount(r.Value);
    if (Number.isInteger(year) && !Number.isNaN(v)) out.push([year, v]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

export function readMalaria(dir: string, iso3 = "THA", rejected: CsvRejection[] = []): CaseSeries {
  const path = join(dir, MALARIA_DIR, MALARIA_CASES_FILE);
  const { start, values } = denseSeries(parseGhoIndicator(readFileSync(path, "utf8"), path, iso3, rejected), path);
  return { disease: "malaria", area: iso3, resolution: "year", start, values, baseline: "seasonal", source: MALARIA_SOURCE };
}
