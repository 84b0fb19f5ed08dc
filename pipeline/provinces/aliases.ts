// Province alias table: every common spelling of a province (English romanisations, Thai names and abbreviations,
// ISO 3166-2 codes) normalised to one key, mapped to exactly one province. Collisions are build errors.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../lib/config.ts";
import { THAI, ZERO_WIDTH, closeMatches, damerauLevenshtein, normalizeName, type CloseMatch, type ProvinceAliases } from "../../lib/province-names.ts";

export { closeMatches, damerauLevenshtein, normalizeName, type CloseMatch, type ProvinceAliases };

export interface AliasSources {
  /** Provinces with ISO code and canonical names (from the boundaries file). */
  provinces: readonly { code: string; nameEn: string; nameTh: string; }[];
  /** province_name_variants.csv text (optional). */
  variantsCsv?: string;
  /** opengisdata provinces.geojson parsed (optional): pro_code "10", pro_en, pro_th. */
  opengis?: { features: { properties: Record<string, unknown> }[] };
}

/** Spellings not in the sources that people use (Thai English-language press, travel usage). */
const EXTRA_ALIASES: Record<string, string[]> = {
  "TH-10": ["Krung Thep", "Krung Thep Maha Nakhon", "Bangkok Metropolis"],
  "TH-14": ["Ayutthaya", "Ayudhya"],
  "TH-30": ["Korat", "Khorat"],
  "TH-83": ["Phuket Province"],
};

/**
 * English variants in the CSV that are wrong for their row: "Ubon Thani" (listed under Udon Thani) is a confusion with
 * Ubon Ratchathani; "Lam Phu" is a fragment of Nong Bua Lam Phu.
 */
const REJECTED_LATIN = new Set(["ubonthani", "lamphu"]);

export const VARIANTS_FILE = join("boundaries", "province_name_variants.csv");
export const OPENGIS_FILE = join("boundaries", "opengisdata-thailand", "provinces.geojson");

/**
 * Reads the alias sources from the data directory. Both lists are optional (neither has a public origin to fetch
 * from): without them the table holds the boundaries' own English and Thai names.
 */
export function loadAliasSources(
  provinces: AliasSources["provinces"],
  dir: string = dataDir(),
): AliasSources {
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : undefined);
  const variantsCsv = read(VARIANTS_FILE);
  const opengisText = read(OPENGIS_FILE);
  const opengis = opengisText === undefined ? undefined : JSON.parse(opengisText);
  return { provinces, variantsCsv, opengis };
}

/** Builds the alias table; throws when one normalised spelling would name two provinces. */
export function buildAliases(src: AliasSources): ProvinceAliases[] {
  const entries = src.provinces.map((p) => ({ code: p.code, nameEn: p.nameEn, nameTh: p.nameTh, aliases: [] as string[] }));
  const byCode = new Map(entries.map((e, i) => [e.code, i]));
  const owner = new Map<string, string>(); // normalised alias -> code
  const add = (code: string, alias: string): void => {
    const clean = alias.replace(ZERO_WIDTH, "").replace(/\*/g, "").trim();
    const key = normalizeName(clean);
    if (key === "") return;
    const prev = owner.get(key);
    if (prev !== undefined && prev !== code) {
      throw new Error(`alias "${clean}" (normalised "${key}") names both ${prev} and ${code}`);
    }
    owner.set(key, code);
    // Keep distinct written forms ("Buri Ram", "Buriram") for display; lookups go through the normalised key.
    const list = entries[byCode.get(code)!].aliases;
    if (!list.some((a) => a.toLowerCase() === clean.toLowerCase())) list.push(clean);
  };
  for (const p of src.provinces) {
    add(p.code, p.nameEn);
    add(p.code, p.nameTh);
    add(p.code, p.code);
    add(p.code, p.code.slice(3));
    for (const a of EXTRA_ALIASES[p.code] ?? []) add(p.code, a);
  }
  for (const f of src.opengis?.features ?? []) {
    const code = `TH-${String(f.properties.pro_code)}`;
    if (!byCode.has(code)) continue;
    for (const field of ["pro_en", "pro_th"]) {
      const v = f.properties[field];
      if (typeof v === "string") add(code, v);
    }
  }
  if (src.variantsCsv) {
    for (const row of parseVariantsCsv(src.variantsCsv)) {
      const i = byCode.get(row.iso);
      if (i === undefined) continue; // "Prison" and "Unknown" rows
      const canonicalTh = entries[i].nameTh;
      add(row.iso, row.name);
      add(row.iso, row.nameTh);
      for (const alt of row.altNames) {
        if (THAI.test(alt)) {
          if (isThaiVariantOf(alt, canonicalTh)) add(row.iso, alt);
        } else if (!REJECTED_LATIN.has(normalizeName(alt))) {
          add(row.iso, alt);
        }
      }
    }
  }
  return entries;
}

/** Thai consonants ก..ฮ: PDF-extraction damage in the CSV moves vowels and tone marks but keeps the consonants. */
function consonants(s: string): string {
  let out = "";
  for (const ch of s) if (ch >= "\u0E01" && ch <= "\u0E2E") out += ch;
  return out;
}

/**
 * Filters the CSV's Thai variants. Kept: official 2–3 letter abbreviations (ชม, กทม), garbled or misspelled copies
 * of the name (consonant skeleton within one edit), and short forms that are a prefix or suffix of the name
 * (กรุงเทพ, อยุธยา, สุราษ). Dropped: district names and other junk (ยานนาวา, บางนา, ปลายพระยา, บึงโขงหลง, นาวัง, ธารโต…).
 */
export function isThaiVariantOf(variant: string, canonical: string): boolean {
  const v = variant.replace(ZERO_WIDTH, "").replace(/\*/g, "").trim();
  if (/^[\u0E01-\u0E2E]{2,3}$/.test(v)) return true;
  const cv = consonants(v);
  const cc = consonants(canonical);
  if (cv.length < 2) return false;
  if (damerauLevenshtein(cv, cc) <= 1) return true;
  return cv.length >= 3 && (cc.startsWith(cv) || cc.endsWith(cv));
}

interface VariantRow {
  name: string;
  nameTh: string;
  iso: string;
  altNames: string[];
}

/** Minimal RFC 4180 reader for province_name_variants.csv (quoted fields hold Python-style lists). */
export function parseVariantsCsv(text: string): VariantRow[] {
  const rows = parseCsv(text);
  const header = rows.shift() ?? [];
  const col = (name: string): number => {
    const i = header.findIndex((h) => h.trim() === name);
    if (i < 0) throw new Error(`province_name_variants.csv: missing column "${name}"`);
    return i;
  };
  const iName = col("Name");
  const iTh = col("Name(in Thai)");
  const iIso = col("ISO[7]");
  const iAlt = col("Alt_names");
  return rows
    .filter((r) => r.length > iAlt)
    .map((r) => ({
      name: r[iName],
      nameTh: r[iTh],
      iso: r[iIso].trim(),
      altNames: [...r[iAlt].matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2]),
    }));
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

/** Normalised alias -> province code. */
export function aliasIndex(table: readonly ProvinceAliases[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const e of table) for (const a of e.aliases) index.set(normalizeName(a), e.code);
  return index;
}

/** Province code for any known spelling, or undefined. */
export function resolveProvince(index: ReadonlyMap<string, string>, query: string): string | undefined {
  return index.get(normalizeName(query));
}
