// The outbreak part of `npm run validate`: does the dengue score rank countries as their burden does? The reference
// is computed here from the raw inputs, not by the service: each country's dengue cases of its latest year of
// 2023–24 in OpenDengue's national extract (its Year row, else the sum of its Month rows, else of its Week rows) per
// 100,000 of its World Bank population that year. The service's score for a point in the country is its status
// entry (GET /api/outbreak-radar/status answers each country as the query does for a point in it). Also the levels
// of landmark epidemics and of malaria's known extremes, through the query.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { OutbreakService } from "../server/services/outbreak-service.ts";

export interface DengueRankRow {
  country: string;
  year: number;
  cases: number;
  population: number;
  per100k: number;
  score: number;
  level: string;
}

export interface OutbreakValidation {
  dengue: { countries: number; spearman: number | null; underOneNotLow: DengueRankRow[]; overThousandBelowHigh: DengueRankRow[]; rows: DengueRankRow[] };
  /** ok: null where the event is not the latest period the service answers for (no as-of query). */
  landmarks: { place: string; disease: string; expect: string; score: number; level: string; status: string; basis: string; ok: boolean | null }[];
}

/** Ranks with ties averaged (1-based). */
function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Spearman's rank correlation (Pearson's r of the tie-averaged ranks); null under 3 pairs. */
export function spearman(a: number[], b: number[]): number | null {
  if (a.length !== b.length || a.length < 3) return null;
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (ra.length + 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i] - mean) * (rb[i] - mean);
    da += (ra[i] - mean) ** 2;
    db += (rb[i] - mean) ** 2;
  }
  return da === 0 || db === 0 ? null : num / Math.sqrt(da * db);
}

