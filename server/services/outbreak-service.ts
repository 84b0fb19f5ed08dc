// Outbreak radar answers from the outbreak snapshot, worldwide. Where a point is: the Thai province from the
// snapshot's province index, else the country from lib/geo (the process's shared geography); per disease the answer rests on, in this order, the Thai
// province series (dengue), the country's national series, the WHO Disease Outbreak News items about the disease in
// the country (news only), or nothing: then 404 NOT_FOUND naming the coverage. Each count series is assessed
// against its endemic channel (lib/outbreaks/endemic-channel.ts); texts are assembled from those numbers and the
// news items only. Method: docs/methods/outbreaks.md.
import { NotFoundError } from "../errors.ts";
import { log, type Logger } from "../../lib/log.ts";
import { OUTBREAK_DATA_FILE, OUTBREAK_SNAPSHOT } from "../../formats/outbreak-snapshot.ts";
import { assess, lastReported, periodDates, riskLevelOf, windowPeriods, type Assessment, type OutbreakStatus, type Timeframe } from "../../lib/outbreaks/endemic-channel.ts";
import { type AdminLevel, type CaseSeries, type SurveilledDisease } from "../../lib/outbreaks/series.ts";
import { DON_SOURCE, newsWithin, type NewsItem } from "../../lib/outbreaks/news.ts";
import { DISEASES } from "../../lib/outbreaks/diseases/index.ts";
import { seriesBurden, type SeriesBurden } from "../../lib/outbreaks/series-burden.ts";
import { outbreakConfidence } from "../../lib/outbreaks/confidence.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import type { Geography } from "../../lib/geo/geography.ts";
import { sharedGeography, shoreCountry } from "../../lib/feed-risk/place.ts";
import { overseasArea } from "../../lib/outbreaks/overseas.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { openOutbreakSnapshot, type OutbreakSnapshot } from "../data/outbreak-snapshot.ts";
import { channelText, DISEASE_NAMES, fmt, maskedRuns, newsFinding, newsOut, NEWS_SHOWN, periodLabel, seriesCoverageText, windowLabel } from "./outbreak-text.ts";
import type { DiseaseResult, NewsItemOut, OutbreakBody, OutbreakData, OutbreakStatusData, OutbreakStatusQuery } from "../schemas-outbreak.ts";
import { isoNumericOf } from "../../lib/geo/geography.ts";
import { clockNow, currencyOf, type Cadence, type Currency, type Period } from "../../lib/currency.ts";
import { r1 } from "../../lib/round.ts";
import { isoDay } from "../../lib/days.ts";

export { openOutbreakSnapshot, type OutbreakSnapshot } from "../data/outbreak-snapshot.ts";

/** Provinces whose centroid lies within this distance of the point count towards clusters and the case estimate. */
export const CLUSTER_RADIUS_KM = 100;
/** News-only score: the newest DON item about the disease in the country at most this many days before today. */
export const NEWS_RECENT_DAYS = 90;
export const NEWS_YEAR_DAYS = 365;
/**
 * News-only scores: an item within NEWS_RECENT_DAYS of today, within NEWS_YEAR_DAYS, older. News says an outbreak
 * was reported, not how many fall ill: it never lifts a level above low (riskLevelOf: < 30).
 */
export const NEWS_ONLY_SCORES = { recent: 25, year: 10, older: 0 } as const;
const ABOVE_THRESHOLD: ReadonlySet<OutbreakStatus> = new Set(["warning", "alert"]);
const STATUS_RANK: Record<OutbreakStatus, number> = { news_only: 0, insufficient_history: 0, no_recent_data: 0, normal: 1, watch: 2, warning: 3, alert: 4 };
const YEAR_MS = 365.25 * 86_400_000;
/** Statuses a WHO DON item within the timeframe raises to "watch" (only where the answer has a rate). */
const RAISED_BY_NEWS: ReadonlySet<OutbreakStatus> = new Set(["normal", "insufficient_history", "no_recent_data"]);
/** Order of the diseases in a general answer. */
const GENERAL_ORDER: readonly SurveilledDisease[] = ["dengue", "malaria", "cholera", "covid", "influenza"];

type SeriesCoverage = DiseaseResult["coverage"] & object;


/**
 * Whether WHO DON news raises a status to "watch": only where the answer has a rate (a series' burden or WHO's
 * estimate: news alone never sets a level), by an item about the disease in the country within the timeframe before
 * today — or within a year when the series is not current (it says nothing of now). Only "normal",
 * "insufficient_history" and "no_recent_data" are raised.
 */
function newsRaise(status: OutbreakStatus, items: readonly NewsItem[], hasRate: boolean, current: boolean, today: string, timeframe: Timeframe) {
  const newsDays = current ? Number(timeframe.slice(0, -1)) : NEWS_YEAR_DAYS;
  const raisedBy: NewsItem | undefined = hasRate && RAISED_BY_NEWS.has(status) ? newsWithin(items, today, newsDays)[0] : undefined;
  return { newsDays, raisedBy };
}

/**
 * How often a series reports: its resolution, except a daily series whose last reports come a week apart (OWID's
 * file since WHO's weekly reporting of 2023: one dated value a week, the days between empty or 0).
 */
export function cadenceOf(s: CaseSeries): Cadence {
  if (s.resolution === "year") return "yearly";
  if (s.resolution === "month") return "monthly";
  const days: number[] = [];
  for (let i = s.values.length - 1; i >= 0 && days.length < 9; i--) if (s.values[i] > 0) days.push(i);
  if (days.length < 3) return "daily";
  const gaps = days.slice(1).map((d, i) => days[i] - d).sort((a, b) => a - b);
  return gaps[gaps.length >> 1] >= 5 ? "weekly" : "daily";
}

