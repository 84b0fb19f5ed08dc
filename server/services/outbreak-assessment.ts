// The outbreak assessment per disease and area (channel, burden, currency, status, score): numbers only, no words.
import { assess, lastReported, periodDates, type Assessment, type OutbreakStatus, type Timeframe } from "../../lib/outbreaks/endemic-channel.ts";
import type { CaseSeries, SurveilledDisease } from "../../lib/outbreaks/series.ts";
import { newsWithin, type NewsItem } from "../../lib/outbreaks/news.ts";
import { DISEASES } from "../../lib/outbreaks/diseases/index.ts";
import { seriesBurden, type SeriesBurden } from "../../lib/outbreaks/series-burden.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { currencyOf, type Cadence, type Currency, type Period } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import type { OutbreakSnapshot } from "../data/outbreak-snapshot.ts";
import type { Place } from "./outbreak-place.ts";

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
/** Statuses that make an area an active cluster. */
export const ABOVE_THRESHOLD: ReadonlySet<OutbreakStatus> = new Set(["warning", "alert"]);
const YEAR_MS = 365.25 * 86_400_000;
/** Statuses a WHO DON item within the timeframe raises to "watch" (only where the answer has a rate). */
const RAISED_BY_NEWS: ReadonlySet<OutbreakStatus> = new Set(["normal", "insufficient_history", "no_recent_data"]);

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

const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** DON items about `d` in the country dated up to today (a clock set in the past sees no later item), newest first. */
export function newsAbout(snap: OutbreakSnapshot, country: string, d: SurveilledDisease, today: string): NewsItem[] {
  return (snap.newsByCountry.get(country) ?? []).filter((n) => n.disease === d && n.date <= today);
}

/** The endemic channel's assessment of a series, once per snapshot version and timeframe. */
export function assessed(snap: OutbreakSnapshot, s: CaseSeries, timeframe: Timeframe): Assessment {
  const key = `${s.disease} ${s.area} ${timeframe}`;
  let a = snap.assessments.get(key);
  if (a === undefined) snap.assessments.set(key, (a = assess(s, timeframe)));
  return a;
}

/** The assessment of every province's series (undefined where a province has none), once per version and timeframe. */
export function provinceAssessments(snap: OutbreakSnapshot, disease: SurveilledDisease, timeframe: Timeframe): (Assessment | undefined)[] {
  const key = `${disease} ${timeframe}`;
  let list = snap.provinceCache.get(key);
  if (list === undefined) {
    list = snap.data.provinces.map((pr) => {
      const s = snap.series.get(`${disease} ${pr.code}`);
      return s === undefined ? undefined : assessed(snap, s, timeframe);
    });
    snap.provinceCache.set(key, list);
  }
  return list;
}

/**
 * The series' burden, once per version (it does not depend on the timeframe): from the series, or from the
 * country's series at the other resolution where that gives a rate for a later period (Seychelles: its months to
 * 2025-03 are too few for 12, its year 2024 is whole).
 */
function burdenOf(snap: OutbreakSnapshot, s: CaseSeries, end: number, areaName: string): SeriesBurden {
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

/**
 * What decides a series answer, without its texts (the map layer asks it for every province): the newest datum
 * used and its currency, the score, the status (no_recent_data when not current; raised to watch by news where
 * there is a rate) — or notCurrent when the score rests on a recent window and the series is not current.
 */
export function judge(snap: OutbreakSnapshot, s: CaseSeries, a: Assessment, areaName: string, country: string, timeframe: Timeframe, now: number) {
  const today = isoDay(now);
  const end = lastReported(s);
  const seriesAsOf = periodDates(s.resolution, end, end).to;
  const sb = burdenOf(snap, s, end, areaName);
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

/** A series assessed for a place: the area it covers, its channel assessment and judgement, the trend and ages. */
export function assessSeriesAt(snap: OutbreakSnapshot, s: CaseSeries, place: Place, timeframe: Timeframe, now: number) {
  const admin1 = s.level === "admin-1";
  const areaName = admin1 ? snap.data.provinces[snap.provinceIndex.get(s.area) ?? place.province].nameEn : place.countryName;
  const a = admin1 ? provinceAssessments(snap, s.disease, timeframe)[place.province]! : assessed(snap, s, timeframe);
  const j = judge(snap, s, a, areaName, place.country, timeframe, now);
  const b = j.sb.burden;
  const trend = j.currency.current ? a.trend : "unknown";
  const ageYears = Math.max(0, (now - Date.parse(j.seriesAsOf)) / YEAR_MS);
  const rateAgeYears = b ? Math.max(0, (now - Date.parse(b.period.to)) / YEAR_MS) : ageYears;
  return { admin1, areaName, a, j, trend, ageYears, rateAgeYears };
}

/** The provinces within CLUSTER_RADIUS_KM of a point (and the point's own): how many, their cases, those above p75. */
export function provinceClusters(snap: OutbreakSnapshot, disease: SurveilledDisease, timeframe: Timeframe, lat: number, lng: number, province: number) {
  const all = provinceAssessments(snap, disease, timeframe);
  let inRadius = 0;
  let cases = 0;
  let counted = 0;
  const hot: { name: string; current: number; p75: number }[] = [];
  snap.data.provinces.forEach((pr, i) => {
    const ai = all[i];
    if (ai === undefined || (i !== province && haversineKm(lat, lng, pr.lat, pr.lng) > CLUSTER_RADIUS_KM)) return;
    inRadius++;
    if (!Number.isNaN(ai.current)) {
      cases += ai.current;
      counted++;
    }
    if (ABOVE_THRESHOLD.has(ai.status)) hot.push({ name: pr.nameEn, current: ai.current, p75: ai.channel.p75 });
  });
  return { inRadius, cases, caseEstimate: counted === 0 ? null : Math.round(cases), hot };
}

/** The country's national series beside a province answer: its assessment, newest datum and whether that is current. */
export function nationalBeside(snap: OutbreakSnapshot, disease: SurveilledDisease, country: string, timeframe: Timeframe, now: number) {
  const national = snap.series.get(`${disease} ${country}`);
  if (national === undefined) return undefined;
  const a = assessed(snap, national, timeframe);
  const asOf = periodDates(national.resolution, lastReported(national), lastReported(national)).to;
  return { series: national, a, asOf, current: currencyOf(asOf, cadenceOf(national), now).current };
}

/**
 * The news-only score of a disease in a country from its DON items (newest first): by the newest item's age. The
 * items are the data: they span the oldest to the newest item; a DON item speaks for about a season, so they are
 * dated like a monthly series (current for 92 days).
 */
export function newsOnlyAssessment(items: readonly NewsItem[], now: number) {
  const today = isoDay(now);
  const newest = items[0] as NewsItem | undefined;
  const age = newest === undefined ? Infinity : daysBetween(newest.date, today);
  const score = age <= NEWS_RECENT_DAYS ? NEWS_ONLY_SCORES.recent : age <= NEWS_YEAR_DAYS ? NEWS_ONLY_SCORES.year : NEWS_ONLY_SCORES.older;
  const lastYear = items.filter((n) => daysBetween(n.date, today) <= NEWS_YEAR_DAYS).length;
  const asOf = newest?.date ?? today;
  const period: Period = { from: items.at(-1)?.date ?? asOf, to: asOf };
  return { newest, age, score, lastYear, asOf, period, currency: currencyOf(asOf, "monthly", now) };
}
