// End to end: the outbreak snapshot built from the real data mirror, served over HTTP, at places on five continents.
// Expected numbers were computed by hand from the CSV files (Bangkok December counts 2017–2021: 448, 297, 765, 335,
// 90; the other rows are named where they are used). The service clock is fixed on 2026-11-28 (issue 33), and on
// other days where a test needs a series to be current.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { buildOutbreakSnapshot } from "../../pipeline/snapshots/outbreaks.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { openOutbreakService, SnapshotOutbreakService, type OutbreakSnapshot } from "../../server/services/outbreak-service.ts";
import { sharedGeography } from "../../lib/feed-risk/place.ts";
import { spearman, validateOutbreaks } from "../../validation/outbreaks.ts";
import type { ArtifactStore } from "../../server/data/artifact-store.ts";
import { postJson, silent } from "../server/helpers.ts";
import { startOutbreakServer } from "./helpers.ts";
import { rng } from "../../bench/random.ts";
import type { OutbreakData } from "../../server/schemas-outbreak.ts";

const PATH = "/api/outbreak-radar/query";
const BANGKOK = { lat: 13.75, lng: 100.5 };
/** The service clock of these tests (issue 33's day): every age, currency and news window counts to it. */
const TODAY = "2026-11-28";
/** Dengue countries without a rate whose monthly series end over 92 days before TODAY (status layer: notCurrent). */
const NOT_CURRENT_DENGUE = ["CAF", "GIN", "MSR", "MYT", "REU", "TCD", "TWN"];
const clock = (day: string) => () => new Date(`${day}T12:00:00Z`);
/** The same snapshot with the clock set to another day (just after a series' last datum, say). */
const at = (day: string) => new SnapshotOutbreakService(store as ArtifactStore<OutbreakSnapshot>, sharedGeography, clock(day));
let artifacts: string;
let server: Awaited<ReturnType<typeof startOutbreakServer>>;
let bare: Awaited<ReturnType<typeof startOutbreakServer>>;
let store: ArtifactStore<unknown>;
let outbreakService: SnapshotOutbreakService;

beforeAll(async () => {
  artifacts = mkdtempSync(join(tmpdir(), "outbreak-art-"));
  // Through the `make snapshots` registry, as production builds it.
  const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir: artifacts, only: ["outbreaks"], env: {} });
  expect(built.outbreaks.status).toBe("published");
  const opened = await openOutbreakService(artifacts, silent, { now: clock(TODAY) });
  store = opened.store as ArtifactStore<unknown>;
  outbreakService = opened.service;
  server = await startOutbreakServer(opened.service);
  bare = await startOutbreakServer(undefined);
}, 40_000);

afterAll(async () => {
  store?.stop();
  await server?.close();
  await bare?.close();
  rmSync(artifacts, { recursive: true, force: true });
});

async function query(body: unknown, s = server) {
  const res = await postJson(s.base, PATH, body, s.key);
  return { status: res.status, body: (await res.json()) as { success: boolean; data: OutbreakData; error: { code: string; message: string } } };
}

