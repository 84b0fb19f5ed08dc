// Adapters on the real mirror: UN/LOCODE port entries and repaired rows, WPI codes, PortWatch files, the
// cross-reference (known wrong LOCODE and coordinates flagged), AIS and GDACS readers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { parseAisCsv } from "../../pipeline/ports/ais.ts";
import { crossReference, type PortRecord } from "../../pipeline/ports/cross-reference.ts";
import type { PortAlias } from "../../formats/ports-snapshot.ts";
import { parseGdacsFloodDb, parseGdacsGeojson } from "../../pipeline/ports/gdacs.ts";
import { dayOf, isoOfDay, parsePortwatchDaily, parsePortwatchPorts, parseTankerByCountry, tankerSeriesByIso3 } from "../../pipeline/ports/portwatch.ts";
import { parseUnlocodeCsv, readUnlocodeDir, readUnlocodeRow } from "../../pipeline/ports/unlocode.ts";
import { normalizeWpiCode, parseWpiCsv } from "../../pipeline/ports/wpi.ts";
import type { CsvRejection } from "../../pipeline/feeds/csv.ts";

const D = join(dataDir(), "ports");
const text = (p: string) => readFileSync(join(D, p), "utf8");

describe("UN/LOCODE", () => {
  it("keeps the 66 Thai entries with the port function, with their coordinates", () => {
    const th = parseUnlocodeCsv(text("unlocode/TH.csv"));
    expect(th.rows).toBe(205);
    expect(th.ports).toHaveLength(66);
    const lch = th.ports.find((p) => p.code === "THLCH");
    expect(lch).toMatchObject({ name: "Laem Chabang", function: "1-3-----", lat: 13.083333333333334, lng: 100.88333333333334 });
    expect(th.ports.some((p) => p.code === "THCAN")).toBe(false); // function --3-----: not a port
  });

  it("repairs a badly quoted row (name with a comma) instead of shifting its columns", () => {
    const e = readUnlocodeRow(["VN", "VIC", '"Ho Chi Minh', ' VICT"', '"Ho Chi Minh', ' VICT"', "", "1-------", "10.781971", "106.693081", "true"]);
    expect(e).toMatchObject({ code: "VNVIC", name: "Ho Chi Minh, VICT", function: "1-------", lat: 10.781971, lng: 106.693081, geocoded: true, repaired: true });
    const vn = parseUnlocodeCsv(text("unlocode/VN.csv"));
    expect(vn.ports.find((p) => p.code === "VNVIC")).toMatchObject({ name: "Ho Chi Minh, VICT", lat: 10.781971, repaired: true });
  });
});

describe("World Port Index and PortWatch", () => {
  it("normalises WPI codes written with a space", () => {
    expect(normalizeWpiCode("TH LCH")).toBe("THLCH");
    expect(normalizeWpiCode("TH L1H")).toBe(""); // 1 is not a UN/LOCODE character
    const wpi = parseWpiCsv(text("wpi/WPI.csv"));
    expect(wpi.ports).toHaveLength(3803);
    expect(wpi.ports.find((p) => p.code === "THLCH")).toMatchObject({ name: "Laem Chabang", number: 57462, channelDepthM: 12.5, lat: 13.083333 });
  });

  it("reads Laem Chabang daily port calls on a gap-free day axis", () => {
    const s = parsePortwatchDaily(text("portwatch/daily/Laem_Chabang_TH_daily_portcalls.csv"));
    expect(s.key).toBe("port1197");
    expect(isoOfDay(s.firstDay)).toBe("2019-01-01");
    expect(s.columns.portcalls).toHaveLength(2783);
    expect([s.columns.portcalls[0], s.columns.portcalls_container[0], s.columns.import[0]]).toEqual([8, 8, 139394]);
    expect([s.columns.portcalls[2782], s.columns.portcalls_general_cargo[2782]]).toEqual([17, 3]);
    // The partial Saigon file has holes: NaN days inside its axis.
    const sgn = parsePortwatchDaily(text("portwatch/daily/Ho_Chi_Minh_VN_daily_portcalls_PARTIAL.csv"));
    let nan = 0;
    for (const v of sgn.columns.portcalls) if (Number.isNaN(v)) nan++;
    expect(sgn.columns.portcalls.length - nan).toBe(1701);
  });

  it("reads the country tanker series and keys it by ISO3, adding PortWatch's second name of a country on its days", () => {
    const t = parseTankerByCountry(text("portwatch/portwatch_tanker_daily_by_country.csv"));
    expect(t).toHaveLength(183);
    const albania = t.find((s) => s.key === "Albania");
    expect(isoOfDay(albania!.firstDay)).toBe("2024-01-01");
    expect([albania!.columns.tanker_calls[0], albania!.columns.tanker_calls[1]]).toEqual([0, 1]);
    const names = new Map(parsePortwatchPorts(text("portwatch/PortWatch_ports_database.csv")).map((p) => [p.country, p.iso3]));
    const byIso3 = tankerSeriesByIso3(t, (n) => names.get(n));
    expect(byIso3.unmapped).toEqual([]);
    expect(byIso3.series).toHaveLength(180); // 183 names; GBR, TUR and KOR each have two
    expect(byIso3.names.GBR).toEqual(["United Kingdom", "Great Britain"]);
    const gbr = byIso3.series.find((s) => s.key === "country:GBR")!;
    const at = (iso: string) => gbr.columns.tanker_calls[dayOf(iso) - gbr.firstDay];
    // United Kingdom 2026-02-06: 23, 2026-02-07: 23; Great Britain (from 2026-02-05): 0, 1
    expect([at("2026-02-06"), at("2026-02-07")]).toEqual([23, 24]);
  });

  it("PortWatch's yearly vessel_count_total is the mean yearly port calls 2019–2024: within 5% of the daily series", () => {
    const pw = new Map(parsePortwatchPorts(text("portwatch/PortWatch_ports_database.csv")).map((p) => [p.portid, p]));
    for (const file of ["Laem_Chabang_TH", "Map_Ta_Phut_TH", "Port_Klang_MY"]) {
      const s = parsePortwatchDaily(text(`portwatch/daily/${file}_daily_portcalls.csv`));
      let sum = 0;
      for (let d = dayOf("2019-01-01"); d <= dayOf("2024-12-31"); d++) sum += s.columns.portcalls[d - s.firstDay];
      const ratio = sum / 6 / pw.get(s.key)!.vesselCounts.total;
      expect(ratio, file).toBeGreaterThan(0.95);
      expect(ratio, file).toBeLessThan(1.05);
    }
  });
});

