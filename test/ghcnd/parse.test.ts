import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, epochDay, parseGhcndCsv, readGhcndFile, splitCsvLine } from "../../pipeline/inputs/ghcnd/parse.ts";

const HEADER = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN";
const row = (date: string, p: string, tavg = "", tmax = "", tmin = "") =>
  `TH000048455,"BANGKOK METROPOLIS, TH",13.733,100.567,4.0,${date},${p},${tavg},${tmax},${tmin}`;

function fails(text: string, file = "x.csv"): InputError {
  try {
    parseGhcndCsv(text, file);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError");
}

describe("splitCsvLine", () => {
  it("keeps commas and escaped quotes inside quoted fields", () => {
    expect(splitCsvLine('a,"B, TH",,"say ""hi"""')).toEqual(["a", "B, TH", "", 'say "hi"']);
    expect(splitCsvLine('a,"open')).toBeUndefined();
  });
});

describe("parseGhcndCsv", () => {
  it("reads a CDO export into daily arrays with NaN gaps and counts", () => {
    const text = [HEADER, row("2000-01-01", "0.0", "", "30.0", "20.0"), row("2000-01-03", "12.5", "26.1", "", "21.0"), ""].join("\n");
    const d = parseGhcndCsv(text, "bkk.csv");
    expect(d.station).toBe("TH000048455");
    expect(d.name).toBe("BANGKOK METROPOLIS, TH");
    expect([d.lat, d.lng, d.elevationM]).toEqual([13.733, 100.567, 4]);
    expect(d.firstDay).toBe(epochDay(2000, 1, 1));
    expect(d.firstDay).toBe(10957);
    expect(Array.from(d.prcp)).toEqual([0, NaN, 12.5]);
    expect(Array.from(d.tavg)).toEqual([NaN, NaN, 26.1]);
    expect(Array.from(d.tmax)).toEqual([30, NaN, NaN]);
    expect(d.counts).toEqual({
      rows: 2,
      prcpValues: 2,
      tavgValues: 1,
      tmaxValues: 1,
      tminValues: 2,
      rejected: { tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 0 },
    });
    expect(d.outOfRange).toEqual([]);
  });

  it("finds columns by name and reads NOAA access CSV in tenths, dropping QC-flagged values", () => {
    const text = [
      '"STATION","DATE","LATITUDE","LONGITUDE","ELEVATION","NAME","PRCP","PRCP_ATTRIBUTES","TMAX","TMAX_ATTRIBUTES","TMIN","TMIN_ATTRIBUTES"',
      '"TH000048455","2019-07-09","13.733","100.567","4.0","BANGKOK METROPOLIS, TH","  165",",,S","334",",,S","251",",,S"',
      '"TH000048455","2019-07-10","13.733","100.567","4.0","BANGKOK METROPOLIS, TH","0",",,S","999",",X,S","248",",,S"',
    ].join("\r\n");
    const d = parseGhcndCsv(text, "access.csv");
    expect(Array.from(d.prcp)).toEqual([16.5, 0]);
    expect(Array.from(d.tmax)).toEqual([33.4, NaN]);
    expect(Array.from(d.tmin)).toEqual([25.1, 24.8]);
    expect(Array.from(d.tavg)).toEqual([NaN, NaN]);
    expect(d.counts.rejected.noaaQualityFlag).toBe(1);
  });

  it("drops TMAX and TMIN of a day with TMIN > TMAX and counts it, keeping PRCP and TAVG", () => {
    const d = parseGhcndCsv([HEADER, row("2000-01-01", "3.0", "25.0", "21.2", "22.6")].join("\n"), "a.csv");
    expect([d.prcp[0], d.tavg[0], d.tmax[0], d.tmin[0]]).toEqual([3, 25, NaN, NaN]);
    expect(d.counts.rejected.tminAboveTmax).toBe(1);
  });

  it("drops the reviewed known-bad value (TMIN 74.3 at Udorn 1976-05-13) and counts it", () => {
    const line = 'TH000048354,"UDORN AB USAF, TH",17.383,102.8,178.0,1976-05-13,6.5,,31.7,74.3';
    const d = parseGhcndCsv([HEADER, line].join("\n"), "udorn.csv");
    expect([d.prcp[0], d.tmax[0], d.tmin[0]]).toEqual([6.5, 31.7, NaN]);
    expect(d.counts.rejected).toEqual({ tminAboveTmax: 0, knownBad: 1, noaaQualityFlag: 0, outOfRange: 0 });
    expect(d.outOfRange).toEqual([]);
  });

  it("stops with file:line: reason on structural faults", () => {
    const good = row("2000-01-01", "0.0");
    const cases: [string, string][] = [
      [row("2000-01-02", "0.0") + ",extra", "f.csv:3: expected 10 columns, found 11"],
      [row("2000-02-30", "0.0"), 'f.csv:3: bad date "2000-02-30"'],
      [row("2000/01/02", "0.0"), 'f.csv:3: bad date "2000/01/02"'],
      [row("2000-01-02", "1,2").replace(",1,2,", ',"1,2",'), 'f.csv:3: PRCP is not a number: "1,2"'],
      [row("2000-01-02", "abc"), 'f.csv:3: PRCP is not a number: "abc"'],
      [row("2000-01-01", "1.0"), "f.csv:3: duplicate date 2000-01-01 (first on line 2)"],
      [row("2000-01-02", "0.0").replace("TH000048455", "TH000048456"), "f.csv:3: STATION TH000048456 differs from TH000048455 on line 2"],
      ['TH000048455,"BANGKOK,13.7', "f.csv:3: unterminated quoted field"],
    ];
    for (const [bad, message] of cases) {
      const e = fails([HEADER, good, bad, row("2000-01-05", "0.0")].join("\n"), "f.csv");
      expect(e.message).toBe(message);
      expect(e.code).toBe("GHCND_INPUT");
      expect(e.file).toBe("f.csv");
      expect(e.line).toBe(3);
    }
  });

  it("names a missing column and an empty middle line", () => {
    expect(fails("STATION,DATE,LATITUDE,LONGITUDE,PRCP\n").message).toBe("x.csv:1: missing column ELEVATION");
    expect(fails([HEADER, row("2000-01-01", "0"), "", row("2000-01-02", "0")].join("\n")).message).toBe("x.csv:3: empty line");
    expect(fails(HEADER + "\n").message).toBe("x.csv:1: no data rows");
  });

  it("readGhcndFile reports the path in errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ghcnd-parse-"));
    const path = join(dir, "s.csv");
    writeFileSync(path, [HEADER, row("2000-01-01", "0.0"), row("2000-01-32", "3")].join("\n"));
    await expect(readGhcndFile(path)).rejects.toThrow(`${path}:3: bad date "2000-01-32"`);
  });
});
