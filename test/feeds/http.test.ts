// End to end: snapshots built from the real feeds into a temp dir, the real app answering the score endpoint
// for every feed risk type in JSON and GeoJSON, schema-valid; 404 outside coverage; hot reload; a corrupted
// snapshot refused while the previous one keeps serving. (Drought here is the fake service of the server tests.)
import { riskLevel } from "../../lib/drought-scale.ts";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { listen, type RunningServer } from "../../server/serve.ts";
import { scoreData } from "../../server/schemas.ts";
import { openFeedRiskService } from "../../server/services/feed-risk-service.ts";
import { ScoreService } from "../../server/services/score-service.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { buildFlood } from "../../pipeline/snapshots/feed-builders.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { FakeDroughtService } from "../server/fake-service.ts";
import { silent, postJson } from "../server/helpers.ts";

const artifacts = mkdtempSync(join(tmpdir(), "feeds-http-"));
const key = generateKey();
let running: RunningServer;
let base = "";
let feeds: Awaited<ReturnType<typeof openFeedRiskService>>;

beforeAll(async () => {
  const r = await buildSnapshots({ dataDir: dataDir(), artifactsDir: artifacts, droughtArtifactsDir: inject("artifactsDir"), env: {}, now: new Date("2026-11-23T00:00:00Z") });
  for (const s of Object.values(r)) expect(s.status).toBe("published");
  feeds = await openFeedRiskService(artifacts, silent, { watch: false });
  const keyFile = join(artifacts, "keys.json");
  writeKeyFile(keyFile, { keys: [{ id: "k", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: new ScoreService(new FakeDroughtService(), feeds.service),
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points: 10000, duration: 60 } } }),
    logger: silent,
    ready: () => true,
  });
  running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
  base = `http://127.0.0.1:${running.port}`;
}, 60_000);

afterAll(async () => {
  feeds.stop();
  await running.shutdown();
});

const score = (body: Record<string, unknown>, q = "") => postJson(base, `/api/risk-map/score${q}`, body, key);
const BANGKOK = { lat: 13.75, lng: 100.5 };

