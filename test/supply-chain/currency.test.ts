// Issue 33, "Answers true to their time": every supply-chain answer and figure says when it is from (period, newest
// datum, currency at the service clock), and nothing old is presented as the present. Through the service on the real
// snapshot (the fixture's store), with the clock fixed by injection. The dates are those of the mirror's inputs:
//   PortWatch daily port calls of Laem Chabang (port1197) 2019-01-01..2026-08-14 (= the snapshot's build date);
//   PortWatch tanker calls by country 2024-01-01..2026-04-17; GDACS live feed of 2026-05-30 (gdacs_20260530T1858Z),
//   flood database from 2014-12-10; AIS sample of 2018-07-06; PortWatch yearly averages 2019..2024.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SnapshotSupplyChainService } from "../../server/services/supply-chain-service.ts";
import type { SupplyChainBody, SupplyChainData } from "../../server/schemas-supply-chain.ts";
import { atDay, startSupplyChainServer, TODAY, type SupplyChainServer } from "./fixture.ts";

let server: SupplyChainServer;
let today: SnapshotSupplyChainService;
beforeAll(async () => {
  server = await startSupplyChainServer();
  today = new SnapshotSupplyChainService(server.store, atDay(TODAY));
}, 120000);
afterAll(() => server?.close());

const SNAPSHOT_BUILD_DAY = "2026-08-14";
const QUERY_TYPES = ["congestion", "vessel_count", "cargo_delay", "trade_risk"] as const;
const FIGURES = ["congestionIndex", "vesselCount", "avgDwellDays", "etaDelayHours"] as const;
const at = (service: SnapshotSupplyChainService, q: Omit<SupplyChainBody, "queryType">, queryType: SupplyChainBody["queryType"] = "congestion") =>
  service.portQuery({ ...q, queryType } as SupplyChainBody);

/** Every non-null figure is dated; every date lies within its period; the answer's asOf is its newest datum. */
function expectDated(d: SupplyChainData) {
  const det = d.details;
  expect(det.period, d.summary).not.toBeNull();
  expect(det.asOf! <= det.period!.to).toBe(true);
  expect(d.asOf).toBe(det.asOf);
  expect(det.currency?.ageDays).toBeGreaterThanOrEqual(0);
  for (const f of FIGURES) {
    const e = det.figures[f];
    if (d[f] === null) {
      expect(e, f).toMatchObject({ period: null, asOf: null, currency: null });
      expect(e.note.startsWith("null: "), f).toBe(true);
      continue;
    }
    expect(e.period, `${d.port.code} ${f}`).not.toBeNull();
    expect(e.source, f).toBeTruthy();
    expect(e.asOf! >= e.period!.from && e.asOf! <= e.period!.to, f).toBe(true);
    expect(e.period!.from >= det.period!.from && e.period!.to <= det.period!.to, f).toBe(true);
    if (e.recent) expect(e.recent.from >= e.period!.from && e.recent.to <= e.period!.to, f).toBe(true);
  }
  const dis = det.figures.disruption;
  if (dis.period) expect(dis.asOf! >= dis.period.from && dis.asOf! <= dis.period.to).toBe(true);
  // The newest datum is one of the series used, never a date no figure rests on.
  const ends = [...Object.values(det.figures).flatMap((e) => (e.period ? [e.period.to] : [])), det.period!.to];
  expect(ends).toContain(det.asOf);
}