describe("malformed rows (issue 9)", () => {
  it("a stray quote in a daily port-calls file loses that day only, reported with file:line", () => {
    const header = "date,portid,portname,portcalls_container,portcalls_dry_bulk,portcalls_general_cargo,portcalls_roro,portcalls_tanker,portcalls,import,export";
    const rows = Array.from({ length: 10 }, (_, i) => `2024-01-${String(i + 1).padStart(2, "0")},port1197,Laem Chabang,${i + 1},0,0,0,1,${i + 2},100,200`);
    rows[4] = rows[4].replace("Laem Chabang", '"Laem Chabang'); // 2024-01-05, line 6; no other quote follows
    const rejected: CsvRejection[] = [];
    const s = parsePortwatchDaily([header, ...rows].join("\n") + "\n", "ports/portwatch/daily/x.csv", rejected);
    expect([isoOfDay(s.firstDay), s.columns.portcalls.length]).toEqual(["2024-01-01", 10]);
    expect(Array.from(s.columns.portcalls_container)).toEqual([1, 2, 3, 4, NaN, 6, 7, 8, 9, 10]);
    expect(rejected).toEqual([{ file: "ports/portwatch/daily/x.csv", line: 6, reason: "unterminated quote: no closing quote before the end of the file" }]);
  });

  it("a WPI row with a stray quote is rejected; the rows after it are kept, unshifted", () => {
    const csv = 'World Port Index Number,Main Port Name,UN/LOCODE,Latitude,Longitude\n1,"A",TH LCH,13.1,100.9\n2,"B, with a comma,TH BKK,13.7,100.5\n3,C,TH SRI,13.2,100.9\n';
    const r = parseWpiCsv(csv, "WPI.csv");
    expect(r.ports.map((p) => [p.number, p.name, p.code])).toEqual([[1, "A", "THLCH"], [3, "C", "THSRI"]]);
    expect(r.rejected).toEqual([{ file: "WPI.csv", line: 3, reason: "unterminated quote: no closing quote before the end of the file" }]);
  });
});

