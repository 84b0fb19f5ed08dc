// The source "firms" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { FIRMS_AREA_BOX, FIRMS_AREA_DAYS, FIRMS_AREA_DIR, FIRMS_AREA_PRODUCTS, FIRMS_AREA_URL, firmsAreaPath } from "../../feeds/firms-area.ts";
import { csvColumnMax, geojsonPropertyMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download, joinUrl } from "./shared.ts";

export const source: SourceEntry = {
  name: "firms",
  usedBy: ["wildfire"],
  title: "NASA FIRMS active fires over mainland South-East Asia (area API, last 5 days: VIIRS S-NPP, NOAA-20 and NOAA-21, and MODIS while it lasts), merged by detection",
  url: FIRMS_AREA_URL,
  format: "csv",
  cadence: "daily",
  licence: "NASA open data (free use, citation requested)",
  attribution: "NASA FIRMS VIIRS 375 m (VNP14IMGTDL, VJ114IMGTDL, VJ214IMGTDL) and MODIS Collection 6.1 (MCD14DL) NRT active fires; Giglio et al. 2016; Schroeder et al. 2014",
  credential: "FIRMS_MAP_KEY",
  dataDirPath: "feeds/firms",
  liveFormat: `One CSV per product under ${FIRMS_AREA_URL}/<product>/${FIRMS_AREA_BOX}/${FIRMS_AREA_DAYS}: ${FIRMS_AREA_PRODUCTS.map((p) => p.product).join(", ")}. The VIIRS answers have FIRMS' VIIRS columns (bright_ti4, bright_ti5, instrument) and are merged by detection into ${FIRMS_AREA_DIR}/VIIRS_<product>_SouthEast_Asia.csv (the mirror has none). The MODIS answer adds an \`instrument\` column and reports version 6.1NRT; the mirror's reconstructed CSV has the 2018 C6 columns. Same names otherwise: old rows are moved to the new header by name. MODIS is ending: its answer gone (404/410) or empty leaves it out, and the source runs on VIIRS.`,
  refresh: "http",
  resources: (ctx) => [
    carried("feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson", { format: "geojson", asOf: geojsonPropertyMax(["ACQ_DATE"]) }),
    ...FIRMS_AREA_PRODUCTS.map((p) =>
      download(joinUrl(ctx.origin, firmsAreaPath(p.product)), p.file, {
        format: "csv",
        columns: ["latitude", "longitude", "acq_date", "acq_time", "confidence", "frp", ...(p.sensor === "VIIRS" ? ["satellite", "bright_ti4"] : [])],
        // A MODIS answer without a row is taken as MODIS' end (ending below); five days of VIIRS over the box may be empty.
        minRows: p.sensor === "MODIS" ? 1 : 0,
        asOf: csvColumnMax("acq_date"),
      }, {
        dataDirFile: join(FIRMS_AREA_DIR, p.file),
        merge: { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], onHeaderChange: "remap" },
        ...("ending" in p ? { ending: p.ending } : {}),
      })),
  ],
};