describe("POST /api/outbreak-radar/query on the real data", () => {
  it("dengue, 30d in Bangkok: December 2022 against the Decembers of 2017–2021; on 2026-11-28 not current, so no_recent_data, the 2022 burden standing", async () => {
    const { status, body } = await query({ ...BANGKOK, diseaseType: "dengue" });
    expect(status).toBe(200);
    const d = body.data;
    expect(d.province).toEqual({ code: "TH-10", name: "Bangkok" });
    expect(d.timeframe).toBe("30d");
    expect(d.asOf).toBe("2022-12-31");
    // Status: the province series ends 2022-12, 1,428 days before 2026-11-28 (a monthly series is current for 92), so
    // no_recent_data (the channel put December 2022 at alert: 873 above p90 638.2). Score: the burden, 2022's 5,532 cases
    // (Spatial_extract_SEARO_V1_3.csv, Bangkok's 12 month rows) per 100,000 of Bangkok's 5,666,264 (2019) = 97.6,
    // on the dengue anchors 1 → 10, 100 → 30: 10 + 20·log(97.63)/log(100) = 29.9.
    expect(d.outbreakStatus).toBe("no_recent_data");
    expect(d.details.asOf).toBe("2022-12-31");
    expect(d.details.period).toEqual({ from: "1993-01-01", to: "2022-12-31" });
    expect(d.details.currency).toMatchObject({ current: false, cadence: "monthly", horizonDays: 92, ageDays: 1428 });
    expect(d.details.recent).toBeNull();
    expect(d.details.diseases[0]).toMatchObject({ asOf: "2022-12-31", period: d.details.period, currency: d.details.currency, recent: null });
    const b = d.details.diseases[0].burden!;
    expect([b.cases, b.population, b.populationYear, b.period]).toEqual([5532, 5_666_264, 2019, { from: "2022-01-01", to: "2022-12-31" }]);
    expect(b.rate).toBe(Number(((5532 / 5_666_264) * 1e5).toPrecision(3)));
    expect(d.riskScore).toBe(Math.round((10 + (20 * Math.log((5532 / 5_666_264) * 1e5)) / Math.log(100)) * 10) / 10);
    expect(d.riskScore).toBe(29.9);
    expect(d.riskLevel).toBe("low");
    expect(d.details.diseases[0].scoreBasis).toBe("burden");
    expect(d.details.basis).toMatch(/^admin-1: the OpenDengue V1\.3 series of Bangkok \(TH-10\)/);
    // admin-1 0.9 × age (2022-12-31 → today 2026-11-28: 3.91 years → 1 − 2.91/10) = 0.64 (0.69 when counted to the newest news).
    expect(d.details.confidence).toBe(Math.round(0.9 * (1 - ((Date.parse(`${TODAY}T12:00:00Z`) - Date.parse("2022-12-31")) / (365.25 * 86_400_000) - 1) / 10) * 100) / 100);
    expect(d.details.confidence).toBe(0.64);
    expect(d.trend).toBe("unknown"); // not current (873 against 1,246 in November was decreasing)
    expect(d.details.diseases[0].channel).toEqual({
      median: 335, p75: 448, p90: 638.2, baselineWindows: 5, baseline: "seasonal",
      baselinePeriods: ["2021-12-01..2021-12-31", "2020-12-01..2020-12-31", "2019-12-01..2019-12-31", "2018-12-01..2018-12-31", "2017-12-01..2017-12-31"],
    });
    expect(d.details.diseases[0].casesInWindow).toBe(873);
    expect(d.country).toEqual({ code: "THA", name: "Thailand" });
    expect(d.details.coverage).toMatchObject({ country: "THA", adminLevel: "admin-1", province: { code: "TH-10", name: "Bangkok" } });
    expect(d.details.coverage.series.map((x) => [x.area.code, x.adminLevel, x.resolution, x.period.from, x.period.to])).toEqual([
      ["TH-10", "admin-1", "month", "1993-01-01", "2022-12-31"],
      ["THA", "national", "month", "2009-01-01", "2025-03-31"],
    ]);
    expect(d.details.missing).toEqual(["activeClusters: the series is not current (last report 2022-12-31), so no area is active now"]);
    expect(d.activeClusters).toBeNull();
    expect(d.caseEstimate).toBe(1788);
    expect(d.details.clusterRadiusKm).toBe(100);
    expect(d.summary).toContain("score 29.9, low, the rate of 2022.");
    expect(d.summary).toContain(
      "No recent data: the OpenDengue V1.3 series of Bangkok (TH-10) last reports 2022-12 (2022-12-31), 1428 days before 2026-11-28; a monthly series is current for 92 days, so no status or trend for now.",
    );
    expect(d.summary).toContain("Then, 873 cases in 2022-12 put the endemic channel at alert");
    expect(d.details.keyFindings).toContain("Trend unknown (not current); the last two windows: 873 cases in 2022-12-01..2022-12-31 against 1,246 in 2022-11-01..2022-11-30.");
    expect(d.details.keyFindings.some((f: string) => f.startsWith("Nationally 2,447 cases in 2025-03 (as of 2025-03-31)"))).toBe(true);
    expect(d.details.keyFindings).toContain(
      "2024-05-30: WHO Disease Outbreak News DON2870 on Dengue fever, unspecified (Thailand), https://www.who.int/emergencies/disease-outbreak-news/item/2024-DON518",
    );
    expect(d.details.intelligence).toContain("median 335, 75th percentile 448, 90th percentile 638");
    expect(d.dataSources[0]).toMatch(/^OpenDengue V1\.3/);
  });

  it("dengue in Bangkok with the clock two weeks after the series' last month: current, the channel's alert and trend, the 8 provinces above p75", () => {
    const d = at("2023-01-15").query({ ...BANGKOK, diseaseType: "dengue", timeframe: "30d" });
    expect([d.asOf, d.outbreakStatus, d.trend, d.riskScore, d.activeClusters, d.caseEstimate]).toEqual(["2022-12-31", "alert", "decreasing", 29.9, 8, 1788]);
    expect(d.details.currency).toMatchObject({ current: true, cadence: "monthly", ageDays: 15 });
    expect(d.details.recent).toEqual({ period: { from: "2022-12-01", to: "2022-12-31" } });
    expect(d.details.missing).toEqual([]);
    expect(d.summary).toContain("873 cases in 2022-12 (data as of 2022-12-31), status alert");
    expect(d.details.confidence).toBe(0.9);
  });

  it("dengue, 90d: October–December 2022 (3,233) against the same quarter of 2017–2021", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "dengue", timeframe: "90d" });
    const r = body.data.details.diseases[0];
    expect(r.casesInWindow).toBe(1114 + 1246 + 873);
    expect(r.casesPreviousWindow).toBe(1675);
    expect(r.channel?.median).toBe(1326);
    expect(r.channel?.p75).toBe(1748);
    expect(r.channel?.p90).toBeCloseTo(2943.8, 9);
    expect(body.data.outbreakStatus).toBe("no_recent_data"); // the channel: alert, increasing (3,233 against 1,675)
    expect(body.data.trend).toBe("unknown");
    expect(body.data.riskScore).toBe(29.9); // the burden does not depend on the timeframe
    expect(r.window).toEqual({ from: "2022-10-01", to: "2022-12-31" });
  });

  it("7d on monthly dengue data answers with the latest month, like 30d", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "dengue", timeframe: "7d" });
    expect(body.data.details.diseases[0].window).toEqual({ from: "2022-12-01", to: "2022-12-31" });
  });

  it("malaria: country series, 2021 (3,279) against 2016–2020; WHO's 2022 estimate is the newest datum, not current in 2026-11", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "malaria" });
    const d = body.data;
    // The channel said normal, decreasing for 2021; the newest datum used is the 2022 estimate, 1,428 days old (yearly: 731).
    expect([d.asOf, d.outbreakStatus, d.trend, d.caseEstimate, d.activeClusters, d.riskScore]).toEqual(["2022-12-31", "no_recent_data", "unknown", 3279, null, 15.4]);
    expect(d.details.currency).toMatchObject({ current: false, cadence: "yearly", horizonDays: 731, ageDays: 1428 });
    expect(d.details.period).toEqual({ from: "2000-01-01", to: "2022-12-31" });
    expect(d.summary).toContain("score 15.4, low, the rate of 2022.");
    // Score from WHO's estimate for Thailand 2022, 0.46034 per 1,000 at risk: 5 + 25·log(0.46034/0.01)/log(100/0.01).
    expect(d.details.diseases[0].burden).toMatchObject({ rate: 0.46, cases: null, period: { from: "2022-01-01", to: "2022-12-31" } });
    expect(d.riskScore).toBe(Math.round((5 + (25 * Math.log(0.46034 / 0.01)) / Math.log(100 / 0.01)) * 10) / 10);
    expect(d.details.diseases[0].channel).toMatchObject({ median: 6750, p75: 11440, p90: 15256, baselineWindows: 5, baseline: "seasonal" });
    expect(d.details.diseases[0].area).toEqual({ code: "THA", name: "Thailand", level: "national" });
    expect(d.details.coverage.adminLevel).toBe("national");
  });

  it("cholera: 2016 (52) against 2011–2015 (279, 29, 8, 12, 125); news DON2928 of 2025-08-29, over a year before today, cited but raising nothing", async () => {
    const { body } = await query({ lat: 18.79, lng: 98.98, diseaseType: "cholera" }); // Chiang Mai
    const d = body.data;
    expect(d.province?.code).toBe("TH-50");
    expect([d.asOf, d.outbreakStatus, d.trend, d.caseEstimate]).toEqual(["2016-12-31", "no_recent_data", "unknown", 52]);
    expect(d.details.diseases[0].statusFromNews).toBeNull();
    expect(d.summary).toContain("score 0.7, low, the rate of 2016."); // 52 per 70,859,841
    expect(d.details.diseases[0].channel?.median).toBe(29);
    expect(d.details.news[0].id).toBe("DON2928");
    expect(d.details.keyFindings.some((f: string) => f.startsWith("2025-08-29: WHO Disease Outbreak News DON2928"))).toBe(true);
  });

  it("covid on 2026-11-28: 404, the score rests on the 14 days to a report of 2021", async () => {
    const { status, body } = await query({ ...BANGKOK, diseaseType: "covid", timeframe: "30d" });
    expect(status).toBe(404);
    expect(body.error.code).toBe("NOT_FOUND");
    expect(body.error.message).toBe(
      "No current COVID-19 data for Thailand (THA): the Our World in Data COVID-19 dataset, Thailand daily new cases series of Thailand (THA) last reports 2021-07-30, 1947 days before 2026-11-28; " +
        "a daily series is current for 3 days, and the score rests on the 14 days to the latest report, so there is no score for now",
    );
    expect((body.error as unknown as { details: { currency: { current: boolean } } }).details.currency.current).toBe(false);
  });

  it("covid with the clock two days after the last report: the 30 days to 2021-07-30 against the 8 windows before", () => {
    const d = at("2021-08-01").query({ ...BANGKOK, diseaseType: "covid", timeframe: "30d" });
    expect([d.asOf, d.outbreakStatus, d.trend, d.riskScore, d.caseEstimate]).toEqual(["2021-07-30", "alert", "increasing", 70, 319074]);
    expect(d.details.currency).toMatchObject({ current: true, cadence: "daily", horizonDays: 3, ageDays: 2 });
    expect(d.details.period).toEqual({ from: "2020-01-23", to: "2021-07-30" }); // the first reported day (the rows before are empty)
    expect(d.details.recent).toEqual({ period: { from: "2021-07-01", to: "2021-07-30" } });
    // 14-day notification rate: 196,468 cases 2021-07-17..30 per 100,000 of Thailand's 2021 population.
    expect(d.details.diseases[0].burden).toMatchObject({ unit: "confirmed cases per 100,000 in 14 days", cases: 196468, period: { from: "2021-07-17", to: "2021-07-30" }, populationYear: 2021 });
    expect(d.details.diseases[0].window).toEqual({ from: "2021-07-01", to: "2021-07-30" });
    expect(d.details.diseases[0].channel?.baseline).toBe("recent");
  });

  it("influenza in Thailand on 2026-11-28: 404 naming FluNet's last report, 2024-03 (no season to score)", async () => {
    const { status, body } = await query({ ...BANGKOK, diseaseType: "influenza" });
    expect(status).toBe(404);
    expect(body.error.message).toBe(
      "No current Influenza data for Thailand (THA): the WHO FluNet laboratory-confirmed influenza, all surveillance types series of Thailand (THA) last reports 2024-03 (2024-03-31), 972 days before 2026-11-28; " +
        "a monthly series is current for 92 days, and the score rests on the endemic channel's 30d window to the latest report, so there is no score for now",
    );
  });

  it("influenza in Thailand with the clock on 2024-04-15: FluNet A, 2024-03 against the five most recent Marches with data; the zero-filled months are missing, not zero", () => {
    const d = at("2024-04-15").query({ ...BANGKOK, diseaseType: "influenza", timeframe: "30d" });
    expect(d.details.currency).toMatchObject({ current: true, cadence: "monthly", ageDays: 15 });
    expect(d.details.recent).toEqual({ period: { from: "2024-03-01", to: "2024-03-31" } });
    // thailand_flu_A_month.csv: 2024-03 102; Marches 2023 54, 2022 0 and 2021 0 (masked), 2020 61, 2019 80, 2018 36, 2017 2
    expect([d.asOf, d.outbreakStatus, d.riskScore, d.trend, d.caseEstimate, d.activeClusters]).toEqual(["2024-03-31", "alert", 88.2, "increasing", 102, 1]);
    const r = d.details.diseases[0];
    expect(r.channel?.baselinePeriods.map((p) => p.slice(0, 7))).toEqual(["2023-03", "2020-03", "2019-03", "2018-03", "2017-03"]);
    expect([r.channel?.median, r.channel?.p75, r.channel?.p90]).toEqual([54, 61, 72.4]);
    expect(r.coverage).toMatchObject({ subtype: "influenza A", adminLevel: "national", period: { from: "2009-01-01", to: "2024-03-31" } });
    expect(r.coverage?.maskedPeriods).toEqual(["2020-05..2020-08", "2021-01..2021-12", "2022-02..2022-03"]);
    expect(d.details.keyFindings).toContain(
      "WHO FluNet laboratory-confirmed influenza reports 0 for 2020-05..2020-08, 2021-01..2021-12, 2022-02..2022-03: reporting gaps, treated as missing (not zero influenza A cases).",
    );
    expect(d.summary).toContain("102 influenza A positives in 2024-03");
    expect(d.dataSources[0]).toContain("WHO FluNet");
  });

  it("influenza in Thailand, 90d (clock 2024-04-15): 2022-01..03 holds masked months, so that window is skipped, not counted as 6 cases", () => {
    const data = at("2024-04-15").query({ ...BANGKOK, diseaseType: "influenza", timeframe: "90d" });
    const body = { data };
    const r = body.data.details.diseases[0];
    expect(r.casesInWindow).toBe(109 + 80 + 102);
    // 2023-01..03 182, 2020 262, 2019 213, 2018 118, 2017 12
    expect(r.channel?.baselinePeriods).toEqual([
      "2023-01-01..2023-03-31", "2020-01-01..2020-03-31", "2019-01-01..2019-03-31", "2018-01-01..2018-03-31", "2017-01-01..2017-03-31",
    ]);
    expect([r.channel?.median, r.channel?.p75, r.channel?.p90, body.data.riskScore]).toEqual([182, 213, 242.4, 84]);
  });

  it("general on 2026-11-28: COVID-19 and influenza not current, so listed with their reason and not counted; dengue's 2022 burden leads", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "general" });
    const d = body.data;
    expect(d.details.diseases.map((x: { diseaseType: string }) => x.diseaseType)).toEqual(["dengue", "malaria", "cholera"]);
    expect(d.details.coverage.notCovered.map((n) => n.split(":")[0])).toEqual(["covid", "influenza"]);
    expect(d.details.coverage.notCovered[0]).toContain("last reports 2021-07-30, 1947 days before 2026-11-28");
    expect(d.details.coverage.notCovered[1]).toContain("last reports 2024-03 (2024-03-31), 972 days before 2026-11-28");
    expect([d.riskScore, d.outbreakStatus, d.trend]).toEqual([29.9, "no_recent_data", "unknown"]);
    expect(d.details.diseases.map((x) => [x.outbreakStatus, x.asOf, x.currency.current])).toEqual([
      ["no_recent_data", "2022-12-31", false],
      ["no_recent_data", "2022-12-31", false],
      ["no_recent_data", "2016-12-31", false],
    ]);
    expect(d.activeClusters).toBeNull(); // no disease is current, so none has an active area
    expect(d.caseEstimate).toBe(1788 + 3279 + 52);
    // The newest datum used (dengue's December 2022, malaria's 2022 estimate), the span of all three.
    expect([d.asOf, d.details.asOf, d.details.period.to, d.details.currency.current]).toEqual(["2022-12-31", "2022-12-31", "2022-12-31", false]);
    expect(d.details.keyFindings).toHaveLength(3);
    expect(d.summary).toMatch(/; no current data for covid, influenza\.$/);
  });

  it("general with the clock on 2024-04-15: influenza current and counted (channel only, so it does not lead); COVID-19's 2021 still not", () => {
    const d = at("2024-04-15").query({ ...BANGKOK, diseaseType: "general", timeframe: "30d" });
    expect(d.details.diseases.map((x) => x.diseaseType)).toEqual(["dengue", "malaria", "cholera", "influenza"]);
    expect(d.details.diseases.find((x) => x.diseaseType === "influenza")).toMatchObject({ riskScore: 88.2, outbreakStatus: "alert", scoreBasis: "endemic channel", burden: null });
    expect(d.details.coverage.notCovered.map((n) => n.split(":")[0])).toEqual(["covid"]);
    expect(d.asOf).toBe("2024-03-31");
    expect(d.details.currency).toMatchObject({ current: true, cadence: "monthly" });
    expect(d.riskScore).toBe(29.9);
  });
});

