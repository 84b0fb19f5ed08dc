// Our World in Data COVID-19 (Mathieu et al. 2020, CC BY 4.0): daily new cases for one country. COVID-19 has no
// earlier years to compare with, so its endemic channel uses the windows just before ("recent" baseline).
import { join } from "node:path";
import { fetchFeed, type FetchOutcome } from "../feeds/fetch.ts";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { dayIndex, denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const COVID_FILE = join("health", "owid-covid", "THA_covid_data.csv");
export const COVID_SOURCE = "Our World in Data COVID-19 dataset, Thailand daily new cases (CC BY 4.0)";

/** (day, new_cases) rows; an empty new_cases (before the first report) is NaN. */
export function parseOwidCovid(text: string, source: string, rejected: CsvRejection[] = []): [number, number][] {
  const csv = readCsvRecords(text, source, { required: ["date", "new_cases"] });
  rejected.push(...csv.rejected);
  return csv.records.map((r) => [dayIndex(r.date), parseCount(r.new_cases)]);
}

/** Env suffix of the download URL: FEED_URL_OWID_COVID_THA (a CSV in the same per-country OWID layout). */
export const COVID_FEED = "OWID_COVID_THA";

export function covidSeries(text: string, source: string, iso3 = "THA", rejected: CsvRejection[] = []): CaseSeries {
  const { start, values } = denseSeries(parseOwidCovid(text, source, rejected), source);
  return { disease: "covid", area: iso3, country: iso3, level: "national", resolution: "day", start, values, baseline: "recent", source: COVID_SOURCE };
}

/**
 * The series from FEED_URL_OWID_COVID_THA when it is set (timeout and retries of pipeline/feeds/fetch.ts), else or
 * when every attempt fails from the data directory; the outcome says which, with the text for the checksum.
 */
export async function loadCovid(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  rejected: CsvRejection[] = [],
): Promise<{ series: CaseSeries; fetch: FetchOutcome }> {
  const path = join(dir, COVID_FILE);
  const fetched = await fetchFeed({ name: COVID_FEED, fallbackPath: path }, { env });
  return { series: covidSeries(fetched.text, fetched.from === "url" ? (fetched.url as string) : path, "THA", rejected), fetch: fetched };
}
