// Heatwaves from daily maximum temperature (Perkins & Alexander 2013): calendar days, thresholds, runs and the
// score, on series built here with hand-computed answers.
import { describe, expect, it } from "vitest";
import { HOT_DAY_ANCHORS, calendarDay, calendarDayThresholds, heatwaveDayScore, heatwaveStats } from "../../lib/feed-risk/heatwave-days.ts";
import { standardizedAnomalyScore } from "../../lib/feed-risk/scoring.ts";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

describe("calendar days", () => {
  it("1 January is 0, 31 December 364, 29 February shares 28 February's day", () => {
    expect(calendarDay(day("2001-01-01"))).toBe(0);
    expect(calendarDay(day("2001-12-31"))).toBe(364);
    expect(calendarDay(day("2004-02-29"))).toBe(calendarDay(day("2004-02-28")));
    expect(calendarDay(day("2004-03-01"))).toBe(59);
  });
});

describe("thresholds and heatwaves", () => {
  // Ten base years 1981–1990 of a constant 30 °C except a ramp: every value the same → the 90th percentile is 30.
  const first = day("1981-01-01");
  const n = day("1991-12-31") - first + 1;
  const tmax = new Float64Array(n).fill(30);

  it("the calendar-day 90th percentile over a 15-day window (type 7 interpolation)", () => {
    const th = calendarDayThresholds(tmax, first, 1981, 1990);
    expect(th.every((v) => v === 30)).toBe(true);
    // 150 values make a threshold: with only 1981 present (15 values a day) there is none.
    const oneYear = Float64Array.from(tmax, (v, i) => (i < 365 ? v : NaN));
    expect(Number.isNaN(calendarDayThresholds(oneYear, first, 1981, 1990)[100])).toBe(true);
    // Values 1..150 in one window: the 90th percentile is 1 + 0.9 × 149 = 135.1.
    const ramp = new Float64Array(n).fill(NaN);
    for (let y = 0; y < 10; y++) for (let k = -7; k <= 7; k++) ramp[day(`${1981 + y}-01-08`) - first + k] = y * 15 + k + 8;
    expect(calendarDayThresholds(ramp, first, 1981, 1990)[7]).toBeCloseTo(135.1, 9);
  });

  it("runs of 3+ days above the threshold are heatwaves; a missing day ends a run; ≥ 35 °C days counted apart", () => {
    const th = new Float64Array(365).fill(30);
    const t = new Float64Array(40).fill(29);
    const f = day("1991-07-01");
    // Days 2-4 (3 days, a heatwave), 10-11 (2 days: not one), 20-26 with day 23 missing (3 + 3: two heatwaves).
    for (const i of [2, 3, 4, 10, 11, 20, 21, 22, 24, 25, 26]) t[i] = 31;
    t[23] = NaN;
    t[3] = 36;
    t[25] = 35;
    const h = heatwaveStats(t, f, th, f, f + 39);
    expect(h.events.map((e) => [e.start - f, e.days, e.peakC])).toEqual([[2, 3, 36], [20, 3, 31], [24, 3, 35]]);
    expect({ hwn: h.heatwaves, hwf: h.heatwaveDays, hwd: h.longestDays, hwa: h.hottestPeakC, hot: h.hotDays, days: h.daysWithData }).toEqual({ hwn: 3, hwf: 9, hwd: 3, hwa: 36, hot: 2, days: 39 });
    // A heatwave under way when the period opens counts from its first day in the period; one running at its end counts.
    expect(heatwaveStats(t, f, th, f + 2, f + 22).events.map((e) => [e.start - f, e.days])).toEqual([[2, 3], [20, 3]]);
    // Cut to two days by the period's edges, neither is a heatwave.
    expect(heatwaveStats(t, f, th, f + 3, f + 21).events).toEqual([]);
  });

  it("the score is the larger of the relative (z of heatwave days) and absolute (days ≥ 35 °C) terms", () => {
    const s = heatwaveDayScore(30, 10, 5, 0);
    expect(s.z).toBe(4);
    expect(s.relativeScore).toBe(standardizedAnomalyScore(4));
    expect(s.score).toBe(s.relativeScore);
    // The spread has a floor of 2 days.
    expect(heatwaveDayScore(12, 10, 0.1, 0).z).toBe(1);
    for (const [d, sc] of HOT_DAY_ANCHORS) expect(heatwaveDayScore(0, 10, 5, d).absoluteScore).toBe(sc);
    expect(heatwaveDayScore(0, 10, 5, 20).absoluteScore).toBe(45);
    expect(heatwaveDayScore(0, 10, 5, 400).score).toBe(100);
  });
});