describe("worldwide, on the real data", () => {
  it("dengue in Hanoi: Vietnam's yearly series (its monthly 2025-03 has two earlier Marches only); 2024 = the 12 month rows", async () => {
    const { status, body } = await query({ lat: 21.03, lng: 105.85, diseaseType: "dengue" });
    expect(status).toBe(200);
    const d = body.data;
    expect([d.country, d.province]).toEqual([{ code: "VNM", name: "Vietnam" }, null]);
    // National_extract_V1_3.csv: 2024 months sum to 108,433; Year rows 2022 367,729 (line 28454), 2021 68,268,
    // 2020 137,470, 2019 320,702, 2018 131,447 (lines 28453..28450); 2023 has six months only and is skipped.
    // The newest datum used is the burden's monthly 2025-03 (607 days before 2026-11-28; monthly: 92): not current.
    expect([d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore, d.riskLevel, d.activeClusters, d.trend]).toEqual(["2025-03-31", 108433, "no_recent_data", 32.9, "medium", null, "unknown"]);
    expect(d.details.currency).toMatchObject({ current: false, cadence: "monthly", ageDays: 607 });
    expect(d.details.period).toEqual({ from: "1960-01-01", to: "2025-03-31" });
    // The status is the yearly series' (2024 against 2018–2022); the burden the monthly series' later 12 months.
    expect(d.details.diseases[0].burden).toMatchObject({ cases: 112410, period: { from: "2024-04-01", to: "2025-03-31" }, population: 100_987_686, populationYear: 2024 });
    expect(d.details.diseases[0].channel).toMatchObject({ median: 137470, p75: 320702, p90: 348918.2, baselineWindows: 5 });
    expect(d.details.diseases[0].window).toEqual({ from: "2024-01-01", to: "2024-12-31" });
    expect(d.details.coverage).toMatchObject({ country: "VNM", countryName: "Vietnam", adminLevel: "national", province: null, notCovered: [] });
    expect(d.details.coverage.series).toEqual([
      {
        disease: "dengue", area: { code: "VNM", name: "Vietnam" }, adminLevel: "national", source: "OpenDengue V1.3 (Clarke et al. 2024, Sci Data 11:296, CC BY 4.0)",
        subtype: null, resolution: "year", period: { from: "1960-01-01", to: "2024-12-31" }, maskedPeriods: [],
      },
    ]);
    expect(d.details.news.map((n) => n.id)).toEqual(["DON2870", "DON0235"]);
    expect(d.summary).toBe(
      "Dengue in Vietnam: 111 reported cases per 100,000 a year (2024-04..2025-03, 112,410 cases, population 100,987,686 in 2024): score 32.9, medium, the rate of 2024-04..2025-03. " +
        "No recent data: the OpenDengue V1.3 series of Vietnam (VNM) last reports 2024 (2024-12-31), the rate's data 2025-03-31, 607 days before 2026-11-28; a monthly series is current for 92 days, so no status or trend for now. " +
        "Then, 108,433 cases in 2024 put the endemic channel at normal: endemic channel from the same period in 5 previous years (2022, 2021, 2020, 2019, 2018): median 137,470, 75th percentile 320,702, 90th percentile 348,918.",
    );
  });

  it("dengue in Hanoi with the clock two weeks after the monthly 2025-03: current, the yearly channel's normal, no active cluster", () => {
    const d = at("2025-04-15").query({ lat: 21.03, lng: 105.85, diseaseType: "dengue", timeframe: "30d" });
    expect([d.asOf, d.outbreakStatus, d.trend, d.activeClusters, d.riskScore]).toEqual(["2025-03-31", "normal", "unknown", 0, 32.9]);
    expect(d.details.currency).toMatchObject({ current: true, cadence: "monthly", ageDays: 15 });
    expect(d.details.recent).toEqual({ period: { from: "2024-01-01", to: "2024-12-31" } });
  });

  it("dengue in Jakarta: Indonesia monthly, 2024-10 (1,019) against the Octobers of 2019–2023", async () => {
    const { body } = await query({ lat: -6.2, lng: 106.85, diseaseType: "dengue" });
    const d = body.data;
    // lines 12035..12095: Octobers 2019 4,376, 2020 2,419, 2021 6,092, 2022 10,135, 2023 8,339, 2024 1,019
    expect([d.country.code, d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore]).toEqual(["IDN", "2024-10-31", 1019, "no_recent_data", 29.1]); // the channel: normal
    expect(d.details.diseases[0].channel).toMatchObject({ median: 6092, p75: 8339, p90: 9416.6 });
    expect(d.details.coverage.series[0]).toMatchObject({ resolution: "month", period: { from: "2007-01-01", to: "2024-10-31" } });
  });

  it("dengue in Rio de Janeiro: Brazil yearly, 2024 (10,267,077, line 4832) is an alert", async () => {
    const { body } = await query({ lat: -22.9, lng: -43.2, diseaseType: "dengue", timeframe: "90d" });
    const d = body.data;
    // 2024 is a yearly figure within its two years (697 days before 2026-11-28): current.
    expect([d.country.code, d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore, d.activeClusters]).toEqual(["BRA", "2024-12-31", 10267077, "alert", 100, 1]);
    expect(d.details.currency).toMatchObject({ current: true, cadence: "yearly", horizonDays: 731, ageDays: 697 });
    expect(d.details.recent).toEqual({ period: { from: "2024-01-01", to: "2024-12-31" } });
    expect(d.details.diseases[0].window).toEqual({ from: "2024-01-01", to: "2024-12-31" }); // yearly data: every timeframe is the year
  });

  it("malaria in Lagos: Nigeria 2021 (21,325,186) against 2016–2020 from the WHO GHO export", async () => {
    const { body } = await query({ lat: 6.45, lng: 3.4, diseaseType: "malaria" });
    const d = body.data;
    // MALARIA_CONF_CASES.csv NGA: 2016 13,598,282, 2017 13,087,878, 2018 14,548,024, 2019 19,806,915, 2020 18,325,240
    // The channel said alert, stable for 2021; the newest datum used, WHO's 2022 estimate, is 1,428 days old: the score stands.
    expect([d.country.code, d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore, d.trend]).toEqual(["NGA", "2022-12-31", 21325186, "no_recent_data", 66.8, "unknown"]);
    expect(d.summary).toContain("score 66.8, high, the rate of 2022.");
    // MALARIA_EST_INCIDENCE.csv: Nigeria 2022, 305.30434 per 1,000 at risk (WHO strata: moderate 250–450 → 60..80).
    expect(d.riskScore).toBe(Math.round((60 + (20 * Math.log(305.30434 / 250)) / Math.log(450 / 250)) * 10) / 10);
    expect(d.riskScore).toBeGreaterThanOrEqual(60);
    expect(d.details.diseases[0].channel).toMatchObject({ median: 14548024, p75: 18325240, p90: 19214245 });
    expect(d.details.coverage.series[0].period).toEqual({ from: "2008-01-01", to: "2021-12-31" });
    expect(d.dataSources).toEqual(["WHO Global Health Observatory, MALARIA_CONF_CASES (confirmed malaria cases)", "WHO Global Health Observatory, MALARIA_EST_INCIDENCE (estimated incidence per 1,000 population at risk, World Malaria Report)"]);
  });

  it("cholera in Kinshasa: DR Congo 2016 (28,093, line 581) above its 75th percentile", async () => {
    const { body } = await query({ lat: -4.32, lng: 15.31, diseaseType: "cholera" });
    const d = body.data;
    expect([d.country.code, d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore, d.activeClusters]).toEqual(["COD", "2016-12-31", 28093, "no_recent_data", 45.7, null]); // the channel: warning
    expect(d.details.currency).toMatchObject({ current: false, cadence: "yearly", ageDays: 3619 });
    expect(d.details.diseases[0].channel).toMatchObject({ median: 22203, p75: 26944, baselineWindows: 5 });
  });

  it("influenza in Hanoi (clock 2024-04-15): FluNet A+B, the 2020–2022 gap skipped, so the channel uses 2023 and 2016–2019; on 2026-11-28 a 404", async () => {
    const now = await query({ lat: 21.03, lng: 105.85, diseaseType: "influenza" });
    expect(now.status).toBe(404);
    expect(now.body.error.message).toMatch(/^No current Influenza data for Vietnam \(VNM\): the WHO FluNet .* series of Vietnam \(VNM\) last reports 2024-03 \(2024-03-31\)/);
    const d = at("2024-04-15").query({ lat: 21.03, lng: 105.85, diseaseType: "influenza", timeframe: "30d" });
    expect([d.asOf, d.caseEstimate, d.outbreakStatus, d.riskScore]).toEqual(["2024-03-31", 79, "alert", 92.9]);
    expect(d.details.diseases[0].channel?.baselinePeriods.map((p) => p.slice(0, 4))).toEqual(["2023", "2019", "2018", "2017", "2016"]);
    expect(d.details.diseases[0].coverage?.subtype).toBe("influenza A+B");
  });

  it("general in Paris: dengue (France 2024: 85) leads; cholera to 2015; influenza from news only; malaria and COVID-19 not covered", async () => {
    const { body } = await query({ lat: 48.85, lng: 2.35, diseaseType: "general" });
    const d = body.data;
    expect(d.country).toEqual({ code: "FRA", name: "France" });
    expect(d.details.diseases.map((x) => [x.diseaseType, x.surveillance, x.caseEstimate])).toEqual([
      ["dengue", "series", 85],
      ["cholera", "series", 1],
      ["influenza", "news_only", null],
    ]);
    // OpenDengue FRANCE Year rows 2019 9, 2020 13, 2021 3, 2022 60, 2023 44 (lines 9602..9606): p90 53.6 → 80 + 20 · 31.4 / 53.6
    // Neither series is current on 2026-11-28 (dengue's monthly 2025-03, cholera's 2015): no status, no active area.
    expect([d.riskScore, d.outbreakStatus, d.caseEstimate, d.activeClusters]).toEqual([1.2, "no_recent_data", 85 + 1, null]);
    // 85 cases / 68,551,653 (France 2024) = 0.124 per 100,000: under 1, so "low" whatever the channel says; and
    // France's median yearly rate is under 1 per 100,000, so imported cases cannot be told apart.
    const dengue = d.details.diseases[0];
    expect(dengue.burden).toMatchObject({ rate: Number(((85 / 68_551_653) * 1e5).toPrecision(3)), population: 68_551_653, populationYear: 2024 });
    expect(d.riskLevel).toBe("low");
    expect(dengue.importedCaveat).toMatch(/cannot tell local from travel-acquired \(imported\) cases/);
    expect(dengue.confidence).toBeLessThan(0.4);
    expect(d.details.coverage.notCovered.map((n) => n.split(":")[0])).toEqual(["malaria", "covid"]);
    expect(d.details.missing).toEqual([
      "activeClusters: no disease at this point has a count for it",
      "dengue activeClusters: the series is not current (last report 2024-12-31), so no area is active now",
      "cholera activeClusters: the series is not current (last report 2015-12-31), so no area is active now",
      "influenza caseEstimate: no Influenza count series for France; WHO Disease Outbreak News only",
      "influenza activeClusters: no Influenza count series for France; WHO Disease Outbreak News only",
      "influenza trend: no count series to compare windows of",
    ]);
    expect(d.summary).toContain("no data for malaria, covid.");
  });

  it("influenza in Berlin: no FluNet series, so WHO outbreak news only, with the null figures explained", async () => {
    const { body } = await query({ lat: 52.52, lng: 13.4, diseaseType: "influenza" });
    const d = body.data;
    expect([d.country.code, d.outbreakStatus, d.caseEstimate, d.activeClusters, d.trend, d.details.surveillance]).toEqual(["DEU", "news_only", null, null, "unknown", "news_only"]);
    expect(d.details.missing[0]).toBe("caseEstimate: no Influenza count series for Germany; WHO Disease Outbreak News only");
    expect(d.summary).toMatch(/^Influenza: no count series for Germany in the data \(WHO FluNet .* has national series for 2 countries \(THA, VNM\)\)/);
    expect(d.details.coverage.series).toEqual([]);
  });

  it("overseas areas drawn inside France: Cayenne answers French Guiana, a point just off Fort-de-France Martinique", async () => {
    const guf = (await query({ lat: 4.93, lng: -52.33, diseaseType: "dengue" })).body.data;
    expect([guf.country.code, guf.caseEstimate, guf.outbreakStatus]).toEqual(["GUF", 16141, "alert"]); // line 9770
    const mtq = (await query({ lat: 14.6, lng: -61.07, diseaseType: "dengue" })).body.data; // 0.7 km off the 1:10m coast
    expect([mtq.country.code, mtq.caseEstimate]).toEqual(["MTQ", 7371]); // line 14631
    expect(mtq.details.coverage.summary).toContain("the country of the land 2 km around the point, which lies 0.7 km off the coast");
  });
});

