// GHCN-Monthly TAVG: the fixed-width layout read value by value, QC-flagged values dropped, broken files refused
// with file:line. Inputs written here (synthetic lines in NOAA's layout).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseGhcnmDat, parseGhcnmInventory } from "../../pipeline/inputs/ghcnm/parse.ts";
import { readGhcnmStations } from "../../pipeline/inputs/ghcnm/stations.ts";
import { monthIndex } from "../../lib/months.ts";

/** A .dat line: 12 values in hundredths of °C (null → −9999), an optional QC flag per month. */
function datLine(id: string, year: number, values: (number | null)[], qc: Record<number, string> = {}): string {
  return `${id}${year}TAVG` + values.map((v, m) => `${String(v ?? -9999).padStart(5)} ${qc[m] ?? " "} `).join("");
}
const invLine = (id: string, lat: number, lng: number, elev: number, name: string) =>
  `${id} ${lat.toFixed(4).padStart(8)} ${lng.toFixed(4).padStart(9)} ${elev.toFixed(1).padStart(6)} ${name.padEnd(30)}`;

const TWELVE = [2500, 2610, 2720, 2830, 2940, 3050, 2990, 2880, 2770, 2660, 2550, -150];

describe("GHCN-Monthly .dat", () => {
  it("reads hundredths of °C per month, −9999 and QC-flagged values as missing, years in any order", () => {
    const text = [
      datLine("TH000048456", 2021, TWELVE.map((v, m) => (m === 1 ? null : v)), { 3: "O" }),
      datLine("TH000048456", 2019, TWELVE),
      "",
    ].join("\n");
    expect(text.split("\n")[0]).toHaveLength(115);
    const { series, counts } = parseGhcnmDat(text, "t.dat");
    expect(counts).toEqual({ lines: 2, values: 22, qcFlagged: 1 });
    const s = series.get("TH000048456")!;
    expect(s.firstMonth).toBe(monthIndex(2019, 1));
    expect(s.tavg).toHaveLength(36);
    expect(s.tavg[0]).toBe(25);
    expect(s.tavg[11]).toBe(-1.5);
    expect(s.tavg.slice(12, 24).every(Number.isNaN)).toBe(true); // 2020 not in the file
    expect(s.tavg[24]).toBe(25);
    expect(s.tavg[25]).toBeNaN(); // −9999
    expect(s.tavg[27]).toBeNaN(); // QC flag O
    expect(s.tavg[28]).toBe(29.4);
  });

  it("refuses a truncated line, a value out of range, a repeated year and a file without data, naming file and line", () => {
    const good = datLine("TH000048456", 2019, TWELVE);
    expect(() => parseGhcnmDat(`${good}\n${good.slice(0, 80)}\n`, "t.dat")).toThrow("t.dat:2: line of 80 characters, expected 115 (truncated or not a GHCN-Monthly .dat file)");
    expect(() => parseGhcnmDat(datLine("TH000048456", 2019, [7000, ...TWELVE.slice(1)]), "t.dat")).toThrow("t.dat:1: month 1: 70 °C is not a monthly mean temperature");
    expect(() => parseGhcnmDat(`${good}\n${good}`, "t.dat")).toThrow("t.dat:2: station TH000048456: year 2019 given twice");
    expect(() => parseGhcnmDat(good.replace("2500", "25x0"), "t.dat")).toThrow('t.dat:1: month 1: value " 25x0" is not a whole number');
    expect(() => parseGhcnmDat("\n\n", "t.dat")).toThrow("t.dat:0: no data line");
  });
});

describe("GHCN-Monthly .inv", () => {
  it("reads id, place, elevation (−999.9 unknown) and name", () => {
    const text = `${invLine("TH000048456", 13.7331, 100.5631, 4.0, "BANGKOK_METROPOLIS")}\n${invLine("VM000048820", 21.0167, 105.8, -999.9, "HA_NOI")}\n`;
    const st = parseGhcnmInventory(text, "t.inv");
    expect(st[0]).toEqual({ id: "TH000048456", name: "BANGKOK_METROPOLIS", lat: 13.7331, lng: 100.5631, elevationM: 4 });
    expect(st[1].elevationM).toBeNaN();
  });

  it("refuses a latitude beyond 90, a short line and a station listed twice", () => {
    expect(() => parseGhcnmInventory(invLine("TH000048456", 93, 100, 4, "X"), "t.inv")).toThrow('t.inv:1: latitude "93.0000" is not within ±90');
    expect(() => parseGhcnmInventory("TH000048456  13.7", "t.inv")).toThrow("t.inv:1: inventory line of 17 characters");
    const l = invLine("TH000048456", 13, 100, 4, "X");
    expect(() => parseGhcnmInventory(`${l}\n${l}`, "t.inv")).toThrow("t.inv:2: station TH000048456 listed twice");
  });
});

describe("readGhcnmStations", () => {
  const dir = mkdtempSync(join(tmpdir(), "ghcnm-"));
  const inv = join(dir, "t.inv");
  writeFileSync(inv, [invLine("TH000048456", 13.7, 100.6, 4, "BANGKOK"), invLine("AU000000001", -35, 149, 500, "FAR")].join("\n"));

  it("joins the inventory and a gzip .dat, keeping the stations in the box", () => {
    const dat = join(dir, "t.dat.gz");
    writeFileSync(dat, gzipSync([datLine("TH000048456", 2019, TWELVE), datLine("AU000000001", 2019, TWELVE)].join("\n")));
    const r = readGhcnmStations(dat, inv, { west: 90, east: 110, south: 0, north: 25 });
    expect(r.stations.map((s) => [s.id, s.lat, s.tavg[0]])).toEqual([["TH000048456", 13.7, 25]]);
    expect(r.inventory).toBe(2);
  });

  it("refuses a truncated gzip and a station missing from the inventory", () => {
    const whole = gzipSync(datLine("TH000048456", 2019, TWELVE));
    const cut = join(dir, "cut.dat.gz");
    writeFileSync(cut, whole.subarray(0, whole.length - 6));
    expect(() => readGhcnmStations(cut, inv, { west: 90, east: 110, south: 0, north: 25 })).toThrow(/cut\.dat\.gz:0: not a complete gzip file/);
    const stray = join(dir, "stray.dat");
    writeFileSync(stray, datLine("VM000048820", 2019, TWELVE));
    expect(() => readGhcnmStations(stray, inv, { west: 90, east: 110, south: 0, north: 25 })).toThrow(`station VM000048820 has data but is not in ${inv}`);
  });
});
