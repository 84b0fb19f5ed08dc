// FluNet influenza counts (OWID copies in DATA_DIR/health/flunet): the zero-filled gaps become missing months, the
// weekly file aggregates by the Thursday rule, and the endemic channel of the latest month (numbers traced to rows).
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { assess } from "../../lib/outbreaks/endemic-channel.ts";
import {
  FLUNET_OWID_SOURCE,
  FLUNET_SOURCE,
  ZERO_RUN_MIN_MEDIAN,
  maskZeroRuns,
  parseFlunetCsv,
  readFlunet,
  weeklyToMonthly,
  type InfluenzaSeries,
} from "../../pipeline/health/flunet.ts";
import { dayIndex } from "../../lib/outbreaks/series.ts";

const flunet = readFlunet(dataDir());
const find = (area: string, type: string) => flunet.series.find((s) => s.area === area && s.type === type)!;
const at = (s: InfluenzaSeries, month: string) => s.values[parseMonth(month)! - s.start];
const months = (list: number[]) => list.map(formatMonth);

describe("FluNet series on the real files", () => {
  it("four monthly series 2009-01..2024-03 per country and type, with WHO's dataset terms and OWID in the source", () => {
    expect(flunet.series.map((s) => [s.area, s.type, formatMonth(s.start), s.values.length, s.resolution, s.baseline])).toEqual([
      ["THA", "A", "2009-01", 183, "month", "seasonal"],
      ["VNM", "A", "2009-01", 183, "month", "seasonal"],
      ["VNM", "B", "2009-01", 183, "month", "seasonal"],
      ["VNM", "total", "2009-01", 183, "month", "seasonal"],
    ]);
    expect(flunet.series.every((s) => s.disease === "influenza" && s.source === FLUNET_OWID_SOURCE)).toBe(true);
    expect(FLUNET_OWID_SOURCE).toContain("as republished by Our World in Data; WHO data policy");
    // FluNet's own export is not OWID's.
    expect(FLUNET_SOURCE).not.toContain("Our World in Data");
    expect(FLUNET_SOURCE).toContain("public health purposes");
    expect([at(find("THA", "A"), "2009-01"), at(find("THA", "A"), "2024-03")]).toEqual([32, 102]);
  });

  it("Thailand: the zero runs 2020-05..08, 2021-01..12 and 2022-02..03 are missing; the months around them keep their values", () => {
    const th = find("THA", "A");
    const gap = [
      "2020-05", "2020-06", "2020-07", "2020-08",
      ...Array.from({ length: 12 }, (_, i) => `2021-${String(i + 1).padStart(2, "0")}`),
      "2022-02", "2022-03",
    ];
    expect(months(th.zeroFilledMonths)).toEqual(gap);
    for (const m of gap) expect(at(th, m)).toBeNaN();
    // Rows of thailand_flu_A_month.csv around the gaps: 2020-04 6.0, 2020-09 3.0, 2020-10 0.0 (a single zero month
    // stays a zero), 2020-11 8.0, 2020-12 3.0, 2022-01 6.0, 2022-04 1.0; 2012-02 0.0 is a single zero too.
    const around = ["2020-04", "2020-09", "2020-10", "2020-11", "2020-12", "2022-01", "2022-04", "2012-02"];
    expect(around.map((m) => at(th, m))).toEqual([6, 3, 0, 8, 3, 6, 1, 0]);
  });

  it("Vietnam: A loses 2020-03..08 and 2021-01..2022-05, B 2020-01..2022-06; the total is missing where either is", () => {
    const a = find("VNM", "A");
    const b = find("VNM", "B");
    const total = find("VNM", "total");
    expect(a.zeroFilledMonths.map(formatMonth).filter((m) => m < "2021")).toEqual(["2020-03", "2020-04", "2020-05", "2020-06", "2020-07", "2020-08"]);
    expect(a.zeroFilledMonths).toHaveLength(6 + 17);
    expect([formatMonth(b.zeroFilledMonths[0]), formatMonth(b.zeroFilledMonths.at(-1)!), b.zeroFilledMonths.length]).toEqual(["2020-01", "2022-06", 30]);
    // Single zero months stay zeros: A 2010-05 and 2016-01; B 2023-06, 2023-09 and 2023-11.
    expect(["2010-05", "2016-01"].map((m) => at(a, m))).toEqual([0, 0]);
    expect(["2023-06", "2023-09", "2023-11"].map((m) => at(b, m))).toEqual([0, 0, 0]);
    // 2020-01: A 13, B 0 inside B's run → total missing; 2024-03: A 46 + B 33.
    expect([at(a, "2020-01"), at(b, "2020-01"), at(total, "2020-01")]).toEqual([13, NaN, NaN]);
    expect(at(total, "2024-03")).toBe(79);
    expect(total.zeroFilledMonths).toEqual(b.zeroFilledMonths); // A's gaps lie inside B's
  });

  it("weekly → monthly by the Thursday rule: whole weeks, complete months only; same counts as the monthly files through 2022", () => {
    const A = new Map(flunet.vietnamFromWeekly.A.map(([m, v]) => [formatMonth(m), v]));
    // 2009-01 lacks the week of Monday 2008-12-29 (Thursday 2009-01-01): left out. 2009-03 = weeks of 03-02, 09, 16,
    // 23 (10 + 11 + 15 + 21); the week of 03-30 (23) has its Thursday on 04-02 and counts in April:
    // 23 + 21 + 32 + 21 + 62 = 159. The monthly file, which OWID sums by week start, has 80 and 136.
    expect([A.get("2009-01"), A.get("2009-02"), A.get("2009-03"), A.get("2009-04")]).toEqual([undefined, 16, 57, 159]);
    expect([at(find("VNM", "A"), "2009-03"), at(find("VNM", "A"), "2009-04")]).toEqual([80, 136]);
    // 2024-02 has five Thursdays: weeks of 01-29 (3), 02-05 (1), 02-12 (4), 02-19 (1), 02-26 (1) = 10.
    // 2024-03 has the week of 03-04 (3) and the blank last row 2024-03-11: incomplete, left out.
    expect([A.get("2024-01"), A.get("2024-02"), A.get("2024-03")]).toEqual([77, 10, undefined]);
    expect(flunet.blankWeeks).toEqual(["2024-03-11"]);
    // Over 2009-02..2022-12 both rules put the same weeks in the span, and the files agree: A 6,288, B 3,192.
    // (From 2023 the monthly files carry later revisions: 2024-01 A is 123 there, 80 by week start in the weekly file.)
    const sum = (pts: [number, number][]) => pts.filter(([m]) => formatMonth(m) >= "2009-02" && formatMonth(m) <= "2022-12").reduce((s, [, v]) => s + v, 0);
    const monthlySum = (s: InfluenzaSeries) => {
      let total = 0;
      for (let m = parseMonth("2009-02")!; m <= parseMonth("2022-12")!; m++) total += Number.isNaN(at(s, formatMonth(m))) ? 0 : at(s, formatMonth(m));
      return total; // the masked months held 0 in the file
    };
    expect([sum(flunet.vietnamFromWeekly.A), sum(flunet.vietnamFromWeekly.B)]).toEqual([6288, 3192]);
    expect([monthlySum(find("VNM", "A")), monthlySum(find("VNM", "B"))]).toEqual([6288, 3192]);
  });
});

