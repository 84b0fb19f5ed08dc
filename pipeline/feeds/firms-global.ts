// NASA FIRMS' keyless global near-real-time files (https://firms.modaps.eosdis.nasa.gov/active_fire/): the last
// 7 days of MODIS C6.1 and VIIRS 375 m (S-NPP, NOAA-20, NOAA-21) C2 detections worldwide, one CSV per product, rewritten by
// NASA every few hours. A refresh merges each into a rolling archive of its own (source `firms_global`), linked into
// the inputs tree under feeds/firms-global/, where the wildfire builder reads it as one record that answers worldwide.
import { join } from "node:path";
import { intSetting } from "../../lib/config.ts";

export const FIRMS_GLOBAL_URL = "https://firms.modaps.eosdis.nasa.gov/data/active_fire";
export const FIRMS_GLOBAL_DIR = join("feeds", "firms-global");

/** Each product's 7-day file on the origin and the archive it is merged into. */
export const FIRMS_GLOBAL_FILES = [
  { path: "modis-c6.1/csv/MODIS_C6_1_Global_7d.csv", file: "MODIS_C6_1_Global.csv", sensorColumns: ["brightness", "bright_t31"], ending: "MODIS is ending (Terra's products end with its mission, December 2025; Aqua's by August 2026): the wildfire record runs on VIIRS alone" },
  { path: "suomi-npp-viirs-c2/csv/SUOMI_VIIRS_C2_Global_7d.csv", file: "SUOMI_VIIRS_C2_Global.csv", sensorColumns: ["bright_ti4", "bright_ti5"] },
  { path: "noaa-20-viirs-c2/csv/J1_VIIRS_C2_Global_7d.csv", file: "J1_VIIRS_C2_Global.csv", sensorColumns: ["bright_ti4", "bright_ti5"] },
  { path: "noaa-21-viirs-c2/csv/J2_VIIRS_C2_Global_7d.csv", file: "J2_VIIRS_C2_Global.csv", sensorColumns: ["bright_ti4", "bright_ti5"] },
] as const;

/** Days of detections an archive keeps before its latest day. Measured here: a wildfire build over 1,000,000
 *  detections takes 43 s and 2.4 GB at peak and writes a 133 MB events.bin; each VIIRS file brings ~100,000 or more a day. */
export const FIRMS_GLOBAL_DAYS_VARIABLE = "FIRMS_GLOBAL_DAYS";
export const FIRMS_GLOBAL_DAYS_DEFAULT = 7;

export function firmsGlobalDays(env: NodeJS.ProcessEnv): number {
  return Math.max(1, intSetting(env, FIRMS_GLOBAL_DAYS_VARIABLE, FIRMS_GLOBAL_DAYS_DEFAULT));
}

/** A 7-day file with fewer detections than this is not a whole global file (MODIS alone has ~10,000 a day). */
export const FIRMS_GLOBAL_MIN_ROWS = 1000;