/** A disease whose answer at a place cannot be given because its score rests on a recent window and the series is not current. */
interface NotCurrent {
  notCurrent: true;
  /** "covid: …" for a general answer's notCovered. */
  reason: string;
  error: NotFoundError;
  /** Newest datum of the series. */
  asOf: string;
}

const isNotCurrent = (x: unknown): x is NotCurrent => typeof x === "object" && x !== null && "notCurrent" in x;

/** The answer of the outbreak routes (and of a profile's outbreak parts) in a process without an outbreak snapshot. */
export const OUTBREAK_NOT_CONFIGURED = "The outbreak radar is not configured on this server";

export interface OutbreakService {
  query(q: OutbreakBody): OutbreakData;
  status(q: OutbreakStatusQuery): OutbreakStatusData;
  dataVersion(): string;
}

const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** DON items about `d` in the country dated up to today (a clock set in the past sees no later item), newest first. */
function newsAbout(snap: OutbreakSnapshot, country: string, d: SurveilledDisease, today: string): NewsItem[] {
  return (snap.newsByCountry.get(country) ?? []).filter((n) => n.disease === d && n.date <= today);
}

interface Part {
  result: DiseaseResult;
  findings: string[];
  intelligence: string;
  sources: string[];
  news: NewsItemOut[];
  /** Series the numbers come from (the answering one first). */
  series: SeriesCoverage[];
  /** "caseEstimate: …" for every null figure. */
  missing: string[];
  newsCount: number;
  newestNews: string | null;
}

/** Where a point is, for the radar: its country, the Thai province (index into the snapshot) or -1. */
interface Place {
  country: string;
  countryName: string;
  province: number;
  /** Set when the point lies just off the coast and took the country of land found around it. */
  nearCoast?: { distanceKm: number };
  /** ISO code of the country Natural Earth draws the overseas area in (lib/outbreaks/overseas.ts). */
  overseasOf?: string;
}

export class SnapshotOutbreakService implements OutbreakService {
  constructor(
    private readonly store: ArtifactStore<OutbreakSnapshot>,
    geography: Geography | (() => Geography),
    private readonly now: () => Date = () => new Date(clockNow()),
  ) {
    this.geographyOf = typeof geography === "function" ? geography : () => geography;
  }

  /** Built on first use (lib/feed-risk/place.ts): a server without outbreak data never pays for it. */
  private readonly geographyOf: () => Geography;

  /** Location-independent parts (national series, news only) per "disease country timeframe", per snapshot version, for one day of the clock: their currency and texts count to today. */
  private readonly parts = new WeakMap<OutbreakSnapshot, { day: string; parts: Map<string, Part | NotCurrent> }>();

  private get geography(): Geography {
    return this.geographyOf();
  }

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  private place(snap: OutbreakSnapshot, lat: number, lng: number): Place {
    const geo = this.geography;
    // The Thai province boundaries (geoBoundaries) are finer than Natural Earth's: a point in a province is Thailand
    // whatever Natural Earth says there. Outside Thailand's box the index answers at once.
    const province = snap.index.provinceAt(lat, lng);
    if (province >= 0) return { country: "THA", countryName: geo.countryName("THA") ?? "Thailand", province };
    let country = geo.countryAt(lat, lng);
    let nearCoast: Place["nearCoast"];
    if (country === null) {
      if (geo.isLand(lat, lng)) {
        throw new NotFoundError("No surveillance data for this location: the point is on land that no country's ISO code covers (contested, Natural Earth 1:10m)", { lat, lng });
      }
      const coast = Math.round(geo.coastDistanceKm(lat, lng) * 10) / 10;
      const shore = coast <= geo.coastalToleranceKm ? shoreCountry(geo, lat, lng, geo.coastalToleranceKm) : null;
      if (shore === null) {
        const nearText = coast <= geo.coastalToleranceKm ? `, and no country's land lies ${geo.coastalToleranceKm} km around it` : "";
        throw new NotFoundError(
          `No surveillance data at sea: the point lies in no country (Natural Earth 1:10m), ${coast} km from the nearest coast${nearText}; the outbreak radar answers for points in a country`,
          { lat, lng, coastDistanceKm: coast, coverage: "land points of a country: series and news are per country" },
        );
      }
      country = shore;
      nearCoast = { distanceKm: coast };
    }
    const overseas = overseasArea(country, lat, lng);
    if (overseas !== undefined) return { country: overseas.code, countryName: overseas.name, province: -1, overseasOf: country, ...(nearCoast ? { nearCoast } : {}) };
    return { country, countryName: geo.countryName(country) ?? country, province: -1, ...(nearCoast ? { nearCoast } : {}) };
  }

