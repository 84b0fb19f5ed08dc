// The outbreak answers' shape: a query's answer from its diseases' parts, and the map layer's status list.
import { NotFoundError } from "../errors.ts";
import { riskLevelOf, type OutbreakStatus, type Timeframe } from "../../lib/outbreaks/endemic-channel.ts";
import type { AdminLevel, SurveilledDisease } from "../../lib/outbreaks/series.ts";
import { DON_SOURCE } from "../../lib/outbreaks/news.ts";
import { isoNumericOf } from "../../lib/geo/geography.ts";
import type { OutbreakSnapshot } from "../data/outbreak-snapshot.ts";
import type { DiseaseResult, OutbreakBody, OutbreakData, OutbreakStatusData } from "../schemas-outbreak.ts";
import { CLUSTER_RADIUS_KM, judge, provinceAssessments } from "./outbreak-assessment.ts";
import type { NotCurrent, Part } from "./outbreak-part.ts";
import type { Place } from "./outbreak-place.ts";
import { DISEASE_NAMES, NEWS_SHOWN } from "./outbreak-text.ts";

const STATUS_RANK: Record<OutbreakStatus, number> = { news_only: 0, insufficient_history: 0, no_recent_data: 0, normal: 1, watch: 2, warning: 3, alert: 4 };

/** What a query gathered per disease: the parts answered, "disease: reason" of the others, the diseases without current data. */
export interface Gathered {
  parts: Part[];
  notCovered: string[];
  notCurrent: string[];
}

/**
 * The answer to a query from its diseases' parts; 404 when there is none (or, for a general answer, only news-only
 * parts without news). `coastalToleranceKm` names how far around an offshore point land was looked for.
 */
export function queryAnswer(snap: OutbreakSnapshot, place: Place, q: OutbreakBody, diseases: readonly SurveilledDisease[], gathered: Gathered, coastalToleranceKm: number, now: Date): OutbreakData {
  const { parts, notCovered, notCurrent } = gathered;
  const general = q.diseaseType === "general";
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
    (place.nearCoast ? `, the country of the land ${coastalToleranceKm} km around the point, which lies ${place.nearCoast.distanceKm} km off the coast` : "") +
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
    timestamp: now.toISOString(),
  };
}

/** The countries the status list considers for a disease: those with a national series or a DON item about it, sorted. */
export function statusCountries(snap: OutbreakSnapshot, d: SurveilledDisease): string[] {
  const codes = new Set(snap.coverage.get(d)!.countries);
  for (const [iso3, items] of snap.newsByCountry) if (items.some((n) => n.disease === d)) codes.add(iso3);
  return [...codes].sort();
}

/** A country's row of the status list, from its part as the query answers for a point in it. */
export function countryStatus(code: string, part: Part): OutbreakStatusData["countries"][number] {
  const r = part.result;
  return {
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
  };
}

/** A country's row of the status list's notCurrent. */
export function countryNotCurrent(code: string, name: string, part: NotCurrent): OutbreakStatusData["notCurrent"][number] {
  return { code, name, asOf: part.asOf, reason: part.error.message };
}

/** The status list's rows of the Thai provinces with a series of the disease, judged as the query answers for a point there. */
export function provinceStatuses(snap: OutbreakSnapshot, d: SurveilledDisease, timeframe: Timeframe, now: number): OutbreakStatusData["provinces"] {
  const provinces: OutbreakStatusData["provinces"] = [];
  if (snap.data.provinces.some((pr) => snap.series.has(`${d} ${pr.code}`))) {
    provinceAssessments(snap, d, timeframe).forEach((a, i) => {
      const pr = snap.data.provinces[i];
      const s = snap.series.get(`${d} ${pr.code}`);
      if (a === undefined || s === undefined) return;
      // As the query answers for a point in the province (the same judgement, without the texts).
      const j = judge(snap, s, a, pr.nameEn, "THA", timeframe, now);
      if (j.notCurrent) return;
      provinces.push({ code: pr.code, name: pr.nameEn, outbreakStatus: j.status, riskScore: j.score, riskLevel: riskLevelOf(j.score), asOf: j.asOf, current: j.currency.current, source: s.source });
    });
  }
  return provinces;
}
