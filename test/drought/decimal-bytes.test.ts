// The bulk scorer's byte-level decimal reader: the same number as Number() on every plain decimal it accepts, NaN
// (the caller then takes Number()) for every other form.
import { describe, expect, it } from "vitest";
import { parseDecimalBytes } from "../../pipeline/commands/decimal-bytes.ts";

const parse = (text: string) => parseDecimalBytes(Buffer.from(`,${text},`), 1, 1 + Buffer.byteLength(text));

describe("parseDecimalBytes", () => {
  it("equals Number() on 200,000 random decimals of 1 to 15 digits", () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 200_000; i++) {
      const digits = 1 + Math.floor(rnd() * 15);
      let t = "";
      for (let k = 0; k < digits; k++) t += Math.floor(rnd() * 10);
      const dot = Math.floor(rnd() * (digits + 1));
      t = t.slice(0, dot) + (rnd() < 0.8 ? "." : "") + t.slice(dot);
      if (rnd() < 0.5) t = "-" + t;
      expect(Object.is(parse(t), Number(t)), t).toBe(true);
    }
  });

  it("reads the edge forms exactly", () => {
    for (const t of ["0", "-0", "5.", ".5", "-.5", "180", "-180.000000", "13.75", "999999999999999", "0.00000000000001", "89.999999999999"]) {
      expect(Object.is(parse(t), Number(t)), t).toBe(true);
    }
  });

  it("gives NaN for every form it leaves to Number()", () => {
    for (const t of ["", "-", ".", "+1", " 1", "1 ", "1e5", "1.2.3", "abc", "0x10", "1234567890123456", "0.000000000000001", "1,5", "١٢"]) expect(parse(t), t).toBeNaN();
  });
});
