// World Bank total population (SP.POP.TOTL) as the Indicators API v2 answers it (what `make refresh` downloads for
// source worldbank_population): `[ { page, pages, per_page, total, sourceid, lastupdated }, [ { indicator,
// country: { id, value }, countryiso3code, date, value, unit, obs_status, decimal }, … ] ]`. Kept as the data
// mirror's country_population.csv keeps them: ISO 3166-1 alpha-3 codes and XKX (Kosovo); the World Bank's aggregates
// (WLD, income groups, regions, IDA/IBRD, …) and CHI (Channel Islands) are dropped.
import { join } from "node:path";
import { isIso3 } from "../feeds/country-check.ts";
import { isoDay, laterDay } from "../sources/data-as-of.ts";

/** Every country and year in one page (the API's default page is 50 rows). */
export const WORLDBANK_POPULATION_URL = "https://api.worldbank.org/v2/country/all/indicator/SP.POP.TOTL?format=json&per_page=20000";

/** The download, linked into the inputs tree beside the mirror's CSV. */
export const WORLDBANK_POPULATION_JSON = join("population", "SP.POP.TOTL.json");

/** Codes kept besides ISO 3166-1 alpha-3: Kosovo, as the World Bank (and lib/geo) code it. */
const KEPT_NON_ISO = new Set(["XKX"]);

interface WorldBankRow {
  countryiso3code?: unknown;
  date?: unknown;
  value?: unknown;
}

/** The rows of a one-page answer; throws with the reason when the answer is an error, cut, or one page of several. */
function worldBankRows(text: string, file: string): WorldBankRow[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const [meta, rows] = Array.isArray(doc) ? doc : [];
  const m = meta as { page?: unknown; pages?: unknown; per_page?: unknown; total?: unknown; message?: { value?: unknown }[] } | undefined;
  if (m?.message) throw new Error(`${file}: the API answered an error (${m.message.map((x) => x.value).join("; ")})`);
  if (typeof m?.total !== "number" || !Array.isArray(rows)) throw new Error(`${file}: not a World Bank API answer ([{ page, pages, total, … }, [rows]])`);
  if (m.page !== 1 || m.pages !== 1) throw new Error(`${file}: page ${String(m.page)} of ${String(m.pages)} (per_page ${String(m.per_page)}, total ${m.total}): one page is read; raise per_page`);
  if (rows.length !== m.total) throw new Error(`${file}: ${rows.length} rows, the answer's total is ${m.total} (cut short)`);
  return rows as WorldBankRow[];
}

/**
 * (year, population) per country (ISO alpha-3 or XKX), sorted by year. Aggregates are dropped and years without a
 * value (null) skipped; a row without a year, a population that is not a positive number, or an answer without any
 * country refuses the whole file (a refresh then keeps the previous copy).
 */
export function parseWorldBankPopulation(text: string, file: string): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  worldBankRows(text, file).forEach((r, i) => {
    const code = typeof r.countryiso3code === "string" ? r.countryiso3code : "";
    if (!isIso3(code) && !KEPT_NON_ISO.has(code)) return;
    if (r.value === null) return;
    const year = typeof r.date === "string" && /^\d{4}$/.test(r.date) ? Number(r.date) : NaN;
    if (!Number.isInteger(year)) throw new Error(`${file}: row ${i + 1} (${code}): date ${JSON.stringify(r.date)} is not a year`);
    if (typeof r.value !== "number" || !(r.value > 0) || !Number.isFinite(r.value)) {
      throw new Error(`${file}: row ${i + 1} (${code} ${year}): population ${JSON.stringify(r.value)} is not a positive count`);
    }
    let list = out.get(code);
    if (list === undefined) out.set(code, (list = []));
    list.push([year, Math.round(r.value)]);
  });
  if (out.size === 0) throw new Error(`${file}: no country rows (only aggregates or empty values)`);
  for (const list of out.values()) list.sort((a, b) => a[0] - b[0]);
  return out;
}

/** The latest year with a country's population, as its 31 December (the download's dataAsOf). */
export function worldBankPopulationAsOf(text: string, file: string): string | null {
  let best: string | null = null;
  for (const list of parseWorldBankPopulation(text, file).values()) best = laterDay(best, isoDay(String(list.at(-1)![0])));
  return best;
}
