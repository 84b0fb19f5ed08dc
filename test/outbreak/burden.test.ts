// Burden maths on series written here (lib/outbreaks/burden.ts, lib/anchored-score.ts).
import { describe, expect, it } from "vitest";
import { anchoredScore } from "../../lib/anchored-score.ts";
import { casesOver, medianYearlyRate, periodsFor, populationOf } from "../../lib/outbreaks/burden.ts";
import { DISEASES } from "../../lib/outbreaks/diseases/index.ts";
import { ageFactor, outbreakConfidence } from "../../lib/outbreaks/confidence.ts";

describe("burden", () => {
  it("anchored score: 0 at 0, linear below the first anchor, log-linear between, capped", () => {
    const a = DISEASES.dengue.scale!.anchors;
    expect(anchoredScore(0, a)).toBe(0);
    expect(anchoredScore(0.5, a)).toBe(5);
    expect(anchoredScore(10, a)).toBe(20);
    expect(anchoredScore(300, a)).toBe(60);
    expect(anchoredScore(1000, a)).toBe(80);
    expect(anchoredScore(50_000, a)).toBe(100);
    expect(anchoredScore(NaN, a)).toBe(0);
  });

  it("every scale: under 1 per 100,000 is low (< 30)", () => {
    for (const d of Object.values(DISEASES)) {
      if (d.scale === null) continue;
      const onePer100k = d.scale.per / 100_000; // in the scale's unit
      expect(anchoredScore(onePer100k * 0.999, d.scale.anchors), d.disease).toBeLessThan(30);
    }
  });

  it("cases over 12 months: missing months scaled up when three quarters are there, else null", () => {
    const s = { start: 2020 * 12, values: Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), resolution: "month" as const };
    expect(casesOver(s, 2020 * 12 + 11, 12)).toEqual({ cases: 78, reported: 12, periods: 12, from: "2020-01-01", to: "2020-12-31" });
    s.values[0] = NaN;
    s.values[1] = NaN;
    expect(casesOver(s, 2020 * 12 + 11, 12)!.cases).toBeCloseTo((75 * 12) / 10, 9);
    s.values[2] = NaN;
    s.values[3] = NaN;
    expect(casesOver(s, 2020 * 12 + 11, 12)).toBeNull();
    expect(periodsFor("month", 365)).toBe(12);
    expect(periodsFor("year", 365)).toBe(1);
    expect(periodsFor("day", 14)).toBe(14);
  });

  it("population of a year: that year, else the latest before, else the first after", () => {
    const p: [number, number][] = [[2000, 10], [2010, 20]];
    expect(populationOf(p, 2010)).toEqual({ year: 2010, population: 20 });
    expect(populationOf(p, 2024)).toEqual({ year: 2010, population: 20 });
    expect(populationOf(p, 1990)).toEqual({ year: 2000, population: 10 });
    expect(populationOf([], 2000)).toBeNull();
  });

  it("median yearly rate per 100,000 over the years with data", () => {
    const s = { start: 2018, values: Float64Array.from([1, 3, NaN, 100]), resolution: "year" as const };
    expect(medianYearlyRate(s, () => 1_000_000)).toBe(0.3); // 0.1, 0.3, 10
  });

  it("confidence: full to a year, a tenth less each year after, never under 0.1 of the basis", () => {
    expect(ageFactor(0.5)).toBe(1);
    expect(ageFactor(3)).toBeCloseTo(0.8, 12);
    expect(ageFactor(40)).toBe(0.1);
    expect(outbreakConfidence({ basis: "national", ageYears: 0, sporadic: true, noRate: false, what: "x" })).toMatchObject({ confidence: 0.38, confidenceLabel: "medium" });
  });
});

describe("OpenDengue weeks to years (burden only)", () => {
  it("a year with ≥ 39 reported weeks (by the week's middle day) is its sum scaled to 52; fewer weeks, no year", async () => {
    const { weeksToYears } = await import("../../pipeline/health/opendengue.ts");
    // 40 Sunday-to-Saturday weeks from 2024-01-07, 1 case each; 2023-12-31's week has its middle day in 2024 too.
    const weeks = Array.from({ length: 40 }, (_, i) => ({ start: new Date(Date.UTC(2024, 0, 7) + i * 7 * 86_400_000).toISOString().slice(0, 10), cases: 1 }));
    expect([...weeksToYears(weeks)]).toEqual([[2024, 52]]);
    expect([...weeksToYears([{ start: "2023-12-31", cases: 13 }, ...weeks])]).toEqual([[2024, Math.round((53 * 52) / 41)]]);
    expect([...weeksToYears(weeks.slice(0, 38))]).toEqual([]);
  });
});
