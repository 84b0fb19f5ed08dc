// WHO Disease Outbreak News as a dataset (Torres Munguía et al. 2022, Sci Data 9:683, MIT): outbreaks_*.csv lists
// country-year-disease rows with the DON ids; dons_raw_*.csv gives each DON's publication date and link. The
// radar keeps the items about every country (ISO alpha-3 of the dataset) and tags them with the diseases it
// answers for (by ICD-10 code).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { DON_SOURCE, type NewsDisease, type NewsItem } from "../../lib/outbreaks/news.ts";

export { DON_SOURCE, type NewsDisease, type NewsItem };

export const DON_DIR = join("health", "who-don");

/** Disease of an ICD-10 three-character code: A90–A91 and A97 (2019 revision) dengue, J09–J11 influenza, U07 COVID-19, A00 cholera, B50–B54 malaria. */
export function newsDisease(icd103c: string, diseaseName: string): NewsDisease {
  const c = icd103c.trim().toUpperCase();
  if (c === "A90" || c === "A91" || c === "A97") return "dengue";
  if (c === "J09" || c === "J10" || c === "J11") return "influenza";
  if (c === "U07" || /covid/i.test(diseaseName)) return "covid";
  if (c === "A00") return "cholera";
  if (/^B5[0-4]$/.test(c)) return "malaria";
  return "other";
}

/** dons_raw rows: the DON texts hold line breaks inside quotes, so records may span lines. */
function readDonsRaw(rawCsv: string, source: string, required: string[], rejected: CsvRejection[]): Record<string, string>[] {
  const csv = readCsvRecords(rawCsv, source, { required, multiline: true });
  rejected.push(...csv.rejected);
  return csv.records;
}

/** dons_raw → DON id → publication date and link; and the newest date (the as-of date of the news). */
function donIndex(rawCsv: string, source: string, rejected: CsvRejection[]): { byId: Map<string, { date: string; link: string }>; newest: string } {
  const byId = new Map<string, { date: string; link: string }>();
  let newest = "";
  for (const r of readDonsRaw(rawCsv, source, ["Date", "Link", "ID"], rejected)) {
    const date = r.Date.slice(0, 10);
    byId.set(r.ID, { date, link: r.Link });
    if (date > newest) newest = date;
  }
  return { byId, newest };
}

/** Codes of the dataset that differ from the ISO codes lib/geo answers with: Kosovo is XXK there, XKX here. */
export const DON_CODES: Record<string, string> = { XXK: "XKX" };

function joinItems(outbreaksCsv: string, raw: Map<string, { date: string; link: string }>, iso3: string | undefined, source: string, rejected: CsvRejection[]): NewsItem[] {
  const items = new Map<string, NewsItem>();
  const outbreaks = readCsvRecords(outbreaksCsv, source, { required: ["Country", "iso3", "icd103c", "Disease", "DONs"] });
  rejected.push(...outbreaks.rejected);
  for (const r of outbreaks.records) {
    const code = DON_CODES[r.iso3] ?? r.iso3;
    if (iso3 !== undefined && code !== iso3) continue;
    const disease = newsDisease(r.icd103c, r.Disease);
    for (const id of r.DONs.split(",").map((s) => s.trim())) {
      const item = raw.get(id);
      if (item === undefined) continue; // e.g. "Coronavirus dashboard"
      items.set(`${id}|${code}|${disease}`, { id, date: item.date, disease, diseaseName: r.Disease, country: r.Country, iso3: code, link: item.link });
    }
  }
  // Newest first; within a date by id (descending), then country code.
  return [...items.values()].sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id !== b.id ? (a.id < b.id ? 1 : -1) : a.iso3 < b.iso3 ? -1 : a.iso3 > b.iso3 ? 1 : 0));
}

/**
 * The DON items about one country (ISO alpha-3; undefined = every country), newest first; rows whose DON id has no
 * dated item are skipped. Malformed rows of either file go to `rejected`.
 */
export function parseDonItems(outbreaksCsv: string, rawCsv: string, iso3?: string, sources = ["outbreaks", "dons_raw"], rejected: CsvRejection[] = []): NewsItem[] {
  return joinItems(outbreaksCsv, donIndex(rawCsv, sources[1], rejected).byId, iso3, sources[0], rejected);
}

/** File names of the dated dataset release in the directory (outbreaks_<ddmmyyyy>.csv, dons_raw_<ddmmyyyy>.csv). */
export function donFiles(dir: string): { outbreaks: string; raw: string } {
  const files = readdirSync(join(dir, DON_DIR));
  const outbreaks = files.find((f) => /^outbreaks_\d{8}\.csv$/.test(f));
  const raw = files.find((f) => /^dons_raw_\d{8}\.csv$/.test(f));
  if (outbreaks === undefined || raw === undefined) throw new Error(`${join(dir, DON_DIR)}: outbreaks_*.csv or dons_raw_*.csv missing`);
  return { outbreaks: join(DON_DIR, outbreaks), raw: join(DON_DIR, raw) };
}

/** Every country's DON items (dons_raw read once), the as-of date and the files read. */
export function readDonNews(dir: string, rejected: CsvRejection[] = []): { items: NewsItem[]; asOf: string; files: string[] } {
  const f = donFiles(dir);
  const raw = donIndex(readFileSync(join(dir, f.raw), "utf8"), f.raw, rejected);
  const items = joinItems(readFileSync(join(dir, f.outbreaks), "utf8"), raw.byId, undefined, f.outbreaks, rejected);
  return { items, asOf: raw.newest, files: [f.outbreaks, f.raw] };
}
