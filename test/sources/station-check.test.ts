// The content check of a GHCN-Daily station download: the station parser is the only reading of its rows
// (ContentCheck.parse), the columns are checked on the header line, and a refusal names the line and the reason.
import { describe, expect, it } from "vitest";
import { checkContent, ContentError } from "../../pipeline/sources/content-check.ts";
import { stationCheck } from "../../pipeline/inputs/ghcnd/refresh.ts";

const HEADER = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN";
const row = (date: string, p: string, tmax = "", station = "TH000048455") => `${station},"BANGKOK METROPOLIS, TH",13.733,100.567,4.0,${date},${p},,${tmax},`;
const bytes = (lines: string[]) => new TextEncoder().encode(lines.join("\n") + "\n");

function refusal(lines: string[], check = stationCheck("TH000048455")): string {
  try {
    checkContent(bytes(lines), check, "TH000048455.csv");
  } catch (err) {
    expect(err).toBeInstanceOf(ContentError);
    return (err as ContentError).message;
  }
  throw new Error("expected the file to be refused");
}

describe("GHCN-Daily station content check", () => {
  it("counts the parser's rows and reads the data's last date", () => {
    const checked = checkContent(bytes([HEADER, row("2019-07-07", "0.0"), row("2019-07-08", "12.5"), row("2019-07-09", "3.1")]), stationCheck("TH000048455"), "TH000048455.csv");
    expect(checked).toMatchObject({ rows: 3, malformed: [], dataAsOf: "2019-07-09" });
  });

  it("refuses a file at its first row the parser refuses, naming the line", () => {
    expect(refusal([HEADER, row("2019-07-07", "0.0"), row("2019-07-32", "3")])).toBe('TH000048455.csv: line 3: bad date "2019-07-32"');
    expect(refusal([HEADER, row("2019-07-07", "0.0"), row("2019-07-07", "1.0")])).toBe("TH000048455.csv: line 3: duplicate date 2019-07-07 (first on line 2)");
  });

  it("keeps a file with one value out of range (dropped by the parser), refuses one mostly out of range", () => {
    const checked = checkContent(bytes([HEADER, row("2019-07-07", "0.0", "33.1"), row("2019-07-08", "12.5", "75.0"), row("2019-07-09", "3.1", "32.8")]), stationCheck("TH000048455"), "TH000048455.csv");
    expect(checked).toMatchObject({ rows: 3, dataAsOf: "2019-07-09" });
    // Tenths read as °C: every TMAX out of range.
    const tenths = Array.from({ length: 12 }, (_, i) => row(`2019-07-${String(i + 1).padStart(2, "0")}`, "0", String(334 + i)));
    expect(refusal([HEADER, ...tenths])).toBe(
      "TH000048455.csv: line 2: 12 of 24 values outside the plausible ranges (more than 1 %: a unit or format error), first TMAX 334 on 2019-07-01",
    );
  });

  it("the heat network's check (TMAX) accepts a temperature-only station; the precipitation check refuses it by name", () => {
    const header = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,TMAX,TMIN";
    const lines = [header, 'RSM00024688,"OJMJAKON, RS",63.25,143.15,740.0,2019-01-07,-55.2,-67.7', 'RSM00024688,"OJMJAKON, RS",63.25,143.15,740.0,2019-01-08,-54.0,-66.1'];
    const heat = stationCheck("RSM00024688", ["STATION", "DATE", "TMAX"]);
    expect(checkContent(bytes(lines), heat, "RSM00024688.csv")).toMatchObject({ rows: 2, dataAsOf: "2019-01-08" });
    expect(refusal(lines, stationCheck("RSM00024688"))).toBe(`TH000048455.csv: missing column "PRCP" (header: ${header})`);
  });

  it("refuses another station's file", () => {
    expect(refusal([HEADER, row("2019-07-07", "0.0", "", "TH000048456")])).toBe("TH000048455.csv: line 2: STATION TH000048456, expected TH000048455");
  });

  it("checks the columns the adapter reads on the header line", () => {
    const heat = stationCheck("TH000048455", ["STATION", "DATE", "TMAX"]);
    const noTmax = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP";
    expect(refusal([noTmax, 'TH000048455,"B",13.7,100.5,4.0,2019-07-07,0.0'], heat)).toBe(`TH000048455.csv: missing column "TMAX" (header: ${noTmax})`);
  });

  it("refuses a header without rows", () => {
    expect(refusal([HEADER])).toBe("TH000048455.csv: line 1: no data rows");
  });
});
