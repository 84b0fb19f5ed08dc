// Our World in Data COVID-19 (Mathieu et al. 2020, CC BY 4.0): daily new cases per country. COVID-19 has no
// earlier years to compare with, so its endemic channel uses the windows just before ("recent" baseline).
// Three layouts: OWID's maintained catalog table (garden/covid/latest/compact/compact.csv: every country, `country`
// and `code` columns), the frozen worldwide file it replaced (owid-covid-data.csv, last changed August 2024: an
// `iso_code` column) and the data mirror's Thailand-only copy of the latter without iso_code. Aggregates have codes
// "OWID_…" (or none) in both worldwide layouts.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fetchFeed, type FetchOutcome } from "../feeds/fetch.ts";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { dayIndex, denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const COVID_FILE = join("health", "owid-covid", "THA_covid_data.csv");
/** Where `make refresh` links OWID's catalog table in the inputs tree (pipeline/sources/registry.ts). */
export const COVID_WORLD_FILE = join("health", "owid-covid", "compact.csv");
/** The worldwide columns naming the country's ISO code: the catalog table's, then the frozen file's. */
export const COVID_CODE_COLUMNS = ["code", "iso_code"] as const;
export const COVID_SOURCE = "Our World in Data COVID-19 dataset, Thailand daily new cases (CC BY 4.0)";
export const COVID_WORLD_SOURCE = "Our World in Data COVID-19 dataset, daily new cases by country (CC BY 4.0)";

/** (day, new_cases) rows; an empty new_cases (before the first report) is NaN. */
export function parseOwidCovid(text: string, source: string, rejected: CsvRejection[] = []): [number, number][] {
  const csv = readCsvRecords(text, source, { required: ["date", "new_cases"], keep: ["date", "new_cases"] });
  rejected.push(...csv.rejected);
  return csv.records.map((r) => [dayIndex(r.date), parseCount(r.new_cases)]);
}

/** A country code of the live file: ISO alpha-3, not one of OWID's aggregates (OWID_WRL, OWID_ASI, …). */
const COUNTRY_CODE = /^[A-Z]{3}$/;

/** The code column of a worldwide header (`code` in the catalog table, `iso_code` in the frozen file). */
function codeColumn(text: string, source: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/)).replace(/^\uFEFF/, "").split(",").map((h) => h.trim().replace(/^"|"$/g, ""));
  const found = COVID_CODE_COLUMNS.find((c) => header.includes(c));
  if (!found) throw new Error(`${source}: missing column "code" (OWID catalog) or "iso_code" (owid-covid-data.csv)`);
  return found;
}

/**
 * One series per country of either worldwide layout (rows grouped by code; aggregates and rows without a date are
 * left out, a country without any value too).
 */
export function covidSeriesByCountry(text: string, source: string, rejected: CsvRejection[] = []): CaseSeries[] {
  const code = codeColumn(text, source);
  const csv = readCsvRecords(text, source, { required: [code, "date", "new_cases"], keep: [code, "date", "new_cases"] });
  rejected.push(...csv.rejected);
  const byCountry = new Map<string, [number, number][]>();
  csv.records.forEach((r, i) => {
    const iso3 = r[code];
    if (!COUNTRY_CODE.test(iso3)) return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date) || Number.isNaN(Date.parse(r.date))) {
      rejected.push({ file: source, line: csv.lines[i], reason: `date "${r.date}" is not YYYY-MM-DD` });
      return;
    }
    const day = dayIndex(r.date);
    let rows = byCountry.get(iso3);
    if (!rows) byCountry.set(iso3, (rows = []));
    rows.push([day, parseCount(r.new_cases)]);
  });
  const out: CaseSeries[] = [];
  for (const [iso3, rows] of [...byCountry].sort(([a], [b]) => a.localeCompare(b))) {
    if (!rows.some(([, v]) => !Number.isNaN(v))) continue;
    const { start, values } = denseSeries(rows, `${source} (${iso3})`);
    out.push({ disease: "covid", area: iso3, country: iso3, level: "national", resolution: "day", start, values, baseline: "recent", source: COVID_WORLD_SOURCE });
  }
  return out;
}

/** Env suffix of the download URL: FEED_URL_OWID_COVID_THA (a CSV in the same per-country OWID layout). */
export const COVID_FEED = "OWID_COVID_THA";

export function covidSeries(text: string, source: string, iso3 = "THA", rejected: CsvRejection[] = []): CaseSeries {
  const { start, values } = denseSeries(parseOwidCovid(text, source, rejected), source);
  return { disease: "covid", area: iso3, country: iso3, level: "national", resolution: "day", start, values, baseline: "recent", source: COVID_SOURCE };
}

/**
 * The COVID-19 series: every country from the catalog table when a refresh linked it into `dir`; otherwise
 * Thailand's, from FEED_URL_OWID_COVID_THA when it is set (deprecated; timeout and retries of pipeline/feeds/fetch.ts)
 * or from the data directory. `file` is the input read (relative to `dir`).
 */
export async function loadCovid(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
  rejected: CsvRejection[] = [],
): Promise<{ series: CaseSeries[]; fetch: FetchOutcome; file: string }> {
  const world = join(dir, COVID_WORLD_FILE);
  if (existsSync(world)) {
    const text = readFileSync(world, "utf8");
    return { series: covidSeriesByCountry(text, world, rejected), fetch: { from: "data-dir", attempts: 0, text }, file: COVID_WORLD_FILE };
  }
  const path = join(dir, COVID_FILE);
  const fetched = await fetchFeed({ name: COVID_FEED, fallbackPath: path }, { env });
  return { series: [covidSeries(fetched.text, fetched.from === "url" ? (fetched.url as string) : path, "THA", rejected)], fetch: fetched, file: COVID_FILE };
}
