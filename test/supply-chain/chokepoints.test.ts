// Chokepoints in trade risk (issue 36): PortWatch's daily chokepoint export parsed as the ArcGIS layer writes it, the
// change of the latest 30 days of transits against the same days of the reference years, the level it makes, and the
// routes' exposure table.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pino } from "pino";
import { tradeRiskMarkdown, validateTradeRisk } from "../../validation/supply-chain.ts";
import { SnapshotSupplyChainService } from "../../server/services/supply-chain-service.ts";
import type { SupplyChainBody } from "../../server/schemas-supply-chain.ts";
import { atDay, startSupplyChainServer, TODAY, type Json, type SupplyChainServer } from "./fixture.ts";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { dataDir } from "../../lib/config.ts";
import { parseChokepointsDaily } from "../../pipeline/ports/portwatch.ts";
import { CHOKEPOINT_EXPOSURE, chokepointRisk, transitChange } from "../../lib/ports/chokepoints.ts";
import { dayOf } from "../../lib/days.ts";
import { JSON_SHAPES } from "../../formats/snapshot-json.ts";

describe("parseChokepointsDaily", () => {
  const header = "\uFEFFdate,year,month,day,portid,portname,n_container,n_dry_bulk,n_general_cargo,n_roro,n_tanker,n_cargo,n_total,capacity,ObjectId";
  it("reads the export with its byte-order mark and slashed dates (or YYYY-MM-DD) into one series per chokepoint", () => {
    const rows = [
      "2024/01/01 00:00:00+00,2024,1,1,chokepoint4,Bab el-Mandeb Strait,10,5,3,1,12,19,31,1,1",
      "2024/01/03 00:00:00+00,2024,1,3,chokepoint4,Bab el-Mandeb Strait,8,4,2,1,10,15,25,1,2",
      "2024-01-02,2024,1,2,chokepoint4,Bab el-Mandeb Strait,0,0,0,0,0,0,0,1,3",
      "2024/01/02 00:00:00+00,2024,1,2,chokepoint1,Suez Canal,20,10,5,2,20,37,57,1,3",
      "not a date,2024,1,4,chokepoint1,Suez Canal,1,1,1,1,1,4,5,1,4",
    ];
    const rejected: { file: string; line: number; reason: string }[] = [];
    const { series, names } = parseChokepointsDaily([header, ...rows].join("\n") + "\n", "chokepoints.csv", rejected);
    expect(names).toEqual({ chokepoint4: "Bab el-Mandeb Strait", chokepoint1: "Suez Canal" });
    expect(series.map((s) => s.key)).toEqual(["chokepoint:chokepoint1", "chokepoint:chokepoint4"]);
    const bab = series[1];
    expect(bab.firstDay).toBe(dayOf("2024-01-01"));
    // Rows out of order are put in order; a day of zero transits is 0.
    expect([...bab.columns.n_total]).toEqual([31, 0, 25]);
    expect([...bab.columns.n_tanker]).toEqual([12, 0, 10]);
    expect(rejected.map((r) => r.reason)).toEqual(["not a dated chokepoint row: not a date chokepoint1"]);
  });

  it("refuses a file with a missing day, a repeated day or a negative count (PortWatch writes every chokepoint every day)", () => {
    const parse = (...rows: string[]) => () => parseChokepointsDaily([header, ...rows].join("\n") + "\n", "chokepoints.csv");
    const day = (d: string, n: string) => `${d},2024,1,1,chokepoint4,Bab el-Mandeb Strait,1,1,1,1,1,4,${n},1,1`;
    expect(parse(day("2024-01-01", "5"), day("2024-01-04", "5"))).toThrow("chokepoints.csv: Bab el-Mandeb Strait (chokepoint4) has no row for 2 day(s) from 2024-01-02: the download is incomplete");
    expect(parse(day("2024-01-01", "5"), day("2024/01/01 00:00:00+00", "6"))).toThrow("has 2024-01-01 twice");
    expect(parse(day("2024-01-01", "5"), day("2024-01-02", "-1"))).toThrow("Bab el-Mandeb Strait (chokepoint4) 2024-01-02: negative n_total -1");
  });
});