describe("GET /api/outbreak-radar/status (the map's outbreak layer)", () => {
  async function status(q: string, s = server) {
    const res = await fetch(`${s.base}/api/outbreak-radar/status?${q}`, { headers: { "x-api-key": s.key } });
    return { status: res.status, body: await res.json() };
  }

  it("dengue: every country as the query answers for a point in it, and the Thai provinces from their own series", async () => {
    const { status: code, body } = await status("diseaseType=dengue");
    expect(code).toBe(200);
    const d = body.data;
    expect([d.diseaseType, d.timeframe, d.newsAsOf]).toEqual(["dengue", "30d", "2026-05-13"]);
    expect(d.countries.length).toBeGreaterThan(100);
    const byCode = new Map(d.countries.map((c: { code: string }) => [c.code, c]));
    for (const [iso3, numeric, at] of [
      ["VNM", "704", { lat: 21.03, lng: 105.85 }],
      ["IDN", "360", { lat: -6.2, lng: 106.85 }],
      ["BRA", "076", { lat: -22.9, lng: -43.2 }],
    ] as const) {
      const q = (await query({ ...at, diseaseType: "dengue" })).body.data;
      expect(byCode.get(iso3), iso3).toEqual({
        code: iso3, isoNumeric: numeric, name: q.country.name, surveillance: "series",
        outbreakStatus: q.outbreakStatus, riskScore: q.riskScore, riskLevel: q.riskLevel, asOf: q.asOf, current: q.details.currency.current, source: q.dataSources[0],
      });
    }
    expect(byCode.get("VNM")).toMatchObject({ outbreakStatus: "no_recent_data", riskScore: 32.9, asOf: "2025-03-31", current: false });
    expect(byCode.get("BRA")).toMatchObject({ outbreakStatus: "alert", current: true });
    // Dengue's scores are yearly burdens and stand; where a country has no rate (no population, or too few of the 12
    // months reported) the score is the channel's month, which without current data is no score: left out, with why.
    expect(d.notCurrent.map((c: { code: string }) => c.code)).toEqual(NOT_CURRENT_DENGUE);
    for (const c of d.notCurrent) {
      expect(c.reason).toMatch(/^No current Dengue data for .* last reports \d{4}-\d{2} \(\d{4}-\d{2}-\d{2}\), \d+ days before 2026-11-28; a monthly series is current for 92 days, and the score rests on the endemic channel's 30d window/);
      expect(byCode.has(c.code)).toBe(false);
    }
    expect(d.provinces).toHaveLength(77);
    expect(d.provinces.find((p: { code: string }) => p.code === "TH-10")).toEqual({
      code: "TH-10", name: "Bangkok", outbreakStatus: "no_recent_data", riskScore: 29.9, riskLevel: "low", asOf: "2022-12-31", current: false, source: expect.stringContaining("OpenDengue"),
    });
    const bangkok = (await query({ ...BANGKOK, diseaseType: "dengue" })).body.data;
    expect([bangkok.outbreakStatus, bangkok.riskScore, bangkok.asOf]).toEqual(["no_recent_data", 29.9, "2022-12-31"]);
  });

  it("influenza: news-only countries carry the query's news score; malaria has no province series", async () => {
    const flu = (await status("diseaseType=influenza&timeframe=90d")).body.data;
    const deu = flu.countries.find((c: { code: string }) => c.code === "DEU");
    const berlin = (await query({ lat: 52.52, lng: 13.4, diseaseType: "influenza", timeframe: "90d" })).body.data;
    expect(deu).toMatchObject({ isoNumeric: "276", name: "Germany", surveillance: "news_only", outbreakStatus: "news_only", riskScore: berlin.riskScore, asOf: berlin.asOf, current: false });
    expect(berlin.asOf).toBe(berlin.details.news[0].date); // the newest item about influenza in Germany, not the news file's date
    expect(berlin.riskLevel).toBe("low");
    // FluNet's two series end 2024-03: their scores rest on the season's window, so they are left out and say why.
    expect(flu.countries.filter((c: { surveillance: string }) => c.surveillance === "series")).toEqual([]);
    expect(flu.notCurrent.map((c: { code: string; asOf: string }) => [c.code, c.asOf])).toEqual([["THA", "2024-03-31"], ["VNM", "2024-03-31"]]);
    expect(flu.notCurrent[0].reason).toBe((await query({ ...BANGKOK, diseaseType: "influenza", timeframe: "90d" })).body.error.message);
    const malaria = (await status("diseaseType=malaria")).body.data;
    expect(malaria.provinces).toEqual([]);
    expect(malaria.countries.find((c: { code: string }) => c.code === "NGA")).toMatchObject({ surveillance: "series", outbreakStatus: "no_recent_data", asOf: "2022-12-31", current: false });
  });

  it("400 for general or a bad timeframe, 401 without a key, 503 without an outbreak service", async () => {
    for (const [q, message] of [
      ["diseaseType=general", 'diseaseType: Invalid option: expected one of "dengue"|"covid"|"cholera"|"malaria"|"influenza"'],
      ["diseaseType=dengue&timeframe=2y", 'timeframe: Invalid option: expected one of "7d"|"30d"|"90d"'],
      ["", "diseaseType: required"],
    ]) {
      const r = await status(q);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toMatchObject({ code: "VALIDATION_ERROR", message });
    }
    expect((await fetch(`${server.base}/api/outbreak-radar/status?diseaseType=dengue`)).status).toBe(401);
    expect((await status("diseaseType=dengue", bare)).status).toBe(503);
  });

  it("seeded random query strings: 200 or 400 in the envelope, never anything else", async () => {
    const r = rng(43);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const parts = [
        `diseaseType=${pick(["dengue", "malaria", "cholera", "covid", "influenza", "general", "Dengue", "", "__proto__", "dengue,malaria"])}`,
        `timeframe=${pick(["7d", "30d", "90d", "1y", "", "30D"])}`,
        pick(["diseaseType=dengue&diseaseType=malaria", "x=1", "%zz=1", "timeframe[]=7d", ""]),
      ];
      const q = parts.filter(() => r() < 0.8).join("&");
      const res = await status(q);
      seen.add(res.status);
      if (res.status === 200) expect(res.body.data.countries.length + res.body.data.notCurrent.length, q).toBeGreaterThan(0);
      else {
        expect(res.status, q).toBe(400);
        expect(res.body.error.code, q).toBe("VALIDATION_ERROR");
      }
    }
    expect([...seen].sort()).toEqual([200, 400]);
  });
});

