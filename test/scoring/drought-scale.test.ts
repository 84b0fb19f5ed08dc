import { describe, expect, it } from "vitest";
import { droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";

describe("drought scale", () => {
  it("puts each D-level anchor at the spec's score", () => {
    expect(droughtScore(-0.5)).toBe(40);
    expect(droughtScore(-0.8)).toBe(50);
    expect(droughtScore(-1.3)).toBe(65);
    expect(droughtScore(-1.6)).toBe(80);
    expect(droughtScore(-2.0)).toBe(95);
    expect(droughtScore(0)).toBe(20);
    expect(droughtScore(2.5)).toBe(0);
    expect(droughtScore(-4)).toBe(100);
    expect(droughtScore(-Infinity)).toBe(100);
    expect(droughtScore(Infinity)).toBe(0);
    expect(droughtScore(NaN)).toBeNaN();
  });

  it("interpolates linearly between anchors", () => {
    expect(droughtScore(-1.05)).toBe(57.5);
    expect(droughtScore(1.0)).toBe(10);
    expect(droughtScore(-0.25)).toBe(30);
  });

  it("is monotone: a drier spei1 never lowers the score", () => {
    let prev = -1;
    for (let x = 3; x >= -3.5; x -= 0.001) {
      const s = droughtScore(x);
      expect(s).toBeGreaterThanOrEqual(prev);
      prev = s;
    }
  });

  it("gives D-levels at the thresholds and null without drought", () => {
    expect(droughtLevel(-0.49)).toBeNull();
    expect(droughtLevel(1.2)).toBeNull();
    expect(droughtLevel(NaN)).toBeNull();
    expect(droughtLevel(-0.5)).toBe("D0");
    expect(droughtLevel(-0.79)).toBe("D0");
    expect(droughtLevel(-0.8)).toBe("D1");
    expect(droughtLevel(-1.3)).toBe("D2");
    expect(droughtLevel(-1.6)).toBe("D3");
    expect(droughtLevel(-2.0)).toBe("D4");
    expect(droughtLevel(-Infinity)).toBe("D4");
  });

  it("a D-level always comes with a score of at least its anchor", () => {
    const anchor = { D0: 40, D1: 50, D2: 65, D3: 80, D4: 95 } as const;
    for (let x = 0; x >= -3; x -= 0.01) {
      const d = droughtLevel(x);
      if (d) expect(droughtScore(x)).toBeGreaterThanOrEqual(anchor[d]);
      else expect(droughtScore(x)).toBeLessThan(40);
    }
  });

  it("maps scores to the spec's risk levels", () => {
    expect(riskLevel(0)).toBe("low");
    expect(riskLevel(29.9)).toBe("low");
    expect(riskLevel(30)).toBe("medium");
    expect(riskLevel(59.9)).toBe("medium");
    expect(riskLevel(60)).toBe("high");
    expect(riskLevel(79.9)).toBe("high");
    expect(riskLevel(80)).toBe("critical");
    expect(riskLevel(100)).toBe("critical");
  });
});