  query(q: OutbreakBody): OutbreakData {
    const snap = this.store.require().data;
    const place = this.place(snap, q.lat, q.lng);
    const nowDate = this.now();
    const now = nowDate.getTime();
    const general = q.diseaseType === "general";
    const diseases = general ? GENERAL_ORDER : [q.diseaseType as SurveilledDisease];
    const parts: Part[] = [];
    const notCovered: string[] = [];
    const notCurrent: string[] = [];
    for (const d of diseases) {
      const part = this.part(snap, d, place, q, now);
      if (typeof part === "string") {
        if (!general) throw this.notCovered(snap, d, place, q, part);
        notCovered.push(part);
      } else if (isNotCurrent(part)) {
        // general: a disease whose score would rest on a window without current data is listed with its reason, not counted.
        if (!general) throw part.error;
        notCovered.push(part.reason);
        notCurrent.push(d);
      } else parts.push(part);
    }
    if (parts.length === 0 || (general && parts.every((x) => x.result.surveillance === "news_only" && x.newsCount === 0))) {
      const what = notCurrent.length > 0 ? "no current count series" : "no count series";
      throw new NotFoundError(`No surveillance data for ${place.countryName} (${place.country}): ${what} and no WHO Disease Outbreak News item for any monitored disease`, {
        lat: q.lat,
        lng: q.lng,
        country: place.country,
        notCovered,
      });
    }
    const scored = parts.filter((x) => x.result.surveillance === "series");
    // The lead is chosen among the scores that compare places (burden); a channel-only score (influenza) leads only
    // where no disease has a rate, news only where there is no series at all.
    const burdened = scored.filter((x) => x.result.scoreBasis === "burden");
    const pool = burdened.length > 0 ? burdened : scored.length > 0 ? scored : parts;
    // general: the worst disease leads (highest score, then status rank); counts add up over diseases.
    const lead = pool.reduce((a, b) =>
      b.result.riskScore > a.result.riskScore || (b.result.riskScore === a.result.riskScore && STATUS_RANK[b.result.outbreakStatus] > STATUS_RANK[a.result.outbreakStatus]) ? b : a,
    );
    const r = lead.result;
    const missing: string[] = [];
    let activeClusters = r.activeClusters;
    let caseEstimate = r.caseEstimate;
    if (general) {
      const sum = (f: (x: DiseaseResult) => number | null, field: string) => {
        const vals = parts.map((x) => f(x.result)).filter((v): v is number => v !== null);
        if (vals.length === 0) missing.push(`${field}: no disease at this point has a count for it`);
        return vals.length === 0 ? null : vals.reduce((a, b) => a + b, 0);
      };
      activeClusters = sum((x) => x.activeClusters, "activeClusters");
      caseEstimate = sum((x) => x.caseEstimate, "caseEstimate");
      for (const x of parts) for (const m of x.missing) missing.push(`${x.result.diseaseType} ${m}`);
    } else missing.push(...lead.missing);
    // general: the newest as-of among the surveillance series (each disease's own date, period and currency are in
    // details.diseases); the top level states that disease's currency and the span of all the counted ones.
    const dated = scored.length > 0 ? scored : parts;
    const newestPart = dated.reduce((x, y) => (y.result.asOf > x.result.asOf ? y : x));
    const asOf = newestPart.result.asOf;
    const period = { from: dated.map((x) => x.result.period.from).sort()[0], to: asOf };
    const currency = newestPart.result.currency;
    const recent = general ? (newestPart.result.recent ?? null) : r.recent;
    const province = place.province >= 0 ? snap.data.provinces[place.province] : undefined;
    const where = province ? province.nameEn : place.countryName;
    const summary = general
      ? `All monitored diseases in ${where}: highest risk ${DISEASE_NAMES[r.diseaseType as SurveilledDisease]} (${r.outbreakStatus}, score ${r.riskScore}); ` +
        parts.map((x) => `${DISEASE_NAMES[x.result.diseaseType as SurveilledDisease]} ${x.result.surveillance === "series" ? `${x.result.outbreakStatus} as of ${x.result.asOf}` : "from outbreak news only"}`).join(", ") +
        (notCovered.length > notCurrent.length ? `; no data for ${notCovered.map((n) => n.split(":")[0]).filter((d) => !notCurrent.includes(d)).join(", ")}` : "") +
        (notCurrent.length > 0 ? `; no current data for ${notCurrent.join(", ")}` : "") +
        "."
      : (lead.findings[0] ?? "");
    const news = parts.flatMap((x) => x.news).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, general ? 5 : NEWS_SHOWN);
    const seriesUsed = parts.flatMap((x) => x.series);
    const newsCount = parts.reduce((n, x) => n + x.newsCount, 0);
    const newest = parts.map((x) => x.newestNews).filter((d): d is string => d !== null).sort().at(-1) ?? null;
    const adminLevel: AdminLevel = r.area.level;
    const coverageSummary =
      `${place.countryName} (${place.country})` +
      (place.overseasOf ? ` (drawn inside ${place.overseasOf} by Natural Earth; told apart by lib/outbreaks/overseas.ts)` : "") +
      (place.nearCoast ? `, the country of the land ${this.geography.coastalToleranceKm} km around the point, which lies ${place.nearCoast.distanceKm} km off the coast` : "") +
      (province ? `, province ${province.nameEn}` : "") +
      `: ` +
      (seriesUsed.length > 0 ? seriesUsed.map((s) => `${s.disease} ${s.adminLevel} series ${s.area.name} ${s.period.from}..${s.period.to} (${s.source})`).join("; ") : "no count series") +
      `; ${newsCount} WHO Disease Outbreak News item${newsCount === 1 ? "" : "s"} about ${general ? "these diseases" : DISEASE_NAMES[diseases[0]]} in ${place.countryName} up to ${snap.data.newsAsOf}.`;
    return {
      location: { lat: q.lat, lng: q.lng },
      country: { code: place.country, name: place.countryName },
      province: province ? { code: province.code, name: province.nameEn } : null,
      diseaseType: q.diseaseType,
      timeframe: q.timeframe,
      asOf,
      riskScore: r.riskScore,
      riskLevel: riskLevelOf(r.riskScore),
      outbreakStatus: r.outbreakStatus,
      activeClusters,
      caseEstimate,
      trend: r.trend,
      summary,
      details: {
        intelligence: parts.map((x) => x.intelligence).join(" "),
        keyFindings: general ? parts.map((x) => x.findings[0]) : lead.findings,
        surveillance: general ? (scored.length > 0 ? "series" : "news_only") : r.surveillance,
        basis: r.basis,
        asOf,
        period,
        currency,
        recent,
        confidence: r.confidence,
        confidenceLabel: r.confidenceLabel,
        confidenceBasis: r.confidenceBasis,
        clusterRadiusKm: CLUSTER_RADIUS_KM,
        coverage: {
          country: place.country,
          countryName: place.countryName,
          adminLevel,
          province: province ? { code: province.code, name: province.nameEn } : null,
          series: seriesUsed,
          news: { source: DON_SOURCE, items: newsCount, newest, asOf: snap.data.newsAsOf },
          notCovered,
          summary: coverageSummary,
        },
        missing,
        diseases: parts.map((x) => x.result),
        news,
      },
      dataSources: [...new Set(parts.flatMap((x) => x.sources))],
      timestamp: nowDate.toISOString(),
    };
  }

  /**
   * Every area's status for one disease (the map's outbreak layer): each country as the query answers for a point
   * in it (national series, else news only), and each Thai province with a province series.
   */
  status(q: OutbreakStatusQuery): OutbreakStatusData {
    const snap = this.store.require().data;
    const d = q.diseaseType;
    const codes = new Set(snap.coverage.get(d)!.countries);
    for (const [iso3, items] of snap.newsByCountry) if (items.some((n) => n.disease === d)) codes.add(iso3);
    const query: OutbreakBody = { lat: 0, lng: 0, diseaseType: d, timeframe: q.timeframe };
    const now = this.now().getTime();
    const countries: OutbreakStatusData["countries"] = [];
    const notCurrent: OutbreakStatusData["notCurrent"] = [];
    for (const code of [...codes].sort()) {
      const countryName = this.geography.countryName(code) ?? code;
      const part = this.part(snap, d, { country: code, countryName, province: -1 }, query, now);
      if (typeof part === "string") continue;
      if (isNotCurrent(part)) {
        notCurrent.push({ code, name: countryName, asOf: part.asOf, reason: part.error.message });
        continue;
      }
      const r = part.result;
      countries.push({
        code,
        isoNumeric: isoNumericOf(code),
        name: r.area.name,
        surveillance: r.surveillance,
        outbreakStatus: r.outbreakStatus,
        riskScore: r.riskScore,
        riskLevel: riskLevelOf(r.riskScore),
        asOf: r.asOf,
        current: r.currency.current,
        source: part.sources[0],
      });
    }
    const provinces: OutbreakStatusData["provinces"] = [];
    if (snap.data.provinces.some((pr) => snap.series.has(`${d} ${pr.code}`))) {
      this.provinceAssessments(snap, d, q.timeframe).forEach((a, i) => {
        const pr = snap.data.provinces[i];
        const s = snap.series.get(`${d} ${pr.code}`);
        if (a === undefined || s === undefined) return;
        // As the query answers for a point in the province (the same judgement, without the texts).
        const j = this.judge(snap, s, a, pr.nameEn, "THA", q.timeframe, now);
        if (j.notCurrent) return;
        provinces.push({ code: pr.code, name: pr.nameEn, outbreakStatus: j.status, riskScore: j.score, riskLevel: riskLevelOf(j.score), asOf: j.asOf, current: j.currency.current, source: s.source });
      });
    }
    return { diseaseType: d, timeframe: q.timeframe, newsAsOf: snap.data.newsAsOf, countries, provinces, notCurrent };
  }

  /** 404 for one disease the country has neither a series nor news for; names what the data cover. */
  private notCovered(snap: OutbreakSnapshot, d: SurveilledDisease, place: Place, q: OutbreakBody, reason: string): NotFoundError {
    const cov = snap.coverage.get(d)!;
    return new NotFoundError(`No ${DISEASE_NAMES[d]} data for ${place.countryName} (${place.country}): ${reason.slice(reason.indexOf(":") + 2)}`, {
      lat: q.lat,
      lng: q.lng,
      country: place.country,
      diseaseType: d,
      coverage: { series: { sources: cov.sources, countries: cov.countries }, news: { source: DON_SOURCE, asOf: snap.data.newsAsOf, items: 0 } },
    });
  }

  private assessed(snap: OutbreakSnapshot, s: CaseSeries, timeframe: Timeframe): Assessment {
    const key = `${s.disease} ${s.area} ${timeframe}`;
    let a = snap.assessments.get(key);
    if (a === undefined) snap.assessments.set(key, (a = assess(s, timeframe)));
    return a;
  }

  private provinceAssessments(snap: OutbreakSnapshot, disease: SurveilledDisease, timeframe: Timeframe): (Assessment | undefined)[] {
    const key = `${disease} ${timeframe}`;
    let list = snap.provinceCache.get(key);
    if (list === undefined) {
      list = snap.data.provinces.map((pr) => {
        const s = snap.series.get(`${disease} ${pr.code}`);
        return s === undefined ? undefined : this.assessed(snap, s, timeframe);
      });
      snap.provinceCache.set(key, list);
    }
    return list;
  }

  /** The part of one disease at a place, a string "disease: why there is no data", or why its data are not current. */
  private part(snap: OutbreakSnapshot, d: SurveilledDisease, place: Place, q: OutbreakBody, now: number): Part | NotCurrent | string {
    if (place.province >= 0) {
      const s = snap.series.get(`${d} ${snap.data.provinces[place.province].code}`);
      if (s !== undefined) return this.seriesPart(snap, s, place, q, now);
    }
    // The parts count ages to today: the cache holds one version's parts of one day.
    const today = isoDay(now);
    let cache = this.parts.get(snap);
    if (cache === undefined || cache.day !== today) this.parts.set(snap, (cache = { day: today, parts: new Map() }));
    const key = `${d} ${place.country} ${q.timeframe}`;
    const cached = cache.parts.get(key);
    if (cached !== undefined) return cached;
    const national = snap.series.get(`${d} ${place.country}`);
    let part: Part | NotCurrent | undefined;
    if (national !== undefined) part = this.seriesPart(snap, national, place, q, now);
    else if (newsAbout(snap, place.country, d, today).length > 0) part = this.newsOnly(snap, d, place, now);
    if (part === undefined) {
      const covered = snap.coverage.get(d)!.countries.length > 0;
      return `${d}: ${seriesCoverageText(snap, d)}${covered ? ", not this one," : ""} and WHO Disease Outbreak News has no item about ${DISEASE_NAMES[d]} in ${place.countryName} up to ${snap.data.newsAsOf}`;
    }
    cache.parts.set(key, part);
    return part;
  }

  /**
   * The series' burden, once per version (it does not depend on the timeframe): from the series, or from the
   * country's series at the other resolution where that gives a rate for a later period (Seychelles: its months to
   * 2025-03 are too few for 12, its year 2024 is whole).
   */
  private burdenOf(snap: OutbreakSnapshot, s: CaseSeries, end: number, areaName: string): SeriesBurden {
    const key = `${s.disease} ${s.area}`;
    let b = snap.burdens.get(key);
    if (b === undefined) {
      b = seriesBurden(snap.data, s, end, areaName, s.level === "admin-1" ? snap.provinceIndex.get(s.area) : undefined);
      for (const alt of snap.alternates.get(key) ?? []) {
        const a = seriesBurden(snap.data, alt, lastReported(alt), areaName);
        if (a.burden !== null && (b.burden === null || a.burden.period.to > b.burden.period.to)) b = a;
      }
      snap.burdens.set(key, b);
    }
    return b;
  }

  private seriesCoverage(s: CaseSeries, areaName: string): SeriesCoverage {
    const first = s.values.findIndex((v) => !Number.isNaN(v));
    return {
      disease: s.disease,
      area: { code: s.area, name: areaName },
      adminLevel: s.level,
      source: s.source,
      subtype: s.subtype ?? null,
      resolution: s.resolution,
      period: periodDates(s.resolution, s.start + Math.max(0, first), lastReported(s)),
      maskedPeriods: maskedRuns(s),
    };
  }

  /**
   * What decides a series answer, without its texts (the map layer asks it for every province): the newest datum
   * used and its currency, the score, the status (no_recent_data when not current; raised to watch by news where
   * there is a rate) — or notCurrent when the score rests on a recent window and the series is not current.
   */
  private judge(snap: OutbreakSnapshot, s: CaseSeries, a: Assessment, areaName: string, country: string, timeframe: Timeframe, now: number) {
    const today = isoDay(now);
    const end = lastReported(s);
    const seriesAsOf = periodDates(s.resolution, end, end).to;
    const sb = this.burdenOf(snap, s, end, areaName);
    const b = sb.burden;
    // The newest datum used decides currency, on the cadence of the series holding it: the series' last report, or the
    // burden's period end when its cases (an alternate series) or WHO's estimate reach later.
    const burdenSeries = b === null ? null : sb.series;
    const burdenNewer = b !== null && b.period.to > seriesAsOf;
    const asOf = burdenNewer ? b.period.to : seriesAsOf;
    const cadence: Cadence = burdenNewer ? (burdenSeries === null ? "yearly" : cadenceOf(burdenSeries)) : cadenceOf(s);
    const currency: Currency = currencyOf(asOf, cadence, now);
    const firstOf = (x: CaseSeries) => {
      const first = x.start + Math.max(0, x.values.findIndex((v) => !Number.isNaN(v)));
      return periodDates(x.resolution, first, first).from;
    };
    const froms = [firstOf(s), ...(b === null ? [] : [burdenSeries === null ? b.period.from : firstOf(burdenSeries)])].sort();
    const period: Period = { from: froms[0], to: asOf };
    // A score on a recent window (COVID-19's 14 days; a channel score of a month or of days) says nothing without
    // current data; a yearly burden (or a yearly channel score) stands, labelled with its year.
    const scale = DISEASES[s.disease].scale;
    const recentScore = b !== null ? scale !== null && scale.periodDays < 365 : s.resolution !== "year";
    const items = newsAbout(snap, country, s.disease, today);
    const channelStatus: OutbreakStatus = currency.current ? a.status : "no_recent_data";
    const { newsDays, raisedBy } = newsRaise(channelStatus, items, b !== null, currency.current, today, timeframe);
    const status: OutbreakStatus = raisedBy ? "watch" : channelStatus;
    return { end, seriesAsOf, sb, asOf, cadence, currency, period, notCurrent: !currency.current && recentScore, items, channelStatus, newsDays, raisedBy, status, score: b ? b.score : a.score };
  }

  private seriesPart(snap: OutbreakSnapshot, s: CaseSeries, place: Place, q: OutbreakBody, now: number): Part | NotCurrent {
    const disease = s.disease;
    const admin1 = s.level === "admin-1";
    const p = place.province;
    const today = isoDay(now);
    const areaName = admin1 ? snap.data.provinces[snap.provinceIndex.get(s.area) ?? p].nameEn : place.countryName;
    const a = admin1 ? this.provinceAssessments(snap, disease, q.timeframe)[p]! : this.assessed(snap, s, q.timeframe);
    const j = this.judge(snap, s, a, areaName, place.country, q.timeframe, now);
    const { end, seriesAsOf, sb, asOf, cadence, currency, period, items, channelStatus, newsDays, raisedBy, status, score } = j;
    const b = sb.burden;
    const name = DISEASE_NAMES[disease];
    const label = windowLabel(a, s);
    const shortSource = s.source.split(" (")[0];
    const scale = DISEASES[disease].scale;
    const lastLabel = periodLabel(s, end);
    const lastText = `${shortSource} series of ${areaName} (${s.area}) last reports ${lastLabel}${lastLabel === seriesAsOf ? "" : ` (${seriesAsOf})`}${asOf !== seriesAsOf ? `, the rate's data ${asOf}` : ""}`;
    if (j.notCurrent) {
      const basisText = b !== null ? `the ${scale!.periodDays} days to the latest report` : `the endemic channel's ${q.timeframe} window to the latest report`;
      const message =
        `No current ${name} data for ${place.countryName} (${place.country}): the ${lastText}, ${currency.ageDays} days before ${today}; ` +
        `a ${cadence} series is current for ${currency.horizonDays} days, and the score rests on ${basisText}, so there is no score for now`;
      return {
        notCurrent: true,
        reason: `${disease}: ${message.slice(message.indexOf(": ") + 2)}`,
        asOf,
        error: new NotFoundError(message, { lat: q.lat, lng: q.lng, country: place.country, diseaseType: disease, series: { source: s.source, area: s.area, period, asOf }, currency }),
      };
    }
    const trend = currency.current ? a.trend : "unknown";
    const ageYears = Math.max(0, (now - Date.parse(seriesAsOf)) / YEAR_MS);
    const rateAgeYears = b ? Math.max(0, (now - Date.parse(b.period.to)) / YEAR_MS) : ageYears;
    const basis = admin1
      ? `admin-1: the ${shortSource} series of ${areaName} (${s.area}), the province holding the point`
      : `national: the ${shortSource} series of ${areaName}; ${place.province >= 0 ? `no ${name} series for the province holding the point` : "no admin-1 series the service can place a point in (province boundaries: Thailand only)"}`;
    const conf = outbreakConfidence({
      basis: admin1 ? "admin-1" : b !== null && b.cases === null ? "estimate" : "national",
      ageYears: rateAgeYears,
      sporadic: sb.sporadic,
      noRate: b === null,
      what: b !== null && b.cases === null ? "WHO's modelled estimate for the country" : `${admin1 ? "a province's" : "the country's"} ${shortSource} series`,
    });
    const what = s.subtype ?? name;
    const unit = s.subtype ? `${s.subtype} positives` : "cases";
    const coverage = [this.seriesCoverage(s, areaName)];
    const findings: string[] = [];
    const missing: string[] = [];
    const rateSpan = b === null ? "" : b.period.from.slice(0, 4) === b.period.to.slice(0, 4) && b.period.from.slice(5) === "01-01" && b.period.to.slice(5) === "12-31" ? b.period.from.slice(0, 4) : `${b.period.from.slice(0, 7)}..${b.period.to.slice(0, 7)}`;
    const burdenText = b
      ? `${name} in ${areaName}: ${b.rate} ${b.unit} (${b.period.from.slice(0, 7)}..${b.period.to.slice(0, 7)}${b.cases !== null ? `, ${fmt(b.cases)} cases, population ${fmt(b.population!)} in ${b.populationYear}` : ", WHO estimate"}): score ${score}, ${riskLevelOf(score)}${currency.current ? "" : `, the rate of ${rateSpan}`}.`
      : `${name} in ${areaName}: no rate per population (${sb.note}); the score ${score} is the endemic channel's${currency.current ? "" : ` for ${label}`}.`;
    const staleText = currency.current
      ? ""
      : ` No recent data: the ${lastText}, ${currency.ageDays} days before ${today}; a ${cadence} series is current for ${currency.horizonDays} days, so no status or trend for now.`;
    const newsText = raisedBy
      ? ` WHO Disease Outbreak News ${raisedBy.id} (${raisedBy.date}) on ${name} in ${place.countryName} within the ${newsDays === NEWS_YEAR_DAYS && !currency.current ? `${NEWS_YEAR_DAYS} days (the series is not current)` : q.timeframe} before ${today} raises the status from ${channelStatus} to watch.`
      : "";
    const countText = Number.isNaN(a.current)
      ? `No reported count for ${label} in ${s.source}.`
      : currency.current
        ? `${fmt(a.current)} ${unit} in ${label} (data as of ${seriesAsOf}), status ${a.status}: ${channelText(a, s)}.`
        : `Then, ${fmt(a.current)} ${unit} in ${label} put the endemic channel at ${a.status}: ${channelText(a, s)}.`;
    findings.push(`${burdenText}${staleText} ${countText}${newsText}`);
    if (sb.sporadicNote) findings.push(`${sb.sporadicNote}.`);
    if (!Number.isNaN(a.previous)) {
      findings.push(
        currency.current
          ? `Trend ${a.trend}: ${fmt(a.current)} ${unit} in ${a.window.from}..${a.window.to} against ${fmt(a.previous)} in ${a.previousWindow.from}..${a.previousWindow.to}.`
          : `Trend unknown (not current); the last two windows: ${fmt(a.current)} ${unit} in ${a.window.from}..${a.window.to} against ${fmt(a.previous)} in ${a.previousWindow.from}..${a.previousWindow.to}.`,
      );
    }
    const masked = maskedRuns(s);
    if (masked.length > 0) findings.push(`${s.source.split(",")[0]} reports 0 for ${masked.join(", ")}: reporting gaps, treated as missing (not zero ${what} cases).`);
    let activeClusters: number | null;
    let caseEstimate: number | null;
    let clusterText: string;
    const notCurrentClusters = `activeClusters: the series is not current (last report ${seriesAsOf}), so no area is active now`;
    if (admin1) {
      const all = this.provinceAssessments(snap, disease, q.timeframe);
      let inRadius = 0;
      let cases = 0;
      let counted = 0;
      const hot: string[] = [];
      snap.data.provinces.forEach((pr, i) => {
        const ai = all[i];
        if (ai === undefined || (i !== p && haversineKm(q.lat, q.lng, pr.lat, pr.lng) > CLUSTER_RADIUS_KM)) return;
        inRadius++;
        if (!Number.isNaN(ai.current)) {
          cases += ai.current;
          counted++;
        }
        if (ABOVE_THRESHOLD.has(ai.status)) hot.push(`${pr.nameEn} (${fmt(ai.current)}, p75 ${fmt(ai.channel.p75)})`);
      });
      activeClusters = currency.current ? hot.length : null;
      if (activeClusters === null) missing.push(notCurrentClusters);
      caseEstimate = counted === 0 ? null : Math.round(cases);
      if (caseEstimate === null) missing.push(`caseEstimate: no province within ${CLUSTER_RADIUS_KM} km reports a count for ${label}`);
      clusterText =
        `Within ${CLUSTER_RADIUS_KM} km: ${inRadius} provinces with ${fmt(cases)} cases in ${label}; ` +
        (hot.length === 0 ? "none above its 75th percentile." : `${hot.length} above their 75th percentile${currency.current ? "" : ` then`}: ${hot.join(", ")}.`);
      findings.push(clusterText);
      const national = snap.series.get(`${disease} ${place.country}`);
      if (national !== undefined) {
        const na = this.assessed(snap, national, q.timeframe);
        const nAsOf = periodDates(national.resolution, lastReported(national), lastReported(national)).to;
        const nCurrent = currencyOf(nAsOf, cadenceOf(national), now).current;
        findings.push(`Nationally ${fmt(na.current)} cases in ${windowLabel(na, national)} (as of ${nAsOf}), ${nCurrent ? `status ${na.status}, trend ${na.trend}` : `not current (the channel then said ${na.status})`} (${national.source}).`);
        coverage.push(this.seriesCoverage(national, place.countryName));
      }
    } else {
      caseEstimate = Number.isNaN(a.current) ? null : Math.round(a.current);
      if (caseEstimate === null) missing.push(`caseEstimate: ${s.source} has no count for ${areaName} in ${label}`);
      if (a.status === "insufficient_history") {
        activeClusters = null;
        missing.push(`activeClusters: fewer than 3 comparable baseline windows with data (${a.channel.n}), so no threshold to be above`);
        clusterText = `National series: ${areaName} is one area, with no endemic channel to compare it with.`;
      } else if (!currency.current) {
        activeClusters = null;
        missing.push(notCurrentClusters);
        clusterText = `National series: ${areaName} is one area; in ${label} it was ${ABOVE_THRESHOLD.has(a.status) ? "above" : "not above"} its 75th percentile.`;
      } else {
        activeClusters = ABOVE_THRESHOLD.has(a.status) ? 1 : 0;
        clusterText = `National series: ${areaName} is one area; ${activeClusters === 1 ? "it is above its 75th percentile" : "it is not above its 75th percentile"}.`;
      }
      findings.push(clusterText);
    }
    const news = newsOut(items);
    for (const n of news) findings.push(newsFinding(n));
    if (news.length === 0) findings.push(`No WHO Disease Outbreak News item about ${name} in ${place.countryName} up to ${snap.data.newsAsOf < today ? snap.data.newsAsOf : today}.`);
    const burdenSources = b === null ? [] : b.cases === null ? [snap.data.malariaIncidenceSource] : [admin1 ? snap.data.provincePopulationSource : snap.data.populationSource];
    const intelligence =
      `${burdenText}${staleText}${newsText} ` +
      `${name}: ${s.source} reports ${Number.isNaN(a.current) ? "no count" : fmt(a.current)} ${unit} in ${areaName} for ${label} (as of ${seriesAsOf}); ` +
      `${channelText(a, s)}, so the channel says ${a.status} (channel score ${a.score})${currency.current ? "" : " for that window, not for now"}. ` +
      (Number.isNaN(a.previous) ? "" : `The window before had ${fmt(a.previous)}, so the trend ${currency.current ? "is" : "was"} ${a.trend}. `) +
      clusterText +
      (news.length > 0 ? ` Latest WHO outbreak news: ${news.map((n) => `${n.id} (${n.date})`).join(", ")}.` : "");
    return {
      result: {
        diseaseType: disease,
        surveillance: "series",
        area: { code: s.area, name: areaName, level: s.level },
        asOf,
        period,
        currency,
        recent: currency.current || b === null ? { period: a.window } : null,
        window: a.window,
        previousWindow: a.previousWindow,
        casesInWindow: Number.isNaN(a.current) ? null : a.current,
        casesPreviousWindow: Number.isNaN(a.previous) ? null : a.previous,
        outbreakStatus: status,
        riskScore: score,
        trend,
        activeClusters,
        caseEstimate,
        channel:
          a.channel.n === 0
            ? null
            : {
                median: a.channel.median,
                p75: a.channel.p75,
                p90: a.channel.p90,
                baselineWindows: a.channel.n,
                baseline: a.channel.baseline,
                baselinePeriods: a.channel.ends.map((e) => {
                  const w = periodDates(s.resolution, e - windowPeriods(s.resolution, q.timeframe) + 1, e);
                  return `${w.from}..${w.to}`;
                }),
              },
        coverage: coverage[0],
        scoreBasis: b ? "burden" : "endemic channel",
        burden: b,
        burdenNote: sb.note,
        statusFromNews: raisedBy ? { id: raisedBy.id, date: raisedBy.date } : null,
        seriesAgeYears: r1(ageYears),
        importedCaveat: sb.sporadicNote,
        basis,
        ...conf,
      },
      findings,
      intelligence,
      sources: [s.source, ...burdenSources, ...(news.length > 0 ? [DON_SOURCE] : [])],
      news,
      series: coverage,
      missing,
      newsCount: items.length,
      newestNews: items[0]?.date ?? null,
    };
  }

  /** A disease without a count series for the country: WHO Disease Outbreak News only, never above low. */
  private newsOnly(snap: OutbreakSnapshot, disease: SurveilledDisease, place: Place, now: number): Part {
    const today = isoDay(now);
    const items = newsAbout(snap, place.country, disease, today);
    const news = newsOut(items);
    const newest = items[0];
    const name = DISEASE_NAMES[disease];
    const age = newest === undefined ? Infinity : daysBetween(newest.date, today);
    const score = age <= NEWS_RECENT_DAYS ? NEWS_ONLY_SCORES.recent : age <= NEWS_YEAR_DAYS ? NEWS_ONLY_SCORES.year : NEWS_ONLY_SCORES.older;
    const lastYear = items.filter((n) => daysBetween(n.date, today) <= NEWS_YEAR_DAYS).length;
    // The items are the data: they span the oldest to the newest item about the disease in the country; a DON item
    // speaks for about a season, so they are dated like a monthly series (current for 92 days).
    const asOf = newest?.date ?? today;
    const period: Period = { from: items.at(-1)?.date ?? asOf, to: asOf };
    const currency = currencyOf(asOf, "monthly", now);
    const first =
      `${name}: no count series for ${place.countryName} in the data (${seriesCoverageText(snap, disease)}), so this answer draws on WHO Disease Outbreak News only; ` +
      (newest === undefined
        ? `no item about ${name} in ${place.countryName} up to ${today}.`
        : `${items.length} item(s) about ${name} in ${place.countryName} from ${period.from} to ${period.to}, the newest ${newest.id} on ${newest.date} (${age} days before ${today}), ${lastYear} in the last ${NEWS_YEAR_DAYS} days. ` +
          `News alone gives no rate: score ${score}, low.`);
    const reason = `no ${name} count series for ${place.countryName}; WHO Disease Outbreak News only`;
    return {
      result: {
        diseaseType: disease,
        surveillance: "news_only",
        area: { code: place.country, name: place.countryName, level: "national" },
        asOf,
        period,
        currency,
        recent: null,
        window: null,
        previousWindow: null,
        casesInWindow: null,
        casesPreviousWindow: null,
        outbreakStatus: "news_only",
        riskScore: score,
        trend: "unknown",
        activeClusters: null,
        caseEstimate: null,
        channel: null,
        coverage: null,
        scoreBasis: "news",
        burden: null,
        burdenNote: reason,
        statusFromNews: null,
        seriesAgeYears: null,
        importedCaveat: null,
        basis: `news only: ${reason}`,
        ...outbreakConfidence({ basis: "news", ageYears: newest === undefined ? 0 : age / 365.25, sporadic: false, noRate: false, what: "WHO Disease Outbreak News items only, no count series" }),
      },
      findings: [first, ...news.map(newsFinding)],
      intelligence:
        `${first} News-only score: ${NEWS_ONLY_SCORES.recent} when the newest item is at most ${NEWS_RECENT_DAYS} days before today, ${NEWS_ONLY_SCORES.year} within ${NEWS_YEAR_DAYS} days, else ${NEWS_ONLY_SCORES.older}: ` +
        "an item says an outbreak was reported, not how many fall ill, so news alone never lifts the level above low.",
      sources: [DON_SOURCE],
      news,
      series: [],
      missing: [`caseEstimate: ${reason}`, `activeClusters: ${reason}`, "trend: no count series to compare windows of"],
      newsCount: items.length,
      newestNews: newest?.date ?? null,
    };
  }
}

export interface OutbreakServiceOptions {
  /** The geography to locate points with; default the process's shared one (lib/feed-risk/place.ts, built once). */
  geography?: Geography;
  /** The service clock ("today" for currency, ages and news windows); default clockNow (CLOCK_TODAY fixes it). */
  now?: () => Date;
}

/** Opens the outbreak snapshot store under ARTIFACTS_DIR/snapshots/outbreaks and its service. */
export async function openOutbreakService(
  artifactsDir: string,
  logger: Logger = log,
  options: OutbreakServiceOptions = {},
): Promise<{ service: SnapshotOutbreakService; store: ArtifactStore<OutbreakSnapshot> }> {
  const store = new ArtifactStore<OutbreakSnapshot>({
    root: snapshotRoot(artifactsDir, OUTBREAK_SNAPSHOT),
    open: openOutbreakSnapshot,
    openedFiles: new Set([OUTBREAK_DATA_FILE]),
    logger,
    kind: OUTBREAK_SNAPSHOT,
    label: "outbreak snapshot",
  });
  await store.reload();
  store.start();
  return { service: new SnapshotOutbreakService(store, options.geography ?? sharedGeography, options.now), store };
}
