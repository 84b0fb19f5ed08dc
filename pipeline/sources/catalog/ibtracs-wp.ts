// The source "ibtracs_wp" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { GiB, carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "ibtracs_wp",
  usedBy: ["storm"],
  title: "NOAA IBTrACS v04r01 West Pacific basin, whole record (return periods)",
  url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.WP.list.v04r01.csv",
  format: "csv",
  cadence: "weekly",
  licence: "NOAA: public domain (the mirror's Parquet extract cites CC BY 4.0)",
  attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
  dataDirPath: "feeds/ibtracs/ibtracs_wp_tracks.parquet",
  liveFormat: "The native WP list CSV (all agencies, 3-hourly); the mirror holds a derived Parquet of the 6-hourly WMO fixes (SID, ISO_TIME, LAT, LON, WMO_WIND, WMO_PRES, …). pipeline/feeds/ibtracs-parquet.ts reads both: from the CSV, the 6-hourly synoptic fixes with WMO wind and pressure, as the extract holds them.",
  refresh: "http",
  maxBytes: 2 * GiB,
  resources: (ctx) => [
    carried("feeds/ibtracs/ibtracs_wp_tracks.parquet", { format: "parquet" }),
    download(ctx.origin, "ibtracs.WP.list.v04r01.csv", { format: "csv", columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"], skipRows: 1, asOf: csvColumnMax("ISO_TIME") }, { dataDirFile: "feeds/ibtracs/ibtracs.WP.list.v04r01.csv" }),
  ],
};
