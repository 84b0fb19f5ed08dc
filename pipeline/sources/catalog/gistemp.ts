// The source "gistemp" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { monthEndDay } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { GISTEMP_TABLE_FILE, parseGlobalTemperature } from "../../feeds/temperature.ts";
import { carried, download, mirrorFiles } from "./shared.ts";

/** The end of the last month of GISTEMP in either layout (the mirror's datahub copy: its GISTEMP rows only). */
export function globalTemperatureAsOf(text: string, file: string): string | null {
  const months = parseGlobalTemperature(text, file).records.map((r) => r.month);
  return months.length ? monthEndDay(Math.max(...months)) : null;
}

export const source: SourceEntry = {
  name: "gistemp",
  usedBy: ["heatwave"],
  title: "NASA GISTEMP v4 global monthly land-ocean temperature anomalies (GLB.Ts+dSST.csv)",
  url: "https://data.giss.nasa.gov/gistemp/tabledata_v4/GLB.Ts+dSST.csv",
  otherUrls: ["https://data.giss.nasa.gov/gistemp/"],
  format: "csv",
  cadence: "monthly",
  licence: "US government work (NASA GISS): free use with citation",
  attribution: "GISTEMP Team, GISS Surface Temperature Analysis (GISTEMP) v4, NASA Goddard Institute for Space Studies; Lenssen et al. 2019, doi:10.1029/2018JD029522",
  dataDirPath: "feeds/temperature/global-monthly-gistemp-gcag.csv",
  liveFormat: "NASA's table: a title line, then Year,Jan,…,Dec,J-D,D-N,DJF,MAM,JJA,SON in °C against 1951–1980, *** for the months not yet in. The mirror holds a datahub.io repackaging (Source,Year,Mean; frozen: its GISTEMP rows end 2023-12) whose \"gcag\" rows are HadCRUT5 (1961–1990 reference), not NOAA's: pipeline/feeds/temperature.ts reads both layouts and serves GISTEMP alone. The download is linked into the inputs tree as feeds/temperature/GLB.Ts+dSST.csv, which the heatwave builder reads instead of the mirror's copy.",
  refresh: "http",
  resources: (ctx) => [
    ...mirrorFiles(ctx.dataDir, "feeds/temperature", /^global-monthly-gistemp-gcag\.csv$/).map((f) => carried(join("feeds/temperature", f), { format: "csv", columns: ["Source", "Year", "Mean"], asOf: globalTemperatureAsOf })),
    download(ctx.origin, "GLB.Ts+dSST.csv", { format: "csv", csv: { skipLines: 1 }, columns: ["Year", "Jan", "Dec"], minRows: 40, asOf: globalTemperatureAsOf }, { dataDirFile: GISTEMP_TABLE_FILE }),
  ],
};
