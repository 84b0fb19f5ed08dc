// The bulk route's coordinate reader against what it stands for: Number(text) when the text is a plain decimal (the
// query strings' syntax), NaN otherwise, and `canonical` exactly when String(value) gives the text back.
import { describe, expect, it } from "vitest";
import { DECIMAL, DecimalReader } from "../../lib/decimal-text.ts";
import { rng } from "../../bench/random.ts";

const expected = (s: string) => (DECIMAL.test(s) ? Number(s) : NaN);

function check(reader: DecimalReader, s: string, pad = "") {
  const text = pad + s + pad;
  const got = reader.read(text, pad.length, pad.length + s.length);
  if (!Object.is(got, expected(s))) throw new Error(`value of ${JSON.stringify(s)}: ${got}, expected ${expected(s)}`);
  const canonical = String(got) === s;
  if (reader.canonical && !canonical) throw new Error(`${JSON.stringify(s)} read as canonical, String gives ${String(got)}`);
  return { canonical: reader.canonical, stringCanonical: canonical };
}

describe("DecimalReader", () => {
  const reader = new DecimalReader();

  it("reads plain decimals as Number does and tells canonical texts", () => {
    const cases: [string, number, boolean][] = [
      ["13.5", 13.5, true],
      ["-13.5", -13.5, true],
      ["+13.5", 13.5, false],
      ["013.5", 13.5, false],
      ["13.50", 13.5, false],
      ["13", 13, true],
      ["100", 100, true],
      ["0", 0, true],
      ["-0", -0, false],
      ["0.0", 0, false],
      ["-0.0", -0, false],
      ["0.000001", 0.000001, true],
      ["0.0000001", 1e-7, false],
      ["0.1", 0.1, true],
      ["-0.30000000000000004", -0.30000000000000004, false],
      ["179.999999999999", 179.999999999999, true],
      [" 13.5", 13.5, false],
      ["13.5 ", 13.5, false],
    ];
    for (const [s, value, canonical] of cases) {
      expect(Object.is(reader.read(s, 0, s.length), value), s).toBe(true);
      expect(reader.canonical, s).toBe(canonical);
    }
  });

  it("answers NaN for what the query strings refuse", () => {
    for (const s of ["", "-", "+", ".5", "5.", "1e2", "0x10", "1_000", "13.5.1", "abc", "13,5", "--1", "Infinity", "NaN", "١٣"]) {
      expect(reader.read(s, 0, s.length), s).toBeNaN();
      expect(reader.canonical, s).toBe(false);
    }
  });

  it("reads inside a longer text without looking past its bounds", () => {
    const line = "p1,15.12345,101.5,extra";
    expect(reader.read(line, 3, 11)).toBe(15.12345);
    expect(reader.canonical).toBe(true);
    expect(reader.read(line, 12, 17)).toBe(101.5);
    expect(reader.read(line, 12, 15)).toBe(101);
    expect(reader.read(line, 12, 16)).toBeNaN(); // "101."
    expect(reader.read(line, 2, 11)).toBeNaN(); // the comma is not blank
  });

  it("matches Number and String on 300,000 random texts", () => {
    const r = rng(38);
    const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(r() * 10))).join("");
    const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    let canonicalSeen = 0;
    const significant = (t: string) => t.replace(/^[-+]?[0.]*/, "").replace(/\./, "").length;
    for (let n = 0; n < 300_000; n++) {
      let s: string;
      const kind = r();
      if (kind < 0.4) s = ((r() - 0.5) * 360).toFixed(Math.floor(r() * 12));
      else if (kind < 0.55) s = String((r() - 0.5) * 10 ** Math.floor(r() * 6 - 8));
      else {
        const sign = pick(["", "", "-", "+"]);
        const zeros = "0".repeat(pick([0, 0, 0, 1, 2, 7]));
        const int = digits(Math.floor(r() * 18));
        const frac = r() < 0.7 ? "." + "0".repeat(pick([0, 0, 3, 6, 7, 20])) + digits(Math.floor(r() * 20)) + "0".repeat(pick([0, 0, 1, 3])) : "";
        s = sign + zeros + int + frac;
        if (r() < 0.05) s = s.slice(0, Math.floor(r() * s.length)) + pick([" ", "e", "x", ".", "-", "\t"]) + s.slice(Math.floor(r() * s.length));
      }
      const { canonical, stringCanonical } = check(reader, s, pick(["", "ab,", ",,"]));
      if (canonical) canonicalSeen++;
      // A canonical text the reader does not claim is past its fast path: more than 15 significant digits.
      if (stringCanonical && !canonical && significant(s) <= 15) throw new Error(`${JSON.stringify(s)} is canonical, not read so`);
    }
    expect(canonicalSeen).toBeGreaterThan(100_000);
  });
});
