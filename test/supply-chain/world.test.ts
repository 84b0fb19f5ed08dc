// Ports worldwide, through the running server on the real mirror: every port answers from what exists for it.
// Expected values are traced to the input rows (named in the comments):
//   PortWatch_ports_database.csv: port1201 Singapore vessel_count_total 44376, shares 95.13/95.47;
//     port1188 Shanghai (Pudong) 41061 + port2027 Shanghai (Yangshan) 5261 = 46322, imports 7.33 + 3.6, exports 10.42 + 7.55;
//     port1114 Rotterdam 32549 (container 7037, dry bulk 1050, general cargo 5176, RoRo 2314, tanker 16972);
//     port664 Los Angeles-Long Beach 3787, shares 21.93/5.68; port311 Durban 2505, shares 61.24/15.69;
//     port626 Lagos-Apapa-Tin Can Island 2048.  A mean week = round(yearly × 7 / 365.25).
//   portwatch_tanker_daily_by_country.csv, 2026-04-11..17: Singapore 69+63+69+70+85+68+87 = 511, China 1126,
//     The Netherlands 517, United States 475, South Africa 39, Nigeria 25, Thailand 254, Germany 97.
//   ais_sample.csv: vessels nearest to port1201 (within 30 km): 5 MMSIs, 1 at anchor (565504000), none moored;
//     to port1188 + port2027: 6 MMSIs, 3 moored (636017526, 413550330, 413380270).
//   WPI.csv: Shanghai CNSGH 31.216667 N 121.5 E; UN/LOCODE CN.csv: CNSHA "Shanghai Hongqiao International Apt"
//     ---4---- at 31.246027 N 121.483385 E; DE.csv: DEDUI Duisburg 1234---- at 51.4667 N 6.75 E.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSupplyChainServer, type Json, type SupplyChainServer } from "./fixture.ts";

let server: SupplyChainServer;
beforeAll(async () => {
  server = await startSupplyChainServer();
}, 120000);
afterAll(() => server?.close());

