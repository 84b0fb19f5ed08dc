// Run theory by hand: the runs, their peaks and deficits, missing months, and ranks.
import { describe, expect, it } from "vitest";
import { droughtRuns, rankOf } from "../../lib/drought/runs.ts";

describe("droughtRuns", () => {
  it("finds maximal runs below the threshold with duration, peak and deficit", () => {
    const x = [0.5, -1.2, -1.5, -0.9, -1.1, NaN, -2.0, -1.0, -1.3, 0.1, -3, -1.01];
    const runs = droughtRuns(x, -1);
    expect(runs.map((r) => [r.start, r.end, r.duration])).toEqual([[1, 2, 2], [4, 4, 1], [6, 6, 1], [8, 8, 1], [10, 11, 2]]);
    expect(runs[0].peak).toBe(-1.5);
    expect(runs[0].deficit).toBeCloseTo(0.2 + 0.5, 12);
    expect(runs[4].deficit).toBeCloseTo(2 + 0.01, 12);
    // -1.0 is not below -1: it ends the run at 6; NaN ends the run at 4.
  });

  it("stops at `until` (the run so far)", () => {
    const runs = droughtRuns([-2, -2, -2, 0], -1, 1);
    expect(runs).toEqual([{ start: 0, end: 1, duration: 2, peak: -2, deficit: 2 }]);
  });

  it("ranks runs by a key, ties sharing a rank", () => {
    const runs = droughtRuns([-2, 0, -1.5, -1.5, 0, -3, 0, -1.2, -1.2], -1);
    const byDeficit = (r: { deficit: number }) => r.deficit;
    expect(runs.map((r) => rankOf(runs, r, byDeficit))).toEqual([2, 2, 1, 4]);
    expect(rankOf(runs, runs[1], (r) => r.duration)).toBe(1);
  });
});
