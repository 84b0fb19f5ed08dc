// The source "owid_covid" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { COVID_WORLD_FILE } from "../../health/owid-covid.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "owid_covid",
  usedBy: ["outbreak"],
  title: "Our World in Data COVID-19 dataset, all countries (OWID catalog table garden/covid/latest/compact)",
  url: "https://catalog.ourworldindata.org/garden/covid/latest/compact/compact.csv",
  // The frozen file it replaced (last changed August 2024).
  otherUrls: ["https://covid.ourworldindata.org/data/owid-covid-data.csv"],
  format: "csv",
  cadence: "weekly",
  licence: "CC BY 4.0",
  attribution: "Mathieu et al. 2020, Our World in Data COVID-19 dataset (WHO COVID-19 cases and deaths)",
  dataDirPath: "health/owid-covid/THA_covid_data.csv",
  liveFormat: "OWID's catalog table (the maintained successor of owid-covid-data.csv, which has not changed since August 2024) holds every country with `country` and `code` columns (aggregates as OWID_… or no code); the mirror holds the old file's Thai rows without a code. pipeline/health/owid-covid.ts reads the catalog table, the old worldwide file (`iso_code`) and the Thai copy: a series per country from either worldwide layout, Thailand's from the copy.",
  refresh: "http",
  resources: (ctx) => [
    carried("health/owid-covid/THA_covid_data.csv", { format: "csv", columns: ["date", "new_cases"], asOf: csvColumnMax("date") }),
    download(ctx.origin, "compact.csv", { format: "csv", columns: ["country", "code", "date", "new_cases"], asOf: csvColumnMax("date") }, { dataDirFile: COVID_WORLD_FILE }),
  ],
};
