// The source "portwatch_tankers" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, PORTWATCH_TERMS, PORTWATCH_RESTRICTION } from "./shared.ts";

export const source: SourceEntry = {
  name: "portwatch_tankers",
  usedBy: ["supply_chain"],
  title: "Tanker port calls per country per day (derived from PortWatch daily data)",
  url: null,
  otherUrls: ["https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Ports_Data/FeatureServer/0"],
  format: "csv",
  cadence: "static",
  licence: PORTWATCH_TERMS,
  attribution: "IMF PortWatch (derived: tanker calls summed per country)",
  nonCommercial: PORTWATCH_RESTRICTION,
  dataDirPath: "ports/portwatch/portwatch_tanker_daily_by_country.csv",
  liveFormat: "No published file: it is the sum of every port's tanker calls per country, which needs the whole daily service (millions of rows).",
  refresh: "none",
  resources: () => [carried("ports/portwatch/portwatch_tanker_daily_by_country.csv", { format: "csv", columns: ["country", "date", "tanker_calls"], asOf: csvColumnMax("date") })],
};
