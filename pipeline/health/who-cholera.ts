// WHO GHO cholera: reported cases, deaths and case fatality per country and year (1949–2016).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const CHOLERA_FILE = join("health", "who-cholera", "who_gho_cholera_1949_2016.csv");
export const CHOLERA_SOURCE = "WHO Global Health Observatory, reported cholera cases by country";
const CASES = "Number of reported cases of cholera";

/** (year, cases) of one country (name as in the file, e.g. "Thailand"); years not reported are absent. */
export function parseCholera(text: string, source: string, country: string, rejected: CsvRejection[] = []): [number, number][] {
  const out: [number, number][] = [];
  const csv = readCsvRecords(text, source, { required: ["Country", "Year", CASES] });
  rejected.push(...csv.rejected);
  for (const r of csv.records) {
    if (r.Country !== country) continue;
    const cases = parseCount(r[CASES]);
    if (!Number.isNaN(cases)) out.push([Number(r.Year), cases]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

export function readCholera(dir: string, country = "Thailand", iso3 = "THA", rejected: CsvRejection[] = []): CaseSeries {
  const path = join(dir, CHOLERA_FILE);
  const { start, values } = denseSeries(parseCholera(readFileSync(path, "utf8"), path, country, rejected), path);
  return { disease: "cholera", area: iso3, resolution: "year", start, values, baseline: "seasonal", source: CHOLERA_SOURCE };
}
