// The parser's plausible ranges are the world's records, not a regional climate: polar, Siberian and tropical
// stations parse in both formats (CDO export in mm / °C, NOAA access CSV in tenths); a value beyond its element's
// range is dropped and reported, the station's other values kept; a file mostly out of range is refused; only the
// element columns the caller names are required. Every station file here is synthetic.
import { describe, expect, it } from "vitest";
import { InputError, PLAUSIBLE_RANGE, parseGhcndCsv, type ParseOptions } from "../../pipeline/inputs/ghcnd/parse.ts";

const CDO_HEADER = "STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN";
const ACCESS_HEADER =
  '"STATION","DATE","LATITUDE","LONGITUDE","ELEVATION","NAME","PRCP","PRCP_ATTRIBUTES","TAVG","TAVG_ATTRIBUTES","TMAX","TMAX_ATTRIBUTES","TMIN","TMIN_ATTRIBUTES"';

interface Station {
  id: string;
  name: string;
  lat: number;
  lon: number;
  elev: number;
}
/** One day: [date, PRCP mm, TAVG, TMAX, TMIN °C]; null = not reported. */
type Day = [string, number | null, number | null, number | null, number | null];

const VOSTOK: Station = { id: "AYM00089606", name: "VOSTOK, AY", lat: -78.45, lon: 106.867, elev: 3488 };
const OYMYAKON: Station = { id: "RSM00024688", name: "OJMJAKON, RS", lat: 63.25, lon: 143.15, elev: 740 };
const REUNION: Station = { id: "RE000061980", name: "SAINT-DENIS GILLOT, RE", lat: -20.883, lon: 55.533, elev: 8 };

const cdo = (s: Station, days: Day[]) =>
  [CDO_HEADER, ...days.map(([d, ...v]) => `${s.id},"${s.name}",${s.lat},${s.lon},${s.elev},${d},${v.map((x) => (x === null ? "" : x.toFixed(1))).join(",")}`)].join("\n") + "\n";

/** NOAA's access layout: quoted, tenths, an attribute after each value. */
const access = (s: Station, days: Day[]) =>
  [
    ACCESS_HEADER,
    ...days.map(([d, ...v]) => {
      const values = v.map((x) => (x === null ? '"",""' : `"${Math.round(x * 10)}",",,S"`)).join(",");
      return `"${s.id}","${d}","${s.lat}","${s.lon}","${s.elev}","${s.name}",${values}`;
    }),
  ].join("\r\n") + "\r\n";

const FORMATS = { cdo, access } as const;

