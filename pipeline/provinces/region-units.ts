// The first-level units of Vietnam (63 provinces and municipalities, and Côn Đảo as the boundary file has it) and
// Malaysia (13 states, 3 federal territories) with every spelling they are asked by: the boundary file's name, the
// variant lists of the data directory (boundaries/admin1-name-variants/: Vietnamese spellings with and without
// diacritics, legacy encodings) and the names of lib/admin1/ (English and Malay names). Keys are lib/admin1/unit-names.ts
// unitKey: one key names one unit, or none (a key two units share is left out and reported).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { unitKey } from "../../lib/admin1/unit-names.ts";
import { MALAYSIA_NAMES } from "../../lib/admin1/malaysia-names.ts";

export interface RegionUnit {
  /** ISO 3166-2 code; Côn Đảo, which shares Bà Rịa - Vũng Tàu's, gets "VN-43-CONDAO" (see unitsOf). */
  code: string;
  country: "VNM" | "MYS";
  /** As the boundary file spells it. */
  name: string;
}

export const VNM_BOUNDARIES_FILE = join("boundaries", "geoboundaries-vnm-adm1", "geoBoundaries-VNM-ADM1.geojson");
export const MYS_BOUNDARIES_FILE = join("boundaries", "geoboundaries-mys-adm1", "geoBoundaries-MYS-ADM1.geojson");
export const VNM_VARIANTS_FILE = join("boundaries", "admin1-name-variants", "vn_provinces_variants_choisy_dictionary.txt");
export const VNM_EPIX_FILE = join("boundaries", "admin1-name-variants", "KH_TH_LA_VN_admin1s_utf8_epix.csv");

/** Names English speakers use that no key rule reaches (Huế for Thừa Thiên Huế; the old name of Ho Chi Minh City). */
const VIETNAM_NAMES: Readonly<Record<string, readonly string[]>> = {
  "VN-SG": ["Ho Chi Minh City", "Saigon", "Sài Gòn", "HCMC"],
  "VN-26": ["Huế", "Hue"],
  "VN-43-CONDAO": ["Con Dao", "Côn Sơn"],
};

/**
 * The units of a geoBoundaries ADM1 FeatureCollection: shapeISO as the code; a second feature with a code already
 * taken (Côn Đảo shares VN-43 with Bà Rịa - Vũng Tàu) gets the code followed by its name's key in capitals.
 */
export function unitsOf(json: unknown, country: RegionUnit["country"], source: string): RegionUnit[] {
  const fc = json as { features?: { properties?: { shapeName?: unknown; shapeISO?: unknown } }[] };
  if (!Array.isArray(fc?.features)) throw new Error(`${source}: not a GeoJSON FeatureCollection`);
  const out: RegionUnit[] = [];
  const taken = new Set<string>();
  fc.features.forEach((f, i) => {
    const name = f.properties?.shapeName;
    const iso = f.properties?.shapeISO;
    if (typeof name !== "string" || name.trim() === "") throw new Error(`${source}: feature ${i} has no shapeName`);
    if (typeof iso !== "string" || !/^[A-Z]{2}-[0-9A-Z]{1,3}$/.test(iso)) throw new Error(`${source}: feature ${i} (${name}) has no ISO 3166-2 shapeISO`);
    const code = taken.has(iso) ? `${iso}-${unitKey(name).toUpperCase()}` : iso;
    if (taken.has(code)) throw new Error(`${source}: feature ${i} (${name}): code ${code} twice`);
    taken.add(code);
    out.push({ code, country, name: name.trim() });
  });
  return out;
}

/** The variant list's rows: `var_1;translate` (a spelling; the standard unaccented name it stands for). */
export function readVariantPairs(text: string): { spelling: string; standard: string }[] {
  const out: { spelling: string; standard: string }[] = [];
  for (const line of text.split(/\r?\n/).slice(1)) {
    const at = line.lastIndexOf(";");
    if (at <= 0) continue;
    out.push({ spelling: line.slice(0, at).trim(), standard: line.slice(at + 1).trim() });
  }
  return out;
}