describe("score endpoint for feed risk types", () => {
  for (const riskType of ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"]) {
    it(`${riskType}: JSON passes the schema, GeoJSON is a Feature`, async () => {
      const res = await score({ ...BANGKOK, riskType, includeHistorical: true, timeframe: "1y" });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: Record<string, unknown> & { details: Record<string, unknown> } };
      expect(body.success).toBe(true);
      expect(scoreData.safeParse(body.data).success).toBe(true);
      // The level is the spec's band of the score actually returned.
      expect(body.data.riskLevel).toBe(riskLevel(body.data.riskScore as number));
      expect(body.data.details.snapshotVersion).toBe(feeds.service.snapshotVersion(riskType as "flood"));
      expect(body.data.details[riskType]).toHaveProperty("historical");
      const geo = await score({ ...BANGKOK, riskType }, "?format=geojson");
      expect(geo.headers.get("content-type")).toMatch(/geo\+json/);
      const f = (await geo.json()) as { type: string; properties: { riskType: string; riskScore: number } };
      expect(f.type).toBe("Feature");
      expect(f.properties.riskType).toBe(riskType);
    });
  }

  it("heatwave: the level is the band of the combined score for every timeframe", async () => {
    for (const timeframe of ["7d", "30d", "90d", "1y"]) {
      const body = (await (await score({ ...BANGKOK, riskType: "heatwave", timeframe })).json()) as { data: { riskScore: number; riskLevel: string } };
      expect(body.data.riskLevel, timeframe).toBe(riskLevel(body.data.riskScore));
    }
  });

  it("flood near Khon Kaen: the 2011 Thailand monsoon flood (DFO) contributes", async () => {
    // The DFO archive places its 2011 Thailand floods at their centroids, the large one in the north-east (17.0N, 102.8E).
    const body = (await (await score({ lat: 16.9, lng: 102.8, riskType: "flood", timeframe: "1y" })).json()) as { data: { riskScore: number; details: { flood: { contributingEvents: { source: string; date: string }[] } } } };
    expect(body.data.riskScore).toBeGreaterThan(0);
    expect(body.data.details.flood.contributingEvents.some((e) => e.source === "DFO" && e.date.startsWith("2011"))).toBe(true);
  });

  it("flood at Bangkok: the 1996 monsoon flood 33 km away leads, no phantom events", async () => {
    const body = (await (await score({ ...BANGKOK, riskType: "flood" })).json()) as { data: { riskScore: number; details: { flood: { contributingEvents: { id: string; distanceKm: number }[] } } } };
    const events = body.data.details.flood.contributingEvents;
    expect(events[0].id).toBe("DFO-1120");
    expect(events.map((e) => e.id)).not.toContain("FL-1103646");
    expect(body.data.riskScore).toBeGreaterThan(0);
  });

  it("flood at Phuket: the May 2026 GDACS Thailand flood is recent activity", async () => {
    const body = (await (await score({ lat: 8.4, lng: 98.3, riskType: "flood", timeframe: "30d" })).json()) as { data: { details: { flood: { recent: { events: number }; contributingEvents: { id: string }[] } } } };
    expect(body.data.details.flood.recent.events).toBeGreaterThanOrEqual(1);
    expect(body.data.details.flood.contributingEvents.map((e) => e.id)).toContain("FL-1103881");
  });

  it("storm over north-east Thailand finds NORU (2022), whose track crossed Thailand", async () => {
    const body = (await (await score({ lat: 15.2, lng: 104.8, riskType: "storm", includeHistorical: true })).json()) as { data: { riskScore: number; details: { storm: { contributingEvents: { name: string }[] } } } };
    expect(body.data.details.storm.contributingEvents.map((e) => e.name)).toContain("NORU");
    expect(body.data.riskScore).toBeGreaterThan(0);
  });

  it("flood at Bangkok: the drought grid's wet extremes are reported and folded in", async () => {
    type Grid = { used: boolean; gridMonth: string; cell: { lat: number; lng: number }; veryWetMonths: { record: number; latestYear: number }; term: number };
    const body = (await (await score({ ...BANGKOK, riskType: "flood" })).json()) as { data: { riskScore: number; summary: string; details: { flood: { climateGrid: Grid; weightedAnnualRate: number; recent: { weighted: number } } } } };
    const g = body.data.details.flood.climateGrid;
    expect(g.used).toBe(true);
    expect(g.gridMonth).toBe("2019-07");
    expect(g.cell).toMatchObject({ lat: 13.875, lng: 100.375 });
    expect(g.veryWetMonths.record).toBeGreaterThan(0);
    expect(body.data.summary).toContain("Drought grid (to 2019-07)");
    const f = body.data.details.flood;
    const x = f.weightedAnnualRate / 1.0 + f.recent.weighted / 1.0 + g.term;
    expect(body.data.riskScore).toBeCloseTo(100 * (1 - Math.exp(-x)), 0);
  });

  it("flood at sea inside the feed region: no grid cell, feeds alone, said so (not a 404)", async () => {
    const res = await score({ lat: 5.5, lng: 109.5, riskType: "flood" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { details: { flood: { climateGrid: { used: boolean; note: string } } } } };
    expect(body.data.details.flood.climateGrid.used).toBe(false);
    expect(body.data.details.flood.climateGrid.note).toMatch(/^no drought-grid cell with SPI-3 data within 27\.8 km/);
  });

  it("heatwave at Bangkok: the Bangkok Metropolis station's latest months as 1961–1990 percentiles", async () => {
    type Rec = { used: boolean; station: { id: string; distanceKm: number }; months: { month: string; percentile: number; hot: boolean }[]; hotMonths: number; countryScore: number };
    const body = (await (await score({ ...BANGKOK, riskType: "heatwave", timeframe: "90d" })).json()) as { data: { riskScore: number; details: { heatwave: { stationRecord: Rec } } } };
    const r = body.data.details.heatwave.stationRecord;
    expect(r.used).toBe(true);
    expect(r.station.id).toBe("TH000048455");
    expect(r.months.map((m) => m.month)).toEqual(["2019-04", "2019-05", "2019-06"]);
    expect(r.months.map((m) => m.percentile)).toEqual([100, 100, 100]);
    expect(r.hotMonths).toBe(3);
    // Excess 3 over 3 months: station term 1 − e^−1, folded with the country score as a probabilistic OR.
    expect(body.data.riskScore).toBeCloseTo(100 * (1 - (1 - r.countryScore / 100) * Math.exp(-1)), 0);
    expect(body.data.riskScore).toBeGreaterThanOrEqual(r.countryScore);
  });

  it("outside coverage: 404 NOT_FOUND, never a zero", async () => {
    for (const [riskType, lat, lng] of [["flood", 48, 2], ["heatwave", 21.0, 105.8], ["sea_level_rise", 18.8, 99.0]] as const) {
      const res = await score({ lat, lng, riskType });
      expect(res.status, riskType).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    }
  });
});

describe("snapshot hot reload", () => {
  it("loads a newly published snapshot and refuses a corrupted one, the previous keeps serving", async () => {
    const store = feeds.stores.flood!;
    const first = store.current()!.version;
    const built = await buildFlood({ dataDir: dataDir(), env: {}, now: new Date() });
    const second = await publishSnapshot({ artifactsDir: artifacts, name: "flood", ...built, now: new Date("2026-11-24T00:00:00Z") });
    expect(await store.reload()).toBe("loaded");
    expect(store.current()!.version).toBe(second.version);
    expect(second.version).not.toBe(first);
    const third = await publishSnapshot({ artifactsDir: artifacts, name: "flood", ...built, now: new Date("2026-11-25T00:00:00Z") });
    writeFileSync(join(third.dir, "snapshot.json"), "{}");
    expect(await store.reload()).toBe("refused");
    expect(store.current()!.version).toBe(second.version);
    const res = await score({ ...BANGKOK, riskType: "flood" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { details: { snapshotVersion: string } } }).data.details.snapshotVersion).toBe(second.version);
  });
});
