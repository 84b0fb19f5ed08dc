// The currency table of `npm run validate` (docs/methods/currency.md): for every route × risk type or disease at a
// fixed list of places, the period each answer describes and whether it is flagged not current, and every answer
// whose data are older than its horizon but not flagged (a violation: the test suite fails on one,
// test/e2e/currency.test.ts). Pure apart from the services it is handed; the clock is the services'.
import { ApiError } from "../server/errors.ts";
import { ageDays, clockNow, HORIZON_DAYS, type Cadence } from "../lib/currency.ts";
import type { Logger } from "../lib/log.ts";
import { openDroughtService } from "../server/services/drought-service.ts";
import { openFeedRiskService } from "../server/services/feed-risk-service.ts";
import { openOutbreakService } from "../server/services/outbreak-service.ts";
import { ScoreService } from "../server/services/score-service.ts";
import { openSupplyChainService } from "../server/services/supply-chain-service.ts";

export interface CurrencyPlace {
  name: string;
  lat: number;
  lng: number;
  /** A Thai province to ask the province route for, where the place is in Thailand. */
  province?: string;
  /** A UN/LOCODE for the supply-chain route; without, the coordinates. */
  port?: string;
}

/** Capitals, hubs and ports on every continent, with the Thai places the drought grid covers. */
export const CURRENCY_PLACES: CurrencyPlace[] = [
  { name: "Bangkok", lat: 13.75, lng: 100.5, province: "Bangkok", port: "THBKK" },
  { name: "Chiang Mai", lat: 18.79, lng: 98.98, province: "Chiang Mai" },
  { name: "Hanoi", lat: 21.03, lng: 105.85 },
  { name: "Manila", lat: 14.6, lng: 120.98, port: "PHMNL" },
  { name: "Dhaka", lat: 23.81, lng: 90.41 },
  { name: "Singapore", lat: 1.29, lng: 103.85, port: "SGSIN" },
  { name: "Sydney", lat: -33.87, lng: 151.21, port: "AUSYD" },
  { name: "Sana'a", lat: 15.37, lng: 44.19 },
  { name: "Lagos", lat: 6.45, lng: 3.39, port: "NGLOS" },
  { name: "Paris", lat: 48.85, lng: 2.35 },
  { name: "Rotterdam", lat: 51.92, lng: 4.48, port: "NLRTM" },
  { name: "Phoenix", lat: 33.45, lng: -112.07 },
  { name: "Port-au-Prince", lat: 18.54, lng: -72.34 },
];

export const SCORE_TYPES = ["drought", "flood", "wildfire", "heatwave", "storm", "sea_level_rise"] as const;
export const DISEASES = ["dengue", "influenza", "covid", "cholera", "malaria", "general"] as const;
export const SUPPLY_QUERIES = ["congestion", "vessel_count", "cargo_delay", "trade_risk"] as const;

/** What the validation calls: the services' query methods, as the routes call them. */
export interface CurrencyServices {
  score(q: { lat: number; lng: number; riskType: (typeof SCORE_TYPES)[number]; timeframe: "30d"; includeHistorical: false }): unknown;
  drought(lat: number, lng: number): unknown;
  province(name: string, country: string): unknown;
  outbreak?(q: { lat: number; lng: number; diseaseType: (typeof DISEASES)[number]; timeframe: "30d" }): unknown;
  supplyChain?(q: { lat?: number; lng?: number; portCode?: string; queryType: (typeof SUPPLY_QUERIES)[number] }): unknown;
}

export interface CurrencyRow {
  route: string;
  kind: string;
  place: string;
  /** 200 or the error's status. */
  status: number;
  period: { from: string; to: string } | null;
  asOf: string | null;
  cadence: Cadence | null;
  current: boolean | null;
  ageDays: number | null;
  /** Why this row breaks the rule (an answer older than its horizon not flagged, or without its time fields); "" when it keeps it. */
  violation: string;
  note: string;
}

interface TimeFields {
  period?: { from: string; to: string };
  asOf?: string;
  currency?: { current: boolean; cadence: Cadence; ageDays: number };
}

/** One answer's row: its time fields, checked against the horizon at `now`. */
export function currencyRow(route: string, kind: string, place: string, call: () => unknown, now: number): CurrencyRow {
  let data: { details?: TimeFields; summary?: string };
  try {
    data = call() as typeof data;
  } catch (err) {
    if (err instanceof ApiError) return { route, kind, place, status: err.status, period: null, asOf: null, cadence: null, current: null, ageDays: null, violation: "", note: err.message.replace(/^no \w+ data for this location: \w+: /, "").slice(0, 240) };
    throw err;
  }
  const t = data.details ?? {};
  if (!t.period || !t.asOf || !t.currency) {
    return { route, kind, place, status: 200, period: t.period ?? null, asOf: t.asOf ?? null, cadence: null, current: null, ageDays: null, violation: "answer without details.period, details.asOf or details.currency", note: "" };
  }
  const age = ageDays(t.asOf, now);
  const beyond = age > HORIZON_DAYS[t.currency.cadence];
  let violation = "";
  if (t.asOf > t.period.to) violation = `asOf ${t.asOf} after period.to ${t.period.to}`;
  else if (beyond && t.currency.current) violation = `data ${age} days old (horizon ${HORIZON_DAYS[t.currency.cadence]}) flagged current`;
  else if (!beyond && !t.currency.current) violation = `data ${age} days old flagged not current`;
  return { route, kind, place, status: 200, period: t.period, asOf: t.asOf, cadence: t.currency.cadence, current: t.currency.current, ageDays: age, violation, note: "" };
}

