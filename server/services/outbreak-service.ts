// Outbreak radar answers from the outbreak snapshot: point → province (province-index.bin), then per disease the
// endemic channel of the latest window (lib/outbreaks/endemic-channel.ts), clusters within CLUSTER_RADIUS_KM,
// and WHO Disease Outbreak News items. Texts are assembled from those numbers and items only. A point outside
// the 77 provinces is NotFoundError. Method: docs/methods/outbreaks.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NotFoundError } from "../errors.ts";
import { log, type Logger } from "../../lib/log.ts";
import type { Manifest } from "../../formats/manifest.ts";
import { OUTBREAK_DATA_FILE, OUTBREAK_INDEX_FILE, OUTBREAK_SNAPSHOT, readOutbreakData, type OutbreakData as SnapshotData } from "../../formats/outbreak-snapshot.ts";
import { ProvinceIndexReader } from "../../formats/province-index.ts";
import { assess, lastReported, periodDates, riskLevelOf, type Assessment, type OutbreakStatus, type Timeframe } from "../../lib/outbreaks/endemic-channel.ts";
import type { CaseSeries, SurveilledDisease } from "../../lib/outbreaks/series.ts";
import { DON_SOURCE, type NewsItem } from "../../lib/outbreaks/news.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import type { DiseaseResult, NewsItemOut, OutbreakBody, OutbreakData } from "../schemas-outbreak.ts";

/** Provinces whose centroid lies within this distance of the point count towards clusters and the case estimate. */
export const CLUSTER_RADIUS_KM = 100;
/** News-only score: the newest DON item about the disease in the country at most this many days before the news as-of date. */
export const NEWS_RECENT_DAYS = 90;
export const NEWS_YEAR_DAYS = 365;
const NEWS_SHOWN = 3;
const ABOVE_THRESHOLD: ReadonlySet<OutbreakStatus> = new Set(["warning", "alert"]);
const STATUS_RANK: Record<OutbreakStatus, number> = { news_only: 0, insufficient_history: 0, normal: 1, watch: 2, warning: 3, alert: 4 };
const DISEASE_NAMES: Record<string, string> = { dengue: "Dengue", influenza: "Influenza", covid: "COVID-19", cholera: "Cholera", malaria: "Malaria" };
const SURVEILLED: readonly SurveilledDisease[] = ["dengue", "malaria", "cholera", "covid"];

export interface OutbreakSnapshot {
  data: SnapshotData;
  index: ProvinceIndexReader;
  /** "dengue TH-10" → series. */
  series: Map<string, CaseSeries>;
  /** Assessments of every province's dengue series per timeframe, computed once per version. */
  provinceCache: Map<Timeframe, (Assessment | undefined)[]>;
}

export function openOutbreakSnapshot(dir: string, _manifest?: Manifest): OutbreakSnapshot {
  const data = readOutbreakData(readFileSync(join(dir, OUTBREAK_DATA_FILE), "utf8"), join(dir, OUTBREAK_DATA_FILE));
  const index = new ProvinceIndexReader(new Uint8Array(readFileSync(join(dir, OUTBREAK_INDEX_FILE))), join(dir, OUTBREAK_INDEX_FILE));
  if (index.nProvinces !== data.provinces.length) {
    throw new Error(`${dir}: province index has ${index.nProvinces} provinces, ${OUTBREAK_DATA_FILE} ${data.provinces.length}`);
  }
  const series = new Map(data.series.map((s) => [`${s.disease} ${s.area}`, s]));
  return { data, index, series, provinceCache: new Map() };
}

export interface OutbreakService {
  query(q: OutbreakBody): OutbreakData;
  dataVersion(): string;
}