describe("transitChange", () => {
  // Daily transits from 2019-01-01: 70 a day through 2023, 30 a day from 2024 (a crisis), the last days missing.
  const first = dayOf("2019-01-01");
  const last = dayOf("2025-11-02");
  const values = Float32Array.from({ length: last - first + 1 + 3 }, (_, i) => (i > last - first ? NaN : first + i >= dayOf("2024-01-01") ? 30 : 70));

  it("compares the 30 days to the last day with data with the median of the same days in 2019–2022", () => {
    const t = transitChange(values, first)!;
    expect(t).toMatchObject({ recent: 30, baseline: 70, from: "2025-10-04", to: "2025-11-02", baselineYears: [2019, 2020, 2021, 2022] });
    expect(t.change).toBeCloseTo(30 / 70 - 1, 12);
    expect(chokepointRisk(t.change)).toBe("high");
  });

  it("takes the median of the reference years and leaves out a year without the window", () => {
    const v = Float32Array.from(values);
    // 2020's window at half the traffic, 2021's missing: the median of 70 (2019), 35 (2020), 70 (2022).
    for (let d = dayOf("2020-09-01"); d <= dayOf("2020-11-30"); d++) v[d - first] = 35;
    for (let d = dayOf("2021-09-01"); d <= dayOf("2021-11-30"); d++) v[d - first] = NaN;
    expect(transitChange(v, first)).toMatchObject({ baseline: 70, baselineYears: [2019, 2020, 2022] });
  });

  it("is null without a full-enough recent window or any reference year", () => {
    expect(transitChange(new Float32Array(10).fill(5), dayOf("2025-01-01"))).toBeNull();
    expect(transitChange(new Float32Array(60).fill(5), dayOf("2025-01-01"))).toBeNull();
  });
});

describe("ports.json's chokepoints on load", () => {
  it("are shape-checked: a chokepoint off the globe or with another id is refused", () => {
    const doc = (chokepoints: unknown) => ({ ports: [], aliases: [], otherEntries: {}, tankerCountries: {}, chokepoints });
    const shape = JSON_SHAPES["ports.json"];
    expect(shape.safeParse(doc([{ portid: "chokepoint4", name: "Bab el-Mandeb Strait", lat: 12.79, lng: 43.35 }])).success).toBe(true);
    expect(shape.safeParse(doc([{ portid: "chokepoint9", name: "Dover Strait", lat: null, lng: null }])).success).toBe(true);
    expect(shape.safeParse(doc([{ portid: "chokepoint4", name: "Bab el-Mandeb Strait", lat: 95, lng: 43.35 }])).success).toBe(false);
    expect(shape.safeParse(doc([{ portid: "port1", name: "Bab el-Mandeb Strait", lat: 12.79, lng: 43.35 }])).success).toBe(false);
    // A snapshot built before chokepoints has none.
    expect(shape.safeParse({ ports: [], aliases: [], otherEntries: {}, tankerCountries: {} }).success).toBe(true);
  });
});

describe("chokepointRisk and the exposure table", () => {
  it("high from a 40 % fall, medium from 30 %, low otherwise", () => {
    expect([-0.6, -0.4, -0.39, -0.3, -0.29, -0.2, 0, 0.5].map(chokepointRisk)).toEqual(["high", "high", "medium", "medium", "low", "low", "low", "low"]);
  });

  it("puts Red Sea ports on Bab el-Mandeb and Suez, North Sea ports on Dover and the Asia route, Singapore on Malacca", () => {
    expect(CHOKEPOINT_EXPOSURE.DJI).toEqual(["Bab el-Mandeb Strait", "Suez Canal"]);
    expect(CHOKEPOINT_EXPOSURE.EGY).toContain("Suez Canal");
    expect(CHOKEPOINT_EXPOSURE.NLD).toEqual(["Dover Strait", "Suez Canal", "Bab el-Mandeb Strait", "Gibraltar Strait"]);
    expect(CHOKEPOINT_EXPOSURE.SGP).toEqual(["Malacca Strait"]);
    expect(CHOKEPOINT_EXPOSURE.USA).toBeUndefined();
  });
});

