// NASA FIRMS' area API (https://firms.modaps.eosdis.nasa.gov/api/area/, a free MAP_KEY): the last days of one NRT
// product's detections inside a box, as CSV (`/api/area/csv/<MAP_KEY>/<SOURCE>/<west,south,east,north>/<days>`). The
// source `firms` asks it for mainland South-East Asia, once per product: MODIS_NRT (ending with MODIS) and the three
// VIIRS 375 m products, each merged by detection into a file of its own under feeds/firms/, where the wildfire builder
// reads them as one record (the mirror's 2018 MODIS sample, merged with the live MODIS rows, and the VIIRS files).
import { join } from "node:path";

/** The area API's CSV route up to the product; the key stays a `{VAR}` placeholder (filled at request time, never logged). */
export const FIRMS_AREA_URL = "https://firms.modaps.eosdis.nasa.gov/api/area/csv/{FIRMS_MAP_KEY}";
/** Mainland South-East Asia, west,south,east,north. */
export const FIRMS_AREA_BOX = "92,5,110,24";
/** Days asked (the area API gives 1 to 5 from today). */
export const FIRMS_AREA_DAYS = 5;
export const FIRMS_AREA_DIR = join("feeds", "firms");

export const FIRMS_AREA_MODIS_ENDING = "MODIS is ending (Terra's products end with its mission, December 2025; Aqua's by August 2026): the South-East Asia record runs on VIIRS";

/** Each product the area API is asked for, and the file it is merged into (the MODIS one is the mirror's file). */
export const FIRMS_AREA_PRODUCTS = [
  { product: "MODIS_NRT", file: "MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv", sensor: "MODIS", ending: FIRMS_AREA_MODIS_ENDING },
  { product: "VIIRS_SNPP_NRT", file: "VIIRS_SNPP_NRT_SouthEast_Asia.csv", sensor: "VIIRS" },
  { product: "VIIRS_NOAA20_NRT", file: "VIIRS_NOAA20_NRT_SouthEast_Asia.csv", sensor: "VIIRS" },
  { product: "VIIRS_NOAA21_NRT", file: "VIIRS_NOAA21_NRT_SouthEast_Asia.csv", sensor: "VIIRS" },
] as const;

/** A product's path under FIRMS_AREA_URL (or SOURCE_URL_FIRMS). */
export const firmsAreaPath = (product: string) => `${product}/${FIRMS_AREA_BOX}/${FIRMS_AREA_DAYS}`;

/** The VIIRS files in the data-directory (inputs tree) layout. */
export const FIRMS_AREA_VIIRS_FILES = FIRMS_AREA_PRODUCTS.filter((p) => p.sensor === "VIIRS").map((p) => join(FIRMS_AREA_DIR, p.file));
