// The source "owid_temperature" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { download } from "./shared.ts";

export const source: SourceEntry = {
  name: "owid_temperature",
  usedBy: ["heatwave"],
  title: "Our World in Data monthly temperature anomalies by country (from Copernicus ERA5)",
  url: "https://ourworldindata.org/grapher/monthly-temperature-anomalies.csv?v=1&csvType=full&useColumnShortNames=true",
  format: "csv",
  cadence: "monthly",
  licence: "CC BY 4.0",
  attribution: "Our World in Data, monthly temperature anomalies (Copernicus Climate Change Service, ERA5)",
  dataDirPath: "feeds/temperature/monthly-temperature-anomalies.csv",
  liveFormat: "The grapher export writes Day as YYYY-MM-DD; the mirror's copy has m/d/yyyy. Columns are the same.",
  refresh: "http",
  resources: (ctx) => [
    download(ctx.origin, "monthly-temperature-anomalies.csv", { format: "csv", columns: ["Entity", "Code", "Day", "temperature_anomaly"], asOf: csvColumnMax("Day") }, {
      dataDirFile: "feeds/temperature/monthly-temperature-anomalies.csv",
    }),
  ],
};
