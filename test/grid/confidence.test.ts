// Confidence: the calibration pools bins so that error never rises with support, and the real build's report shows
// that higher confidence goes with lower leave-one-out error; the answers carry it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { binOf, calibrate, supportScore } from "../../pipeline/grid/confidence.ts";
import { ConfidenceGrid, CONFIDENCE_FILE } from "../../formats/confidence-grid.ts";
import { confidenceLabel } from "../../lib/drought-scale.ts";

describe("calibrate", () => {
  it("bins by support, pools rising errors, and maps error to confidence against the climatological guess", () => {
    // 400 samples: support i/400; error falls with support except a bump in the 3rd decile.
    const n = 400;
    const support = Float64Array.from({ length: n }, (_, i) => i / n);
    const absError = Float64Array.from({ length: n }, (_, i) => (i >= 80 && i < 120 ? 1.2 : 1 - i / n));
    const absObserved = new Float64Array(n).fill(1);
    const c = calibrate(support, absError, absObserved, 10);
    expect(c.maeClimatology).toBe(1);
    for (let b = 1; b < c.bins.length; b++) {
      expect(c.bins[b].mae).toBeLessThan(c.bins[b - 1].mae);
      expect(c.bins[b].confidence).toBeGreaterThan(c.bins[b - 1].confidence);
    }
    expect(c.bins.reduce((s, b) => s + b.samples, 0)).toBe(n);
    expect(c.bins.length).toBeLessThan(10); // the bump was pooled
    expect(c.bins[0].confidence).toBe(0); // error at or above the climatological guess
    expect(binOf(c.bins, 0.999)).toBe(c.bins.length - 1);
    expect(binOf(c.bins, 0)).toBe(0);
  });

  it("support grows with stations and shrinks with distance and disagreement", () => {
    const base = supportScore({ n: 4, nearestKm: 30, spread: 0.3 });
    expect(supportScore({ n: 8, nearestKm: 30, spread: 0.3 })).toBeGreaterThan(base);
    expect(supportScore({ n: 4, nearestKm: 90, spread: 0.3 })).toBeLessThan(base);
    expect(supportScore({ n: 4, nearestKm: 30, spread: 1 })).toBeLessThan(base);
  });
});

describe("confidence on the real station-grid build", () => {
  const dir = join(inject("stationArtifactsDir"), "current");
  it("the report's bins: more confidence, less leave-one-out error, over the whole range", () => {
    const report = JSON.parse(readFileSync(join(dir, "build-report.json"), "utf8")) as { confidence: { samples: number; maeClimatology: number; bins: { mae: number; confidence: number; samples: number }[] } };
    const { bins, samples } = report.confidence;
    expect(samples).toBeGreaterThan(10_000);
    expect(bins.length).toBeGreaterThanOrEqual(3);
    for (let b = 1; b < bins.length; b++) {
      expect(bins[b].mae).toBeLessThan(bins[b - 1].mae);
      expect(bins[b].confidence).toBeGreaterThan(bins[b - 1].confidence);
    }
    expect(bins[0].mae / bins.at(-1)!.mae).toBeGreaterThan(1.3);
  });

  it("confidence.bin holds a bin for the cells with a value, and the label follows the value", () => {
    const g = new ConfidenceGrid(new Uint8Array(readFileSync(join(dir, CONFIDENCE_FILE))));
    let withValue = 0;
    for (let c = 0; c < g.nCells; c++) if (g.cell(c, g.nMonths - 2) !== null) withValue++;
    expect(withValue).toBeGreaterThan(0.9 * g.nCells);
    expect([confidenceLabel(0.61), confidenceLabel(0.3), confidenceLabel(0.29)]).toEqual(["high", "medium", "low"]);
  });
});
