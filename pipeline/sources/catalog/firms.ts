// The source "firms" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax, geojsonPropertyMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "firms",
  usedBy: ["wildfire"],
  title: "NASA FIRMS MODIS active fires over mainland South-East Asia (area API, last 5 days), merged by detection",
  url: "https://firms.modaps.eosdis.nasa.gov/api/area/csv/{FIRMS_MAP_KEY}/MODIS_NRT/92,5,110,24/5",
  format: "csv",
  cadence: "daily",
  licence: "NASA open data (free use, citation requested)",
  attribution: "NASA FIRMS MODIS Collection 6.1 NRT active fires (MCD14DL), Giglio et al. 2016",
  credential: "FIRMS_MAP_KEY",
  dataDirPath: "feeds/firms",
  liveFormat: "The area API's MODIS CSV adds an `instrument` column and reports version 6.1NRT; the mirror's reconstructed CSV has the 2018 C6 columns. Same names otherwise: old rows are moved to the new header by name.",
  refresh: "http",
  resources: (ctx) => [
    carried("feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson", { format: "geojson", asOf: geojsonPropertyMax(["ACQ_DATE"]) }),
    download(ctx.origin, "MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv", {
      format: "csv",
      columns: ["latitude", "longitude", "acq_date", "acq_time", "confidence", "frp"],
      minRows: 0,
      asOf: csvColumnMax("acq_date"),
    }, {
      dataDirFile: "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv",
      merge: { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], onHeaderChange: "remap" },
    }),
  ],
};
