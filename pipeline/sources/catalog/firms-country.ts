// The source "firms_country" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import {
  FIRMS_COUNTRIES_DEFAULT, FIRMS_COUNTRIES_VARIABLE, FIRMS_COUNTRY_COLUMNS, FIRMS_COUNTRY_DIR, FIRMS_COUNTRY_PRODUCTS, FIRMS_COUNTRY_RECENT_YEARS,
  FIRMS_COUNTRY_REFRESH_DAYS, FIRMS_COUNTRY_URL, firmsCountries, firmsCountryDataDirFile, firmsCountryFile, firmsCountryPath, type FirmsCountryProduct,
} from "../../feeds/firms-country.ts";
import { num, readCsv } from "../../feeds/csv.ts";
import { validLatLng } from "../../feeds/records.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { ContentCheck, ResourceSpec, SourceEntry } from "../types.ts";
import { download, joinUrl } from "./shared.ts";

/**
 * Every row of a year file holds a detection of that year at a real place: coordinates on the globe and an acq_date
 * inside `year`. A file of another year (or of no detections at all) under the year's name is refused whole, and the
 * previous copy kept.
 */
export function firmsCountryYearCheck(p: FirmsCountryProduct, year: number): ContentCheck {
  return {
    format: "csv",
    columns: [...FIRMS_COUNTRY_COLUMNS, ...p.sensorColumns],
    minRows: 1,
    asOf: csvColumnMax("acq_date"),
    validate: (text, file) => {
      const table = readCsv(text, file);
      const col = (name: string) => table.header.findIndex((h) => h.trim().toLowerCase() === name);
      const [lat, lng, date] = [col("latitude"), col("longitude"), col("acq_date")];
      for (const r of table.rows) {
        const [y, x, day] = [lat, lng, date].map((i) => (r.fields[i] ?? "").trim());
        if (!validLatLng(num(y), num(x))) throw new Error(`line ${r.line}: coordinates ${y},${x} are not on the globe`);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !day.startsWith(`${year}-`)) throw new Error(`line ${r.line}: acq_date ${day} is not in ${year}, the file's year`);
      }
    },
  };
}

export const source: SourceEntry = {
  name: "firms_country",
  usedBy: ["wildfire"],
  title: "NASA FIRMS yearly country files (keyless: MODIS from 2000, VIIRS S-NPP from 2012), one per configured country, sensor and year",
  url: FIRMS_COUNTRY_URL,
  otherUrls: ["https://firms.modaps.eosdis.nasa.gov/country/"],
  format: "csv",
  cadence: "yearly",
  licence: "NASA open data (free use, citation requested)",
  attribution: "NASA FIRMS MODIS Collection 6/6.1 (MCD14ML) and VIIRS 375 m S-NPP (VNP14IMGT) yearly country files; Giglio et al. 2016; Schroeder et al. 2014",
  dataDirPath: null,
  liveFormat: `Keyless CSVs under ${FIRMS_COUNTRY_URL}/: modis/<year>/modis_<year>_<Country>.csv from 2000 and viirs-snpp/<year>/viirs-snpp_<year>_<Country>.csv from 2012, FIRMS' archive columns with type; the mirror has none. The countries are ${FIRMS_COUNTRIES_VARIABLE} (FIRMS' English names with underscores, comma-separated; default ${FIRMS_COUNTRIES_DEFAULT}); each year is linked into the inputs tree as ${FIRMS_COUNTRY_DIR}/<Country>/<file>, where the wildfire builder joins a country's years into one record per sensor. The last ${FIRMS_COUNTRY_RECENT_YEARS} years before the current one are asked at every refresh and may answer 404 (not published yet); older years are asked again after ${FIRMS_COUNTRY_REFRESH_DAYS} days.`,
  refresh: "http",
  resources: (ctx) => {
    const lastYear = ctx.now.getUTCFullYear() - 1;
    const specs: ResourceSpec[] = [];
    for (const { name } of firmsCountries(ctx.env)) {
      for (const p of FIRMS_COUNTRY_PRODUCTS) {
        for (let year = p.firstYear; year <= lastYear; year++) {
          const recent = year > lastYear - FIRMS_COUNTRY_RECENT_YEARS;
          specs.push(download(joinUrl(ctx.origin, firmsCountryPath(p, year, name)), firmsCountryFile(p, year, name), firmsCountryYearCheck(p, year), {
            dataDirFile: firmsCountryDataDirFile(p, year, name),
            ...(recent
              ? { notYetPublished: `FIRMS publishes a country's ${year} file months after the year ends (404 until then)` }
              : { refreshDays: FIRMS_COUNTRY_REFRESH_DAYS }),
          }));
        }
      }
    }
    return specs;
  },
};
