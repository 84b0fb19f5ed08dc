// The outbreak answers' words: labels of windows and periods, the endemic channel in a sentence, news items as
// findings, what the data cover. Assembled from the numbers and the news items only (docs/methods/outbreaks.md).
import { periodDates, type Assessment } from "../../lib/outbreaks/endemic-channel.ts";
import type { CaseSeries, SurveilledDisease } from "../../lib/outbreaks/series.ts";
import type { NewsItem } from "../../lib/outbreaks/news.ts";
import { DISEASES } from "../../lib/outbreaks/diseases/index.ts";
import type { NewsItemOut } from "../schemas-outbreak.ts";
import type { OutbreakSnapshot } from "../data/outbreak-snapshot.ts";

/** News items shown in an answer. */
export const NEWS_SHOWN = 3;
export const DISEASE_NAMES = Object.fromEntries(Object.values(DISEASES).map((d) => [d.disease, d.name])) as Record<SurveilledDisease, string>;

/** Whole number with thousands separators ("1,246"); faster than toLocaleString on the hot path. */
export const fmt = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

export function windowLabel(a: Assessment, s: CaseSeries): string {
  if (s.resolution === "month") return a.window.from.slice(0, 7) === a.window.to.slice(0, 7) ? a.window.from.slice(0, 7) : `${a.window.from.slice(0, 7)}..${a.window.to.slice(0, 7)}`;
  if (s.resolution === "year") return a.window.from.slice(0, 4);
  return `${a.window.from}..${a.window.to}`;
}

export function periodLabel(s: CaseSeries, p: number): string {
  const d = periodDates(s.resolution, p, p);
  return s.resolution === "month" ? d.from.slice(0, 7) : s.resolution === "year" ? d.from.slice(0, 4) : d.from;
}

/** The series' masked periods as runs ("2020-05..2020-08"). */
export function maskedRuns(s: CaseSeries): string[] {
  const m = s.maskedPeriods ?? [];
  const runs: string[] = [];
  for (let i = 0; i < m.length; ) {
    let j = i;
    while (j + 1 < m.length && m[j + 1] === m[j] + 1) j++;
    runs.push(i === j ? periodLabel(s, m[i]) : `${periodLabel(s, m[i])}..${periodLabel(s, m[j])}`);
    i = j + 1;
  }
  return runs;
}

export function channelText(a: Assessment, s: CaseSeries): string {
  const c = a.channel;
  if (c.n < 3) return `fewer than 3 comparable baseline windows with data (${c.n}), so no endemic channel`;
  const what =
    c.baseline === "seasonal"
      ? `the same ${s.resolution === "year" ? "period" : "calendar window"} in ${c.n} previous years (${c.ends.map((e) => periodLabel(s, e).slice(0, 4)).join(", ")})`
      : `the ${c.n} windows just before`;
  return `endemic channel from ${what}: median ${fmt(c.median)}, 75th percentile ${fmt(c.p75)}, 90th percentile ${fmt(c.p90)}`;
}

export function newsOut(items: readonly NewsItem[]): NewsItemOut[] {
  return items.slice(0, NEWS_SHOWN).map((n) => ({ id: n.id, date: n.date, disease: n.disease, title: `${n.diseaseName} (${n.country})`, link: n.link, source: "WHO Disease Outbreak News" }));
}

export function newsFinding(n: NewsItemOut): string {
  return `${n.date}: WHO Disease Outbreak News ${n.id} on ${n.title}, ${n.link}`;
}

/** "OpenDengue V1.3 (…) has national series for 129 countries" / "… for 2 countries (THA, VNM)" / "the data hold no national … series". */
export function seriesCoverageText(snap: OutbreakSnapshot, d: SurveilledDisease): string {
  const cov = snap.coverage.get(d)!;
  if (cov.countries.length === 0) return `the data hold no national ${DISEASE_NAMES[d]} series`;
  const list = cov.countries.length <= 5 ? ` (${cov.countries.join(", ")})` : "";
  return `${cov.sources.join("; ")} ha${cov.sources.length === 1 ? "s" : "ve"} national series for ${cov.countries.length} countr${cov.countries.length === 1 ? "y" : "ies"}${list}`;
}