describe("trade risk through the service on the mirror's snapshot (transits to 2025-11-02, clock at 2026-11-28)", () => {
  let server: SupplyChainServer;
  let service: SnapshotSupplyChainService;
  beforeAll(async () => {
    server = await startSupplyChainServer();
    service = new SnapshotSupplyChainService(server.store, atDay(TODAY));
  }, 120_000);
  afterAll(() => server?.close());
  const query = (portCode: string) => service.portQuery({ portCode, queryType: "trade_risk" } as SupplyChainBody);

  it("Djibouti and Port Said: the Red Sea crisis makes their disruption risk high, named, dated and not current", async () => {
    // Before: "low" with 0 disruption points (GDACS hazards only).
    for (const code of ["DJJIB", "EGPSD"]) {
      const d = await query(code);
      expect(d.disruptionRisk, code).toBe("high");
      expect(d.details.disruption.setBy).toBe("chokepoints");
      expect(d.details.disruption.chokepoints).toMatchObject([
        { name: "Bab el-Mandeb Strait", portid: "chokepoint4", transitsPerDay: 28.5, baselinePerDay: 56.9, change: -0.5, period: { from: "2025-10-04", to: "2025-11-02" }, baselineYears: [2019, 2020, 2021, 2022], risk: "high", current: false },
        { name: "Suez Canal", portid: "chokepoint1", transitsPerDay: 33.6, baselinePerDay: 58.9, change: -0.43, period: { from: "2025-10-04", to: "2025-11-02" }, baselineYears: [2019, 2020, 2021, 2022], risk: "high", current: false },
      ]);
      expect(d.summary).toContain("disruption risk high (Bab el-Mandeb Strait transits −50 % in the 30 days to 2025-11-02 against 2019–2022, not current)");
      expect(d.details.keyFindings).toContain("Bab el-Mandeb Strait: 28.5 transits a day in the 30 days to 2025-11-02, −50 % against the same days of 2019–2022 (56.9 a day): trade-route risk high, not current.");
      expect(d.details.coverage.records).toContainEqual({ record: "PortWatch transits of the Suez Canal", period: "2025-10-04..2025-11-02" });
    }
  });

  it("Rotterdam's Asia trade passes Suez: high; Singapore's Malacca transits rose: its own risk stands; Los Angeles has no chokepoint assessed and says so", async () => {
    const rtm = await query("NLRTM");
    expect([rtm.disruptionRisk, rtm.details.disruption.chokepoints.map((c: { name: string; risk: string }) => [c.name, c.risk])]).toEqual([
      "high",
      [["Bab el-Mandeb Strait", "high"], ["Suez Canal", "high"], ["Gibraltar Strait", "low"], ["Dover Strait", "low"]],
    ]);
    const sin = await query("SGSIN");
    expect([sin.disruptionRisk, sin.details.disruption.setBy, sin.details.disruption.chokepoints[0].change]).toEqual(["low", "port", 0.31]);
    const lax = await query("USLAX");
    expect(lax.details.disruption.chokepoints).toEqual([]);
    expect(lax.details.coverage.notAvailable).toContain("chokepoints on USA's trade routes (the exposure table does not list the country)");
  });
});

