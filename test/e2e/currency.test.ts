// The currency table of docs/validation.md (validation/currency.ts) over the real build the global setup made: every
// route × risk type or disease at the fixed places, on today's clock and on a fixed day. No answer whose data are older
// than its horizon may be presented as current, and every answer states its period (docs/methods/currency.md).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ApiError } from "../../server/errors.ts";
import { clockNow } from "../../lib/currency.ts";
import { currencyRow, currencyTable, openCurrencyServices, type CurrencyRow } from "../../validation/currency.ts";
import { ALL_SNAPSHOTS, privateArtifacts } from "./real-server.ts";
import { silent } from "../server/helpers.ts";

const FIXED = Date.parse("2026-11-28T12:00:00Z");
let today: CurrencyRow[];
let fixed: CurrencyRow[];
const closers: (() => void)[] = [];

beforeAll(async () => {
  const dir = privateArtifacts(inject("artifactsDir"), ALL_SNAPSHOTS).dir;
  for (const [now, set] of [[clockNow(), (r: CurrencyRow[]) => (today = r)], [FIXED, (r: CurrencyRow[]) => (fixed = r)]] as const) {
    const opened = await openCurrencyServices(dir, silent, now);
    closers.push(opened.close);
    set(currencyTable(opened.services, now));
  }
}, 120_000);

afterAll(() => closers.forEach((c) => c()));

const row = (rows: CurrencyRow[], route: string, kind: string, place: string) => rows.find((r) => r.route.endsWith(route) && r.kind === kind && r.place === place)!;

describe("the currency table", () => {
  it("today: no answer older than its horizon is presented as current, and every answer states period, asOf and currency", () => {
    expect(today.length).toBeGreaterThan(200);
    expect(today.filter((r) => r.violation).map((r) => `${r.route} ${r.kind} ${r.place}: ${r.violation}`)).toEqual([]);
    const answered = today.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(80);
    for (const r of answered) {
      expect(r.period, `${r.route} ${r.kind} ${r.place}`).not.toBeNull();
      expect(r.asOf! <= r.period!.to, `${r.route} ${r.kind} ${r.place}`).toBe(true);
    }
  });

  it("on 2026-11-28: the data mirror's answers are of their periods, not of the present", () => {
    expect(fixed.filter((r) => r.violation)).toEqual([]);
    // Drought: the regional grid's default month, 2023-12 (the mirror's CPC series ends there), as its days; monthly,
    // 1063 days old.
    expect(row(fixed, "/drought", "drought", "Chiang Mai")).toMatchObject({ status: 200, period: { from: "2023-12-01", to: "2023-12-31" }, asOf: "2023-12-31", cadence: "monthly", current: false, ageDays: 1063 });
    expect(row(fixed, "/drought/province", "drought", "Bangkok")).toMatchObject({ asOf: "2023-12-31", current: false });
    expect(row(fixed, "/drought", "drought", "Hanoi")).toMatchObject({ status: 200, asOf: "2023-12-31", current: false });
    // Flood: the record to the newest GDACS event; storm: the West Pacific record to 2025-09-11.
    expect(row(fixed, "/score", "flood", "Bangkok")).toMatchObject({ period: { from: "1985-01-01", to: "2026-05-24" }, cadence: "daily", current: false, ageDays: 188 });
    expect(row(fixed, "/score", "storm", "Manila")).toMatchObject({ asOf: "2025-09-11", current: false });
    // Heatwave: no daily station with a current year anywhere offline; wildfire: no fire record of a year or reaching today.
    for (const r of fixed.filter((x) => x.kind === "heatwave" || x.kind === "wildfire")) expect(r.status, `${r.kind} ${r.place}`).toBe(404);
    expect(row(fixed, "/score", "heatwave", "Bangkok").note).toMatch(/latest full year is 2017/);
    // Outbreaks: influenza and COVID-19 rest on recent windows, their series end 2024 and 2021: 404s naming the last report.
    expect(row(fixed, "/outbreak-radar/query", "influenza", "Bangkok")).toMatchObject({ status: 404 });
    expect(row(fixed, "/outbreak-radar/query", "covid", "Bangkok")).toMatchObject({ status: 404 });
    // Dengue's burden (cases per 100,000 a year) stands, labelled with its year: Bangkok's monthly series ends 2022-12.
    expect(row(fixed, "/outbreak-radar/query", "dengue", "Bangkok")).toMatchObject({ status: 200, asOf: "2022-12-31", cadence: "monthly", current: false });
  });

  it("the check fails an answer older than its horizon that claims to be current, one without its time fields, and an asOf after its period", () => {
    const now = FIXED;
    const old = { details: { period: { from: "2019-01-01", to: "2019-06-30" }, asOf: "2019-06-30", currency: { current: true, cadence: "monthly", ageDays: 0 } } };
    expect(currencyRow("R", "k", "p", () => old, now).violation).toMatch(/^data 2708 days old \(horizon 92\) flagged current$/);
    expect(currencyRow("R", "k", "p", () => ({ details: {} }), now).violation).toBe("answer without details.period, details.asOf or details.currency");
    const after = { details: { period: { from: "2026-11-01", to: "2026-11-20" }, asOf: "2026-11-21", currency: { current: true, cadence: "daily", ageDays: 7 } } };
    expect(currencyRow("R", "k", "p", () => after, now).violation).toBe("asOf 2026-11-21 after period.to 2026-11-20");
    const fresh = { details: { period: { from: "2026-11-01", to: "2026-11-27" }, asOf: "2026-11-27", currency: { current: false, cadence: "daily", ageDays: 1 } } };
    expect(currencyRow("R", "k", "p", () => fresh, now).violation).toBe("data 1 days old flagged not current");
    // A 404 is a row with its reason, not a violation; any other failure is thrown.
    expect(currencyRow("R", "k", "p", () => { throw new ApiError("NOT_FOUND", "no data here"); }, now)).toMatchObject({ status: 404, violation: "", note: "no data here" });
    expect(() => currencyRow("R", "k", "p", () => { throw new Error("boom"); }, now)).toThrow("boom");
  });
});
