// One disease's part of an outbreak answer at a place, shaped from its assessment: result, findings, texts, news.
import { NotFoundError } from "../errors.ts";
import { periodDates, riskLevelOf, windowPeriods, lastReported } from "../../lib/outbreaks/endemic-channel.ts";
import type { CaseSeries, SurveilledDisease } from "../../lib/outbreaks/series.ts";
import { DON_SOURCE } from "../../lib/outbreaks/news.ts";
import { DISEASES } from "../../lib/outbreaks/diseases/index.ts";
import { outbreakConfidence } from "../../lib/outbreaks/confidence.ts";
import { isoDay } from "../../lib/days.ts";
import { r1 } from "../../lib/round.ts";
import type { OutbreakSnapshot } from "../data/outbreak-snapshot.ts";
import type { DiseaseResult, NewsItemOut, OutbreakBody } from "../schemas-outbreak.ts";
import { ABOVE_THRESHOLD, assessSeriesAt, CLUSTER_RADIUS_KM, NEWS_ONLY_SCORES, NEWS_RECENT_DAYS, NEWS_YEAR_DAYS, nationalBeside, newsAbout, newsOnlyAssessment, provinceClusters } from "./outbreak-assessment.ts";
import type { Place } from "./outbreak-place.ts";
import { channelText, DISEASE_NAMES, fmt, maskedRuns, newsFinding, newsOut, periodLabel, seriesCoverageText, windowLabel } from "./outbreak-text.ts";

type SeriesCoverage = DiseaseResult["coverage"] & object;

export interface Part {
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

/** A disease whose answer at a place cannot be given because its score rests on a recent window and the series is not current. */
export interface NotCurrent {
  notCurrent: true;
  /** "covid: …" for a general answer's notCovered. */
  reason: string;
  error: NotFoundError;
  /** Newest datum of the series. */
  asOf: string;
}

export const isNotCurrent = (x: unknown): x is NotCurrent => typeof x === "object" && x !== null && "notCurrent" in x;

/** "disease: why there is no data": the country has neither a series nor news for the disease. */
export function noDataReason(snap: OutbreakSnapshot, d: SurveilledDisease, place: Place): string {
  const covered = snap.coverage.get(d)!.countries.length > 0;
  return `${d}: ${seriesCoverageText(snap, d)}${covered ? ", not this one," : ""} and WHO Disease Outbreak News has no item about ${DISEASE_NAMES[d]} in ${place.countryName} up to ${snap.data.newsAsOf}`;
}

/** 404 for one disease the country has neither a series nor news for; names what the data cover. */
export function notCoveredError(snap: OutbreakSnapshot, d: SurveilledDisease, place: Place, q: OutbreakBody, reason: string): NotFoundError {
  const cov = snap.coverage.get(d)!;
  return new NotFoundError(`No ${DISEASE_NAMES[d]} data for ${place.countryName} (${place.country}): ${reason.slice(reason.indexOf(":") + 2)}`, {
    lat: q.lat,
    lng: q.lng,
    country: place.country,
    diseaseType: d,
    coverage: { series: { sources: cov.sources, countries: cov.countries }, news: { source: DON_SOURCE, asOf: snap.data.newsAsOf, items: 0 } },
  });
}

function seriesCoverage(s: CaseSeries, areaName: string): SeriesCoverage {
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

/** The part of a disease answered by a count series (the province's or the country's). */
export function seriesPart(snap: OutbreakSnapshot, s: CaseSeries, place: Place, q: OutbreakBody, now: number): Part | NotCurrent {
  const disease = s.disease;
  const today = isoDay(now);
  const { admin1, areaName, a, j, trend, ageYears, rateAgeYears } = assessSeriesAt(snap, s, place, q.timeframe, now);
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
  const coverage = [seriesCoverage(s, areaName)];
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
    const around = provinceClusters(snap, disease, q.timeframe, q.lat, q.lng, place.province);
    const hot = around.hot.map((h) => `${h.name} (${fmt(h.current)}, p75 ${fmt(h.p75)})`);
    activeClusters = currency.current ? hot.length : null;
    if (activeClusters === null) missing.push(notCurrentClusters);
    caseEstimate = around.caseEstimate;
    if (caseEstimate === null) missing.push(`caseEstimate: no province within ${CLUSTER_RADIUS_KM} km reports a count for ${label}`);
    clusterText =
      `Within ${CLUSTER_RADIUS_KM} km: ${around.inRadius} provinces with ${fmt(around.cases)} cases in ${label}; ` +
      (hot.length === 0 ? "none above its 75th percentile." : `${hot.length} above their 75th percentile${currency.current ? "" : ` then`}: ${hot.join(", ")}.`);
    findings.push(clusterText);
    const national = nationalBeside(snap, disease, place.country, q.timeframe, now);
    if (national !== undefined) {
      const na = national.a;
      findings.push(
        `Nationally ${fmt(na.current)} cases in ${windowLabel(na, national.series)} (as of ${national.asOf}), ${national.current ? `status ${na.status}, trend ${na.trend}` : `not current (the channel then said ${na.status})`} (${national.series.source}).`,
      );
      coverage.push(seriesCoverage(national.series, place.countryName));
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
export function newsOnlyPart(snap: OutbreakSnapshot, disease: SurveilledDisease, place: Place, now: number): Part {
  const today = isoDay(now);
  const items = newsAbout(snap, place.country, disease, today);
  const news = newsOut(items);
  const { newest, age, score, lastYear, asOf, period, currency } = newsOnlyAssessment(items, now);
  const name = DISEASE_NAMES[disease];
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
