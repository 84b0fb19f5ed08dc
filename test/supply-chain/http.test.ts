// End to end: the ports snapshot built from the real mirror, published to a temp ARTIFACTS_DIR, followed by an
// ArtifactStore, served by the real app. Every queryType, portCode vs coordinates, 400 and 404, hot reload.
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { buildPortsFiles, PORTS_SNAPSHOT, PORTS_SOURCES, type PortsSnapshotFiles } from "../../pipeline/snapshots/ports.ts";
import { createApp } from "../../server/app.ts";
import { FileKeyStore, generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import type { ArtifactStore } from "../../server/data/artifact-store.ts";
import { createRateLimiter } from "../../server/limits/rate-limit.ts";
import { listen, type RunningServer } from "../../server/serve.ts";
import { openSupplyChainService, type PortsSnapshot } from "../../server/services/supply-chain-service.ts";
import { FakeDroughtService } from "../server/fake-service.ts";
import { postJson, silent } from "../server/helpers.ts";

let dir: string;
let built: PortsSnapshotFiles;
let store: ArtifactStore<PortsSnapshot>;
let running: RunningServer;
let base: string;
const key = generateKey();

const publish = (day: number) =>
  publishSnapshot({
    artifactsDir: join(dir, "artifacts"),
    name: PORTS_SNAPSHOT,
    files: built.files,
    asOf: built.asOf,
    sources: PORTS_SOURCES,
    inputs: built.inputs,
    qc: built.qc,
    report: "report.json",
    now: new Date(Date.UTC(2026, 7, day)),
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "supply-chain-"));
  built = buildPortsFiles(dataDir());
  await publish(15);
  const opened = await openSupplyChainService(join(dir, "artifacts"), silent);
  store = opened.store;
  store.stop(); // the test drives reloads itself
  const keyFile = join(dir, "keys.json");
  writeKeyFile(keyFile, { keys: [{ id: "k1", hash: hashKey(key), plan: "free", status: "active", createdAt: "2024-01-01T00:00:00.000Z" }] });
  const app = createApp({
    drought: new FakeDroughtService(),
    keys: new FileKeyStore(keyFile, { checkIntervalMs: 0 }),
    limiter: createRateLimiter({ plans: { free: { points: 10000, duration: 60 } } }),
    logger: silent,
    ready: () => true,
    supplyChain: opened.service,
  });
  running = await listen(app, { port: 0, host: "127.0.0.1", logger: silent });
  base = `http://127.0.0.1:${running.port}`;
}, 60000);