describe("a chokepoint's own answer over HTTP: by id, by coordinates in the strait, and the list", () => {
  let server: SupplyChainServer;
  // The mirror's export read here on its own: Bab el-Mandeb's daily transits, to check the served means and counts.
  const exportDir = join(dataDir(), "ports/portwatch/chokepoints");
  const exportFile = readdirSync(exportDir).find((f) => /^Daily_Chokepoints_Data_.*\.csv\.gz$/.test(f))!;
  const rows = gunzipSync(readFileSync(join(exportDir, exportFile))).toString("utf8").replace(/^\uFEFF/, "").trim().split("\n");
  const header = rows[0].split(",");
  const bab = rows.slice(1).map((l) => l.split(",")).filter((r) => r[header.indexOf("portid")] === "chokepoint4");
  const col = (r: string[], name: string) => Number(r[header.indexOf(name)]);
  const day = (r: string[]) => r[0].slice(0, 10).replaceAll("/", "-");
  const mean = (from: string, to: string, name: string) => {
    const inWindow = bab.filter((r) => day(r) >= from && day(r) <= to);
    return inWindow.reduce((sum, r) => sum + col(r, name), 0) / inWindow.length;
  };
  const median4 = (xs: number[]) => ((xs.sort((a, b) => a - b)[1] + xs[2]) / 2);
  const baseline = (name: string) => median4([2019, 2020, 2021, 2022].map((y) => mean(`${y}-10-04`, `${y}-11-02`, name)));

  beforeAll(async () => {
    server = await startSupplyChainServer();
  }, 120_000);
  afterAll(() => server?.close());

  it("answers for Bab el-Mandeb by its id: transits of the latest 30 days against 2019–2022, in all and by vessel type, dated and not current", async () => {
    const { status, json } = await server.query({ chokepoint: "chokepoint4", queryType: "trade_risk" });
    expect(status).toBe(200);
    const d = json.data;
    expect(d).toMatchObject({ port: null, chokepoint: { id: "chokepoint4", name: "Bab el-Mandeb Strait", lat: 12.78859715, lng: 43.34954476 }, congestionIndex: null, avgDwellDays: null, etaDelayHours: null, disruptionRisk: "high", asOf: "2025-11-02" });
    const recent = mean("2025-10-04", "2025-11-02", "n_total");
    expect(d.details.transits).toMatchObject({ transitsPerDay: Math.round(recent * 10) / 10, baselinePerDay: Math.round(baseline("n_total") * 10) / 10, change: Math.round((recent / baseline("n_total") - 1) * 100) / 100, risk: "high", current: false });
    const tanker = mean("2025-10-04", "2025-11-02", "n_tanker") / baseline("n_tanker") - 1;
    expect(d.details.transits.byVesselType.tanker.change).toBe(Math.round(tanker * 100) / 100);
    // vesselCount: the transits of the 7 days to the last day.
    expect(d.vesselCount).toBe(bab.filter((r) => day(r) >= "2025-10-27").reduce((s, r) => s + col(r, "n_total"), 0));
    expect(d.details.currency).toMatchObject({ current: false, ageDays: 391 });
    expect(d.details.exposedCountries).toEqual(expect.arrayContaining(["DJI", "EGY", "NLD", "SAU"]));
    expect(d.details.resolution).toEqual({ by: "chokepoint", requestedChokepoint: "chokepoint4", distanceKm: null, radiusKm: 50, nearestPort: null });
    expect(d.summary).toBe(`Bab el-Mandeb Strait (chokepoint4): transits −50 % against 2019–2022; disruption risk high (the 30 days to 2025-11-02, not current). Not current: the newest transits are of 2025-11-02, 391 days before 2026-11-28.`);
    expect(d.details.missing.map((m: string) => m.split(":")[0])).toEqual(["congestionIndex", "avgDwellDays", "etaDelayHours"]);
  });

  it("coordinates in the strait answer for it; coordinates nearer a port answer for the port", async () => {
    // 1.8 km off Perim Island (YEPRM, a UN/LOCODE port without any PortWatch record): the strait, not Perim.
    const strait = (await server.query({ lat: 12.65, lng: 43.4, queryType: "vessel_count" })).json.data;
    expect(strait).toMatchObject({ port: null, chokepoint: { id: "chokepoint4" }, details: { resolution: { by: "coordinates", requestedChokepoint: null } } });
    expect(strait.details.resolution.distanceKm).toBe(16.35); // 15.41 km north, 5.48 km west
    expect(strait.summary).toMatch(/^Bab el-Mandeb Strait \(chokepoint4\): \d+ transits in the 7 days to 2025-11-02, not current;/);
    // Mid-channel in the Dover Strait: the strait; at the port of Dover (a port nearer than PortWatch's point): the port.
    const channel = (await server.query({ lat: 51.03, lng: 1.5, queryType: "trade_risk" })).json.data;
    expect(channel.chokepoint.name).toBe("Dover Strait");
    const dover = (await server.query({ lat: 51.12, lng: 1.33, queryType: "trade_risk" })).json.data;
    expect(dover.port.code).toBe("GBDVR");
    // portCode wins over chokepoint.
    const both = (await server.query({ portCode: "DJJIB", chokepoint: "chokepoint4", queryType: "trade_risk" })).json.data;
    expect(both.port.code).toBe("DJJIB");
  });

  it("an unknown chokepoint is 404 naming the list; a malformed id 400; an unknown port names how to list ports", async () => {
    const unknown = await server.query({ chokepoint: "chokepoint99", queryType: "trade_risk" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: "NOT_FOUND", message: "Unknown chokepoint chokepoint99: GET /api/supply-chain/chokepoints lists the known ones" });
    const malformed = await server.query({ chokepoint: "Suez", queryType: "trade_risk" });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.json.error)).toContain("GET /api/supply-chain/chokepoints lists them");
    const port = await server.query({ portCode: "XXZZZ", queryType: "trade_risk" });
    expect(port.status).toBe(404);
    expect(port.json.error.message).toContain("GET /api/supply-chain/ports?bbox=west,south,east,north lists the ports of an area");
  });

  it("GET /api/supply-chain/chokepoints lists the six with transits in PortWatch's id order", async () => {
    const { status, json } = await server.get("/api/supply-chain/chokepoints");
    expect(status).toBe(200);
    const list = json.data;
    expect(list.asOf).toBe("2025-11-02");
    expect(list.chokepoints.map((c: Json) => [c.id, c.name, c.transits.risk])).toEqual([
      ["chokepoint1", "Suez Canal", "high"],
      ["chokepoint4", "Bab el-Mandeb Strait", "high"],
      ["chokepoint5", "Malacca Strait", "low"],
      ["chokepoint8", "Gibraltar Strait", "low"],
      ["chokepoint9", "Dover Strait", "low"],
      ["chokepoint11", "Taiwan Strait", "low"],
    ]);
    expect((await server.get("/api/supply-chain/chokepoints?x=1")).status).toBe(400);
  });
});

