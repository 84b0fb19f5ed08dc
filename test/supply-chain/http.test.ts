// End to end: the ports snapshot built from the real mirror, published to a temp ARTIFACTS_DIR, followed by an
// ArtifactStore, served by the real app (fixture.ts). Every queryType on the Thai and Malaysian ports with daily
// series, portCode vs coordinates, 400 and 404, hot reload. Ports worldwide: world.test.ts.
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rng } from "../../bench/random.ts";
import { startSupplyChainServer, type Json, type SupplyChainServer } from "./fixture.ts";

let server: SupplyChainServer;
beforeAll(async () => {
  server = await startSupplyChainServer();
}, 120000);
afterAll(() => server?.close());

const query = (body: unknown) => server.query(body);
const NO_DWELL =
  "no data can support it: a dwell needs each call's arrival and departure; PortWatch counts port calls without their durations, and the only vessel positions are one minute of AIS messages of 2018-07-06, which show the vessels there at that moment, not how long they stay";
const NO_WAIT =
  "no data can support it: a waiting time needs each vessel's time at anchor before it berths; PortWatch counts port calls without their durations, and the only vessel positions are one minute of AIS messages of 2018-07-06, which show the vessels there at that moment, not how long they stay";

describe("POST /api/supply-chain/query", () => {
  it("congestion for Laem Chabang: numbers from the PortWatch series, inputs listed, as-of time", async () => {
    const { status, json } = await query({ portCode: "THLCH", queryType: "congestion" });
    expect(status).toBe(200);
    const d = json.data;
    expect(d.port).toEqual({ code: "THLCH", name: "Laem Chabang" });
    expect(d).toMatchObject({ queryType: "congestion", congestionIndex: 69.4, vesselCount: 142, avgDwellDays: null, etaDelayHours: null, disruptionRisk: "low" });
    expect(d.asOf).toBe("2026-08-14"); // the last day of Laem Chabang's daily port calls (the newest datum used), as a day
    expect(d.details.activity).toEqual({
      seriesId: "port1197",
      firstDay: "2019-01-01",
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
    expect(d.details.missing).toEqual([`avgDwellDays: ${NO_DWELL}`, `etaDelayHours: ${NO_WAIT}`]);
    expect(d.details.congestion.congestionIndex).toBe(69.4);
    expect(d.details.congestion.measures).toBe("how busy the port is against its own seasonal normal (call volume), not waiting or berthing time, which no data here record");
    expect(d.details.keyFindings).toContain("PortWatch lists this port as TH SRI; matched to THLCH by name.");
    expect(d.summary).toBe(
      "Laem Chabang (THLCH): congestion index 69.4 (30 days to 2026-08-14, not current); disruption risk low (30 days to 2026-05-30, not current); 2 fields without data. Not current: the newest data used are of 2026-08-14, 106 days before 2026-11-28.",
    );
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

  it("cargo_delay for Port Klang: no dwell or waiting time (no data give call durations), the AIS minute shown as what it is", async () => {
    const { json } = await query({ portCode: "MYPKG", queryType: "cargo_delay" });
    const d = json.data;
    expect(d.details.inputs.ais).toBe(true);
    expect(d).toMatchObject({ avgDwellDays: null, etaDelayHours: null });
    expect(d.details.missing).toEqual([`avgDwellDays: ${NO_DWELL}`, `etaDelayHours: ${NO_WAIT}`]);
    expect(d.details.figures.avgDwellDays).toEqual({ period: null, recent: null, asOf: null, source: null, currency: null, note: `null: ${NO_DWELL}` });
    // ais_sample.csv: MMSIs 533180037 and 636016928 moored (status 5) nearest to port960; none at anchor.
    expect(d.details.delay).toMatchObject({ avgDwellDays: null, etaDelayHours: null, aisMinute: { moored: 2, anchored: 0, vessels: 4, period: { from: "2018-07-06", to: "2018-07-06" }, sampleTime: "2018-07-06T23:58:12.000Z" } });
    expect(d.details.delay.reason).toContain("a dwell needs each call's arrival and departure");
    expect(d.summary).toMatch(/^Port Klang \(Pelabuhan Klang\) \(MYPKG\): dwell and waiting time not available: the data hold no port-call durations \(the only vessel positions are one minute of 2018-07-06\);/);
  });

  it("trade_risk for Phuket: no activity series, a nearby GDACS flood → medium, null fields explained", async () => {
    const { json } = await query({ portCode: "THPKT", queryType: "trade_risk" });
    const d = json.data;
    expect(d).toMatchObject({ congestionIndex: null, avgDwellDays: null, etaDelayHours: null, disruptionRisk: "medium" });
    expect(d.details.disruption).toMatchObject({ hazardPoints: 1, anomalyPoints: 0, points: 1 });
    expect(d.details.disruption.hazardsActive[0]).toMatchObject({ id: "FL-1103881", kind: "flood", alertLevel: "Green", distanceKm: 64.8 });
    expect(d.details.inputs.portwatchDaily).toBe(false);
    expect(d.details.missing[0]).toMatch(/^congestionIndex: no PortWatch daily port calls for this port/);
    expect(d.details.trade).toMatchObject({ shareCountryImport: 0.05, shareCountryExport: 0.97 });
    expect(d.vesselCount).toBe(1); // PortWatch yearly average 76 calls × 7 / 365.25 = 1.46
  });

  it("a coordinate selects the nearest port within 50 km (its own or its PortWatch position); portCode wins when both are sent", async () => {
    const near = await query({ lat: 13.09, lng: 100.9, queryType: "congestion" });
    expect(near.json.data.port.code).toBe("THLCH");
    expect(near.json.data.details.resolution).toEqual({
      by: "coordinates",
      requestedCode: null,
      alias: null,
      distanceKm: 0.14, // to PortWatch's Laem Chabang at 13.0887337 N 100.8999916 E (the WPI point is 1.95 km away)
      coordinatesIgnored: false,
      radiusKm: 50,
      rule: "nearest port with PortWatch records in the nearest port's country",
      nearerPortWithoutRecords: null,
    });
    const both = await query({ lat: 13.09, lng: 100.9, portCode: "THMAT", queryType: "congestion" });
    expect(both.json.data.port.code).toBe("THMAT");
    expect(both.json.data.details.resolution).toMatchObject({ by: "portCode", coordinatesIgnored: true });
  });

  it("answers 404 for an unknown code, a code without the port function and a point far from ports", async () => {
    const unknown = await query({ portCode: "THZZZ", queryType: "congestion" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: "NOT_FOUND", message: "Unknown port THZZZ: UN/LOCODE, the World Port Index and PortWatch name no port with this code (GET /api/supply-chain/ports?bbox=west,south,east,north lists the ports of an area)" });
    expect((await query({ portCode: "THCAN", queryType: "congestion" })).status).toBe(404); // Amnat Charoen, inland
    const sea = await query({ lat: 0, lng: -140, queryType: "congestion" });
    expect(sea.status).toBe(404);
    expect(sea.json.error.message).toBe("No port within 50 km of this location (ports of UN/LOCODE, the World Port Index and PortWatch, worldwide)");
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
    const second = await server.publish(16);
    expect(await server.store.reload()).toBe("loaded");
    const after = (await query({ portCode: "THLCH", queryType: "congestion" })).json.data;
    expect(after.dataVersion).toBe(second.version);
    expect(after.dataVersion).not.toBe(first);
    const third = await server.publish(17);
    appendFileSync(join(third.dir, "ports.json"), " ");
    expect(await server.store.reload()).toBe("refused");
    const still = (await query({ portCode: "THLCH", queryType: "congestion" })).json.data;
    expect(still.dataVersion).toBe(second.version);
    expect(still.congestionIndex).toBe(69.4);
  });
});

describe("GET /api/supply-chain/ports", () => {
  it("the ports of a box as GeoJSON, those with a congestion index first, each as the congestion answer gives it", async () => {
    const { status, type, json } = await server.get("/api/supply-chain/ports?bbox=97,5,106,21&limit=2000");
    expect(status).toBe(200);
    expect(type).toBe("application/geo+json; charset=utf-8");
    // asOf: the newest datum the matched ports' figures use (Laem Chabang's and Map Ta Phut's daily port calls).
    expect(json).toMatchObject({ type: "FeatureCollection", truncated: false, asOf: "2026-08-14", details: { asOf: "2026-08-14", period: { to: "2026-08-14" } } });
    const features = json.features as { id: string; geometry: { coordinates: [number, number] }; properties: Json }[];
    expect(features.length).toBeGreaterThan(20);
    for (const f of features) {
      const [lng, lat] = f.geometry.coordinates;
      expect(lng >= 97 && lng <= 106 && lat >= 5 && lat <= 21, f.id).toBe(true);
      expect(f.properties.congestionIndex === null).toBe(f.properties.reason !== null);
    }
    const lch = features.find((f) => f.id === "THLCH")!;
    expect(lch.properties).toMatchObject({ code: "THLCH", name: "Laem Chabang", country: "TH", congestionIndex: 69.4, latestDay: "2026-08-14", reason: null });
    // With an index first: Laem Chabang and the other Thai ports with daily series lead the list.
    const withIndex = features.filter((f) => f.properties.congestionIndex !== null);
    expect(features.slice(0, withIndex.length)).toEqual(withIndex);
    expect(withIndex.map((f) => f.properties.congestionIndex)).toEqual([...withIndex.map((f) => f.properties.congestionIndex)].sort((a, b) => b - a));
    // A port without daily calls: null with the answer's own reason.
    const phuket = features.find((f) => f.id === "THPKT")!;
    const answer = (await query({ portCode: "THPKT", queryType: "congestion" })).json.data;
    expect(answer.congestionIndex).toBeNull();
    expect(`congestionIndex: ${phuket.properties.reason}`).toBe(answer.details.missing.find((m: string) => m.startsWith("congestionIndex:")));
    const calls = (answer.details.port.portwatch as { vesselCounts: { total: number } }[]).reduce((n, a) => n + a.vesselCounts.total, 0);
    expect(phuket.properties.yearlyPortCalls).toBe(Math.round(calls));
  });

  it("limit keeps the leading ports and links the next page; bad boxes and limits are 400", async () => {
    const all = (await server.get("/api/supply-chain/ports?bbox=97,5,106,21&limit=2000")).json;
    const few = (await server.get("/api/supply-chain/ports?bbox=97,5,106,21&limit=3")).json;
    expect(few.truncated).toBe(true);
    expect(few.features).toEqual(all.features.slice(0, 3));
    expect(few.numberMatched).toBe(all.features.length);
    const next = `/api/supply-chain/ports?bbox=97,5,106,21&limit=3&cursor=3@${server.store.current()!.version}`;
    expect(few).toMatchObject({ next, links: [{ rel: "next", type: "application/geo+json", href: next }] });
    expect(all).toMatchObject({ truncated: false, next: null, links: [] });
    const message = "bbox: bbox must be west,south,east,north in decimal degrees, west ≠ east, south < north";
    for (const [q, m] of [
      ["bbox=97,21,106,5", message],
      ["bbox=97,5,97,21", message],
      ["bbox=97,5,106", message],
      ["bbox=0x10,5,106,21", message],
      ["bbox=97,5,106,21&limit=0", "limit: Too small: expected number to be >=1"],
      ["bbox=97,5,106,21&limit=1.5", "limit: must be a whole number"],
      ["bbox=97,5,106,21&cursor=3", "cursor: must be the cursor of a next link (<offset>@<snapshot version>)"],
      ["limit=5", "bbox: required"],
    ]) {
      const r = await server.get(`/api/supply-chain/ports?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: m });
    }
  });

  it("walking the next links gives every port of the box exactly once, in the order of one large page", async () => {
    const one = (await server.get("/api/supply-chain/ports?bbox=90,-12,130,25&limit=2000")).json;
    expect(one.truncated).toBe(false);
    expect(one.numberMatched).toBe(one.features.length);
    expect(one.numberMatched).toBeGreaterThan(300);
    const walked: Json[] = [];
    let next: string | null = "/api/supply-chain/ports?bbox=90,-12,130,25&limit=100";
    let pages = 0;
    while (next !== null) {
      const page: Json = (await server.get(next)).json;
      walked.push(...page.features);
      pages++;
      expect(page.truncated).toBe(page.next !== null);
      next = page.next;
    }
    expect(pages).toBe(Math.ceil(one.numberMatched / 100));
    expect(walked).toEqual(one.features);
    expect(new Set(walked.map((f) => f.id)).size).toBe(walked.length);
  });

  it("a bbox with west > east crosses the antimeridian: the ports of both sides (Fiji, Samoa, Tonga)", async () => {
    const across = (await server.get("/api/supply-chain/ports?bbox=170,-25,-170,20&limit=2000")).json;
    expect(across.truncated).toBe(false);
    const west = (await server.get("/api/supply-chain/ports?bbox=170,-25,180,20&limit=2000")).json.features as Json[];
    const east = (await server.get("/api/supply-chain/ports?bbox=-180,-25,-170,20&limit=2000")).json.features as Json[];
    const ids = (fs: Json[]) => fs.map((f) => f.id).sort();
    expect(ids(across.features)).toEqual(ids([...west, ...east]));
    expect(west.length).toBeGreaterThan(0);
    expect(east.length).toBeGreaterThan(0);
    const codes = across.features.map((f: Json) => f.id);
    for (const code of ["FJSUV", "WSAPW"]) expect(codes).toContain(code);
    for (const f of across.features) {
      const [lng, lat] = f.geometry.coordinates;
      expect((lng >= 170 || lng <= -170) && lat >= -25 && lat <= 20, f.id).toBe(true);
    }
  });

  it("seeded random query strings: 200 with a collection or 400 in the envelope, never anything else", async () => {
    const r = rng(41);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const num = () => pick(["-180", "180", "90", "-90", "0", "10", "-10.5", "45", "97.5", "-120", "1e3", "abc", "", "NaN", "Infinity", "-0", "0x10", String(r() * 400 - 200)]);
    const seen = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const parts = [`bbox=${[num(), num(), num(), num()].slice(0, pick([2, 3, 4, 4, 4, 5])).join(",")}`, `limit=${pick(["1", "0", "2000", "2001", "-1", "1.5", "x", ""])}`, pick(["bbox=1,2,3,4&bbox=5,6,7,8", "extra=1", "%zz=1", ""])];
      const q = parts.filter(() => r() < 0.8).join("&");
      const res = await server.get(`/api/supply-chain/ports?${q}`);
      seen.add(res.status);
      if (res.status === 200) expect(res.json.type, q).toBe("FeatureCollection");
      else {
        expect(res.status, q).toBe(400);
        expect(res.json.error.code, q).toBe("VALIDATION_ERROR");
      }
    }
    expect([...seen].sort()).toEqual([200, 400]);
  });
});
