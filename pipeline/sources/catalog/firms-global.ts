// The source "firms_global" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { FIRMS_GLOBAL_DAYS_DEFAULT, FIRMS_GLOBAL_DAYS_VARIABLE, FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES, FIRMS_GLOBAL_MIN_ROWS, FIRMS_GLOBAL_URL, firmsGlobalDays } from "../../feeds/firms-global.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { GiB, download, joinUrl } from "./shared.ts";

export const source: SourceEntry = {
  name: "firms_global",
  usedBy: ["wildfire"],
  title: "NASA FIRMS global active fires, last 7 days (keyless NRT files: MODIS C6.1, VIIRS S-NPP, NOAA-20 and NOAA-21 C2), merged by detection",
  url: FIRMS_GLOBAL_URL,
  otherUrls: ["https://firms.modaps.eosdis.nasa.gov/active_fire/"],
  format: "csv",
  cadence: "daily",
  licence: "NASA open data (free use, citation requested)",
  attribution: "NASA FIRMS MODIS C6.1 (MCD14DL) and VIIRS 375 m C2 (VNP14IMGTDL, VJ114IMGTDL, VJ214IMGTDL) NRT active fires; Giglio et al. 2016; Schroeder et al. 2014",
  dataDirPath: null,
  liveFormat: `Four keyless CSVs under ${FIRMS_GLOBAL_URL}/ (MODIS_C6_1_Global_7d.csv, SUOMI_VIIRS_C2_Global_7d.csv, J1_VIIRS_C2_Global_7d.csv, J2_VIIRS_C2_Global_7d.csv), each the last 7 days worldwide with FIRMS' MODIS or VIIRS columns; the mirror has none. Each is merged by detection (latitude, longitude, acq_date, acq_time, satellite) into a rolling archive that keeps ${FIRMS_GLOBAL_DAYS_VARIABLE} days (default ${FIRMS_GLOBAL_DAYS_DEFAULT}) before its latest acq_date, linked into the inputs tree as ${FIRMS_GLOBAL_DIR}/<product>.csv, where the wildfire builder reads it as one worldwide record.`,
  refresh: "http",
  maxBytes: 2 * GiB,
  resources: (ctx) => FIRMS_GLOBAL_FILES.map((f) =>
    download(joinUrl(ctx.origin, f.path), f.file, {
      format: "csv",
      columns: ["latitude", "longitude", "acq_date", "acq_time", "satellite", "confidence", "frp", ...f.sensorColumns],
      minRows: FIRMS_GLOBAL_MIN_ROWS,
      asOf: csvColumnMax("acq_date"),
    }, {
      dataDirFile: join(FIRMS_GLOBAL_DIR, f.file),
      merge: { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], onHeaderChange: "remap", keepDays: { column: "acq_date", days: firmsGlobalDays(ctx.env) } },
      ...("ending" in f ? { ending: f.ending } : {}),
    })),
};
