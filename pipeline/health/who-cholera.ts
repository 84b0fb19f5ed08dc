// WHO GHO cholera: reported cases, deaths and case fatality per country and year (1949–2016), for every country
// the file names. Countries are named in WHO's style ("Viet Nam", "Iran (Islamic Republic of)"); names map to ISO
// alpha-3 through the feeds' country names (i18n-iso-countries plus aliases) and WHO_SPELLINGS below. A name that
// maps to no code stops the build, except the former states in FORMER_STATES, which no point lies in today.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { countryNameToIso3, isIso3 } from "../feeds/country-check.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";
import { parseGhoJsonByCountry } from "./who-gho-malaria.ts";

export const CHOLERA_FILE = join("health", "who-cholera", "who_gho_cholera_1949_2016.csv");
/** The OData download of reported cases (CHOLERA_0000000001), linked into the inputs tree by `make refresh`. */
export const CHOLERA_CASES_JSON = join("health", "who-cholera", "CHOLERA_0000000001.json");
export const CHOLERA_SOURCE = "WHO Global Health Observatory, reported cholera cases by country";
const CASES = "Number of reported cases of cholera";

/** WHO's formal names that the general country-name table does not know. */
export const WHO_SPELLINGS: Record<string, string> = {
  "Bolivia (Plurinational State of)": "BOL",
  "Cabo Verde": "CPV",
  "Democratic People's Republic of Korea": "PRK",
  "Iran (Islamic Republic of)": "IRN",
  "Micronesia (Federated States of)": "FSM",
  "Republic of Moldova": "MDA",
  "Venezuela (Bolivarian Republic of)": "VEN",
};

/** States that no longer exist: their rows are left out (listed in the build report), not given to a successor. */
export const FORMER_STATES = new Set(["The former state union Serbia and Montenegro"]);

/** (year, cases) per country name as in the file; years not reported are absent. */
export function parseCholeraByName(text: string, source: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  const csv = readCsvRecords(text, source, { required: ["Country", "Year", CASES] });
  rejected.push(...csv.rejected);
  for (const r of csv.records) {
    const cases = parseCount(r[CASES]);
    const year = Number(r.Year);
    if (Number.isNaN(cases) || !Number.isInteger(year)) continue;
    let list = out.get(r.Country);
    if (list === undefined) out.set(r.Country, (list = []));
    list.push([year, cases]);
  }
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/** (year, cases) of one country (name as in the file, e.g. "Thailand"). */
export function parseCholera(text: string, source: string, country: string, rejected: CsvRejection[] = []): [number, number][] {
  return parseCholeraByName(text, source, rejected).get(country) ?? [];
}

/** ISO alpha-3 of a WHO country name, or undefined. */
export function choleraCountryCode(name: string): string | undefined {
  return WHO_SPELLINGS[name] ?? countryNameToIso3(name);
}

export interface Cholera {
  series: CaseSeries[];
  /** Names and the code each matched. */
  matches: Record<string, string>;
  /** Former states left out. */
  leftOut: string[];
}

/** The cholera input a build reads (relative to the data directory): the OData download when a refresh linked it. */
export function choleraInput(dir: string): string {
  return existsSync(join(dir, CHOLERA_CASES_JSON)) ? CHOLERA_CASES_JSON : CHOLERA_FILE;
}

/**
 * Yearly reported-case series of every country, sorted by code: from the OData download (countries by ISO code)
 * when there is one, else from the mirror's CSV (countries by WHO name; throws on a name without a code).
 */
export function readCholera(dir: string, rejected: CsvRejection[] = []): Cholera {
  if (choleraInput(dir) === CHOLERA_CASES_JSON) {
    const path = join(dir, CHOLERA_CASES_JSON);
    const byCode = parseGhoJsonByCountry(readFileSync(path, "utf8"), path, rejected);
    // Former states (SCG, Serbia and Montenegro) are left out as in the CSV, not given to a successor.
    const leftOut = [...byCode.keys()].filter((code) => !isIso3(code)).sort();
    for (const code of leftOut) byCode.delete(code);
    return { series: choleraSeries(byCode, path), matches: {}, leftOut };
  }
  const path = join(dir, CHOLERA_FILE);
  const byName = parseCholeraByName(readFileSync(path, "utf8"), path, rejected);
  const matches: Record<string, string> = {};
  const leftOut: string[] = [];
  const unmatched: string[] = [];
  for (const name of byName.keys()) {
    if (FORMER_STATES.has(name)) leftOut.push(name);
    else {
      const code = choleraCountryCode(name);
      if (code === undefined) unmatched.push(name);
      else matches[name] = code;
    }
  }
  if (unmatched.length > 0) throw new Error(`${path}: country names without an ISO code: ${unmatched.sort().join(", ")}`);
  const byCode = new Map<string, [number, number][]>();
  for (const [name, code] of Object.entries(matches)) byCode.set(code, [...(byCode.get(code) ?? []), ...byName.get(name)!]);
  return { series: choleraSeries(byCode, path), matches, leftOut: leftOut.sort() };
}

function choleraSeries(byCode: Map<string, [number, number][]>, path: string): CaseSeries[] {
  return [...byCode.keys()].sort().map((iso3): CaseSeries => {
    const { start, values } = denseSeries(byCode.get(iso3)!, `${path} ${iso3}`);
    return { disease: "cholera", area: iso3, country: iso3, level: "national", resolution: "year", start, values, baseline: "seasonal", source: CHOLERA_SOURCE };
  });
}