describe("endemic channel of the latest month (lib/outbreaks/endemic-channel.ts)", () => {
  it("Thailand 2024-03: 102 influenza A against the five most recent Marches with data, 2023 54, 2020 61, 2019 80, 2018 36, 2017 2 (2021, 2022 missing) → alert", () => {
    const a = assess(find("THA", "A"), "30d");
    expect(a.window).toEqual({ from: "2024-03-01", to: "2024-03-31" });
    expect(months(a.channel.ends)).toEqual(["2023-03", "2020-03", "2019-03", "2018-03", "2017-03"]);
    // sorted 2, 36, 54, 61, 80: median 54, p75 61, p90 61 + 0.6 · 19 = 72.4
    expect([a.current, a.previous, a.channel.n, a.channel.median, a.channel.p75, a.channel.p90]).toEqual([102, 80, 5, 54, 61, 72.4]);
    expect([a.status, a.score, a.trend]).toEqual(["alert", 88.2, "increasing"]);
    // 90d: 2024-01..03 = 109 + 80 + 102 = 291 against 182 (2023), 262 (2020), 213 (2019), 118 (2018), 12 (2017);
    // 2022 (6 + 0 + 0 masked) and 2021 are skipped.
    const q = assess(find("THA", "A"), "90d");
    expect(months(q.channel.ends)).toEqual(["2023-03", "2020-03", "2019-03", "2018-03", "2017-03"]);
    expect([q.current, q.channel.n, q.channel.median, q.channel.p75, q.channel.p90, q.status, q.score]).toEqual([291, 5, 182, 213, 242.4, "alert", 84]);
  });

  it("the zeros would have entered the channel as two seasons of no influenza", () => {
    const th = find("THA", "A");
    const raw = Float64Array.from(th.values);
    for (const m of th.zeroFilledMonths) raw[m - th.start] = 0;
    const a = assess({ ...th, values: raw }, "30d");
    expect(months(a.channel.ends)).toEqual(["2023-03", "2022-03", "2021-03", "2020-03", "2019-03"]);
    expect([a.channel.n, a.channel.median, a.channel.p75]).toEqual([5, 54, 61]);
  });

  it("Vietnam 2024-03: 79 (A 46 + B 33) against 2023 62, 2019 22, 2018 18, 2017 23, 2016 27 — the 2020–2022 gap is skipped, so the channel exists", () => {
    const v = assess(find("VNM", "total"), "30d");
    expect(months(v.channel.ends)).toEqual(["2023-03", "2019-03", "2018-03", "2017-03", "2016-03"]);
    // sorted 18, 22, 23, 27, 62: median 23, p75 27, p90 27 + 0.6 · 35 = 48
    expect([v.current, v.previous, v.channel.n, v.channel.median, v.channel.p75, v.channel.p90]).toEqual([79, 38, 5, 23, 27, 48]);
    expect([v.status, v.score, v.trend]).toEqual(["alert", 92.9, "increasing"]);
    expect(assess(find("VNM", "A"), "30d").channel.n).toBe(5);
  });
});