describe("errors", () => {
  it("404 NOT_FOUND at sea, with the distance to the coast", async () => {
    for (const [p, km] of [[{ lat: 10, lng: 95 }, 220.7], [{ lat: -30, lng: -120 }, 757.2]] as const) {
      const { status, body } = await query({ ...p, diseaseType: "dengue" });
      expect(status).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
      expect(body.error.message).toBe(
        `No surveillance data at sea: the point lies in no country (Natural Earth 1:10m), ${km} km from the nearest coast; the outbreak radar answers for points in a country`,
      );
    }
  });

  it("404 NOT_FOUND just off a coast with no country's land within the tolerance (a Spratly reef, no ISO code)", async () => {
    const { status, body } = await query({ lat: 10.38, lng: 114.36, diseaseType: "general" });
    expect(status).toBe(404);
    expect(body.error.message).toBe(
      "No surveillance data at sea: the point lies in no country (Natural Earth 1:10m), 0.2 km from the nearest coast, and no country's land lies 2 km around it; the outbreak radar answers for points in a country",
    );
  });

  it("404 NOT_FOUND naming the coverage in a country without a series or news for the disease", async () => {
    const { status, body } = await query({ lat: 52.52, lng: 13.4, diseaseType: "malaria" });
    expect(status).toBe(404);
    expect(body.error.message).toBe(
      "No Malaria data for Germany (DEU): WHO Global Health Observatory, MALARIA_CONF_CASES (confirmed malaria cases) has national series for 108 countries, not this one, and WHO Disease Outbreak News has no item about Malaria in Germany up to 2026-05-13",
    );
    const details = (body.error as unknown as { details: { country: string; coverage: { series: { countries: string[] } } } }).details;
    expect(details.country).toBe("DEU");
    expect(details.coverage.series.countries).toHaveLength(108);
    expect(details.coverage.series.countries).toContain("NGA");
    const covid = await query({ lat: 21.03, lng: 105.85, diseaseType: "covid" });
    expect([covid.status, covid.body.error.message.split(", not this one")[0]]).toEqual([
      404,
      "No COVID-19 data for Vietnam (VNM): Our World in Data COVID-19 dataset, Thailand daily new cases (CC BY 4.0) has national series for 1 country (THA)",
    ]);
  });

  it("400 VALIDATION_ERROR for each rule, naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ lng: 100, diseaseType: "dengue" }, "lat: required"],
      [{ lat: 13, diseaseType: "dengue" }, "lng: required"],
      [{ lat: 13, lng: 100 }, "diseaseType: required"],
      [{ lat: 91, lng: 100, diseaseType: "dengue" }, "lat:"],
      [{ lat: -90.5, lng: 100, diseaseType: "dengue" }, "lat:"],
      [{ lat: 13, lng: 180.1, diseaseType: "dengue" }, "lng:"],
      [{ lat: "13", lng: 100, diseaseType: "dengue" }, "lat:"],
      [{ lat: 13, lng: 100, diseaseType: "ebola" }, "diseaseType:"],
      [{ lat: 13, lng: 100, diseaseType: "dengue", timeframe: "1y" }, "timeframe:"],
      [{ lat: 13, lng: 100, diseaseType: "dengue", extra: 1 }, "extra: unknown field"],
    ];
    for (const [body, message] of cases) {
      const r = await query(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("VALIDATION_ERROR");
      expect(r.body.error.message.startsWith(message), r.body.error.message).toBe(true);
    }
    const res = await postJson(server.base, PATH, "{not json", server.key);
    expect(res.status).toBe(400);
  });

  it("401 without a key; 405 on GET; 503 when the server has no outbreak service", async () => {
    expect((await postJson(server.base, PATH, { ...BANGKOK, diseaseType: "dengue" }, undefined)).status).toBe(401);
    expect((await fetch(server.base + PATH, { headers: { "x-api-key": server.key } })).status).toBe(405);
    const r = await query({ ...BANGKOK, diseaseType: "dengue" }, bare);
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("rebuilding from the same data publishes nothing (standalone builder)", async () => {
    const again = await buildOutbreakSnapshot({ dataDir: dataDir(), artifactsDir: artifacts, env: {} });
    expect(again).toEqual({ status: "unchanged", asOf: "2026-05-13" });
  }, 20_000);
});

describe("burden per 100,000 compares places; the channel says what is unusual (issue 22)", () => {
  const here = async (lat: number, lng: number, diseaseType: string, timeframe = "30d") => (await query({ lat, lng, diseaseType, timeframe })).body.data;

  it("dengue: Colombo (Sri Lanka, 274 per 100,000) and Kuala Lumpur above Paris, Rome and Houston (under 1 per 100,000: low)", async () => {
    const colombo = await here(6.93, 79.85, "dengue");
    const kl = await here(3.14, 101.69, "dengue");
    const low = await Promise.all([here(48.86, 2.35, "dengue"), here(41.9, 12.5, "dengue"), here(29.76, -95.37, "dengue")]);
    for (const d of low) {
      expect(d.details.diseases[0].burden!.rate, d.country.code).toBeLessThan(1);
      expect(d.riskLevel, d.country.code).toBe("low");
      expect(d.details.diseases[0].importedCaveat, d.country.code).not.toBeNull();
    }
    // Sri Lanka: the 12 months to 2024-08 over its 2024 population (21,916,000).
    const b = colombo.details.diseases[0].burden!;
    expect([b.period, b.population, b.populationYear]).toEqual([{ from: "2023-09-01", to: "2024-08-31" }, 21_916_000, 2024]);
    expect(b.rate).toBe(Number(((b.cases! / 21_916_000) * 1e5).toPrecision(3)));
    expect(colombo.riskLevel).toBe("medium"); // 100–300 per 100,000: Brazil MoH "medium"
    expect(kl.riskLevel).toBe("high"); // > 300
    for (const d of low) expect(colombo.riskScore).toBeGreaterThan(d.riskScore);
    expect(colombo.details.diseases[0].importedCaveat).toBeNull();
  });

  it("malaria: Lagos and Kinshasa ≥ 60 from WHO's estimates; Colombo low (Sri Lanka: 0 per 1,000 at risk)", async () => {
    const [lagos, kinshasa, colombo] = await Promise.all([here(6.45, 3.39, "malaria"), here(-4.32, 15.31, "malaria"), here(6.93, 79.85, "malaria")]);
    expect(lagos.riskScore).toBeGreaterThanOrEqual(60);
    expect(kinshasa.riskScore).toBeGreaterThanOrEqual(60);
    expect(kinshasa.details.diseases[0].burden).toMatchObject({ rate: 310, unit: "cases per 1,000 population at risk a year", cases: null });
    expect([colombo.riskScore, colombo.riskLevel]).toEqual([0, "low"]);
    expect(colombo.details.basis).toMatch(/^national: /);
    expect(colombo.details.confidence).toBeGreaterThan(0);
  });

  it("cholera: Haiti's series ends in 2016, its rate stands; WHO DON2928 (2025-08-29) raises no_recent_data to watch only within a year of today", async () => {
    const d = await here(18.54, -72.34, "cholera", "90d");
    const r = d.details.diseases[0];
    expect(r.channel).not.toBeNull();
    // 2026-11-28: DON2928 is 456 days old, so nothing raises the status; it is still cited.
    expect([d.outbreakStatus, d.trend, d.riskScore, d.riskLevel]).toEqual(["no_recent_data", "unknown", 71.8, "high"]);
    expect(r.statusFromNews).toBeNull();
    expect(d.details.news[0].id).toBe("DON2928");
    expect(d.summary).toContain("score 71.8, high, the rate of 2016. No recent data: the WHO Global Health Observatory, reported cholera cases by country series of Haiti (HTI) last reports 2016 (2016-12-31), 3619 days before 2026-11-28");
    // 2016 data, 9.9 years before today: the confidence says so.
    expect(r.seriesAgeYears).toBe(9.9);
    expect(d.details.confidenceLabel).toBe("low");
    // On the news file's own date (2026-05-13) the item is 257 days old: watch, cited.
    const may = at("2026-05-13").query({ lat: 18.54, lng: -72.34, diseaseType: "cholera", timeframe: "90d" });
    expect(may.outbreakStatus).toBe("watch");
    expect(may.details.diseases[0].statusFromNews).toEqual({ id: "DON2928", date: "2025-08-29" });
    expect(may.summary).toContain(
      "WHO Disease Outbreak News DON2928 (2025-08-29) on Cholera in Haiti within the 365 days (the series is not current) before 2026-05-13 raises the status from no_recent_data to watch.",
    );
  });

  it("news alone never lifts a level above low nor sets watch: influenza in Paris, Dhaka, Miami, Lagos and Sydney (was 30, medium)", async () => {
    const places = [[48.85, 2.35], [23.81, 90.41], [25.76, -80.19], [6.45, 3.4], [-33.87, 151.2]] as const;
    for (const [lat, lng] of places) {
      const d = await here(lat, lng, "influenza");
      // DON2938 (2025-12-10) is 353 days before 2026-11-28: within the year, so 10.
      expect([d.country.code, d.outbreakStatus, d.riskScore, d.riskLevel, d.trend, d.asOf], `${lat},${lng}`).toEqual([d.country.code, "news_only", 10, "low", "unknown", "2025-12-10"]);
      expect(d.details.currency).toMatchObject({ current: false, ageDays: 353 });
    }
    // Ten days after DON2938: the news-only maximum, still low.
    const paris = at("2025-12-20").query({ lat: 48.85, lng: 2.35, diseaseType: "influenza", timeframe: "30d" });
    expect([paris.outbreakStatus, paris.riskScore, paris.riskLevel, paris.details.currency.current]).toEqual(["news_only", 25, "low", true]);
    expect(paris.summary).toContain("News alone gives no rate: score 25, low.");
  });

  it("news only: a confidence of at most 0.2 and the reason there is no rate", async () => {
    const d = await here(52.52, 13.4, "influenza");
    expect(d.outbreakStatus).toBe("news_only");
    expect(d.details.confidence).toBeLessThanOrEqual(0.2);
    expect(d.details.diseases[0].burdenNote).toMatch(/no Influenza count series for Germany/);
  });
});

describe("validation floors: dengue burden against OpenDengue's 2023–24 cases per 100,000 (docs/validation.md)", () => {
  it("Spearman ≥ 0.8 over every country with 2023–24 data; under 1 per 100,000 low, over 1,000 high or critical; landmark places as expected", () => {
    const v = validateOutbreaks(outbreakService, dataDir());
    expect(v.dengue.countries).toBeGreaterThanOrEqual(100);
    expect(v.dengue.spearman!).toBeGreaterThanOrEqual(0.8);
    expect(v.dengue.underOneNotLow.map((r) => r.country)).toEqual([]);
    expect(v.dengue.overThousandBelowHigh.map((r) => r.country)).toEqual([]);
    expect(v.landmarks.filter((l) => l.ok === false).map((l) => l.place)).toEqual([]);
    expect(v.landmarks.filter((l) => l.ok === true).length).toBeGreaterThanOrEqual(8);
  });

  it("Spearman with ties averaged", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(spearman([1, 1, 2], [5, 5, 9])).toBeCloseTo(1, 12);
    expect(spearman([1, 2], [1, 2])).toBeNull();
  });
});
