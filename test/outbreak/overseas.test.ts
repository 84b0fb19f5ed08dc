// Overseas areas with their own series that Natural Earth draws inside the parent country (lib/outbreaks/overseas.ts).
import { describe, expect, it } from "vitest";
import { OVERSEAS_AREAS, overseasArea } from "../../lib/outbreaks/overseas.ts";

describe("overseasArea", () => {
  it("tells the area apart only when the geography named its parent", () => {
    expect(overseasArea("FRA", 4.93, -52.33)).toEqual({ code: "GUF", name: "French Guiana" }); // Cayenne
    expect(overseasArea("FRA", -20.88, 55.45)).toEqual({ code: "REU", name: "Réunion" }); // Saint-Denis
    expect(overseasArea("FRA", 16.24, -61.53)?.code).toBe("GLP"); // Pointe-à-Pitre
    expect(overseasArea("FRA", -12.78, 45.23)?.code).toBe("MYT"); // Mamoudzou
    expect(overseasArea("NLD", 12.15, -68.27)?.code).toBe("BES"); // Kralendijk, Bonaire
    expect(overseasArea("NLD", 17.48, -62.98)?.code).toBe("BES"); // Oranjestad, Sint Eustatius
    expect(overseasArea("NZL", -9.2, -171.85)?.code).toBe("TKL"); // Atafu..Fakaofo
    expect(overseasArea("FRA", 48.85, 2.35)).toBeUndefined(); // Paris
    expect(overseasArea("NLD", 52.37, 4.9)).toBeUndefined(); // Amsterdam
    expect(overseasArea("SUR", 4.93, -52.33)).toBeUndefined(); // the box alone decides nothing
  });

  it("no two boxes of one parent overlap, and every box is a real box", () => {
    for (const a of OVERSEAS_AREAS) for (const [s, n, w, e] of a.boxes) expect(s < n && w < e, a.code).toBe(true);
    const boxes = OVERSEAS_AREAS.flatMap((a) => a.boxes.map((b) => ({ parent: a.parent, code: a.code, b })));
    for (const x of boxes) for (const y of boxes) {
      if (x === y || x.parent !== y.parent) continue;
      const overlap = x.b[0] < y.b[1] && y.b[0] < x.b[1] && x.b[2] < y.b[3] && y.b[2] < x.b[3];
      expect(overlap, `${x.code} / ${y.code}`).toBe(false);
    }
  });
});
