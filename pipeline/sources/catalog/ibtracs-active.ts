// The source "ibtracs_active" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { download } from "./shared.ts";

export const source: SourceEntry = {
  name: "ibtracs_active",
  usedBy: ["storm"],
  title: "NOAA IBTrACS v04r01 active storms, merged by storm (SID) into the recent long record",
  url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.ACTIVE.list.v04r01.csv",
  format: "csv",
  cadence: "daily",
  licence: "NOAA: public domain",
  attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
  dataDirPath: "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv",
  refresh: "http",
  resources: (ctx) => [
    download(ctx.origin, "ibtracs.ACTIVE.list.v04r01.csv", {
      format: "csv",
      columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"],
      skipRows: 1,
      minRows: 0,
      asOf: csvColumnMax("ISO_TIME"),
    }, {
      dataDirFile: "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv",
      merge: { kind: "csv-groups", key: ["SID"] },
    }),
  ],
};
