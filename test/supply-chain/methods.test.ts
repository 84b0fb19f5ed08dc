// Activity methods on series built here, the day-series format, and the request schema.
import { describe, expect, it } from "vitest";
import { readDaySeries, writeDaySeries } from "../../formats/day-series.ts";
import {
  anomalyPoints,
  disruptionLevel,
  percentileRank,
  seasonalBaseline,
  windowMean,
  windowSum,
} from "../../lib/ports/activity.ts";
import { unlocodeFunctionNames } from "../../lib/ports/unlocode-function.ts";
import { supplyChainBody } from "../../server/schemas-supply-chain.ts";

describe("window statistics", () => {
  it("averages the last days skipping NaN, and refuses windows under 80% coverage or out of range", () => {
    const s = Float32Array.from([1, 2, 3, 4, NaN, 6, 7, 8, 9, 10]);
    expect(windowMean(s, 9, 5)).toBe(8); // 6..10
    expect(windowMean(s, 8, 5)).toBe(7.5); // NaN, 6, 7, 8, 9: 4 of 5 days = 80%
    expect(windowMean(Float32Array.from([1, NaN, NaN, 4, 5]), 4, 5)).toBeNaN(); // 3 of 5 days
    expect(windowMean(s, 3, 5)).toBeNaN();
    expect(windowMean(s, 10, 5)).toBeNaN();
    expect(windowSum(s, 3, 4)).toBe(10);
    expect(windowSum(s, 5, 4)).toBeNaN(); // a sum needs every day
  });

  it("builds the same-season baseline from previous years (series i = day index)", () => {
    const s = Float32Array.from({ length: 1100 }, (_, i) => i);
    const b = seasonalBaseline(s, 1099, 30);
    // k=1: centre 1099-365=734, windows ending 719..749 → means 704.5..734.5; k=2: centre 1099-round(730.5)=368,
    // ending 353..383 → 338.5..368.5; k=3 would start before day 0.
    expect(b.years).toBe(2);
    expect(b.samples).toHaveLength(62);
    expect(b.samples[0]).toBe(704.5);
    expect(b.samples[61]).toBe(368.5);
    expect(b.mean).toBe(536.5);
    expect(percentileRank(720, b.samples)).toBeCloseTo((100 * 47) / 62, 10);
    expect(percentileRank(1084.5, b.samples)).toBe(100);
    expect(percentileRank(704.5, [704.5, 800])).toBe(25); // ties count half
    expect(percentileRank(1, [])).toBeNaN();
  });

  it("skips baseline years whose windows have too many missing days", () => {
    const s = Float32Array.from({ length: 1100 }, (_, i) => (i >= 600 && i < 900 ? NaN : 10));
    const b = seasonalBaseline(s, 1099, 30);
    expect(b.years).toBe(1); // only k=2 (windows around day 369)
    expect(b.mean).toBe(10);
  });
});

describe("disruption levels", () => {
  it("scores falls in activity and maps points to levels", () => {
    expect([anomalyPoints(1.2), anomalyPoints(0.7), anomalyPoints(0.69), anomalyPoints(0.49), anomalyPoints(NaN)]).toEqual([0, 0, 1, 2, 0]);
    expect([disruptionLevel(0), disruptionLevel(1), disruptionLevel(2), disruptionLevel(3), disruptionLevel(7)]).toEqual(["low", "medium", "medium", "high", "high"]);
  });
});

describe("day-series format", () => {
  it("round-trips series with NaN and refuses bad files", () => {
    const bytes = writeDaySeries([
      { key: "port1", firstDay: 17897, columns: { a: Float32Array.from([1, NaN, 3]), b: Float32Array.from([0.5, 2, -1]) } },
      { key: "country:Thailand", firstDay: 19723, columns: { tanker_calls: Float32Array.from([7]) } },
    ]);
    const back = readDaySeries(bytes);
    expect(back.map((s) => [s.key, s.firstDay])).toEqual([["port1", 17897], ["country:Thailand", 19723]]);
    expect(Array.from(back[0].columns.a)).toEqual([1, NaN, 3]);
    expect(Array.from(back[0].columns.b)).toEqual([0.5, 2, -1]);
    expect(Array.from(back[1].columns.tanker_calls)).toEqual([7]);
    const bad = new Uint8Array(bytes);
    bad[0] = 0x58;
    expect(() => readDaySeries(bad)).toThrow("not a day series file (bad magic)");
    expect(() => readDaySeries(bytes.subarray(0, bytes.length - 4))).toThrow("day series file is truncated in country:Thailand.tanker_calls");
    expect(() => writeDaySeries([{ key: "x", firstDay: 0, columns: { a: new Float32Array(2), b: new Float32Array(3) } }])).toThrow("series x: column b has 3 values, expected 2");
  });
});

describe("request schema", () => {
  it("normalises port codes and requires coordinates only without one", () => {
    expect(supplyChainBody.parse({ portCode: "th lch", queryType: "congestion" }).portCode).toBe("THLCH");
    expect(supplyChainBody.safeParse({ portCode: "TH1CH", queryType: "congestion" }).success).toBe(false);
    expect(supplyChainBody.safeParse({ portCode: "THLCHX", queryType: "congestion" }).success).toBe(false);
    const r = supplyChainBody.safeParse({ lat: 13, queryType: "congestion" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["lng", "required when portCode and chokepoint are omitted"]]);
  });
});

describe("UN/LOCODE function classifier", () => {
  it("names each function a classifier marks", () => {
    expect(unlocodeFunctionNames("12345---")).toEqual(["port", "rail terminal", "road terminal", "airport", "postal exchange office"]);
    expect(unlocodeFunctionNames("---4----")).toEqual(["airport"]);
    expect(unlocodeFunctionNames("-----67B")).toEqual(["multimodal function", "fixed transport function", "border crossing"]);
    expect(unlocodeFunctionNames("0-------")).toEqual(["function not known"]);
    expect(unlocodeFunctionNames("--------")).toEqual([]);
  });
});