/** Every route × kind × place of the table. */
export function currencyTable(s: CurrencyServices, now: number, places: CurrencyPlace[] = CURRENCY_PLACES): CurrencyRow[] {
  const rows: CurrencyRow[] = [];
  for (const p of places) {
    for (const riskType of SCORE_TYPES) {
      rows.push(currencyRow("POST /api/risk-map/score", riskType, p.name, () => s.score({ lat: p.lat, lng: p.lng, riskType, timeframe: "30d", includeHistorical: false }), now));
    }
    rows.push(currencyRow("GET /api/risk-map/drought", "drought", p.name, () => s.drought(p.lat, p.lng), now));
    if (p.province) rows.push(currencyRow("GET /api/risk-map/drought/province", "drought", p.name, () => s.province(p.province!, "THA"), now));
    if (s.outbreak) for (const diseaseType of DISEASES) rows.push(currencyRow("POST /api/outbreak-radar/query", diseaseType, p.name, () => s.outbreak!({ lat: p.lat, lng: p.lng, diseaseType, timeframe: "30d" }), now));
    if (s.supplyChain) {
      for (const queryType of SUPPLY_QUERIES) {
        const q = p.port ? { portCode: p.port, queryType } : { lat: p.lat, lng: p.lng, queryType };
        rows.push(currencyRow("POST /api/supply-chain/query", queryType, p.name, () => s.supplyChain!(q), now));
      }
    }
  }
  return rows;
}

/** The table as markdown, violations first named. */
export function currencyMarkdown(rows: CurrencyRow[], day: string): string[] {
  const violations = rows.filter((r) => r.violation);
  const answered = rows.filter((r) => r.status === 200);
  const out = [
    "",
    "## Currency: which period each answer describes",
    "",
    `Measured ${day} (the service clock) by \`npm run validate\` (validation/currency.ts): every route × risk type or`,
    "disease at a fixed list of places, the period each answer rests on, its newest datum (asOf) and whether it is",
    "flagged current (docs/methods/currency.md: horizons of 3 days, 21 days, 92 days and 731 days for daily, weekly,",
    "monthly and yearly series). A row whose data are older than its horizon and not flagged is a violation; the suite",
    "fails on one (test/e2e/currency.test.ts).",
    "",
    `${rows.length} answers: ${answered.length} answered, ${answered.filter((r) => r.current === false).length} of them flagged not current, ${answered.filter((r) => r.current === true).length} current; ${rows.length - answered.length} not found (404, reason below); **${violations.length} violations**.`,
    "",
    "| route | kind | place | status | period | asOf | cadence | current | age (days) | note |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const period = r.period ? `${r.period.from}..${r.period.to}` : "–";
    const note = (r.violation ? `**violation: ${r.violation}**` : r.note).replace(/\|/g, "/");
    out.push(`| ${r.route} | ${r.kind} | ${r.place} | ${r.status} | ${period} | ${r.asOf ?? "–"} | ${r.cadence ?? "–"} | ${r.current === null ? "–" : r.current ? "yes" : "no"} | ${r.ageDays ?? "–"} | ${note} |`);
  }
  return out;
}

/** The services of a published artifacts directory, every one on the clock `now` (default the service clock). */
export async function openCurrencyServices(artifactsDir: string, logger: Logger, now = clockNow()): Promise<{ services: CurrencyServices; close(): void }> {
  const feeds = await openFeedRiskService(artifactsDir, logger, { watch: false, now: () => now });
  const drought = await openDroughtService(artifactsDir, { now: () => now });
  const outbreak = await openOutbreakService(artifactsDir, logger, { now: () => new Date(now) });
  const ports = await openSupplyChainService(artifactsDir, logger, () => new Date(now));
  const scores = new ScoreService(drought.service, feeds.service);
  return {
    services: {
      score: (q) => scores.score(q),
      drought: (lat, lng) => drought.service.drought(lat, lng),
      province: (name, country) => drought.service.province(name, country),
      outbreak: (q) => outbreak.service.query(q),
      supplyChain: (q) => ports.service.query(q as Parameters<typeof ports.service.query>[0]),
    },
    close: () => {
      feeds.stop();
      drought.store.stop();
      outbreak.store.stop();
      ports.store.stop();
    },
  };
}