describe("cross-reference", () => {
  let ports: PortRecord[];
  let aliases: PortAlias[];
  let otherEntries: Record<string, [string, string]>;
  let qc: ReturnType<typeof crossReference>["qc"];
  beforeAll(() => {
    const u = readUnlocodeDir(join(D, "unlocode"));
    expect(u.ports).toHaveLength(17589);
    expect(u.entries).toHaveLength(116026);
    ({ ports, aliases, otherEntries, qc } = crossReference(u.entries, parseWpiCsv(text("wpi/WPI.csv")).ports, parsePortwatchPorts(text("portwatch/PortWatch_ports_database.csv"))));
  }, 60000);
  const byCode = (c: string) => ports.find((p) => p.code === c)!;

  it("a code is a port when UN/LOCODE, the WPI or PortWatch names it as one", () => {
    expect(qc.namedBy.unlocode).toBe(17513);
    expect(byCode("SGSIN").namedBy).toEqual(["unlocode", "portwatch"]);
    // WPI "Chrome" USHYM: UN/LOCODE files it as a road terminal, the WPI names it a port.
    expect(byCode("USHYM")).toMatchObject({ name: "Chrome", namedBy: ["wpi"], unlocode: { name: "Chrome", function: "--3-----" }, coordSource: "wpi" });
    // A PortWatch port that no list gives a code answers by coordinates only.
    expect(ports.find((p) => p.portwatch[0]?.portid === "fso161")).toMatchObject({ code: null, name: "Singapore - Offshore Oil Terminal 1", iso3: "SGP" });
  });

  it("corrects PortWatch's Laem Chabang code TH SRI to THLCH and leaves Si Racha without PortWatch", () => {
    expect(qc.locodeCorrections).toContainEqual({ portid: "port1197", name: "Laem Chabang", published: "TH SRI", matched: "THLCH", by: "name" });
    expect(byCode("THLCH").portwatch).toMatchObject([{ portid: "port1197", locodePublished: "TH SRI", shareCountryExport: 62.37 }]);
    expect(byCode("THLCH").flags).toContain("portwatch_locode_corrected_from_THSRI");
    expect(byCode("THSRI").portwatch).toEqual([]);
  });

  it("picks the same-name port near the PortWatch port (Portland, OR is tagged with Portland, Maine's USPWM)", () => {
    expect(qc.locodeCorrections).toContainEqual({ portid: "port993", name: "Portland, OR", published: "US PWM", matched: "USPDX", by: "name" });
    expect(byCode("USPDX").portwatch.map((a) => a.name)).toEqual(["Portland, OR"]);
    expect(byCode("USPWM").portwatch.map((a) => a.name)).toEqual(["Portland, ME"]);
  });

  it("matches PortWatch ports without a LOCODE (Saigon via the WPI alternate name, Port Klang by name)", () => {
    expect(byCode("VNSGN").portwatch).toMatchObject([{ portid: "port1291", matchedBy: "wpi-name" }]);
    expect(byCode("MYPKG").portwatch).toMatchObject([{ portid: "port960", matchedBy: "name" }]);
    expect(byCode("THMAT").portwatch).toMatchObject([{ portid: "port701", matchedBy: "name" }]);
  });

  it("keeps PortWatch's terminals of one port together and shares a joined port between its codes", () => {
    expect(byCode("CNSGH").portwatch.map((a) => [a.portid, a.name])).toEqual([
      ["port1188", "Shanghai (Pudong)"],
      ["port2027", "Shanghai (Yangshan)"],
    ]);
    expect(byCode("USLAX").portwatch).toMatchObject([{ portid: "port664", matchedBy: "name-part", sharedWith: ["USLGB"] }]);
    expect(byCode("USLGB").portwatch).toMatchObject([{ portid: "port664", sharedWith: ["USLAX"] }]);
  });

  it("lets a place without the port function stand for the port of its name nearby (CNSHA → CNSGH)", () => {
    expect(aliases.find((a) => a.code === "CNSHA")).toEqual({ code: "CNSHA", name: "Shanghai Hongqiao International Apt", function: "---4----", port: "CNSGH", distanceKm: 3.63 });
    expect(otherEntries.CNSHA).toBeUndefined();
    expect(otherEntries.THCAN).toEqual(["Amnat Charoen", "--3-----"]);
  });

  it("flags THHOP's coordinates (Taiwan) and NGAPP's inland geocode, keeps Duisburg's inland coordinates", () => {
    expect(byCode("THHOP")).toMatchObject({ lat: null, lng: null, coordSource: null, flags: ["unlocode_coordinates_outside_country"] });
    expect(byCode("NGAPP")).toMatchObject({ lat: null, coordSource: null, flags: ["unlocode_geocode_outside_port_area"] });
    expect(byCode("DEDUI")).toMatchObject({ lat: 51.46666666666667, lng: 6.75, coordSource: "unlocode", flags: [] });
    expect(byCode("THLCH")).toMatchObject({ lat: 13.083333, lng: 100.883333, coordSource: "wpi" });
  });
});

describe("AIS and GDACS", () => {
  it("keeps AIS position fixes with their navigational status", () => {
    const a = parseAisCsv(text("ais/ais_sample.csv"));
    expect(a.rows).toBe(10002);
    expect(a.fixes[0]).toMatchObject({ mmsi: "258183000", navStatus: 8, lat: 68.79564167, lng: 16.54441667 });
  });

  it("reads the Thailand flood of May 2026 from the GDACS event feed and the flood database", () => {
    const ev = parseGdacsGeojson(readFileSync(join(dataDir(), "feeds/gdacs/gdacs_20260530T1858Z.geojson"), "utf8"));
    const th = ev.find((e) => e.id === "FL-1103881");
    expect(th).toMatchObject({ kind: "flood", alertLevel: 1, lat: 8.3991866, lng: 98.2608392, from: Date.UTC(2026, 4, 13, 1) });
    expect(ev.filter((e) => e.kind === "cyclone").map((e) => e.id)).toEqual(["TC-1001272"]);
    const db = parseGdacsFloodDb(readFileSync(join(dataDir(), "feeds/gdacs/latest_gdacs_flood_db.csv"), "utf8"));
    // 3,990 rows; 156 whose point lies outside the country they name and 8 at (0, 0) are rejected (pipeline/feeds/country-check.ts).
    expect(db.events).toHaveLength(3826);
    expect(db.rejected).toBe(164);
    expect(db.events[0]).toMatchObject({ id: "FL-4224", lat: -19.668, lng: 45.921, alertLevel: 1 });
  });
});
