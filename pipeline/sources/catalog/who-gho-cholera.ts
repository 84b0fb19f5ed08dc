// The source "who_gho_cholera" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { WHO_DATA_RESTRICTION, WHO_DATA_TERMS } from "../../health/who-terms.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download, joinUrl, ghoCheck } from "./shared.ts";

export const source: SourceEntry = {
  name: "who_gho_cholera",
  usedBy: ["outbreak"],
  title: "WHO Global Health Observatory cholera cases, deaths and case fatality (OData API)",
  url: "https://ghoapi.azureedge.net/api",
  format: "json",
  cadence: "yearly",
  licence: WHO_DATA_TERMS,
  attribution: "World Health Organization, Global Health Observatory (CHOLERA_0000000001..3)",
  nonCommercial: WHO_DATA_RESTRICTION,
  dataDirPath: "health/who-cholera/who_gho_cholera_1949_2016.csv",
  liveFormat: "Three OData indicators as JSON (cases CHOLERA_0000000001, deaths …2, case fatality …3); the mirror holds one derived CSV with the three as columns (countries by WHO name). pipeline/health/who-cholera.ts reads both: the cases indicator's JSON (countries by ISO code) when a refresh brought it, else the CSV.",
  refresh: "http",
  resources: (ctx) => [
    carried("health/who-cholera/who_gho_cholera_1949_2016.csv", { format: "csv", columns: ["Country", "Year", "Number of reported cases of cholera"], asOf: csvColumnMax("Year") }),
    ...["CHOLERA_0000000001", "CHOLERA_0000000002", "CHOLERA_0000000003"].map((code) => download(joinUrl(ctx.origin, code), `${code}.json`, ghoCheck(), { dataDirFile: `health/who-cholera/${code}.json` })),
  ],
};
