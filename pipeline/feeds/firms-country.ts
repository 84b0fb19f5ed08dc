// NASA FIRMS' keyless yearly country files (https://firms.modaps.eosdis.nasa.gov/country/): every detection of one
// year inside one country, one CSV per sensor — MODIS (Terra and Aqua) from 2000, VIIRS S-NPP from 2012 — at
// data/country/<product>/<year>/<product>_<year>_<Country_Name>.csv, with the archive columns (type included). A
// refresh (source `firms_country`) keeps each year of each configured country (FIRMS_COUNTRIES) in the raw cache,
// linked into the inputs tree under feeds/firms-country/<Country_Name>/, where the wildfire builder joins a country's
// years into one multi-year record per sensor, answering inside that country.
import { createRequire } from "node:module";
import { join } from "node:path";
import countries from "i18n-iso-countries";
import type { FirmsSensor } from "./firms.ts";

const require = createRequire(import.meta.url);
countries.registerLocale(require("i18n-iso-countries/langs/en.json") as countries.LocaleData);

export const FIRMS_COUNTRY_URL = "https://firms.modaps.eosdis.nasa.gov/data/country";
export const FIRMS_COUNTRY_DIR = join("feeds", "firms-country");

/** The countries a refresh keeps, FIRMS' names with underscores, comma-separated. */
export const FIRMS_COUNTRIES_VARIABLE = "FIRMS_COUNTRIES";
export const FIRMS_COUNTRIES_DEFAULT = "Greece";

/** Each product: its path on the origin, its first year, its sensor and the columns of its own besides the common ones. */
export const FIRMS_COUNTRY_PRODUCTS = [
  { product: "modis", firstYear: 2000, sensor: "MODIS", sensorColumns: ["brightness", "bright_t31"] },
  { product: "viirs-snpp", firstYear: 2012, sensor: "VIIRS", sensorColumns: ["bright_ti4", "bright_ti5"] },
] as const satisfies readonly { product: string; firstYear: number; sensor: FirmsSensor; sensorColumns: readonly string[] }[];

export type FirmsCountryProduct = (typeof FIRMS_COUNTRY_PRODUCTS)[number];

/** The columns every year file has that the check and the adapter read. */
export const FIRMS_COUNTRY_COLUMNS = ["latitude", "longitude", "acq_date", "acq_time", "satellite", "confidence", "frp", "type"] as const;

/**
 * Years at most this far before the current one may not be published yet: FIRMS writes a year's file months after
 * the year ends (26 September 2026: 2025 answered 404, 2024 was there). Their 404 is not a failure, and they are
 * asked at every refresh; older years are asked again only after FIRMS_COUNTRY_REFRESH_DAYS.
 */
export const FIRMS_COUNTRY_RECENT_YEARS = 2;
/** Days a past year's copy is kept without asking the origin again (a yearly file is not rewritten once out). */
export const FIRMS_COUNTRY_REFRESH_DAYS = 365;

const NAME = /^[A-Za-z][A-Za-z_.'-]*$/;

/** ISO 3166-1 alpha-3 of a FIRMS country name ("United_States" → USA), or undefined. */
export function firmsCountryCode(name: string): string | undefined {
  return countries.getAlpha3Code(name.replace(/_/g, " "), "en") ?? undefined;
}

/** The configured countries, each with its ISO code; throws for a name that is not one (the refresh says which). */
export function firmsCountries(env: NodeJS.ProcessEnv): { name: string; iso3: string }[] {
  const raw = env[FIRMS_COUNTRIES_VARIABLE]?.trim() || FIRMS_COUNTRIES_DEFAULT;
  const names = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))];
  return names.map((name) => {
    const iso3 = NAME.test(name) ? firmsCountryCode(name) : undefined;
    if (!iso3) throw new Error(`${FIRMS_COUNTRIES_VARIABLE}: "${name}" is not a country name FIRMS' files use (English, underscores for spaces, e.g. United_States)`);
    return { name, iso3 };
  });
}

/** The year file's name: modis_2021_Greece.csv. */
export const firmsCountryFile = (p: FirmsCountryProduct, year: number, country: string) => `${p.product}_${year}_${country}.csv`;

/** Its path on the origin, under FIRMS_COUNTRY_URL. */
export const firmsCountryPath = (p: FirmsCountryProduct, year: number, country: string) => `${p.product}/${year}/${firmsCountryFile(p, year, country)}`;

/** Where the inputs tree shows it. */
export const firmsCountryDataDirFile = (p: FirmsCountryProduct, year: number, country: string) => join(FIRMS_COUNTRY_DIR, country, firmsCountryFile(p, year, country));

/** A year file's name read back: its product, year and country; undefined for any other name. */
export function parseFirmsCountryFile(file: string): { product: FirmsCountryProduct; year: number; country: string } | undefined {
  const m = /^(modis|viirs-snpp)_(\d{4})_([A-Za-z][A-Za-z_.'-]*)\.csv$/.exec(file);
  const product = m ? FIRMS_COUNTRY_PRODUCTS.find((p) => p.product === m[1]) : undefined;
  return m && product ? { product, year: Number(m[2]), country: m[3] } : undefined;
}
