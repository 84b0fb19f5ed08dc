// The drought GET's query read without zod (droughtQueryFast) must agree with droughtQuery wherever it answers, and
// answer the common case (else the route pays zod's cost for nothing).
import { describe, expect, it } from "vitest";
import { droughtQuery, droughtQueryFast } from "../../server/schemas-drought.ts";
import { rng } from "../../bench/random.ts";

const LATS = ["15.2", "-0", "+1.5", "90", "-90", "90.0001", "-90.5", "1e1", " 1", "0x1", "", "abc", "15.", ".5", "007.25", "1".padEnd(400, "0"), "180", "-180.0", "180.01", "NaN", "Infinity"];
const MONTHS = [undefined, "2023-12", "2023-13", "2023-00", "1991-01", "23-12", "2023-1", "", ["2023-12", "2023-11"]];
const FORMATS = [undefined, "json", "csv", "geojson", "", ["json"]];
const EXTRA = [{}, { foo: "1" }, { lat2: "3" }];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

describe("droughtQueryFast", () => {
  it("agrees with droughtQuery on 20,000 generated queries, valid and not", () => {
    const r = rng(11);
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      const q: Record<string, unknown> = { ...pick(r, EXTRA) };
      const lat = r() < 0.05 ? undefined : r() < 0.03 ? [pick(r, LATS), pick(r, LATS)] : pick(r, LATS);
      const lng = r() < 0.05 ? undefined : pick(r, LATS);
      if (lat !== undefined) q.lat = lat;
      if (lng !== undefined) q.lng = lng;
      const month = pick(r, MONTHS);
      if (month !== undefined) q.month = month;
      const format = pick(r, FORMATS);
      if (format !== undefined) q.format = format;
      const got = droughtQueryFast(q);
      const ref = droughtQuery.safeParse(q);
      if (got !== undefined) {
        fast++;
        expect(ref.success, JSON.stringify(q)).toBe(true);
        expect(got, JSON.stringify(q)).toStrictEqual(ref.data);
      }
    }
    expect(fast).toBeGreaterThan(300); // most generated queries are malformed on purpose
  });

  it("answers the common case exactly, and leaves a malformed one to zod", () => {
    expect(droughtQueryFast({ lat: "15.2", lng: "102.1" })).toStrictEqual({ lat: 15.2, lng: 102.1 });
    expect(droughtQueryFast({ lat: "15.2", lng: "102.1", month: "2023-12", format: "csv" })).toStrictEqual({ lat: 15.2, lng: 102.1, month: "2023-12", format: "csv" });
    expect(droughtQueryFast({ lat: "15.2", lng: "1e2" })).toBeUndefined();
    expect(droughtQueryFast({ lat: ["15.2", "16"], lng: "102" })).toBeUndefined();
  });
});
