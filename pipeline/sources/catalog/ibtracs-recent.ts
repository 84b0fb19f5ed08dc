// The source "ibtracs_recent" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "ibtracs_recent",
  usedBy: ["storm"],
  title: "NOAA IBTrACS v04r01 storms of the last three years",
  url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.last3years.list.v04r01.csv",
  format: "csv",
  cadence: "weekly",
  licence: "NOAA: public domain",
  attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
  dataDirPath: "feeds/ibtracs/ibtracs_last3years_clean.csv",
  liveFormat: "The native list (SID, ISO_TIME, LAT, LON, WMO_WIND, … and a units row); the mirror's ibtracs_last3years_clean.csv is a derived 8-column table (time, latitude, longitude, name, basin, wind, pressure, status). pipeline/feeds/ibtracs.ts reads both column sets; the storm builder takes the native list when a refresh brought it (linked into the inputs tree).",
  refresh: "http",
  resources: (ctx) => [
    carried("feeds/ibtracs/ibtracs_last3years_clean.csv", { format: "csv", columns: ["time", "latitude", "longitude", "wind"], skipRows: 1, asOf: csvColumnMax("time") }),
    download(ctx.origin, "ibtracs.last3years.list.v04r01.csv", { format: "csv", columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"], skipRows: 1, asOf: csvColumnMax("ISO_TIME") }, {
      // Linked into the inputs tree, where the storm builder reads it instead of the compact table.
      dataDirFile: "feeds/ibtracs/ibtracs.last3years.list.v04r01.csv",
      merge: { kind: "csv-groups", key: ["SID"] },
    }),
  ],
};
