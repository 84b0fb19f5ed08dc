// Populations for rates per 100,000: countries by year (World Bank SP.POP.TOTL: the API download
// population/SP.POP.TOTL.json when a refresh linked it into the inputs tree, else the mirror's
// population/country_population.csv) and the Thai provinces' 2019 registered population
// (boundaries/province_name_variants.csv).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { num, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { parseWorldBankPopulation, WORLDBANK_POPULATION_JSON } from "./worldbank-population.ts";

export const POPULATION_FILE = join("population", "country_population.csv");
export const PROVINCE_POPULATION_FILE = join("boundaries", "province_name_variants.csv");
export const POPULATION_SOURCE = "World Bank, World Development Indicators, SP.POP.TOTL (population, total)";
export const PROVINCE_POPULATION_SOURCE = "Thai provinces' registered population 2019 (boundaries/province_name_variants.csv)";
export const PROVINCE_POPULATION_YEAR = 2019;

/** (year, population) per ISO alpha-3, sorted by year; rows without a positive whole population are rejected. */
export function parseCountryPopulation(text: string, file: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  const csv = readCsvRecords(text, file, { required: ["iso3", "year", "population"] });
  rejected.push(...csv.rejected);
  const out = new Map<string, [number, number][]>();
  csv.records.forEach((r, i) => {
    const year = num(r.year);
    const pop = num(r.population);
    if (!/^[A-Z]{3}$/.test(r.iso3) || !Number.isInteger(year) || !(Number.isInteger(pop) && pop > 0)) {
      rejected.push({ file, line: csv.lines[i], reason: `iso3 "${r.iso3}", year "${r.year}", population "${r.population}": not a code, a year and a positive count` });
      return;
    }
    let list = out.get(r.iso3);
    if (list === undefined) out.set(r.iso3, (list = []));
    list.push([year, pop]);
  });
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/** The country population input a build reads (relative to the data directory): the API download when a refresh linked it. */
export function populationInput(dataDir: string): string {
  return existsSync(join(dataDir, WORLDBANK_POPULATION_JSON)) ? WORLDBANK_POPULATION_JSON : POPULATION_FILE;
}

export function readCountryPopulation(dataDir: string, rejected: CsvRejection[] = []): Map<string, [number, number][]> {
  const path = join(dataDir, populationInput(dataDir));
  const text = readFileSync(path, "utf8");
  return path.endsWith(".json") ? parseWorldBankPopulation(text, path) : parseCountryPopulation(text, path, rejected);
}

/** ISO 3166-2 code → 2019 population of each Thai province in the variants table. */
export function readProvincePopulation(dataDir: string): Map<string, number> {
  const path = join(dataDir, PROVINCE_POPULATION_FILE);
  const csv = readCsvRecords(readFileSync(path, "utf8"), path, { required: ["ISO[7]", "Population (2019)[1]"] });
  const out = new Map<string, number>();
  for (const r of csv.records) {
    const pop = num(r["Population (2019)[1]"].replace(/,/g, ""));
    if (/^TH-\d{2}$/.test(r["ISO[7]"]) && Number.isInteger(pop) && pop > 0) out.set(r["ISO[7]"], pop);
  }
  return out;
}
