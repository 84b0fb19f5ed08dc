import { describe, expect, it } from "vitest";
import {
  assess,
  endemicChannel,
  outbreakScore,
  outbreakStatus,
  periodDates,
  quantileSorted,
  riskLevelOf,
  trendOf,
  windowPeriods,
  windowSum,
} from "../../lib/outbreaks/endemic-channel.ts";
import { monthIndex } from "../../lib/months.ts";
import { dayIndex } from "../../lib/outbreaks/series.ts";

/** Six years of monthly counts 2017-01..2022-12: month m of year y is 100*(y-2017) + m, Decembers set apart. */
function monthly(decembers: number[], novemberLast: number) {
  const start = monthIndex(2017, 1);
  const values = new Float64Array(72);
  for (let i = 0; i < 72; i++) values[i] = 1 + (i % 12);
  for (let y = 0; y < 6; y++) values[y * 12 + 11] = decembers[y];
  values[70] = novemberLast;
  return { start, values, resolution: "month" as const, baseline: "seasonal" as const };
}

describe("window and quantiles", () => {
  it("counts periods per timeframe: monthly 7d/30d = 1 month, 90d = 3; yearly always 1; daily = days", () => {
    expect([windowPeriods("month", "7d"), windowPeriods("month", "30d"), windowPeriods("month", "90d")]).toEqual([1, 1, 3]);
    expect([windowPeriods("year", "7d"), windowPeriods("year", "90d")]).toEqual([1, 1]);
    expect([windowPeriods("day", "7d"), windowPeriods("day", "30d"), windowPeriods("day", "90d")]).toEqual([7, 30, 90]);
  });

  it("sums a window and gives NaN when it leaves the series or meets a gap", () => {
    const v = Float64Array.of(1, 2, NaN, 4, 5);
    expect(windowSum(10, v, 11, 2)).toBe(3);
    expect(windowSum(10, v, 14, 2)).toBe(9);
    expect(windowSum(10, v, 13, 2)).toBeNaN();
    expect(windowSum(10, v, 10, 2)).toBeNaN();
    expect(windowSum(10, v, 15, 1)).toBeNaN();
  });

  it("interpolates quantiles like R type 7", () => {
    expect(quantileSorted(Float64Array.of(1, 2, 3, 4), 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileSorted(Float64Array.of(90, 297, 335, 448, 765), 0.9)).toBeCloseTo(638.2, 9);
    expect(quantileSorted(Float64Array.of(10, 20, 30, 40, 50), 0.5)).toBe(30);
    expect(quantileSorted(new Float64Array(0), 0.5)).toBeNaN();
  });
});

describe("endemic channel, status and score", () => {
  it("builds the channel from the same month of the 5 previous years", () => {
    const s = monthly([10, 20, 30, 40, 50, 45], 30);
    const ch = endemicChannel(s, monthIndex(2022, 12), 1);
    expect(ch).toEqual({ median: 30, p75: 40, p90: 46, n: 5, baseline: "seasonal", ends: [2021, 2020, 2019, 2018, 2017].map((y) => monthIndex(y, 12)) });
  });

  it("skips baseline windows with a missing period and looks back over the 5 most recent years that have one, at most 10", () => {
    // Decembers 2010..2022: 2021, 2020 and 2018 missing; 2012 and earlier only beyond ten years.
    const start = monthIndex(2010, 1);
    const values = new Float64Array(13 * 12).fill(1);
    const dec = (y: number) => (y - 2010) * 12 + 11;
    [2010, 2011, 2012, 2013, 2014, 2015, 2016, 2017, 2019, 2022].forEach((y, i) => (values[dec(y)] = 10 * (i + 1)));
    for (const y of [2018, 2020, 2021]) values[dec(y)] = NaN;
    const s = { start, values, resolution: "month" as const, baseline: "seasonal" as const };
    const ch = endemicChannel(s, monthIndex(2022, 12), 1);
    // 2019 (90), 2017 (80), 2016 (70), 2015 (60), 2014 (50): five years with data within 2021..2012.
    expect(ch.ends).toEqual([2019, 2017, 2016, 2015, 2014].map((y) => monthIndex(y, 12)));
    expect([ch.n, ch.median, ch.p75, ch.p90]).toEqual([5, 70, 80, 86]);
    // With 2013..2017 missing too, only 2019 and 2012 are left within ten years (2012 is the tenth year back).
    for (const y of [2013, 2014, 2015, 2016, 2017]) values[dec(y)] = NaN;
    const sparse = endemicChannel(s, monthIndex(2022, 12), 1);
    expect(sparse.ends).toEqual([monthIndex(2019, 12), monthIndex(2012, 12)]);
    expect(outbreakStatus(100, sparse)).toBe("insufficient_history");
    // A 3-month window is skipped when any of its months is missing.
    values[dec(2019) - 1] = NaN;
    expect(endemicChannel(s, monthIndex(2022, 12), 3).ends).toEqual([monthIndex(2012, 12)]);
  });

  it("a recent baseline skips windows with a gap and stops at 16 windows back or the start of the series", () => {
    const start = dayIndex("2021-01-01");
    const values = new Float64Array(20).fill(2);
    values[17] = NaN; // the window just before the latest
    const ch = endemicChannel({ start, values, resolution: "day", baseline: "recent" }, start + 19, 1);
    expect(ch.ends).toEqual([18, 16, 15, 14, 13, 12, 11, 10].map((i) => start + i));
    const short = endemicChannel({ start, values: values.subarray(0, 4), resolution: "day", baseline: "recent" }, start + 3, 2);
    expect([short.n, short.ends]).toEqual([1, [start + 1]]);
  });

  it("classifies normal ≤ median < watch ≤ p75 < warning ≤ p90 < alert, with scores 30/60/80 at the edges", () => {
    const ch = { median: 30, p75: 40, p90: 46, n: 5 };
    const cases: [number, string, number][] = [
      [0, "normal", 0],
      [15, "normal", 15],
      [30, "normal", 30],
      [35, "watch", 45],
      [40, "watch", 60],
      [45, "warning", 76.7],
      [46, "warning", 80],
      [47, "alert", 80.4],
      [92, "alert", 100],
      [500, "alert", 100],
    ];
    for (const [x, status, score] of cases) {
      expect(outbreakStatus(x, ch), `status of ${x}`).toBe(status);
      expect(outbreakScore(x, ch), `score of ${x}`).toBe(score);
    }
    expect([riskLevelOf(29.9), riskLevelOf(30), riskLevelOf(60), riskLevelOf(80)]).toEqual(["low", "medium", "high", "critical"]);
  });

  it("needs 3 baseline windows; a flat zero channel scores a case above it as alert", () => {
    expect(outbreakStatus(5, { median: 1, p75: 1, p90: 1, n: 2 })).toBe("insufficient_history");
    expect(outbreakScore(5, { median: 1, p75: 1, p90: 1, n: 2 })).toBe(0);
    const zero = { median: 0, p75: 0, p90: 0, n: 5 };
    expect([outbreakStatus(0, zero), outbreakScore(0, zero)]).toEqual(["normal", 0]);
    expect([outbreakStatus(1, zero), outbreakScore(1, zero)]).toEqual(["alert", 100]);
  });

  it("trend: more than 20 % up is increasing, more than 20 % down decreasing", () => {
    expect(trendOf(45, 30)).toBe("increasing");
    expect(trendOf(36, 30)).toBe("stable");
    expect(trendOf(25, 30)).toBe("stable");
    expect(trendOf(24, 30)).toBe("decreasing");
    expect(trendOf(3, 0)).toBe("increasing");
    expect(trendOf(0, 0)).toBe("stable");
    expect(trendOf(NaN, 3)).toBe("unknown");
  });
});

describe("assess", () => {
  it("30d on monthly data: the latest month against the same month of previous years and the month before", () => {
    const a = assess(monthly([10, 20, 30, 40, 50, 45], 30), "30d");
    expect(a.current).toBe(45);
    expect(a.previous).toBe(30);
    expect(a.status).toBe("warning");
    expect(a.score).toBe(76.7);
    expect(a.trend).toBe("increasing");
    expect(a.window).toEqual({ from: "2022-12-01", to: "2022-12-31" });
    expect(a.previousWindow).toEqual({ from: "2022-11-01", to: "2022-11-30" });
  });

  it("90d on monthly data sums three months", () => {
    // Oct and Nov are 10 and 30 (Nov of 2022 set to 30); Decembers 10..50, last 45.
    const a = assess(monthly([10, 20, 30, 40, 50, 45], 30), "90d");
    expect(a.current).toBe(10 + 30 + 45);
    // previous years Oct+Nov+Dec = 10+11+Dec: 31, 41, 51, 61, 71 → median 51, p75 61, p90 67
    expect(a.channel).toEqual({ median: 51, p75: 61, p90: 67, n: 5, baseline: "seasonal", ends: [2021, 2020, 2019, 2018, 2017].map((y) => monthIndex(y, 12)) });
    expect(a.status).toBe("alert");
    expect(a.previous).toBe(7 + 8 + 9);
    expect(a.window).toEqual({ from: "2022-10-01", to: "2022-12-31" });
  });

  it("a recent baseline compares with the windows just before (daily data, 7d)", () => {
    const start = dayIndex("2021-01-01");
    const values = new Float64Array(63).fill(1); // 9 weeks of 7 cases each...
    for (let i = 56; i < 63; i++) values[i] = 3; // ...then a week of 21
    const a = assess({ start, values, resolution: "day", baseline: "recent" }, "7d");
    expect(a.current).toBe(21);
    expect(a.channel).toMatchObject({ median: 7, p75: 7, p90: 7, n: 8, baseline: "recent" });
    expect(a.channel.ends).toEqual([55, 48, 41, 34, 27, 20, 13, 6].map((i) => start + i));
    expect(a.status).toBe("alert");
    expect(a.trend).toBe("increasing");
    expect(a.window).toEqual({ from: "2021-02-26", to: "2021-03-04" });
  });

  it("yearly data: the latest year against up to 5 previous years; ends at the last reported value", () => {
    const values = Float64Array.of(100, 200, 300, 400, 500, 600, 250, NaN);
    const a = assess({ start: 2010, values, resolution: "year", baseline: "seasonal" }, "7d");
    expect(a.current).toBe(250);
    expect(a.channel.median).toBe(400);
    expect(a.status).toBe("normal");
    expect(a.score).toBe(18.8);
    expect(a.trend).toBe("decreasing");
    expect(periodDates("year", 2016, 2016)).toEqual({ from: "2016-01-01", to: "2016-12-31" });
  });
});
