// The outbreak snapshot: every health adapter run over DATA_DIR/health — series of every country the inputs
// reach, Thai provinces for dengue, WHO DON items of every country — with the 77 provinces (centroids and a
// point-to-province index), published with publishSnapshot() under ARTIFACTS_DIR/snapshots/outbreaks/. A build
// whose data file equals the current one publishes nothing ("unchanged").
import { afterToday, clockNow } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  OUTBREAK_DATA_FILE,
  OUTBREAK_INDEX_FILE,
  OUTBREAK_SNAPSHOT,
  writeOutbreakData,
  type OutbreakData,
  type OutbreakProvince,
} from "../../formats/outbreak-snapshot.ts";
import { writeProvinceIndex } from "../../formats/province-index.ts";
import { readManifest, type FileChecksum } from "../../formats/manifest.ts";
import { formatMonth } from "../../lib/months.ts";
import { aliasIndex, buildAliases, loadAliasSources } from "../provinces/aliases.ts";
import { loadProvinces, PROVINCES_FILE, type Province } from "../provinces/boundaries.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { lastReported, periodDates } from "../../lib/outbreaks/endemic-channel.ts";
import { OPENDENGUE_SOURCE, openDengueInputs, readOpenDengue } from "../health/opendengue.ts";
import { CHOLERA_SOURCE, choleraInput, readCholera } from "../health/who-cholera.ts";
import { MALARIA_EST_INCIDENCE, MALARIA_INCIDENCE_SOURCE, MALARIA_SOURCE, ghoInput, malariaInput, readMalaria, readMalariaIncidence } from "../health/who-gho-malaria.ts";
import { POPULATION_SOURCE, PROVINCE_POPULATION_FILE, PROVINCE_POPULATION_SOURCE, PROVINCE_POPULATION_YEAR, populationInput, readCountryPopulation, readProvincePopulation } from "../health/population.ts";
import { COVID_SOURCE, loadCovid } from "../health/owid-covid.ts";
import { FLUNET_SOURCE, flunetInputs, servedInfluenza, type InfluenzaSeries } from "../health/flunet.ts";
import { DON_SOURCE, readDonNews } from "../health/who-don.ts";
import type { CsvRejection } from "../feeds/csv.ts";
import type { CaseSeries } from "../../lib/outbreaks/series.ts";
import { publishSnapshot, snapshotRoot } from "./publish-snapshot.ts";
import type { BuiltSnapshot } from "./feed-builders.ts";

export { OUTBREAK_SNAPSHOT };

/** Centroid of the largest ring (shoelace formula in degrees; fine at province size for a radius test). */
export function provinceCentroid(p: Province): { lat: number; lng: number } {
  let best = { area: -1, lat: NaN, lng: NaN };
  for (const polygon of p.polygons) {
    const ring = polygon[0];
    let a = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
      a += cross;
      cx += (ring[j][0] + ring[i][0]) * cross;
      cy += (ring[j][1] + ring[i][1]) * cross;
    }
    if (Math.abs(a) > best.area) best = { area: Math.abs(a), lng: cx / (3 * a), lat: cy / (3 * a) };
  }
  return { lat: Math.round(best.lat * 1e5) / 1e5, lng: Math.round(best.lng * 1e5) / 1e5 };
}

export interface CollectedOutbreaks {
  data: OutbreakData;
  provinces: Province[];
  /** Inputs relative to the data directory. */
  inputs: string[];
  /** Inputs downloaded instead (FEED_URL_*): path relative to the data directory → downloaded text. */
  downloaded: Record<string, string>;
  report: Record<string, unknown>;
  /** Accepted rows (or reported periods) per input, for the refusal rule (row-drop.ts). */
  acceptedRows: Record<string, number>;
}

/** Periods with a value. */
function reported(s: CaseSeries): number {
  let n = 0;
  for (const v of s.values) if (!Number.isNaN(v)) n++;
  return n;
}

