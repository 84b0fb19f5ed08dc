// The batch body's hand check (server/routes/batch-body.ts) against zod's batchBody: whatever the hand check accepts
// zod accepts with an equal result, the bodies real clients send are accepted without zod, and the rest goes to zod
// (so its 400s are zod's: test/server/validation.test.ts).
import { describe, expect, it } from "vitest";
import { batchBodyAsIs, parseBatchBody } from "../../server/routes/batch-body.ts";
import { batchBody } from "../../server/schemas.ts";
import { ValidationError } from "../../server/errors.ts";

const loc = { id: "a", lat: 13.75, lng: 100.5 };
const many = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), lat: 14 + i / 100, lng: 100 + i / 100 }));

/** Bodies as JSON.parse makes them (own data properties, Object.prototype). */
const parsed = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

const WELL_FORMED = [
  { riskType: "drought", locations: [loc] },
  { riskType: "drought", locations: many(100) },
  { locations: [{ lat: 0, lng: 0 }], riskType: "drought", format: "geojson" },
  { riskType: "drought", format: "csv", locations: [{ lat: -90, lng: -180 }, { lat: 90, lng: 180, id: "" }] },
  { riskType: "drought", format: "json", locations: [{ lng: 1, id: "x".repeat(200), lat: 2 }] },
  { riskType: "drought", locations: [{ id: "é🌧", lat: 1e-7, lng: -0 }] },
];

const ILL_FORMED = [
  null, [], "x", 1, {},
  { riskType: "drought" },
  { riskType: "drought", locations: [] },
  { riskType: "drought", locations: many(101) },
  { riskType: "flood", locations: [loc] },
  { riskType: "drought", locations: [loc], format: "xml" },
  { riskType: "drought", locations: [loc], format: null },
  { riskType: "drought", locations: [loc], extra: 1 },
  { riskType: "drought", locations: [{ ...loc, extra: 1 }] },
  { riskType: "drought", locations: [{ ...loc, id: "x".repeat(201) }] },
  { riskType: "drought", locations: [{ ...loc, id: 7 }] },
  { riskType: "drought", locations: [{ ...loc, id: null }] },
  { riskType: "drought", locations: [{ ...loc, lat: 90.000001 }] },
  { riskType: "drought", locations: [{ ...loc, lng: -180.5 }] },
  { riskType: "drought", locations: [{ ...loc, lat: "13.75" }] },
  { riskType: "drought", locations: [{ id: "a", lat: 1 }] },
  { riskType: "drought", locations: [loc, null] },
  { riskType: "drought", locations: [loc, [1, 2]] },
  { riskType: "drought", locations: { 0: loc } },
];

describe("batch body hand check", () => {
  it("accepts well-formed bodies as they are, equal to zod's parse", () => {
    for (const body of WELL_FORMED.map(parsed)) {
      const fast = batchBodyAsIs(body);
      expect(fast, JSON.stringify(body)).toBeDefined();
      expect(fast).toEqual(batchBody.parse(body));
      expect(fast!.locations).toBe((body as { locations: unknown }).locations); // no copy
    }
  });

  it("accepts nothing that zod refuses; ill-formed bodies get zod's 400", () => {
    for (const body of ILL_FORMED.map(parsed)) {
      expect(batchBodyAsIs(body), JSON.stringify(body)).toBeUndefined();
      expect(batchBody.safeParse(body).success, JSON.stringify(body)).toBe(false);
      expect(() => parseBatchBody(body)).toThrow(ValidationError);
    }
  });

  it("accepts no object that is not a plain JSON object", () => {
    const body = Object.assign(Object.create({ inherited: 1 }) as object, { riskType: "drought", locations: [loc] });
    expect(batchBodyAsIs(body)).toBeUndefined();
    expect(batchBody.safeParse(body).success).toBe(false); // zod's strict object refuses the inherited key too
    expect(() => parseBatchBody(body)).toThrow(ValidationError);
  });

  it("agrees with zod on random variations of a body", () => {
    let seed = 11;
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    const numbers = [0, 90, -90, 180, -180, 90.5, -181, 13.75, "1", null, true];
    for (let i = 0; i < 2000; i++) {
      const locations = Array.from({ length: pick([0, 1, 3, 100, 101]) }, () => {
        const l: Record<string, unknown> = { lat: pick(numbers), lng: pick(numbers) };
        if (r() < 0.5) l.id = pick(["a", "", "x".repeat(200), "x".repeat(201), 5, null]);
        if (r() < 0.05) l.other = 1;
        if (r() < 0.05) delete l.lat;
        return l;
      });
      const body: Record<string, unknown> = { riskType: pick(["drought", "drought", "flood", undefined]), locations };
      if (r() < 0.3) body.format = pick(["json", "csv", "geojson", "xml", null]);
      if (r() < 0.05) body.extra = true;
      const raw = parsed(body);
      const zod = batchBody.safeParse(raw);
      const fast = batchBodyAsIs(raw);
      if (fast !== undefined) expect(zod.success && zod.data).toEqual(fast);
      else expect(zod.success).toBe(false);
    }
  });
});