/** Cases of each country's latest year of 2023–24 in OpenDengue's national extract (Admin0 rows). */
export function dengueLatestYear(dataDir: string): Map<string, { year: number; cases: number }> {
  const rows = parse(readFileSync(join(dataDir, "health", "opendengue", "National_extract_V1_3.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  const byCountry = new Map<string, Map<number, Record<string, number>>>();
  for (const r of rows) {
    const y = Number(r.Year);
    const v = Number(r.dengue_total);
    if (r.S_res !== "Admin0" || (y !== 2023 && y !== 2024) || !Number.isFinite(v)) continue;
    let years = byCountry.get(r.ISO_A0);
    if (years === undefined) byCountry.set(r.ISO_A0, (years = new Map()));
    const t = years.get(y) ?? {};
    t[r.T_res] = (t[r.T_res] ?? 0) + v;
    years.set(y, t);
  }
  const out = new Map<string, { year: number; cases: number }>();
  for (const [iso3, years] of byCountry) {
    const year = years.has(2024) ? 2024 : 2023;
    const t = years.get(year)!;
    out.set(iso3, { year, cases: t.Year ?? t.Month ?? t.Week });
  }
  return out;
}

function populations(dataDir: string): Map<string, number> {
  const rows = parse(readFileSync(join(dataDir, "population", "country_population.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  return new Map(rows.map((r) => [`${r.iso3} ${r.year}`, Number(r.population)]));
}

/** Landmark places and what a careful reader expects of them (WHO and PAHO epidemic reports; WHO World Malaria Report). */
export const LANDMARKS = [
  { place: "Rio de Janeiro (Brazil 2024 epidemic, 6.6 million probable cases, PAHO)", lat: -22.9, lng: -43.2, disease: "dengue", expect: "high or critical" },
  { place: "Buenos Aires (Argentina 2024 epidemic, PAHO)", lat: -34.6, lng: -58.38, disease: "dengue", expect: "high or critical" },
  { place: "Asunción (Paraguay 2024, PAHO)", lat: -25.28, lng: -57.63, disease: "dengue", expect: "high or critical" },
  { place: "Lima (Peru 2023 epidemic, PAHO)", lat: -12.05, lng: -77.04, disease: "dengue", expect: "high or critical" },
  { place: "Dhaka (Bangladesh 2023, the country's largest outbreak, 188 per 100,000, WHO DON)", lat: 23.81, lng: 90.41, disease: "dengue", expect: "medium or above in 2023; not scorable now: the answer is for the 12 months to the latest report" },
  { place: "Paris (France, imported and rare local cases)", lat: 48.86, lng: 2.35, disease: "dengue", expect: "low" },
  { place: "Lagos (Nigeria, highest malaria burden, World Malaria Report)", lat: 6.45, lng: 3.39, disease: "malaria", expect: "score ≥ 60" },
  { place: "Kinshasa (DR Congo, World Malaria Report)", lat: -4.32, lng: 15.31, disease: "malaria", expect: "score ≥ 60" },
  { place: "Colombo (Sri Lanka, malaria-free since 2016, WHO)", lat: 6.93, lng: 79.85, disease: "malaria", expect: "low" },
] as const;

function meets(expect: string, score: number, level: string): boolean | null {
  if (expect.includes("not scorable")) return null;
  if (expect === "high or critical") return level === "high" || level === "critical";
  if (expect === "medium or above") return level !== "low";
  if (expect === "low") return level === "low";
  return score >= 60;
}

export function validateOutbreaks(service: OutbreakService, dataDir: string): OutbreakValidation {
  const latest = dengueLatestYear(dataDir);
  const pop = populations(dataDir);
  const status = service.status({ diseaseType: "dengue", timeframe: "30d" });
  const rows: DengueRankRow[] = [];
  for (const c of status.countries) {
    const ref = latest.get(c.code);
    const p = pop.get(`${c.code} ${ref?.year}`) ?? pop.get(`${c.code} 2023`);
    if (ref === undefined || p === undefined || c.surveillance !== "series") continue;
    rows.push({ country: c.code, year: ref.year, cases: ref.cases, population: p, per100k: Number(((ref.cases / p) * 1e5).toPrecision(3)), score: c.riskScore, level: c.riskLevel });
  }
  rows.sort((a, b) => b.per100k - a.per100k);
  const landmarks = LANDMARKS.map((l) => {
    const d = service.query({ lat: l.lat, lng: l.lng, diseaseType: l.disease, timeframe: "30d" });
    return { place: l.place, disease: l.disease, expect: l.expect, score: d.riskScore, level: d.riskLevel, status: d.outbreakStatus, basis: d.details.diseases[0].burden?.basis ?? d.details.basis, ok: meets(l.expect, d.riskScore, d.riskLevel) };
  });
  return {
    dengue: {
      countries: rows.length,
      spearman: spearman(rows.map((r) => r.per100k), rows.map((r) => r.score)),
      underOneNotLow: rows.filter((r) => r.per100k < 1 && r.level !== "low"),
      overThousandBelowHigh: rows.filter((r) => r.per100k > 1000 && r.level !== "high" && r.level !== "critical"),
      rows,
    },
    landmarks,
  };
}

const f2 = (x: number | null) => (x === null ? "–" : x.toFixed(2));

export function outbreakMarkdown(v: OutbreakValidation, snapshot: string): string[] {
  const d = v.dengue;
  const out = [
    "",
    "## Outbreaks: burden",
    "",
    `Snapshot ${snapshot}. Dengue: the service's score for each country (its status entry, as the query answers for a`,
    "point in it) against the country's reported cases per 100,000 in its latest year of 2023–24, computed by",
    "validation/outbreaks.ts from OpenDengue's national extract and the World Bank population (not by the service,",
    "which takes the 12 months to each series' latest report).",
    "",
    "| countries with 2023–24 data | Spearman (score, cases per 100,000) | under 1 per 100,000 not low | over 1,000 per 100,000 below high |",
    "|---|---|---|---|",
    `| ${d.countries} | ${f2(d.spearman)} | ${d.underOneNotLow.length}${d.underOneNotLow.length ? ` (${d.underOneNotLow.map((r) => r.country).join(", ")})` : ""} | ${d.overThousandBelowHigh.length}${d.overThousandBelowHigh.length ? ` (${d.overThousandBelowHigh.map((r) => `${r.country} ${r.per100k}: ${r.level}`).join(", ")})` : ""} |`,
    "",
    "| place | disease | expected | score | level | status | basis |",
    "|---|---|---|---|---|---|---|",
    ...v.landmarks.map((l) => `| ${l.place} | ${l.disease} | ${l.expect} | ${l.score} | ${l.level}${l.ok === false ? " (missed)" : ""} | ${l.status} | ${l.basis.replace(/\|/g, "/")} |`),
    "",
    "Highest and lowest dengue burdens (reference year, cases per 100,000 → score):",
    "",
    ...[...d.rows.slice(0, 8), ...d.rows.slice(-5)].map((r) => `- ${r.country} ${r.year}: ${r.per100k} → ${r.score} (${r.level})`),
  ];
  return out;
}
