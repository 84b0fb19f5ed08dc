// The outbreak snapshot as the server holds it (snapshots/outbreaks/current): the data file and the province index
// read once per version, the look-ups built from them, and the caches that depend on the version only (assessments,
// burdens). What depends on the day of the clock stays with the service (server/services/outbreak-service.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "../../formats/manifest.ts";
import { OUTBREAK_DATA_FILE, OUTBREAK_INDEX_FILE, readOutbreakData, type OutbreakData as SnapshotData } from "../../formats/outbreak-snapshot.ts";
import { ProvinceIndexReader } from "../../formats/province-index.ts";
import type { Assessment } from "../../lib/outbreaks/endemic-channel.ts";
import { SURVEILLED_DISEASES, type CaseSeries, type SurveilledDisease } from "../../lib/outbreaks/series.ts";
import type { NewsItem } from "../../lib/outbreaks/news.ts";
import type { SeriesBurden } from "../../lib/outbreaks/series-burden.ts";

export interface OutbreakSnapshot {
  data: SnapshotData;
  index: ProvinceIndexReader;
  /** "dengue TH-10", "malaria NGA" → series. */
  series: Map<string, CaseSeries>;
  /** "dengue VNM" → the country's series at the other resolution, and years made of weeks (burden only). */
  alternates: Map<string, CaseSeries[]>;
  /** Province code → index into data.provinces. */
  provinceIndex: Map<string, number>;
  /** ISO alpha-3 → DON items about that country, newest first. */
  newsByCountry: Map<string, NewsItem[]>;
  /** Disease → sources and countries of its national series, for coverage statements. */
  coverage: Map<SurveilledDisease, { sources: string[]; countries: string[] }>;
  /** Assessments per "disease area timeframe", computed on first use per version. */
  assessments: Map<string, Assessment>;
  /** Assessments of every province's series per "disease timeframe". */
  provinceCache: Map<string, (Assessment | undefined)[]>;
  /** Burden of each series ("dengue TH-10"), computed on first use per version. */
  burdens: Map<string, SeriesBurden>;
}

export function openOutbreakSnapshot(dir: string, _manifest?: Manifest): OutbreakSnapshot {
  const data = readOutbreakData(readFileSync(join(dir, OUTBREAK_DATA_FILE), "utf8"), join(dir, OUTBREAK_DATA_FILE));
  const index = new ProvinceIndexReader(new Uint8Array(readFileSync(join(dir, OUTBREAK_INDEX_FILE))), join(dir, OUTBREAK_INDEX_FILE));
  if (index.nProvinces !== data.provinces.length) {
    throw new Error(`${dir}: province index has ${index.nProvinces} provinces, ${OUTBREAK_DATA_FILE} ${data.provinces.length}`);
  }
  const series = new Map(data.series.map((s) => [`${s.disease} ${s.area}`, s]));
  const alternates = new Map<string, CaseSeries[]>();
  for (const s of data.alternateSeries) {
    const key = `${s.disease} ${s.area}`;
    alternates.set(key, [...(alternates.get(key) ?? []), s]);
  }
  const newsByCountry = new Map<string, NewsItem[]>();
  for (const n of data.news) {
    let list = newsByCountry.get(n.iso3);
    if (list === undefined) newsByCountry.set(n.iso3, (list = []));
    list.push(n);
  }
  const coverage = new Map<SurveilledDisease, { sources: string[]; countries: string[] }>();
  for (const d of SURVEILLED_DISEASES) {
    const national = data.series.filter((s) => s.disease === d && s.level === "national");
    coverage.set(d, { sources: [...new Set(national.map((s) => s.source))], countries: national.map((s) => s.country).sort() });
  }
  const provinceIndex = new Map(data.provinces.map((p, i) => [p.code, i]));
  return { data, index, series, alternates, provinceIndex, newsByCountry, coverage, assessments: new Map(), provinceCache: new Map(), burdens: new Map() };
}