const ok = async (body: unknown): Promise<Json> => {
  const r = await server.query(body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.data;
};
const NO_DAILY = "PortWatch daily port calls for this port (only Laem Chabang (port1197), Map Ta Phut (port701), Port Klang (port960), Saigon (port1291) have them)";

describe("ports on every continent answer from what exists for them", () => {
  it("Singapore (Asia): yearly PortWatch counts, the country's tanker series; no dwell or waiting time", async () => {
    const d = await ok({ portCode: "SGSIN", queryType: "congestion" });
    expect(d.port).toEqual({ code: "SGSIN", name: "Singapore" });
    // Before issue 36 etaDelayHours was 0.2: Little's law on the one ship at anchor in a minute of 2018.
    expect(d).toMatchObject({ congestionIndex: null, vesselCount: 850, avgDwellDays: null, etaDelayHours: null });
    expect(d.details.basis.vesselCount).toBe("a mean week of PortWatch's yearly average of 44,376 port calls (2019..2024) × 7 / 365.25, not the latest week");
    expect(d.details.basis.etaDelayHours).toBeUndefined();
    expect(d.details.missing).toEqual([
      `congestionIndex: no ${NO_DAILY}; PortWatch's yearly averages cannot show congestion`,
      expect.stringMatching(/^avgDwellDays: no data can support it: a dwell needs each call's arrival and departure; /),
      expect.stringMatching(/^etaDelayHours: no data can support it: a waiting time needs /),
    ]);
    expect(d.details.coverage).toEqual({
      country: "SGP",
      records: [
        { record: "PortWatch port attributes (Singapore; yearly averages)", period: "2019..2024" },
        { record: "AIS sample", period: "2018-07-06" },
        { record: "PortWatch tanker calls of SGP", period: "2024-01-01..2026-04-17" },
        { record: "GDACS cyclones within 500 km and floods within 100 km", period: "2014-12-10..2026-05-30" },
        { record: "PortWatch transits of the Malacca Strait", period: "2025-10-04..2025-11-02" },
      ],
      notAvailable: [NO_DAILY],
      period: { from: "2014-12-10", to: "2026-05-30" },
      summary:
        "PortWatch port attributes (Singapore; yearly averages) 2019..2024; AIS sample 2018-07-06; PortWatch tanker calls of SGP 2024-01-01..2026-04-17; GDACS cyclones within 500 km and floods within 100 km 2014-12-10..2026-05-30; PortWatch transits of the Malacca Strait 2025-10-04..2025-11-02; no " +
        NO_DAILY,
    });
    expect(d.details.countryTankers).toMatchObject({ country: "SGP", portwatchNames: ["Singapore"], latestDay: "2026-04-17", calls7d: 511 });
    expect(d.details.port).toMatchObject({ iso3: "SGP", namedBy: ["unlocode", "portwatch"], coordSource: "portwatch", lat: 1.271989257, lng: 103.7074816 });
    // Issue 33: the summary says when its data are from (service clock fixed at 2026-11-28 by the fixture).
    expect(d.summary).toBe(
      "Singapore (SGSIN): congestion index not available (no daily port calls); disruption risk low (30 days to 2026-05-30, not current); 3 fields without data. Not current: the newest data used are of 2026-05-30, 182 days before 2026-11-28.",
    );
    expect(d.asOf).toBe("2026-05-30"); // the GDACS feed, not the snapshot's 2026-08-14 (Singapore has no daily port calls)
  });

  it("CNSHA (an airport in the UN/LOCODE copy) answers for the port of Shanghai with both PortWatch terminals", async () => {
    const d = await ok({ portCode: "CNSHA", queryType: "vessel_count" });
    expect(d.port).toEqual({ code: "CNSGH", name: "Shanghai" });
    expect(d.details.resolution.alias).toEqual({ code: "CNSHA", name: "Shanghai Hongqiao International Apt", function: "---4----", functions: ["airport"], distanceKm: 3.63 });
    expect(d.details.keyFindings).toContain(
      "CNSHA is Shanghai Hongqiao International Apt in UN/LOCODE (airport), not a port; answered for the port of that place, Shanghai (CNSGH), 3.63 km away.",
    );
    expect(d.details.port.portwatch.map((p: Json) => [p.portid, p.vesselCounts.total])).toEqual([
      ["port1188", 41061],
      ["port2027", 5261],
    ]);
    // 46322 × 7 / 365.25 = 887.76. Before issue 36 avgDwellDays was 0.02 (29 minutes): 3 moored in one minute of 2018.
    expect(d).toMatchObject({ vesselCount: 888, avgDwellDays: null, etaDelayHours: null, congestionIndex: null });
    expect(d.details.vessels).toMatchObject({
      yearlyPortCalls: 46322,
      yearlyPortCallsByType: { container: 12104 + 4437, dry_bulk: 13760 + 126, general_cargo: 5155 + 209, roro: 1742, tanker: 8300 + 489 },
      portCalls7d: null,
      countryTankerCalls7d: 1126,
      ais: { vessels: 6, moored: 3, anchored: 0, other: 3 },
    });
    expect(d.details.coverage.country).toBe("CHN");
    expect(d.details.coverage.records[0]).toEqual({ record: "PortWatch port attributes (Shanghai (Pudong) + Shanghai (Yangshan); yearly averages)", period: "2019..2024" });
    const port = await ok({ portCode: "CNSGH", queryType: "trade_risk" });
    expect(port.details.trade).toMatchObject({ shareCountryImport: 10.93, shareCountryExport: 17.97 });
    expect(port.details.resolution.alias).toBeNull();
  });

  it("Rotterdam (Europe), vessel_count: yearly counts by vessel type, no AIS vessels, Dutch tanker calls", async () => {
    const d = await ok({ portCode: "NLRTM", queryType: "vessel_count" });
    expect(d).toMatchObject({ vesselCount: 624, avgDwellDays: null, etaDelayHours: null, congestionIndex: null });
    expect(d.details.vessels.yearlyPortCallsByType).toEqual({ container: 7037, dry_bulk: 1050, general_cargo: 5176, roro: 2314, tanker: 16972 });
    expect(d.details.vessels.portCalls7dByType).toEqual({ container: null, dry_bulk: null, general_cargo: null, roro: null, tanker: null });
    expect(d.details.countryTankers).toMatchObject({ country: "NLD", portwatchNames: ["The Netherlands"], calls7d: 517 });
    expect(d.details.missing).toContain("avgDwellDays: no data can support it: a dwell needs each call's arrival and departure; PortWatch counts port calls without their durations, and the only vessel positions are one minute of AIS messages of 2018-07-06, which show the vessels there at that moment, not how long they stay");
    expect(d.details.coverage.country).toBe("NLD");
    expect(d.details.coverage.notAvailable).toEqual([NO_DAILY, "AIS fixes at the port (sample of 2018-07-06)"]);
  });

  it("Los Angeles (North America), trade_risk: PortWatch reports Los Angeles-Long Beach as one port", async () => {
    const d = await ok({ portCode: "USLAX", queryType: "trade_risk" });
    expect(d).toMatchObject({ vesselCount: 73, congestionIndex: null });
    expect(d.details.trade).toEqual({
      shareCountryImport: 21.93,
      shareCountryExport: 5.68,
      industryTop: ["Mineral Products", "Machinery & Electrical Equipment", "Vegetable Products"],
      period: "2019..2024",
    });
    expect(d.details.port.portwatch[0]).toMatchObject({ portid: "port664", matchedBy: "name-part", sharedWith: ["USLGB"] });
    expect(d.details.basis.vesselCount).toContain("(PortWatch reports Los Angeles-Long Beach as one port, also for USLGB)");
    expect(d.details.countryTankers).toMatchObject({ country: "USA", calls7d: 475 });
    const lgb = await ok({ portCode: "USLGB", queryType: "trade_risk" });
    expect(lgb.details.port.portwatch[0]).toMatchObject({ portid: "port664", sharedWith: ["USLAX"] });
    expect(lgb.vesselCount).toBe(73);
  });

  it("Durban and Lagos (Africa)", async () => {
    const dur = await ok({ portCode: "ZADUR", queryType: "trade_risk" });
    expect(dur).toMatchObject({ port: { code: "ZADUR", name: "Durban" }, vesselCount: 48 });
    expect(dur.details.trade).toMatchObject({ shareCountryImport: 61.24, shareCountryExport: 15.69 });
    expect(dur.details.countryTankers).toMatchObject({ country: "ZAF", calls7d: 39 });
    expect(dur.summary).toBe("Durban (ZADUR): 61.24% of ZAF's maritime imports (PortWatch 2019–2024); disruption risk low (30 days to 2026-05-30, not current); 3 fields without data. Not current: the newest data used are of 2026-05-30, 182 days before 2026-11-28.");
    const los = await ok({ portCode: "NGLOS", queryType: "cargo_delay" });
    expect(los).toMatchObject({ port: { code: "NGLOS", name: "Lagos" }, vesselCount: 39, avgDwellDays: null, etaDelayHours: null });
    expect(los.details.port.portwatch[0]).toMatchObject({ portid: "port626", name: "Lagos-Apapa-Tin Can Island", matchedBy: "locode" });
    expect(los.details.delay).toMatchObject({ avgDwellDays: null, etaDelayHours: null, aisMinute: { vessels: 0 } });
    expect(los.details.countryTankers).toMatchObject({ country: "NGA", calls7d: 25 });
  });

  it("Laem Chabang (Asia, daily series): congestion from the daily calls, coverage lists the daily record", async () => {
    const d = await ok({ portCode: "THLCH", queryType: "congestion" });
    expect(d).toMatchObject({ congestionIndex: 69.4, vesselCount: 142 });
    expect(d.details.basis.vesselCount).toBe("port calls in the 7 days to 2026-08-14 (PortWatch daily)");
    expect(d.details.coverage.country).toBe("THA");
    expect(d.details.coverage.records).toContainEqual({ record: "PortWatch daily port calls (port1197)", period: "2019-01-01..2026-08-14" });
    expect(d.details.coverage.period).toEqual({ from: "2014-12-10", to: "2026-08-14" });
    expect(d.details.countryTankers).toMatchObject({ country: "THA", calls7d: 254 });
  });
});

describe("coordinates", () => {
  it("select the nearest port with PortWatch records in the nearest port's country (Singapore city, not an Indonesian island)", async () => {
    const d = await ok({ lat: 1.29, lng: 103.85, queryType: "congestion" });
    expect(d.port.code).toBe("SGSIN");
    expect(d.details.resolution).toMatchObject({
      by: "coordinates",
      distanceKm: 15.97,
      rule: "nearest port with PortWatch records in the nearest port's country",
      nearerPortWithoutRecords: { code: "SGKEP", name: "Keppel Wharves", distanceKm: 0.74 },
    });
    const sh = await ok({ lat: 31.23, lng: 121.49, queryType: "congestion" });
    expect(sh.port.code).toBe("CNSGH");
    // A port is also placed at its PortWatch terminals: Yangshan (port2027, 30.6150855 N 122.0747853 E) lies 86 km
    // from the WPI point of Shanghai.
    const yangshan = await ok({ lat: 30.615, lng: 122.075, queryType: "congestion" });
    expect(yangshan.port.code).toBe("CNSGH");
    expect(yangshan.details.resolution.distanceKm).toBe(0.02);
  });

  it("an inland point near a river port answers that port; figures without inputs are null with their reasons", async () => {
    const d = await ok({ lat: 51.45, lng: 6.74, queryType: "vessel_count" });
    expect(d.port).toEqual({ code: "DEDUI", name: "Duisburg" });
    expect(d.details.resolution).toMatchObject({ distanceKm: 1.98, rule: "nearest port" });
    expect(d).toMatchObject({ congestionIndex: null, vesselCount: null, avgDwellDays: null, etaDelayHours: null });
    expect(d.details.missing).toContain("vesselCount: no PortWatch record for this port (no daily port calls, no yearly vessel counts)");
    expect(d.details.port).toMatchObject({ coordSource: "unlocode", lat: 51.46666666666667, lng: 6.75, flags: [] });
    expect(d.details.countryTankers).toMatchObject({ country: "DEU", calls7d: 97 });
  });

  it("search across the antimeridian: 179.9°E finds Mys Shmidta at 179.43°W (UN/LOCODE RUMSH), 26.7 km away", async () => {
    const d = await ok({ lat: 68.88, lng: 179.9, queryType: "congestion" });
    expect(d.port).toEqual({ code: "RUMSH", name: "Mys Shmidta" });
    expect(d.details.resolution).toMatchObject({ distanceKm: 26.71, rule: "nearest port" });
  });

  it("an inland point far from any port, and the open sea, are 404 naming the radius", async () => {
    for (const [lat, lng] of [
      [15, 20], // Chad
      [0, -140], // central Pacific
    ]) {
      const r = await server.query({ lat, lng, queryType: "congestion" });
      expect(r.status).toBe(404);
      expect(r.json.error).toEqual({
        code: "NOT_FOUND",
        message: "No port within 50 km of this location (ports of UN/LOCODE, the World Port Index and PortWatch, worldwide)",
        details: { lat, lng, radiusKm: 50 },
      });
    }
  });
});

describe("codes that are not ports", () => {
  it("404 says what a UN/LOCODE place without the port function is; an unknown code is 404; a malformed one 400", async () => {
    const can = await server.query({ portCode: "THCAN", queryType: "congestion" });
    expect(can.status).toBe(404);
    expect(can.json.error).toEqual({
      code: "NOT_FOUND",
      message:
        "THCAN is not a port: UN/LOCODE lists Amnat Charoen (road terminal), the World Port Index and PortWatch do not name it, and no port of that name lies within 50 km",
      details: { portCode: "THCAN", unlocode: { name: "Amnat Charoen", function: "--3-----", functions: ["road terminal"] } },
    });
    const unknown = await server.query({ portCode: "XXZZZ", queryType: "congestion" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toBe("Unknown port XXZZZ: UN/LOCODE, the World Port Index and PortWatch name no port with this code (GET /api/supply-chain/ports?bbox=west,south,east,north lists the ports of an area)");
    const bad = await server.query({ portCode: "CN-SHA", queryType: "congestion" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_ERROR");
  });
});
