// outbreaks.json: the outbreak snapshot's data file (see outbreak-snapshot.md). Case series are stored as JSON
// arrays (null = not reported) and come back as Float64Array with NaN; province-index.bin beside it is the
// province-index format, in the order of `provinces`.
import type { NewsItem } from "../lib/outbreaks/news.ts";
import { ADMIN_LEVELS, SURVEILLED_DISEASES, type CaseSeries } from "../lib/outbreaks/series.ts";

/** Snapshot name: the folder under ARTIFACTS_DIR/snapshots/ and the manifest kind. */
export const OUTBREAK_SNAPSHOT = "outbreaks";
export const OUTBREAK_FORMAT = "outbreaks";
/**
 * 2: series of every country (country, level, subtype, maskedPeriods), news of every country (iso3).
 * 3: populations (countries by year, provinces) and WHO's estimated malaria incidence, for burden rates.
 */
export const OUTBREAK_FORMAT_VERSION = 3;
export const OUTBREAK_DATA_FILE = "outbreaks.json";
export const OUTBREAK_INDEX_FILE = "province-index.bin";

export interface OutbreakProvince {
  code: string;
  nameEn: string;
  /** Centroid of the province's largest polygon ring, degrees. */
  lat: number;
  lng: number;
  /** Population of the province and its year (rates per 100,000 of a province series). */
  population: number;
  populationYear: number;
}

/** (year, value) pairs per ISO alpha-3, sorted by year. */
export type YearlyByCountry = Record<string, [number, number][]>;

export interface OutbreakData {
  /** Thailand's 77 provinces (the only admin-1 areas with series). */
  provinces: OutbreakProvince[];
  series: CaseSeries[];
  /**
   * National series at the other resolution where a country has both (OpenDengue monthly and yearly): the status uses
   * `series`, the burden whichever of the two gives the later 12 months.
   */
  alternateSeries: CaseSeries[];
  news: NewsItem[];
  /** Newest publication date of the news dataset (YYYY-MM-DD). */
  newsAsOf: string;
  /** Country populations by year, and their source. */
  populations: YearlyByCountry;
  populationSource: string;
  provincePopulationSource: string;
  /** WHO's estimated malaria cases per 1,000 population at risk, by country and year, and its source. */
  malariaIncidence: YearlyByCountry;
  malariaIncidenceSource: string;
}

export function writeOutbreakData(d: OutbreakData): string {
  return JSON.stringify({
    format: OUTBREAK_FORMAT,
    version: OUTBREAK_FORMAT_VERSION,
    provinces: d.provinces,
    newsAsOf: d.newsAsOf,
    populationSource: d.populationSource,
    provincePopulationSource: d.provincePopulationSource,
    malariaIncidenceSource: d.malariaIncidenceSource,
    populations: d.populations,
    malariaIncidence: d.malariaIncidence,
    series: d.series.map(seriesJson),
    alternateSeries: d.alternateSeries.map(seriesJson),
    news: d.news,
  });
}

function seriesJson(s: CaseSeries) {
  return { ...s, values: Array.from(s.values, (v) => (Number.isNaN(v) ? null : v)) };
}