describe("every answer and figure says when it is from (clock 2026-11-28)", () => {
  it("SGSIN, THLCH, NLRTM and a coordinate, every queryType: periods, asOf ≤ period.to, top-level asOf = details.asOf", () => {
    for (const q of [{ portCode: "SGSIN" }, { portCode: "THLCH" }, { portCode: "NLRTM" }, { lat: 1.27, lng: 103.8 }, { lat: 13.08, lng: 100.9 }])
      for (const t of QUERY_TYPES) expectDated(at(today, q, t));
  });

  it("Singapore: newest datum the GDACS feed of 2026-05-30, not the snapshot's 2026-08-14; yearly averages, a 2018 AIS sample", () => {
    const d = at(today, { portCode: "SGSIN" }, "cargo_delay");
    expect(d.details).toMatchObject({ period: { from: "2014-12-10", to: "2026-05-30" }, asOf: "2026-05-30" });
    expect(d.asOf).not.toBe(SNAPSHOT_BUILD_DAY);
    expect(d.details.currency).toEqual({
      current: false,
      cadence: "daily",
      horizonDays: 3,
      ageDays: 182,
      note: "not current: the data end 2026-05-30, 182 days before 2026-11-28 (a daily series is current for 3 days)",
    });
    const f = d.details.figures;
    // 850 a week = 44,376 yearly average calls × 7 / 365.25: dated by the end of 2019..2024.
    expect(d.vesselCount).toBe(850);
    expect(f.vesselCount).toMatchObject({ period: { from: "2019-01-01", to: "2024-12-31" }, asOf: "2024-12-31", recent: null, currency: { cadence: "yearly", ageDays: 697 } });
    // No waiting time: the one vessel at anchor in a minute of 2018 made 0.2 h before issue 36; a null has no period.
    expect(d.etaDelayHours).toBeNull();
    expect(f.etaDelayHours).toMatchObject({ period: null, asOf: null, currency: null });
    expect(f.etaDelayHours.note).toMatch(/^null: no data can support it: a waiting time needs each vessel's time at anchor before it berths;/);
    expect(f.disruption).toMatchObject({ period: { from: "2014-12-10", to: "2026-05-30" }, recent: { from: "2026-04-30", to: "2026-05-30" }, asOf: "2026-05-30", currency: { current: false } });
    expect(f.countryTankers).toMatchObject({ period: { from: "2024-01-01", to: "2026-04-17" }, asOf: "2026-04-17", currency: { current: false, ageDays: 225 } });
    expect(d.details.recent).toEqual({
      period: { from: "2026-03-19", to: "2026-05-30" },
      windows: [
        { source: "GDACS event feed of 2026-05-30", period: { from: "2026-04-30", to: "2026-05-30" } },
        { source: "PortWatch tanker calls of SGP (daily, all ports of the country)", period: { from: "2026-03-19", to: "2026-04-17" } },
      ],
    });
    expect(d.summary).toBe(
      "Singapore (SGSIN): dwell and waiting time not available: the data hold no port-call durations (the only vessel positions are one minute of 2018-07-06); disruption risk low (30 days to 2026-05-30, not current); 3 fields without data. Not current: the newest data used are of 2026-05-30, 182 days before 2026-11-28.",
    );
    expect(d.details.keyFindings.slice(0, 3)).toEqual([
      "Not current: the newest data this answer uses are of 2026-05-30, 182 days before 2026-11-28 (a daily series is current for 3 days).",
      "Vessel counts are 2019–2024 yearly averages (PortWatch), not counts of the latest week; as a yearly series current: the data reach 2024-12-31, 697 days before 2026-11-28 (a yearly series is current for 731 days).",
      'The disruption risk "low" (no hazard, no fall in port calls) is that of the 30 days to 2026-05-30, not of today (182 days before 2026-11-28; a daily series is current for 3 days).',
    ]);
    expect(at(today, { portCode: "SGSIN" }, "vessel_count").summary).toMatch(/^Singapore \(SGSIN\): ≈ 850 port calls a week \(PortWatch yearly average 2019–2024, not the latest week\);/);
  });

  it("Laem Chabang: the daily series reaches the snapshot's 2026-08-14, so asOf is that day; congestion and the week are not current", () => {
    const d = at(today, { portCode: "THLCH" });
    expect(d.details).toMatchObject({ period: { from: "2014-12-10", to: "2026-08-14" }, asOf: "2026-08-14", currency: { current: false, cadence: "daily", ageDays: 106 } });
    const f = d.details.figures;
    // congestionIndex 69.4: the 30 days to 2026-08-14 against 5 previous years' same-season windows, the earliest from 2021-07-01.
    expect(d.congestionIndex).toBe(69.4);
    expect(f.congestionIndex).toMatchObject({
      period: { from: "2021-07-01", to: "2026-08-14" },
      recent: { from: "2026-07-16", to: "2026-08-14" },
      asOf: "2026-08-14",
      source: "PortWatch daily port calls (port1197)",
      currency: { current: false, ageDays: 106 },
    });
    expect(f.vesselCount).toMatchObject({ period: { from: "2026-08-08", to: "2026-08-14" }, asOf: "2026-08-14", currency: { current: false } });
    // The status rests on the GDACS feed (2026-05-30) and the activity ratio (2026-08-14): as current as the older.
    expect(f.disruption).toMatchObject({ period: { from: "2014-12-10", to: "2026-08-14" }, asOf: "2026-05-30", recent: { from: "2026-04-30", to: "2026-08-14" } });
    expect(d.summary).toBe(
      "Laem Chabang (THLCH): congestion index 69.4 (30 days to 2026-08-14, not current); disruption risk low (30 days to 2026-05-30, not current); 2 fields without data. Not current: the newest data used are of 2026-08-14, 106 days before 2026-11-28.",
    );
    expect(d.details.keyFindings).toContain("The congestion index is that of the 30 days to 2026-08-14, not of today (106 days before 2026-11-28; a daily series is current for 3 days).");
  });

  it("Rotterdam: no daily series, no AIS vessels: its figures are the yearly averages and the hazards", () => {
    const d = at(today, { portCode: "NLRTM" }, "vessel_count");
    expect(d.details).toMatchObject({ period: { from: "2014-12-10", to: "2026-05-30" }, asOf: "2026-05-30", currency: { current: false } });
    expect(d.vesselCount).toBe(624); // 32,549 × 7 / 365.25
    expect(d.details.figures.vesselCount).toMatchObject({ period: { from: "2019-01-01", to: "2024-12-31" }, asOf: "2024-12-31", currency: { cadence: "yearly" } });
    expect(d.details.figures.avgDwellDays.note).toMatch(/^null: no data can support it: a dwell needs each call's arrival and departure;/);
  });
});

describe("currency follows the clock", () => {
  it("the yearly averages (2019..2024) are current within lib/currency.ts's 731 days of 2024-12-31 and not after", () => {
    const yearly = (day: string) => at(new SnapshotSupplyChainService(server.store, atDay(day)), { portCode: "SGSIN" }, "vessel_count").details.figures.vesselCount.currency;
    expect(yearly("2025-06-30")).toMatchObject({ current: true, ageDays: 181 });
    // 2026-11-28 is 697 days after 2024-12-31, within the yearly horizon of 731 days (HORIZON_DAYS.yearly): current
    // as a yearly series, which the findings qualify as "not counts of the latest week".
    expect(yearly(TODAY)).toMatchObject({ current: true, ageDays: 697 });
    expect(yearly("2027-01-01")).toMatchObject({ current: true, ageDays: 731 });
    expect(yearly("2027-01-02")).toMatchObject({ current: false, ageDays: 732 });
  });

  it("two days after Laem Chabang's last day its congestion index and the answer are current; the GDACS status is not", () => {
    const d = at(new SnapshotSupplyChainService(server.store, atDay("2026-08-16")), { portCode: "THLCH" });
    expect(d.details.currency).toMatchObject({ current: true, ageDays: 2 });
    expect(d.details.figures.congestionIndex.currency).toMatchObject({ current: true, ageDays: 2 });
    expect(d.details.figures.disruption.currency).toMatchObject({ current: false, ageDays: 78 });
    expect(d.summary).toBe(
      "Laem Chabang (THLCH): congestion index 69.4 (30 days to 2026-08-14); disruption risk low (30 days to 2026-05-30, not current); 2 fields without data. Current: the newest data used are of 2026-08-14, 2 days before 2026-08-16.",
    );
    expect(d.details.keyFindings.some((k) => k.startsWith("The congestion index is that of"))).toBe(false);
  });
});

describe("GET /api/supply-chain/ports states when its figures are from", () => {
  it("a Thai box: the daily series of its ports; a Dutch box: the yearly averages only", () => {
    const thai = today.portsInBox({ bbox: [97, 5, 106, 21], limit: 500 });
    expect(thai.asOf).toBe("2026-08-14");
    expect(thai.details).toMatchObject({ period: { from: "2019-01-01", to: "2026-08-14" }, asOf: "2026-08-14", currency: { current: false, ageDays: 106 } });
    expect(thai.details.figures.congestionIndex).toMatchObject({ period: { from: "2021-07-01", to: "2026-08-14" }, currency: { current: false } });
    const lch = thai.features.find((f) => f.id === "THLCH")!;
    expect(lch.properties).toMatchObject({ congestionIndex: 69.4, latestDay: "2026-08-14", congestionPeriod: { from: "2021-07-01", to: "2026-08-14" }, congestionCurrent: false });
    expect(thai.features.find((f) => f.id === "THPKT")!.properties).toMatchObject({ congestionIndex: null, congestionPeriod: null, congestionCurrent: null });

    const dutch = today.portsInBox({ bbox: [3.5, 51.3, 5, 52.2], limit: 500 });
    expect(dutch.asOf).toBe("2024-12-31"); // no daily series here: the snapshot's date is not the data's
    expect(dutch.details).toMatchObject({ period: { from: "2019-01-01", to: "2024-12-31" }, asOf: "2024-12-31", currency: { cadence: "yearly" } });
    expect(dutch.details.figures.congestionIndex).toMatchObject({ period: null, currency: null });
  });
});
