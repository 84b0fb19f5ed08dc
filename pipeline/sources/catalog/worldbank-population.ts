// The source "worldbank_population" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { POPULATION_FILE } from "../../health/population.ts";
import { parseWorldBankPopulation, WORLDBANK_POPULATION_JSON, WORLDBANK_POPULATION_URL, worldBankPopulationAsOf } from "../../health/worldbank-population.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "worldbank_population",
  usedBy: ["outbreak"],
  title: "World Bank total population by country and year (World Development Indicators SP.POP.TOTL, Indicators API v2)",
  // One page for every country and year (~17,500 rows of 266 economies); the parse refuses an answer of several pages.
  url: WORLDBANK_POPULATION_URL,
  otherUrls: ["https://data.worldbank.org/indicator/SP.POP.TOTL", "https://population.un.org/wpp/"],
  format: "json",
  cadence: "yearly",
  licence: "CC BY 4.0",
  attribution: "World Bank, World Development Indicators, SP.POP.TOTL (from UN World Population Prospects and national sources)",
  dataDirPath: POPULATION_FILE,
  liveFormat: `The API answers JSON ([ { page, pages, per_page, total, lastupdated }, [ { countryiso3code, date, value, … } ] ], aggregates included); the mirror holds a derived CSV (iso3, year, population) of ISO 3166-1 alpha-3 codes and XKX. pipeline/health/worldbank-population.ts keeps the same codes from the JSON; pipeline/health/population.ts reads ${WORLDBANK_POPULATION_JSON} when a refresh linked it, else the CSV.`,
  refresh: "http",
  resources: (ctx) => [
    carried(POPULATION_FILE, { format: "csv", columns: ["iso3", "year", "population"], asOf: csvColumnMax("year") }),
    // The answer is a top-level array [metadata, rows]: its rows are at index 1.
    download(ctx.origin, "SP.POP.TOTL.json", { format: "json", rowsAt: "1", validate: parseWorldBankPopulation, asOf: worldBankPopulationAsOf }, { dataDirFile: WORLDBANK_POPULATION_JSON }),
  ],
};