/** An influenza series as a plain CaseSeries, its zero-filled months as masked periods. */
function influenzaCaseSeries(s: InfluenzaSeries): CaseSeries {
  const { disease, area, country, level, subtype, resolution, start, values, baseline, source } = s;
  return { disease, area, country, level, subtype, resolution, start, values, baseline, source, maskedPeriods: s.zeroFilledMonths };
}

const span = (s: CaseSeries) => {
  const d = periodDates(s.resolution, s.start, lastReported(s));
  return `${d.from}..${d.to}`;
};

/**
 * Runs every adapter; throws (naming the file) when an input is missing, a province name does not match or a
 * country name has no code. The COVID-19 series is downloaded when FEED_URL_OWID_COVID_THA is set (falls back to
 * the data directory).
 */
export async function collectOutbreakData(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<CollectedOutbreaks> {
  const provinces = loadProvinces(join(dataDir, PROVINCES_FILE));
  const index = aliasIndex(buildAliases(loadAliasSources(provinces, dataDir)));
  const rejected: CsvRejection[] = [];
  const dengue = readOpenDengue(dataDir, index, rejected);
  if (dengue.provinces.unmatched.length > 0) {
    throw new Error(`OpenDengue: province names without a match: ${dengue.provinces.unmatched.join(", ")}`);
  }
  const covered = new Set(dengue.provinces.series.map((s) => s.area));
  const missing = provinces.filter((p) => !covered.has(p.code)).map((p) => p.code);
  if (missing.length > 0) throw new Error(`OpenDengue: no dengue series for ${missing.join(", ")}`);
  const news = readDonNews(dataDir, rejected);
  const covid = await loadCovid(dataDir, env, rejected);
  const malaria = readMalaria(dataDir, rejected);
  const cholera = readCholera(dataDir, rejected);
  const influenza = servedInfluenza(dataDir).map(influenzaCaseSeries);
  const series = [...dengue.provinces.series, ...dengue.national.series, ...malaria, ...cholera.series, ...covid.series, ...influenza];
  const populations = readCountryPopulation(dataDir, rejected);
  const provincePopulation = readProvincePopulation(dataDir);
  const noPopulation = provinces.filter((p) => !provincePopulation.has(p.code)).map((p) => p.code);
  if (noPopulation.length > 0) throw new Error(`${PROVINCE_POPULATION_FILE}: no population for ${noPopulation.join(", ")}`);
  const malariaIncidence = readMalariaIncidence(dataDir, rejected);
  const outProvinces: OutbreakProvince[] = provinces.map((p) => ({
    code: p.code,
    nameEn: p.nameEn,
    ...provinceCentroid(p),
    population: provincePopulation.get(p.code)!,
    populationYear: PROVINCE_POPULATION_YEAR,
  }));
  const seriesEnds = Object.fromEntries(
    series.filter((s) => s.area === "THA" || s.area === "TH-10").map((s) => [`${s.disease} ${s.area}`, periodDates(s.resolution, lastReported(s), lastReported(s)).to]),
  );
  const countries = (disease: string) => series.filter((s) => s.disease === disease && s.level === "national").map((s) => s.country);
  const report = {
    opendengue: {
      ...dengue.qc,
      admin1RowsUsed: dengue.provinces.rows,
      provinceNames: Object.keys(dengue.provinces.matches).length,
      provincesMatched: covered.size,
      matches: dengue.provinces.matches,
      provinceMonths: `${formatMonth(Math.min(...dengue.provinces.series.map((s) => s.start)))}..${formatMonth(Math.max(...dengue.provinces.series.map(lastReported)))}`,
      national: dengue.national.choices,
      nationalRowFaults: dengue.national.faults,
    },
    malaria: { countries: malaria.length, spans: Object.fromEntries(malaria.map((s) => [s.country, span(s)])) },
    cholera: { countries: cholera.series.length, leftOut: cholera.leftOut, matches: cholera.matches },
    influenza: Object.fromEntries(influenza.map((s) => [s.country, { subtype: s.subtype, span: span(s), maskedMonths: (s.maskedPeriods ?? []).map(formatMonth) }])),
    coverage: {
      dengueNational: countries("dengue"),
      dengueAdmin1: ["THA"],
      malaria: countries("malaria"),
      cholera: countries("cholera"),
      covid: countries("covid"),
      influenza: countries("influenza"),
      newsCountries: new Set(news.items.map((n) => n.iso3)).size,
    },
    population: {
      countries: populations.size,
      years: `${Math.min(...[...populations.values()].map((l) => l[0][0]))}..${Math.max(...[...populations.values()].map((l) => l.at(-1)![0]))}`,
      dengueCountriesWithout: countries("dengue").filter((c) => !populations.has(c)),
      provinces: provincePopulation.size,
    },
    malariaIncidence: { countries: malariaIncidence.size, latestYear: Math.max(...[...malariaIncidence.values()].flatMap((l) => l.map((p) => p[0]))) },
    news: { items: news.items.length, itemsAboutThailand: news.items.filter((n) => n.iso3 === "THA").length, asOf: news.asOf },
    fetches: { [covid.file]: { from: covid.fetch.from, attempts: covid.fetch.attempts, url: covid.fetch.url ?? null, error: covid.fetch.error ?? null } },
    seriesEnds,
    // Rows the CSV reader could not read, each with file:line and reason.
    csvRejectedRows: rejected,
  };
  const acceptedRows = {
    opendengueSpatial: dengue.qc.spatialRows,
    opendengueTemporal: dengue.qc.temporalRows,
    opendengueNational: dengue.qc.nationalRows,
    donItems: news.items.length,
    malariaYears: malaria.reduce((n, s) => n + reported(s), 0),
    malariaIncidenceYears: [...malariaIncidence.values()].reduce((n, l) => n + l.length, 0),
    populationRows: [...populations.values()].reduce((n, l) => n + l.length, 0),
    choleraYears: cholera.series.reduce((n, s) => n + reported(s), 0),
    covidDays: covid.series.reduce((n, s) => n + reported(s), 0),
    influenzaMonths: influenza.reduce((n, s) => n + reported(s), 0),
  };
  const inputs = [
    ...Object.values(openDengueInputs(dataDir)),
    malariaInput(dataDir),
    ghoInput(dataDir, MALARIA_EST_INCIDENCE),
    populationInput(dataDir),
    PROVINCE_POPULATION_FILE,
    choleraInput(dataDir),
    covid.file,
    ...flunetInputs(dataDir),
    ...news.files,
    PROVINCES_FILE,
  ];
  const downloaded = covid.fetch.from === "url" ? { [covid.file]: covid.fetch.text } : {};
  const data: OutbreakData = {
    provinces: outProvinces,
    series,
    alternateSeries: dengue.national.alternates,
    news: news.items,
    newsAsOf: news.asOf,
    populations: Object.fromEntries(populations),
    populationSource: POPULATION_SOURCE,
    provincePopulationSource: PROVINCE_POPULATION_SOURCE,
    malariaIncidence: Object.fromEntries(malariaIncidence),
    malariaIncidenceSource: MALARIA_INCIDENCE_SOURCE,
  };
  return { data, provinces, inputs, downloaded, report, acceptedRows };
}

export const OUTBREAK_SOURCES = [OPENDENGUE_SOURCE, MALARIA_SOURCE, MALARIA_INCIDENCE_SOURCE, CHOLERA_SOURCE, COVID_SOURCE, FLUNET_SOURCE, DON_SOURCE, POPULATION_SOURCE, PROVINCE_POPULATION_SOURCE];

function checksum(bytes: Uint8Array): FileChecksum {
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** sha256 of the current version's data file, or undefined. */
function currentDataSha(artifactsDir: string): string | undefined {
  try {
    return readManifest(join(snapshotRoot(artifactsDir, OUTBREAK_SNAPSHOT), "current")).artifacts[OUTBREAK_DATA_FILE]?.sha256;
  } catch {
    return undefined;
  }
}

/**
 * A series or news feed whose data end after today (two days' slack) carries a wrong date: an answer from it would
 * present that date as the present (docs/methods/currency.md). The snapshot is refused; the previous one keeps serving.
 */
export function refuseFutureEnds(seriesEnds: Record<string, string>, newsAsOf: string, now = clockNow()): void {
  const today = isoDay(now);
  for (const [series, end] of Object.entries(seriesEnds)) {
    if (afterToday(end, now)) throw new Error(`outbreaks snapshot refused: series ${series} ends ${end}, after today (${today}): a wrong date in the feed`);
  }
  if (afterToday(newsAsOf, now)) throw new Error(`outbreaks snapshot refused: the news end ${newsAsOf}, after today (${today}): a wrong date in the feed`);
}

/** The snapshot's files and manifest fields (the shape SNAPSHOT_BUILDERS entries return; buildSnapshots publishes it). */
export async function outbreakSnapshotFiles(ctx: { dataDir: string; env?: NodeJS.ProcessEnv }): Promise<BuiltSnapshot> {
  const c = await collectOutbreakData(ctx.dataDir, ctx.env);
  const asOf = [c.data.newsAsOf, ...Object.values(c.report.seriesEnds as Record<string, string>)].sort().at(-1) as string;
  refuseFutureEnds(Object.fromEntries(c.data.series.map((x) => [`${x.disease} ${x.area}`, periodDates(x.resolution, lastReported(x), lastReported(x)).to])), c.data.newsAsOf);
  return {
    files: {
      [OUTBREAK_DATA_FILE]: writeOutbreakData(c.data),
      [OUTBREAK_INDEX_FILE]: writeProvinceIndex(flattenRings(c.provinces)),
      "build-report.json": JSON.stringify(c.report, null, 1) + "\n",
    },
    asOf: `${asOf}T00:00:00Z`,
    sources: OUTBREAK_SOURCES,
    // A downloaded input is checksummed as downloaded, so a changed download is a changed input.
    inputs: Object.fromEntries(
      c.inputs.map((rel) => [rel, checksum(rel in c.downloaded ? Buffer.from(c.downloaded[rel], "utf8") : readFileSync(join(ctx.dataDir, rel)))]),
    ),
    qc: c.report.opendengue as Record<string, unknown>,
    report: "build-report.json",
    acceptedRows: c.acceptedRows,
  };
}

/** Registry entry for pipeline/snapshots/build-snapshots.ts. */
export async function buildOutbreaksForRegistry(ctx: { dataDir: string; env?: NodeJS.ProcessEnv }): Promise<BuiltSnapshot> {
  return outbreakSnapshotFiles(ctx);
}

export interface OutbreakBuildResult {
  status: "published" | "unchanged";
  version?: string;
  asOf: string;
}

/** Builds and publishes the outbreak snapshot on its own (or reports it unchanged when the data file is the same). */
export async function buildOutbreakSnapshot(ctx: { dataDir: string; artifactsDir: string; now?: Date; env?: NodeJS.ProcessEnv }): Promise<OutbreakBuildResult> {
  const built = await outbreakSnapshotFiles(ctx);
  const asOf = built.asOf.slice(0, 10);
  const sha = createHash("sha256").update(built.files[OUTBREAK_DATA_FILE]).digest("hex");
  if (currentDataSha(ctx.artifactsDir) === sha) return { status: "unchanged", asOf };
  const { version } = await publishSnapshot({ artifactsDir: ctx.artifactsDir, name: OUTBREAK_SNAPSHOT, ...built, now: ctx.now });
  return { status: "published", version, asOf };
}
