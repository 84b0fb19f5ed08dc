// Our World in Data COVID-19 (Mathieu et al. 2020, CC BY 4.0): daily new cases for one country. COVID-19 has no
// earlier years to compare with, so its endemic channel uses the windows just before ("recent" baseline).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, parseCsvRecords } from "./csv.ts";
import { dayIndex, denseSeries, type CaseSeries } from "./series.ts";

export const COVID_FILE = join("health", "owid-covid", "THA_covid_data.csv");
export const COVID_SOURCE = "Our World in Data COVID-19 dataset, Thailand daily new cases (CC BY 4.0)";

/** (day, new_cases) rows; an empty new_cases (before the first report) is NaN. */
export function parseOwidCovid(text: string, source: string): [number, number][] {
  return parseCsvRecords(text, source, ["date", "new_cases"]).map((r) => [dayIndex(r.date), parseCount(r.new_cases)]);
}

export function readCovid(dir: string, iso3 = "THA"): CaseSeries {
  const path = join(dir, COVID_FILE);
  const { start, values } = denseSeries(parseOwidCovid(readFileSync(path, "utf8"), path), path);
  return { disease: "covid", area: iso3, resolution: "day", start, values, baseline: "recent", source: COVID_SOURCE };
}