/** Great-circle distance, km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

function windowLabel(a: Assessment, s: CaseSeries): string {
  if (s.resolution === "month") return a.window.from.slice(0, 7) === a.window.to.slice(0, 7) ? a.window.from.slice(0, 7) : `${a.window.from.slice(0, 7)}..${a.window.to.slice(0, 7)}`;
  if (s.resolution === "year") return a.window.from.slice(0, 4);
  return `${a.window.from}..${a.window.to}`;
}

function channelText(a: Assessment, s: CaseSeries): string {
  const c = a.channel;
  if (c.n < 3) return `fewer than 3 comparable baseline windows (${c.n}), so no endemic channel`;
  const what = c.baseline === "seasonal" ? `the same ${s.resolution === "year" ? "period" : "calendar window"} in ${c.n} previous years` : `the ${c.n} windows just before`;
  return `endemic channel from ${what}: median ${fmt(c.median)}, 75th percentile ${fmt(c.p75)}, 90th percentile ${fmt(c.p90)}`;
}

function newsOut(items: readonly NewsItem[]): NewsItemOut[] {
  return items.slice(0, NEWS_SHOWN).map((n) => ({ id: n.id, date: n.date, disease: n.disease, title: `${n.diseaseName} (${n.country})`, link: n.link, source: "WHO Disease Outbreak News" }));
}

function newsFinding(n: NewsItemOut): string {
  return `${n.date}: WHO Disease Outbreak News ${n.id} on ${n.title}, ${n.link}`;
}

interface Part {
  result: DiseaseResult;
  findings: string[];
  intelligence: string;
  sources: string[];
  news: NewsItemOut[];
}

export class SnapshotOutbreakService implements OutbreakService {
  constructor(
    private readonly store: ArtifactStore<OutbreakSnapshot>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  query(q: OutbreakBody): OutbreakData {
    const snap = this.store.require().data;
    const p = snap.index.provinceAt(q.lat, q.lng);
    if (p < 0) {
      throw new NotFoundError("No surveillance data for this location: the outbreak radar covers Thailand's 77 provinces", { lat: q.lat, lng: q.lng });
    }
    const province = snap.data.provinces[p];
    const diseases = q.diseaseType === "general" ? [...SURVEILLED, "influenza" as const] : [q.diseaseType];
    // general skips a disease the snapshot has no series for; a single disease without one is a 404.
    const parts = diseases.flatMap((d) => {
      if (d === "influenza") return [this.newsOnly(snap, d)];
      try {
        return [this.surveilled(snap, d, p, q)];
      } catch (err) {
        if (q.diseaseType === "general" && err instanceof NotFoundError) return [];
        throw err;
      }
    });
    const scored = parts.filter((x) => x.result.surveillance === "series");
    if (scored.length === 0 && q.diseaseType === "general") {
      throw new NotFoundError("No surveillance data for this location", { lat: q.lat, lng: q.lng });
    }
    // general: the worst surveilled disease leads (highest score, then status rank); counts add up over diseases.
    const lead = q.diseaseType === "general"
      ? scored.reduce((a, b) => (b.result.riskScore > a.result.riskScore || (b.result.riskScore === a.result.riskScore && STATUS_RANK[b.result.outbreakStatus] > STATUS_RANK[a.result.outbreakStatus]) ? b : a))
      : parts[0];
    const sum = (f: (r: DiseaseResult) => number | null) => {
      const vals = parts.map((x) => f(x.result)).filter((v): v is number => v !== null);
      return vals.length === 0 ? null : vals.reduce((a, b) => a + b, 0);
    };
    // general: the newest as-of among the surveillance series (each disease's own date is in details.diseases).
    const asOf = (scored.length > 0 ? scored : parts).map((x) => x.result.asOf).sort().at(-1) as string;
    const r = lead.result;
    const name = q.diseaseType === "general" ? "All monitored diseases" : DISEASE_NAMES[q.diseaseType];
    const summary =
      q.diseaseType === "general"
        ? `${name} near ${province.nameEn}: highest risk ${DISEASE_NAMES[r.diseaseType]} (${r.outbreakStatus}, score ${r.riskScore}); ` +
          parts.filter((x) => x.result.surveillance === "series").map((x) => `${DISEASE_NAMES[x.result.diseaseType]} ${x.result.outbreakStatus} as of ${x.result.asOf}`).join(", ") +
          "; influenza from outbreak news only."
        : (lead.findings[0] ?? "");
    const news = parts.flatMap((x) => x.news).sort((a, b) => (a.date < b.date ? 1 : -1)).slice(0, q.diseaseType === "general" ? 5 : NEWS_SHOWN);
    return {
      location: { lat: q.lat, lng: q.lng },
      province: { code: province.code, name: province.nameEn },
      diseaseType: q.diseaseType,
      timeframe: q.timeframe,
      asOf,
      riskScore: r.riskScore,
      riskLevel: riskLevelOf(r.riskScore),
      outbreakStatus: r.outbreakStatus,
      activeClusters: q.diseaseType === "general" ? sum((x) => x.activeClusters) : r.activeClusters,
      caseEstimate: q.diseaseType === "general" ? sum((x) => x.caseEstimate) : r.caseEstimate,
      trend: r.trend,
      summary,
      details: {
        intelligence: parts.map((x) => x.intelligence).join(" "),
        keyFindings: q.diseaseType === "general" ? parts.map((x) => x.findings[0]) : lead.findings,
        surveillance: q.diseaseType === "influenza" ? "news_only" : "series",
        clusterRadiusKm: CLUSTER_RADIUS_KM,
        diseases: parts.map((x) => x.result),
        news,
      },
      dataSources: [...new Set(parts.flatMap((x) => x.sources))],
      timestamp: this.now().toISOString(),
    };
  }

  private provinceAssessments(snap: OutbreakSnapshot, timeframe: Timeframe): (Assessment | undefined)[] {
    let list = snap.provinceCache.get(timeframe);
    if (list === undefined) {
      list = snap.data.provinces.map((pr) => {
        const s = snap.series.get(`dengue ${pr.code}`);
        return s === undefined ? undefined : assess(s, timeframe);
      });
      snap.provinceCache.set(timeframe, list);
    }
    return list;
  }

  private surveilled(snap: OutbreakSnapshot, disease: SurveilledDisease, p: number, q: OutbreakBody): Part {
    const province = snap.data.provinces[p];
    const provinceSeries = snap.series.get(`${disease} ${province.code}`);
    const s = provinceSeries ?? snap.series.get(`${disease} THA`);
    if (s === undefined) throw new NotFoundError(`No ${DISEASE_NAMES[disease]} surveillance data for this location`, { lat: q.lat, lng: q.lng });
    const level = provinceSeries ? "province" : "country";
    const areaName = provinceSeries ? province.nameEn : "Thailand";
    const a = provinceSeries ? this.provinceAssessments(snap, q.timeframe)[p]! : assess(s, q.timeframe);
    const asOf = periodDates(s.resolution, lastReported(s), lastReported(s)).to;
    const label = windowLabel(a, s);
    const findings: string[] = [];
    const name = DISEASE_NAMES[disease];
    findings.push(
      Number.isNaN(a.current)
        ? `${name} in ${areaName}: no reported count for ${label}.`
        : `${name} in ${areaName}: ${fmt(a.current)} cases in ${label} (data as of ${asOf}), status ${a.status}: ${channelText(a, s)}.`,
    );
    if (!Number.isNaN(a.previous)) {
      findings.push(`Trend ${a.trend}: ${fmt(a.current)} cases in ${a.window.from}..${a.window.to} against ${fmt(a.previous)} in ${a.previousWindow.from}..${a.previousWindow.to}.`);
    }
    let activeClusters: number;
    let caseEstimate: number;
    let clusterText: string;
    if (level === "province") {
      const all = this.provinceAssessments(snap, q.timeframe);
      let inRadius = 0;
      let cases = 0;
      const hot: string[] = [];
      snap.data.provinces.forEach((pr, i) => {
        const ai = all[i];
        if (ai === undefined || (i !== p && haversineKm(q.lat, q.lng, pr.lat, pr.lng) > CLUSTER_RADIUS_KM)) return;
        inRadius++;
        if (!Number.isNaN(ai.current)) cases += ai.current;
        if (ABOVE_THRESHOLD.has(ai.status)) hot.push(`${pr.nameEn} (${fmt(ai.current)}, p75 ${fmt(ai.channel.p75)})`);
      });
      activeClusters = hot.length;
      caseEstimate = Math.round(cases);
      clusterText =
        `Within ${CLUSTER_RADIUS_KM} km: ${inRadius} provinces with ${fmt(cases)} cases in ${label}; ` +
        (hot.length === 0 ? "none above its 75th percentile." : `${hot.length} above their 75th percentile: ${hot.join(", ")}.`);
      findings.push(clusterText);
      const national = snap.series.get(`${disease} THA`);
      if (national !== undefined) {
        const na = assess(national, q.timeframe);
        const nAsOf = periodDates(national.resolution, lastReported(national), lastReported(national)).to;
        findings.push(`Nationally ${fmt(na.current)} cases in ${windowLabel(na, national)} (as of ${nAsOf}), status ${na.status}, trend ${na.trend} (${national.source}).`);
      }
    } else {
      activeClusters = ABOVE_THRESHOLD.has(a.status) ? 1 : 0;
      caseEstimate = Number.isNaN(a.current) ? 0 : Math.round(a.current);
      clusterText = `Country-level series: the whole of Thailand is one area; ${activeClusters === 1 ? "it is above its 75th percentile" : "it is not above its 75th percentile"}.`;
      findings.push(clusterText);
    }
    const items = snap.data.news.filter((n) => n.disease === disease);
    const news = newsOut(items);
    for (const n of news) findings.push(newsFinding(n));
    if (news.length === 0) findings.push(`No WHO Disease Outbreak News item about ${name} in Thailand up to ${snap.data.newsAsOf}.`);
    const intelligence =
      `${name}: ${s.source} reports ${Number.isNaN(a.current) ? "no count" : fmt(a.current)} cases in ${areaName} for ${label} (as of ${asOf}); ` +
      `${channelText(a, s)}, so the status is ${a.status} (score ${a.score}). ` +
      (Number.isNaN(a.previous) ? "" : `The window before had ${fmt(a.previous)} cases, so the trend is ${a.trend}. `) +
      clusterText +
      (news.length > 0 ? ` Latest WHO outbreak news: ${news.map((n) => `${n.id} (${n.date})`).join(", ")}.` : "");
    return {
      result: {
        diseaseType: disease,
        surveillance: "series",
        area: { code: provinceSeries ? province.code : "THA", name: areaName, level },
        asOf,
        window: a.window,
        previousWindow: a.previousWindow,
        casesInWindow: Number.isNaN(a.current) ? null : a.current,
        casesPreviousWindow: Number.isNaN(a.previous) ? null : a.previous,
        outbreakStatus: a.status,
        riskScore: a.score,
        trend: a.trend,
        activeClusters,
        caseEstimate,
        channel: a.channel.n === 0 ? null : { median: a.channel.median, p75: a.channel.p75, p90: a.channel.p90, baselineWindows: a.channel.n, baseline: a.channel.baseline },
      },
      findings,
      intelligence,
      sources: [s.source, ...(news.length > 0 ? [DON_SOURCE] : [])],
      news,
    };
  }

  /** Influenza: no surveillance series exists in the data, only WHO Disease Outbreak News. */
  private newsOnly(snap: OutbreakSnapshot, disease: "influenza"): Part {
    const items = snap.data.news.filter((n) => n.disease === disease);
    const news = newsOut(items);
    const newest = items[0];
    const age = newest === undefined ? Infinity : daysBetween(newest.date, snap.data.newsAsOf);
    const score = age <= NEWS_RECENT_DAYS ? 60 : age <= NEWS_YEAR_DAYS ? 30 : 0;
    const lastYear = items.filter((n) => daysBetween(n.date, snap.data.newsAsOf) <= NEWS_YEAR_DAYS).length;
    const first =
      `Influenza: no surveillance case series exists in the data (no FluNet), so this answer draws on WHO Disease Outbreak News only; ` +
      (newest === undefined
        ? `no item about influenza in Thailand up to ${snap.data.newsAsOf}.`
        : `${items.length} items about influenza in Thailand up to ${snap.data.newsAsOf}, the newest ${newest.id} on ${newest.date} (${age} days before), ${lastYear} in the last ${NEWS_YEAR_DAYS} days.`);
    const findings = [first, ...news.map(newsFinding)];
    return {
      result: {
        diseaseType: disease,
        surveillance: "news_only",
        area: { code: "THA", name: "Thailand", level: "country" },
        asOf: snap.data.newsAsOf,
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
      },
      findings,
      intelligence: `${first} News-only score ${score}: 60 when the newest item is at most ${NEWS_RECENT_DAYS} days old, 30 within ${NEWS_YEAR_DAYS} days, else 0.`,
      sources: [DON_SOURCE],
      news,
    };
  }
}

/** Opens the outbreak snapshot store under ARTIFACTS_DIR/snapshots/outbreaks and its service. */
export async function openOutbreakService(artifactsDir: string, logger: Logger = log): Promise<{ service: SnapshotOutbreakService; store: ArtifactStore<OutbreakSnapshot> }> {
  const store = new ArtifactStore<OutbreakSnapshot>({
    root: snapshotRoot(artifactsDir, OUTBREAK_SNAPSHOT),
    open: openOutbreakSnapshot,
    logger,
    label: "outbreak snapshot",
  });
  await store.reload();
  store.start();
  return { service: new SnapshotOutbreakService(store), store };
}