afterAll(async () => {
  await running?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads response JSON by path
type Json = any;

async function query(body: unknown) {
  const res = await postJson(base, "/api/supply-chain/query", body, key);
  return { status: res.status, json: (await res.json()) as { success: boolean; data: Record<string, Json>; error: { code: string; message: string; details: Json } } };
}

describe("POST /api/supply-chain/query", () => {
  it("congestion for Laem Chabang: numbers from the PortWatch series, inputs listed, as-of time", async () => {
    const { status, json } = await query({ portCode: "THLCH", queryType: "congestion" });
    expect(status).toBe(200);
    const d = json.data;
    expect(d.port).toEqual({ code: "THLCH", name: "Laem Chabang" });
    expect(d).toMatchObject({ queryType: "congestion", congestionIndex: 69.4, vesselCount: 142, avgDwellDays: null, etaDelayHours: null, disruptionRisk: "low" });
    expect(d.asOf).toBe("2026-08-14T23:59:59.000Z");
    expect(d.details.activity).toEqual({
      seriesId: "port1197",
      latestDay: "2026-08-14",
      windowDays: 30,
      meanDailyCalls: 19.27,
      baselineMeanDailyCalls: 17.7,
      baselineWindows: 155,
      baselineYears: 5,
      ratio: 1.09,
      percentile: 69.4,
    });
    expect(d.details.inputs).toMatchObject({ portwatchDaily: true, countryTankerSeries: true, worldPortIndex: true, ais: false });
    expect(d.details.missing).toEqual([
      "avgDwellDays: no AIS fixes within 30 km of the port in the AIS sample",
      "etaDelayHours: no AIS fixes within 30 km of the port in the AIS sample",
    ]);
    expect(d.details.congestion.congestionIndex).toBe(69.4);
    expect(d.details.keyFindings).toContain("PortWatch lists this port as TH SRI; matched to THLCH by name.");
    expect(d.summary).toBe("Laem Chabang (THLCH): congestion index 69.4; disruption risk low; 2 fields without data.");
  });

  it("vessel_count splits the 7-day calls by vessel type and adds the country tanker series", async () => {
    const { json } = await query({ portCode: "THLCH", queryType: "vessel_count" });
    const v = json.data.details.vessels;
    expect(v.portCalls7d).toBe(142);
    const t = v.portCalls7dByType;
    expect(t.container + t.dry_bulk + t.general_cargo + t.roro + t.tanker).toBe(142);
    expect(v.countryTankerLatestDay).toBe("2026-04-17");
    expect(Number.isInteger(v.countryTankerCalls7d)).toBe(true);
    expect(json.data.details.congestion).toBeUndefined();
  });

  it("cargo_delay for Port Klang: Little's law from the AIS sample and the 2019 arrival rate", async () => {
    const { json } = await query({ portCode: "MYPKG", queryType: "cargo_delay" });
    const d = json.data;
    expect(d.details.inputs.ais).toBe(true);
    const { moored, anchored, arrivalsPerDay, arrivalWindow } = d.details.delay;
    expect(arrivalWindow).toBe("2019-06-21..2019-07-21");
    expect(d.avgDwellDays).toBe(Math.round((moored / arrivalsPerDay) * 100) / 100);
    expect(d.etaDelayHours).toBe(Math.round(((anchored * 24) / arrivalsPerDay) * 10) / 10);
    expect(d.avgDwellDays).toBeGreaterThan(0);
  });

  it("trade_risk for Phuket: no activity series, a nearby GDACS flood → medium, null fields explained", async () => {
    const { json } = await query({ portCode: "THPKT", queryType: "trade_risk" });
    const d = json.data;
    expect(d).toMatchObject({ congestionIndex: null, vesselCount: null, avgDwellDays: null, etaDelayHours: null, disruptionRisk: "medium" });
    expect(d.details.disruption).toMatchObject({ hazardPoints: 1, anomalyPoints: 0, points: 1 });
    expect(d.details.disruption.hazardsActive[0]).toMatchObject({ id: "FL-1103881", kind: "flood", alertLevel: "Green", distanceKm: 64.8 });
    expect(d.details.inputs.portwatchDaily).toBe(false);
    expect(d.details.missing).toContain("congestionIndex: no PortWatch daily port calls for this port");
    expect(d.details.trade).toMatchObject({ shareCountryImport: 0.05, shareCountryExport: 0.97 });
  });

  it("a coordinate selects the nearest port within 50 km; portCode wins when both are sent", async () => {
    const near = await query({ lat: 13.09, lng: 100.9, queryType: "congestion" });
    expect(near.json.data.port.code).toBe("THLCH");
    expect(near.json.data.details.resolution).toEqual({ by: "coordinates", distanceKm: 1.95, coordinatesIgnored: false, radiusKm: 50 });
    const both = await query({ lat: 13.09, lng: 100.9, portCode: "THMAT", queryType: "congestion" });
    expect(both.json.data.port.code).toBe("THMAT");
    expect(both.json.data.details.resolution).toMatchObject({ by: "portCode", coordinatesIgnored: true });
  });

  it("answers 404 for an unknown code, a code without the port function and a point far from ports", async () => {
    const unknown = await query({ portCode: "THZZZ", queryType: "congestion" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: "NOT_FOUND", message: "Unknown port THZZZ: not a UN/LOCODE entry with the port function" });
    expect((await query({ portCode: "THCAN", queryType: "congestion" })).status).toBe(404); // Amnat Charoen, inland
    const sea = await query({ lat: 0, lng: -140, queryType: "congestion" });
    expect(sea.status).toBe(404);
    expect(sea.json.error.message).toBe("No port within 50 km of this location");
  });

  it("answers 400 for missing or invalid fields", async () => {
    const cases: [unknown, string][] = [
      [{ portCode: "THLCH" }, "queryType: required"],
      [{ portCode: "THLCH", queryType: "eta" }, "queryType: Invalid option: expected one of \"congestion\"|\"vessel_count\"|\"cargo_delay\"|\"trade_risk\""],
      [{ portCode: "TH-LCH", queryType: "congestion" }, "portCode: must be a UN/LOCODE: 2-letter country code and 3 letters or digits (e.g. THLCH)"],
      [{ lat: 13, queryType: "congestion" }, "lng: required"],
      [{ lat: 95, lng: 100, queryType: "congestion" }, "lat: Too big: expected number to be <=90"],
      [{ portCode: "THLCH", queryType: "congestion", extra: 1 }, "extra: unknown field"],
    ];
    for (const [body, message] of cases) {
      const r = await query(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe("VALIDATION_ERROR");
      expect(r.json.error.message).toBe(message);
    }
  });

  it("hot reload: a new snapshot is served; a corrupted one is refused and the previous keeps serving", async () => {
    const first = (await query({ portCode: "THLCH", queryType: "congestion" })).json.data.dataVersion;
    const second = await publish(16);
    expect(await store.reload()).toBe("loaded");
    const after = (await query({ portCode: "THLCH", queryType: "congestion" })).json.data;
    expect(after.dataVersion).toBe(second.version);
    expect(after.dataVersion).not.toBe(first);
    const third = await publish(17);
    appendFileSync(join(third.dir, "ports.json"), " ");
    expect(await store.reload()).toBe("refused");
    const still = (await query({ portCode: "THLCH", queryType: "congestion" })).json.data;
    expect(still.dataVersion).toBe(second.version);
    expect(still.congestionIndex).toBe(69.4);
  });
});
