// The indices command writes values rounded to 9 decimals (docs/methods/indices.md): within 5e-10 of the value,
// the shortest such text, no "-0", and the literal NA / Inf / -Inf.
import { describe, expect, it } from "vitest";
import { decimal9, formatIndicesTable, formatValue, longTableBytes, writeValue } from "../../pipeline/commands/indices-table.ts";
import { parseMonth } from "../../lib/months.ts";

describe("index values as text", () => {
  it("is within 5e-10 of 100,000 random values and has no trailing zero", () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 100_000; i++) {
      const v = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 4);
      const text = decimal9(v);
      expect(Math.abs(Number(text) - v), `${v} → ${text}`).toBeLessThanOrEqual(5e-10 + 1e-15);
      expect(text, `${v}`).toMatch(/^-?\d+(\.\d{0,8}[1-9])?$/);
      expect(text).toBe(v.toFixed(9).replace(/\.?0+$/, "").replace(/^-0$/, "0"));
    }
  });

  it("writes the edge values", () => {
    expect([0, -0, 1e-10, -1e-10, -0.5, 2.9999999999, -2.9999999996, 0.1, 12, -3.000000001, 0.0000000015].map(decimal9)).toEqual([
      "0", "0", "0", "0", "-0.5", "3", "-3", "0.1", "12", "-3.000000001", "0.000000002",
    ]);
    expect([NaN, Infinity, -Infinity, -1.25].map(formatValue)).toEqual(["NA", "Inf", "-Inf", "-1.25"]);
  });

  it("writes the same text as bytes (writeValue, longTableBytes) as formatValue and formatIndicesTable", () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = () => {
      const r = rnd();
      return r < 0.05 ? NaN : r < 0.07 ? Infinity : r < 0.09 ? -Infinity : r < 0.12 ? -0 : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 7);
    };
    const out = new Uint8Array(64);
    for (let i = 0; i < 50_000; i++) {
      const v = pick();
      expect(Buffer.from(out.subarray(0, writeValue(out, 0, v))).toString("latin1"), String(v)).toBe(formatValue(v));
    }
    const series = ["a", "Chiang Mai", "ขอนแก่น", "s-4"].map((name, k) => ({ name, firstMonth: parseMonth("1999-11")! + k, columns: new Map<string, Float64Array>() }));
    const values = series.map((_, k) => Float64Array.from({ length: k === 0 ? 60_000 : 300 }, pick)); // past the first 1 MiB buffer
    const text = formatIndicesTable({ layout: "long", series }, values, false).join("");
    expect(longTableBytes(series, values).toString("utf8")).toBe(text);
  });
});
