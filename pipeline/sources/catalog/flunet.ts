// The source "flunet" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { WHO_DATA_RESTRICTION, WHO_DATA_TERMS } from "../../health/who-terms.ts";
import { join } from "node:path";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download, mirrorFiles } from "./shared.ts";

export const source: SourceEntry = {
  name: "flunet",
  usedBy: ["outbreak"],
  title: "WHO FluNet virological surveillance, Thailand and Viet Nam (FluMart export VIW_FNT)",
  url: "https://xmart-api-public.who.int/FLUMART/VIW_FNT?$format=csv&$filter=COUNTRY_CODE%20eq%20%27THA%27%20or%20COUNTRY_CODE%20eq%20%27VNM%27",
  otherUrls: ["https://www.who.int/tools/flunet", "https://ourworldindata.org/influenza"],
  format: "csv",
  cadence: "weekly",
  licence: WHO_DATA_TERMS,
  attribution: "WHO FluNet (Global Influenza Surveillance and Response System); the mirror's monthly and weekly series: Our World in Data's republication",
  nonCommercial: WHO_DATA_RESTRICTION,
  dataDirPath: "health/flunet",
  liveFormat: "FluNet's export has one row per country and ISO week (COUNTRY_CODE, ISO_WEEKSTARTDATE, INF_A, INF_B, …); the mirror holds OWID's derived monthly and weekly series per country. pipeline/health/flunet.ts reads both: the export's origins summed per week, weeks to months by the Thursday rule, A + B served for every country in it.",
  refresh: "http",
  resources: (ctx) => [
    ...mirrorFiles(ctx.dataDir, "health/flunet", /\.csv$/).map((f) => carried(join("health/flunet", f), { format: "csv", asOf: csvColumnMax(["Month", "Day"]) })),
    download(ctx.origin, "VIW_FNT.csv", { format: "csv", columns: ["COUNTRY_CODE", "ISO_WEEKSTARTDATE", "INF_A", "INF_B"], asOf: csvColumnMax("ISO_WEEKSTARTDATE") }, { dataDirFile: "health/flunet/VIW_FNT.csv" }),
  ],
};