describe("npm run validate's trade-risk section (validation/supply-chain.ts) on the suite's snapshot", () => {
  it("Red Sea and Suez-route ports: low before the crisis (2023-06-30), high in 2024 and 2025 naming Bab el-Mandeb; Malacca ports low throughout", async () => {
    const v = await validateTradeRisk(inject("artifactsDir"), pino({ level: "silent" }), Date.parse(`${TODAY}T12:00:00Z`));
    const by = Object.fromEntries(v.rows.map((r) => [r.code, r]));
    for (const code of ["DJJIB", "EGPSD", "SAJED", "NLRTM", "GRPIR"]) {
      expect(by[code].asOf.map((a) => a.risk), code).toEqual(["low", "high", "high", "high"]);
      expect(by[code].asOf[3].worst, code).toBe("Bab el-Mandeb Strait −50 %");
      expect(by[code].latest, code).toMatchObject({ disruptionRisk: "high", setBy: "chokepoints" });
    }
    for (const code of ["SGSIN", "MYPKG", "THLCH"]) {
      expect(by[code].asOf.map((a) => a.risk), code).toEqual(["low", "low", "low", "low"]);
      expect(by[code].latest.disruptionRisk, code).toBe("low");
    }
    expect(tradeRiskMarkdown(v)).toContain("| Jeddah (SAJED) | Red Sea | low (Bab el-Mandeb Strait +41 %) | high (Bab el-Mandeb Strait −43 %) | high (Bab el-Mandeb Strait −45 %) | high (Bab el-Mandeb Strait −50 %) | high (set by chokepoints) |");
  });
});