/** The epix list's Vietnamese rows: ISO 3166-2 code → its names (as written, preferred, epix). */
export function readEpixNames(text: string, countryIso2 = "VN"): Map<string, string[]> {
  const rows = parseCsv(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const out = new Map<string, string[]>();
  for (const r of rows) {
    if (r.CountryISO !== countryIso2) continue;
    const list = out.get(r.Admin1ISO) ?? [];
    for (const n of [r.Admin1Name, r.Admin1Name_Preferred, r.epix]) if (n && !list.includes(n)) list.push(n);
    out.set(r.Admin1ISO, list);
  }
  return out;
}

export interface UnitNameTable {
  /** unitKey → unit code. */
  byKey: Map<string, string>;
  /** Per code, the spellings that reach it (the boundary name first). */
  aliases: Map<string, string[]>;
  /** Keys two units claim, left out: each with the codes. */
  ambiguous: { key: string; codes: string[] }[];
  /** Variant rows whose standard name is no unit of the boundary file (pre-2004 units such as Hà Tây, Bắc Thái). */
  unmatchedStandards: string[];
}

/** Every spelling of every unit, and the key table the province lookup reads. */
export function unitNameTable(units: readonly RegionUnit[], variants: readonly { spelling: string; standard: string }[], epix: ReadonlyMap<string, readonly string[]>): UnitNameTable {
  const aliases = new Map<string, string[]>();
  const add = (code: string, name: string) => {
    const list = aliases.get(code)!;
    if (!list.includes(name)) list.push(name);
  };
  for (const u of units) {
    aliases.set(u.code, [u.name]);
    for (const n of epix.get(u.code) ?? []) add(u.code, n);
    for (const n of (u.country === "MYS" ? MALAYSIA_NAMES : VIETNAM_NAMES)[u.code] ?? []) add(u.code, n);
  }
  // A variant belongs to the unit one of whose names has its standard name's key.
  const codeOfKey = (key: string) => units.filter((u) => u.country === "VNM" && aliases.get(u.code)!.some((n) => unitKey(n) === key)).map((u) => u.code);
  const unmatched = new Set<string>();
  for (const v of variants) {
    const codes = codeOfKey(unitKey(v.standard));
    if (codes.length === 1) add(codes[0], v.spelling);
    else unmatched.add(v.standard);
  }
  const claims = new Map<string, Set<string>>();
  for (const [code, names] of aliases) {
    for (const n of names) {
      const k = unitKey(n);
      if (k === "") continue;
      (claims.get(k) ?? claims.set(k, new Set()).get(k)!).add(code);
    }
  }
  const byKey = new Map<string, string>();
  const ambiguous: { key: string; codes: string[] }[] = [];
  for (const [key, codes] of claims) {
    if (codes.size === 1) byKey.set(key, [...codes][0]);
    else ambiguous.push({ key, codes: [...codes].sort() });
  }
  return { byKey, aliases, ambiguous, unmatchedStandards: [...unmatched].sort() };
}

/** The region's units and their names from the data directory's files. */
export function loadUnitNames(dataDir: string): { units: RegionUnit[]; table: UnitNameTable; collections: Record<RegionUnit["country"], unknown> } {
  const read = (f: string) => readFileSync(join(dataDir, f), "utf8");
  // The parsed boundary files come back too: the province build takes the units' polygons from them.
  const collections = { VNM: JSON.parse(read(VNM_BOUNDARIES_FILE)) as unknown, MYS: JSON.parse(read(MYS_BOUNDARIES_FILE)) as unknown };
  const units = [...unitsOf(collections.VNM, "VNM", VNM_BOUNDARIES_FILE), ...unitsOf(collections.MYS, "MYS", MYS_BOUNDARIES_FILE)];
  return { units, table: unitNameTable(units, readVariantPairs(read(VNM_VARIANTS_FILE)), readEpixNames(read(VNM_EPIX_FILE))), collections };
}
