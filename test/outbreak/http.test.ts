// End to end: the outbreak snapshot built from the real data mirror, served over HTTP. Expected numbers were
// computed by hand from the CSV files (Bangkok December counts 2017–2021: 448, 297, 765, 335, 90).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { buildOutbreakSnapshot } from "../../pipeline/snapshots/outbreaks.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { openOutbreakService } from "../../server/services/outbreak-service.ts";
import type { ArtifactStore } from "../../server/data/artifact-store.ts";
import { postJson, silent } from "../server/helpers.ts";
import { startOutbreakServer } from "./helpers.ts";
import type { OutbreakData } from "../../server/schemas-outbreak.ts";

const PATH = "/api/outbreak-radar/query";
const BANGKOK = { lat: 13.75, lng: 100.5 };
let artifacts: string;
let server: Awaited<ReturnType<typeof startOutbreakServer>>;
let bare: Awaited<ReturnType<typeof startOutbreakServer>>;
let store: ArtifactStore<unknown>;

beforeAll(async () => {
  artifacts = mkdtempSync(join(tmpdir(), "outbreak-art-"));
  // Through the `make snapshots` registry, as production builds it.
  const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir: artifacts, only: ["outbreaks"], env: {} });
  expect(built.outbreaks.status).toBe("published");
  const opened = await openOutbreakService(artifacts, silent);
  store = opened.store as ArtifactStore<unknown>;
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
  it("dengue, 30d in Bangkok: December 2022 against the Decembers of 2017–2021", async () => {
    const { status, body } = await query({ ...BANGKOK, diseaseType: "dengue" });
    expect(status).toBe(200);
    const d = body.data;
    expect(d.province).toEqual({ code: "TH-10", name: "Bangkok" });
    expect(d.timeframe).toBe("30d");
    expect(d.asOf).toBe("2022-12-31");
    expect(d.outbreakStatus).toBe("alert");
    expect(d.riskScore).toBe(87.4); // 80 + 20 * (873 - 638.2) / 638.2
    expect(d.riskLevel).toBe("critical");
    expect(d.trend).toBe("decreasing"); // 873 against 1246 in November
    expect(d.details.diseases[0].channel).toEqual({ median: 335, p75: 448, p90: 638.2, baselineWindows: 5, baseline: "seasonal" });
    expect(d.details.diseases[0].casesInWindow).toBe(873);
    expect(d.activeClusters).toBe(8);
    expect(d.caseEstimate).toBe(1788);
    expect(d.details.clusterRadiusKm).toBe(100);
    expect(d.summary).toContain("873 cases in 2022-12");
    expect(d.details.keyFindings).toContain("Trend decreasing: 873 cases in 2022-12-01..2022-12-31 against 1,246 in 2022-11-01..2022-11-30.");
    expect(d.details.keyFindings.some((f: string) => f.startsWith("Nationally 2,447 cases in 2025-03 (as of 2025-03-31)"))).toBe(true);
    expect(d.details.keyFindings).toContain(
      "2024-05-30: WHO Disease Outbreak News DON2870 on Dengue fever, unspecified (Thailand), https://www.who.int/emergencies/disease-outbreak-news/item/2024-DON518",
    );
    expect(d.details.intelligence).toContain("median 335, 75th percentile 448, 90th percentile 638");
    expect(d.dataSources[0]).toMatch(/^OpenDengue V1\.3/);
  });

  it("dengue, 90d: October–December 2022 (3,233) against the same quarter of 2017–2021", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "dengue", timeframe: "90d" });
    const r = body.data.details.diseases[0];
    expect(r.casesInWindow).toBe(1114 + 1246 + 873);
    expect(r.casesPreviousWindow).toBe(1675);
    expect(r.channel?.median).toBe(1326);
    expect(r.channel?.p75).toBe(1748);
    expect(r.channel?.p90).toBeCloseTo(2943.8, 9);
    expect(body.data.outbreakStatus).toBe("alert");
    expect(body.data.trend).toBe("increasing");
    expect(body.data.riskScore).toBe(82);
    expect(r.window).toEqual({ from: "2022-10-01", to: "2022-12-31" });
  });

  it("7d on monthly dengue data answers with the latest month, like 30d", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "dengue", timeframe: "7d" });
    expect(body.data.details.diseases[0].window).toEqual({ from: "2022-12-01", to: "2022-12-31" });
  });

  it("malaria: country series, 2021 (3,279) against 2016–2020", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "malaria" });
    const d = body.data;
    expect([d.asOf, d.outbreakStatus, d.trend, d.caseEstimate, d.activeClusters, d.riskScore]).toEqual(["2021-12-31", "normal", "decreasing", 3279, 0, 14.6]);
    expect(d.details.diseases[0].channel).toEqual({ median: 6750, p75: 11440, p90: 15256, baselineWindows: 5, baseline: "seasonal" });
    expect(d.details.diseases[0].area).toEqual({ code: "THA", name: "Thailand", level: "country" });
  });

  it("cholera: 2016 (52) against 2011–2015 (279, 29, 8, 12, 125); news DON2928 of 2025-08-29", async () => {
    const { body } = await query({ lat: 18.79, lng: 98.98, diseaseType: "cholera" }); // Chiang Mai
    const d = body.data;
    expect(d.province.code).toBe("TH-50");
    expect([d.asOf, d.outbreakStatus, d.trend, d.caseEstimate]).toEqual(["2016-12-31", "watch", "decreasing", 52]);
    expect(d.details.diseases[0].channel?.median).toBe(29);
    expect(d.details.news[0].id).toBe("DON2928");
    expect(d.details.keyFindings.some((f: string) => f.startsWith("2025-08-29: WHO Disease Outbreak News DON2928"))).toBe(true);
  });

  it("covid: the 30 days to 2021-07-30 against the 8 windows before", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "covid", timeframe: "30d" });
    const d = body.data;
    expect([d.asOf, d.outbreakStatus, d.trend, d.riskScore, d.caseEstimate]).toEqual(["2021-07-30", "alert", "increasing", 100, 319074]);
    expect(d.details.diseases[0].window).toEqual({ from: "2021-07-01", to: "2021-07-30" });
    expect(d.details.diseases[0].channel?.baseline).toBe("recent");
  });

  it("influenza: news only, says so, no case numbers", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "influenza" });
    const d = body.data;
    expect(d.outbreakStatus).toBe("news_only");
    expect(d.details.surveillance).toBe("news_only");
    expect([d.caseEstimate, d.activeClusters, d.trend]).toEqual([null, null, "unknown"]);
    expect(d.asOf).toBe("2026-05-13");
    expect(d.riskScore).toBe(30); // newest item DON2938 of 2025-12-10 is 154 days old
    expect(d.summary).toContain("no surveillance case series exists in the data");
    expect(d.summary).toContain("the newest DON2938 on 2025-12-10 (154 days before)");
    expect(d.dataSources).toEqual(["WHO Disease Outbreak News dataset (Torres Munguía et al. 2022, Sci Data 9:683)"]);
  });

  it("general: the worst disease leads, clusters and cases add up over diseases", async () => {
    const { body } = await query({ ...BANGKOK, diseaseType: "general" });
    const d = body.data;
    expect(d.details.diseases.map((x: { diseaseType: string }) => x.diseaseType)).toEqual(["dengue", "malaria", "cholera", "covid", "influenza"]);
    expect([d.riskScore, d.outbreakStatus, d.trend]).toEqual([100, "alert", "increasing"]); // covid leads
    expect(d.activeClusters).toBe(8 + 0 + 0 + 1);
    expect(d.caseEstimate).toBe(1788 + 3279 + 52 + 319074);
    expect(d.asOf).toBe("2022-12-31");
    expect(d.details.keyFindings).toHaveLength(5);
  });
});

describe("errors", () => {
  it("404 NOT_FOUND outside the 77 provinces (sea, abroad)", async () => {
    for (const p of [{ lat: 10, lng: 95 }, { lat: 48.85, lng: 2.35 }]) {
      const { status, body } = await query({ ...p, diseaseType: "dengue" });
      expect(status).toBe(404);
      expect(body.error.code).toBe("NOT_FOUND");
      expect(body.error.message).toBe("No surveillance data for this location: the outbreak radar covers Thailand's 77 provinces");
    }
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
