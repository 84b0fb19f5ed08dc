// Chokepoints in trade risk (issue 36): PortWatch's daily chokepoint export parsed as the ArcGIS layer writes it, the
// change of the latest 30 days of transits against the same days of the reference years, the level it makes, and the
// routes' exposure table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnapshotSupplyChainService } from "../../server/services/supply-chain-service.ts";
import type { SupplyChainBody } from "../../server/schemas-supply-chain.ts";
import { atDay, startSupplyChainServer, TODAY, type SupplyChainServer } from "./fixture.ts";
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
  const query = (portCode: string) => service.query({ portCode, queryType: "trade_risk" } as SupplyChainBody);

  it("Djibouti and Port Said: the Red Sea crisis makes their disruption risk high, named, dated and not current", async () => {
    // Before: "low" with 0 disruption points (GDACS hazards only).
    for (const code of ["DJJIB", "EGPSD"]) {
      const d = await query(code);
      expect(d.disruptionRisk, code).toBe("high");
      expect(d.details.disruption.setBy).toBe("chokepoints");
      expect(d.details.disruption.chokepoints).toEqual([
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