function refusal(text: string, file: string, opts?: ParseOptions): string {
  try {
    parseGhcndCsv(text, file, opts);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error("expected an InputError");
}

/** Consecutive days from `from`, each made by `f(i)`, values to one decimal as the files hold them. */
function series(from: string, n: number, f: (i: number) => (number | null)[]): Day[] {
  const t0 = Date.parse(`${from}T00:00:00Z`);
  const tenth = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
  return Array.from({ length: n }, (_, i) => [new Date(t0 + i * 86_400_000).toISOString().slice(0, 10), ...f(i).map(tenth)] as Day);
}

describe("plausible ranges per element: the world's records", () => {
  it("are documented bounds around the records (−89.2 °C Vostok, 56.7 °C Death Valley, 1,825 mm Foc-Foc)", () => {
    expect(PLAUSIBLE_RANGE).toEqual({ TMAX: [-90, 60], TMIN: [-90, 50], TAVG: [-90, 60], PRCP: [0, 2000] });
  });

  for (const [format, write] of Object.entries(FORMATS)) {
    it(`${format}: a polar station (Vostok-like, TMIN to the −89.2 °C record, TMAX −20) keeps every value`, () => {
      const days: Day[] = [
        ["1983-01-10", 0, -32.4, -20, -41.5],
        ["1983-07-20", 0.1, -70.2, -62.5, -75],
        ["1983-07-21", 0, -80.1, -71.3, -89.2],
      ];
      const d = parseGhcndCsv(write(VOSTOK, days), "vostok.csv");
      expect(Array.from(d.tmin)).toEqual([-41.5, ...new Array(190).fill(NaN), -75, -89.2]);
      expect([d.tmax[0], d.tmax[191], d.tmax[192]]).toEqual([-20, -62.5, -71.3]);
      expect([d.tavg[191], d.prcp[191]]).toEqual([-70.2, 0.1]);
      expect(d.counts).toMatchObject({ rows: 3, tminValues: 3, tmaxValues: 3, tavgValues: 3, rejected: { outOfRange: 0, tminAboveTmax: 0 } });
      expect(d.outOfRange).toEqual([]);
    });

    it(`${format}: a Siberian winter (Oymyakon-like, TMIN −67.7 °C) keeps every value`, () => {
      const days = series("1933-01-30", 10, (i) => [i === 3 ? 0.3 : 0, -62 - i * 0.4, -55 - i * 0.5, -63.1 - i * 0.5 - (i === 9 ? 0.1 : 0)]);
      const d = parseGhcndCsv(write(OYMYAKON, days), "oymyakon.csv");
      expect(d.tmin[9]).toBe(-67.7);
      expect(d.tmax[9]).toBe(-59.5);
      expect(d.counts).toMatchObject({ rows: 10, tminValues: 10, tmaxValues: 10, tavgValues: 10, prcpValues: 10, rejected: { outOfRange: 0 } });
    });

    it(`${format}: a tropical station keeps TMAX 38 °C, a 300 mm day and the records themselves; a night above 50 °C is dropped`, () => {
      const days: Day[] = [
        ["1966-01-06", 300, 30.1, 38, 24.2],
        ["1966-01-07", 1825, 27, 56.7, 23],
        // TMIN 55 °C: hotter than any night on record (44.2 °C); TMAX and the rest of the day stand.
        ["1966-01-08", 2000, 29, 36, 55],
      ];
      const d = parseGhcndCsv(write(REUNION, days), "reunion.csv");
      expect(Array.from(d.prcp)).toEqual([300, 1825, 2000]);
      expect(Array.from(d.tmax)).toEqual([38, 56.7, 36]);
      expect(Array.from(d.tmin)).toEqual([24.2, 23, NaN]);
      expect(d.outOfRange).toEqual([{ line: 4, date: "1966-01-08", element: "TMIN", value: 55 }]);
      expect(d.counts.rejected).toEqual({ tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 1 });
    });

    it(`${format}: one impossible value (TMAX 75 °C, unflagged) is dropped and reported; the station's other years stay`, () => {
      // Three years of days; 1998-07-14 has TMAX 75 and 1999-02-01 a PRCP of −1 mm.
      const days = series("1997-01-01", 3 * 365, (i) => [i % 7 === 0 ? 4.2 : 0, 27 + (i % 5) * 0.1, 32 + (i % 3) * 0.5, 22 + (i % 4) * 0.2]);
      const bad = days.findIndex(([d]) => d === "1998-07-14");
      days[bad][3] = 75;
      const neg = days.findIndex(([d]) => d === "1999-02-01");
      days[neg][1] = -1;
      const d = parseGhcndCsv(write(REUNION, days), "one-bad.csv");
      expect(d.outOfRange).toEqual([
        { line: bad + 2, date: "1998-07-14", element: "TMAX", value: 75 },
        { line: neg + 2, date: "1999-02-01", element: "PRCP", value: -1 },
      ]);
      expect(d.counts).toMatchObject({ rows: 1095, tmaxValues: 1094, tminValues: 1095, prcpValues: 1094, rejected: { outOfRange: 2, tminAboveTmax: 0 } });
      expect([d.tmax[bad], d.tmin[bad], d.prcp[bad], d.tavg[bad]]).toEqual([NaN, days[bad][4], days[bad][1], days[bad][2]]);
      expect(d.tmax[bad - 1]).toBe(days[bad - 1][3]);
      expect(d.tmax[1094]).toBe(days[1094][3]);
    });
  }

  it("tolerates up to 10 values out of range, and up to 1 % of the values; beyond both the file is refused", () => {
    // 200 days × 3 values (PRCP, TMAX, TMIN) = 600 values: 1 % is 6, so the 10 tolerated decide.
    const file = (n: number, bad: number) => cdo(REUNION, series("2001-01-01", n, (i) => [0, null, i < bad ? 75 : 33, 24]));
    expect(parseGhcndCsv(file(200, 10), "a.csv").counts.rejected.outOfRange).toBe(10);
    expect(refusal(file(200, 11), "a.csv")).toBe("a.csv:2: 11 of 600 values outside the plausible ranges (more than 1 %: a unit or format error), first TMAX 75 on 2001-01-01");
    // 1,500 values: 1 % is 15.
    expect(parseGhcndCsv(file(500, 15), "b.csv").counts.rejected.outOfRange).toBe(15);
    expect(refusal(file(500, 16), "b.csv")).toMatch(/^b\.csv:2: 16 of 1500 values outside the plausible ranges/);
  });

  it("refuses a file in the wrong unit (an access file's tenths without its attribute columns, read as °C)", () => {
    const rows = series("2019-07-01", 30, (i) => [i % 2 ? 165 : 0, null, 334 + i, 251]);
    expect(refusal(cdo(REUNION, rows), "tenths.csv")).toBe(
      "tenths.csv:2: 60 of 90 values outside the plausible ranges (more than 1 %: a unit or format error), first TMAX 334 on 2019-07-01",
    );
  });

  it("requires only the element columns the caller names: a temperature-only station", () => {
    const text =
      ["STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,TMAX,TMIN", `${VOSTOK.id},"${VOSTOK.name}",-78.45,106.867,3488,1983-07-21,-71.3,-89.2`].join("\n") + "\n";
    for (const opts of [undefined, { require: ["TMAX"] as const }]) {
      const d = parseGhcndCsv(text, "t.csv", opts);
      expect([d.tmax[0], d.tmin[0], d.prcp[0], d.tavg[0]]).toEqual([-71.3, -89.2, NaN, NaN]);
      expect(d.counts).toMatchObject({ rows: 1, prcpValues: 0, tmaxValues: 1 });
    }
    expect(refusal(text, "t.csv", { require: ["PRCP"] })).toBe("t.csv:1: missing column PRCP: no precipitation in this station file, and this reader needs it");
  });
});