describe("FluNet parsing and rules on inputs written here", () => {
  const monthly = (rows: string[]) => ["Month,Influenza A - All types of surveillance", ...rows].join("\n") + "\n";

  it("the zero-run rule: runs of two or more zeros in a series with a median month ≥ 10; single zeros and low series kept", () => {
    expect(ZERO_RUN_MIN_MEDIAN).toBe(10);
    // median of the 21 reported months: 25
    const high = [40, 30, 0, 25, 0, 0, 0, 12, 0, 0, NaN, 0, 50, 60, 45, 33, 28, 70, 41, 39, 22, 18];
    expect(maskZeroRuns(high).masked).toEqual([4, 5, 6, 8, 9]);
    expect(Array.from(maskZeroRuns(high).values).slice(0, 13)).toEqual([40, 30, 0, 25, NaN, NaN, NaN, 12, NaN, NaN, NaN, 0, 50]);
    // median 1: zeros are plausible counts, nothing masked
    expect(maskZeroRuns([1, 0, 0, 0, 2, 3, 1]).masked).toEqual([]);
  });

  it("weeks split at a month boundary by their Thursday; a blank week leaves its month out", () => {
    // Mondays 2024-04-22 (Thu 04-25), 04-29 (Thu 05-02), then May's 05-06, 13, 20, 27 (blank).
    const mondays = ["2024-04-22", "2024-04-29", "2024-05-06", "2024-05-13", "2024-05-20", "2024-05-27"].map(dayIndex);
    const counts = [5, 7, 1, 2, 3, NaN];
    // April 2024 has four Thursdays (4, 11, 18, 25) and only one of its weeks is here; May is missing the 27th.
    expect(weeklyToMonthly(mondays, counts)).toEqual([]);
    expect(weeklyToMonthly(mondays, [5, 7, 1, 2, 3, 4]).map(([m, v]) => [formatMonth(m), v])).toEqual([["2024-05", 17]]);
  });

  it("refuses malformed files with the file and line named", () => {
    expect(parseFlunetCsv(monthly(["2020-01-01,4.0", "2020-02-01,"]), "t.csv").counts.A).toEqual(Float64Array.from([4, NaN]));
    expect(() => parseFlunetCsv(monthly(["2020-01-01,4.5"]), "t.csv")).toThrow('t.csv:2: influenza A count "4.5" is not a whole number ≥ 0');
    expect(() => parseFlunetCsv(monthly(["2020-01-01,-1"]), "t.csv")).toThrow("t.csv:2:");
    expect(() => parseFlunetCsv(monthly(["2020-01-01,4", "2020-01-15,5"]), "t.csv")).toThrow('t.csv:3: "2020-01-15" is not the first day of a month');
    expect(() => parseFlunetCsv(monthly(["2020-02-01,4", "2020-01-01,5"]), "t.csv")).toThrow('t.csv:3: "2020-01-01" does not follow the row before');
    // A blank line is no row (the pipeline CSV reader skips it): the months around it are read as they are.
    expect(Array.from(parseFlunetCsv(monthly(["2020-01-01,4", "", "2020-02-01,5"]), "t.csv").counts.A!)).toEqual([4, 5]);
    expect(() => parseFlunetCsv(monthly(["2020-01-01,4,5"]), "t.csv")).toThrow(/^t\.csv:2: expected 2 fields, found 3$/);
    expect(() => parseFlunetCsv("Week,Influenza A - All types of surveillance\n2020-01-06,1\n", "t.csv")).toThrow('t.csv:1: first column is "Week"');
    expect(() => parseFlunetCsv("Day,Influenza C\n2020-01-06,1\n", "t.csv")).toThrow('t.csv:1: unexpected column "Influenza C"');
    expect(() => parseFlunetCsv("Day,Influenza A - All types of surveillance\n2020-01-07,1\n", "t.csv")).toThrow('t.csv:2: "2020-01-07" is not the Monday of an ISO week');
    expect(() => parseFlunetCsv("", "t.csv")).toThrow("t.csv: empty file");
  });
});
