// The drought region's first-level units: Thailand's 77 provinces (boundaries.ts, with their Thai alias table), then
// Vietnam's 63 provinces and Côn Đảo and Malaysia's 16 states and federal territories (geoBoundaries ADM1, names from
// region-units.ts). The order is the province index of every artifact: Thailand's first, as before the region, so a
// Thai province keeps its index. docs/methods/gridding.md, "The drought region".
import { join } from "node:path";
import { unitKey } from "../../lib/admin1/unit-names.ts";
import type { ProvinceAliases } from "../../lib/province-names.ts";
import { buildAliases, loadAliasSources } from "./aliases.ts";
import { loadProvinces, provincesPath, readGeometry, type Province } from "./boundaries.ts";
import { loadUnitNames, MYS_BOUNDARIES_FILE, VNM_BOUNDARIES_FILE, VNM_EPIX_FILE, VNM_VARIANTS_FILE, type RegionUnit } from "./region-units.ts";

/** The countries the drought region can hold, in artifact order. */
export const REGION_COUNTRIES = ["THA", "VNM", "MYS"] as const;
export type RegionCountry = (typeof REGION_COUNTRIES)[number];

/** English names of the countries, for the `region` field of their units (the boundary files carry no regions). */
const COUNTRY_NAMES: Record<RegionCountry, string> = { THA: "Thailand", VNM: "Vietnam", MYS: "Malaysia" };

export interface RegionProvinces {
  provinces: Province[];
  aliases: ProvinceAliases[];
}

/** The units of one country with their polygons, from its parsed geoBoundaries file (units in the file's feature order). */
function unitProvinces(json: unknown, units: readonly RegionUnit[], source: string, names: Map<string, string[]>): { provinces: Province[]; aliases: ProvinceAliases[] } {
  const features = (json as { features: { geometry?: { type?: unknown; coordinates?: unknown } }[] }).features;
  const provinces = units.map((u, i) => ({
    code: u.code,
    country: u.country,
    nameEn: u.name,
    nameTh: "",
    slug: unitKey(u.name),
    region: COUNTRY_NAMES[u.country],
    polygons: readGeometry(features[i].geometry, `${source}: feature ${i} (${u.name})`),
  }));
  provinces.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const aliases = provinces.map((p) => ({ code: p.code, nameEn: p.nameEn, nameTh: "", aliases: names.get(p.code) ?? [p.nameEn] }));
  return { provinces, aliases };
}

/** The files loadRegion reads for `countries` besides the Thai ones (boundaries, name lists), for the build's fingerprint. */
export function regionInputFiles(dataDir: string, countries: readonly string[]): string[] {
  const others = countries.filter((c) => c !== "THA");
  if (others.length === 0) return [];
  return [...(others.includes("VNM") ? [VNM_BOUNDARIES_FILE] : []), ...(others.includes("MYS") ? [MYS_BOUNDARIES_FILE] : []), VNM_VARIANTS_FILE, VNM_EPIX_FILE].map((f) => join(dataDir, f));
}

/** The countries a grid source covers: the station grid Thailand alone (its GHCN-Daily stations are Thai). */
export function sourceCountries(source: "stations" | "netcdf", countries: readonly string[]): string[] {
  return source === "stations" ? ["THA"] : [...countries];
}

/** The units of `countries` (a subset of REGION_COUNTRIES, Thailand required) from the data directory. */
export function loadRegion(dataDir: string, countries: readonly string[]): RegionProvinces {
  const unknown = countries.filter((c) => !(REGION_COUNTRIES as readonly string[]).includes(c));
  if (unknown.length > 0) throw new Error(`DROUGHT_COUNTRIES: ${unknown.join(", ")} not in ${REGION_COUNTRIES.join(", ")}`);
  if (!countries.includes("THA")) throw new Error("DROUGHT_COUNTRIES must include THA (the province route's default country)");
  const thai = loadProvinces(provincesPath(dataDir));
  const out: RegionProvinces = { provinces: thai, aliases: buildAliases(loadAliasSources(thai, dataDir)) };
  const others = countries.filter((c) => c !== "THA");
  if (others.length === 0) return out;
  const { units, table, collections } = loadUnitNames(dataDir);
  for (const country of ["VNM", "MYS"] as const) {
    if (!others.includes(country)) continue;
    const file = country === "VNM" ? VNM_BOUNDARIES_FILE : MYS_BOUNDARIES_FILE;
    const u = unitProvinces(collections[country], units.filter((x) => x.country === country), file, table.aliases);
    out.provinces.push(...u.provinces);
    out.aliases.push(...u.aliases);
  }
  return out;
}