const RESOLUTIONS = new Set(["month", "year", "day"]);
const BASELINES = new Set(["seasonal", "recent"]);
const DISEASES = new Set<string>(SURVEILLED_DISEASES);
const LEVELS = new Set<string>(ADMIN_LEVELS);
const ISO3 = /^[A-Z]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses and validates outbreaks.json; every error names the file and the offending entry. */
export function readOutbreakData(text: string, source = OUTBREAK_DATA_FILE): OutbreakData {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not valid JSON (${(err as Error).message})`);
  }
  if (doc?.format !== OUTBREAK_FORMAT || doc.version !== OUTBREAK_FORMAT_VERSION) {
    throw new Error(`${source}: expected format "${OUTBREAK_FORMAT}" version ${OUTBREAK_FORMAT_VERSION}`);
  }
  if (!Array.isArray(doc.provinces) || !Array.isArray(doc.series) || !Array.isArray(doc.alternateSeries) || !Array.isArray(doc.news) || typeof doc.newsAsOf !== "string") {
    throw new Error(`${source}: provinces, series, alternateSeries, news and newsAsOf are required`);
  }
  const provinces = doc.provinces as OutbreakProvince[];
  provinces.forEach((p, i) => {
    if (typeof p?.code !== "string" || typeof p.nameEn !== "string" || !Number.isFinite(p.lat) || !Number.isFinite(p.lng)) {
      throw new Error(`${source}: province ${i} lacks code, nameEn, lat or lng`);
    }
    if (Math.abs(p.lat) > 90 || Math.abs(p.lng) > 180) throw new Error(`${source}: province ${i} (${p.code}) centroid ${p.lat}, ${p.lng} is off the globe`);
    if (!(Number.isInteger(p.population) && p.population > 0) || !Number.isInteger(p.populationYear)) throw new Error(`${source}: province ${i} (${p.code}) lacks a positive whole population and its year`);
  });
  for (const k of ["populationSource", "provincePopulationSource", "malariaIncidenceSource"]) {
    if (typeof doc[k] !== "string") throw new Error(`${source}: ${k} is required`);
  }
  const populations = yearly(doc.populations, `${source}: populations`, (v) => Number.isInteger(v) && v > 0, "a positive whole number");
  const malariaIncidence = yearly(doc.malariaIncidence, `${source}: malariaIncidence`, (v) => v >= 0 && v <= 1000, "within 0..1,000 per 1,000");
  const series = (doc.series as Record<string, unknown>[]).map((s, i) => readSeries(s, `${source}: series ${i} (${String(s?.disease)} ${String(s?.area)})`));
  const alternateSeries = (doc.alternateSeries as Record<string, unknown>[]).map((s, i) => readSeries(s, `${source}: alternate series ${i} (${String(s?.disease)} ${String(s?.area)})`));

  const news = doc.news as NewsItem[];
  news.forEach((n, i) => {
    if (typeof n?.id !== "string" || typeof n.date !== "string" || !DATE.test(n.date) || typeof n.iso3 !== "string" || typeof n.link !== "string") {
      throw new Error(`${source}: news item ${i} lacks id, date (YYYY-MM-DD), iso3 or link`);
    }
  });
  return {
    provinces,
    series,
    alternateSeries,
    news,
    newsAsOf: doc.newsAsOf,
    populations,
    malariaIncidence,
    populationSource: doc.populationSource as string,
    provincePopulationSource: doc.provincePopulationSource as string,
    malariaIncidenceSource: doc.malariaIncidenceSource as string,
  };
}

/** One series of the data file; every error names it (`what`). */
function readSeries(s: Record<string, unknown>, what: string): CaseSeries {
  if (!DISEASES.has(s?.disease as string)) throw new Error(`${what}: unknown disease`);
  if (!RESOLUTIONS.has(s.resolution as string)) throw new Error(`${what}: unknown resolution "${String(s.resolution)}"`);
  if (!BASELINES.has(s.baseline as string)) throw new Error(`${what}: unknown baseline "${String(s.baseline)}"`);
  if (!LEVELS.has(s.level as string)) throw new Error(`${what}: unknown level "${String(s.level)}"`);
  if (typeof s.area !== "string" || typeof s.source !== "string" || !Number.isInteger(s.start)) throw new Error(`${what}: area, source and integer start are required`);
  if (typeof s.country !== "string" || !ISO3.test(s.country)) throw new Error(`${what}: country must be an ISO alpha-3 code`);
  if (s.subtype !== undefined && typeof s.subtype !== "string") throw new Error(`${what}: subtype must be a string`);
  if (s.maskedPeriods !== undefined && !(Array.isArray(s.maskedPeriods) && s.maskedPeriods.every(Number.isInteger))) {
    throw new Error(`${what}: maskedPeriods must be integer periods`);
  }
  if (!Array.isArray(s.values)) throw new Error(`${what}: values must be an array`);
  const values = new Float64Array(s.values.length);
  s.values.forEach((v: unknown, j: number) => {
    // Negative values are kept: OWID publishes corrections as negative daily counts, so window sums match the totals.
    if (v !== null && (typeof v !== "number" || !Number.isFinite(v))) throw new Error(`${what}: value ${j} is not a number or null`);
    values[j] = v === null ? NaN : v;
  });
  const out: CaseSeries = {
    disease: s.disease as CaseSeries["disease"],
    area: s.area,
    country: s.country,
    level: s.level as CaseSeries["level"],
    resolution: s.resolution as CaseSeries["resolution"],
    start: s.start as number,
    values,
    baseline: s.baseline as CaseSeries["baseline"],
    source: s.source,
  };
  if (s.subtype !== undefined) out.subtype = s.subtype as string;
  if (s.maskedPeriods !== undefined) out.maskedPeriods = s.maskedPeriods as number[];
  return out;
}

/** Checks a { ISO3: [[year, value], …] } table: codes, whole years in order, values that pass `ok`. */
function yearly(v: unknown, what: string, ok: (x: number) => boolean, okText: string): YearlyByCountry {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error(`${what}: expected an object of country codes`);
  for (const [code, list] of Object.entries(v as Record<string, unknown>)) {
    if (!ISO3.test(code) || !Array.isArray(list)) throw new Error(`${what}: "${code}" is not an ISO alpha-3 code with a list`);
    let last = -Infinity;
    for (const pair of list) {
      if (!Array.isArray(pair) || pair.length !== 2 || !Number.isInteger(pair[0]) || typeof pair[1] !== "number" || !Number.isFinite(pair[1])) throw new Error(`${what}: ${code}: entries must be [year, value]`);
      if (pair[0] <= last) throw new Error(`${what}: ${code}: years must increase`);
      if (!ok(pair[1])) throw new Error(`${what}: ${code} ${pair[0]}: ${pair[1]} is not ${okText}`);
      last = pair[0];
    }
  }
  return v as YearlyByCountry;
}
