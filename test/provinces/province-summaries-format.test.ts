import { describe, expect, it } from "vitest";
import {
  ProvinceSummariesReader,
  SUMMARIES_MAGIC,
  writeProvinceSummaries,
  type SummariesContent,
} from "../../formats/province-summaries.ts";
import { monthIndex } from "../../lib/months.ts";

const content: SummariesContent = {
  indexNames: ["spei1", "spei3", "spi12"],
  nProvinces: 2,
  nMonths: 3,
  firstMonth: monthIndex(2020, 11),
  // [province][month][index]
  values: Float32Array.from([0.5, -1.25, NaN, 1, 2, 3, -0.75, 0, 0.125, 8, 7.5, 7, NaN, NaN, NaN, 4, 5, 6]),
  cellsUsed: Uint16Array.from([12, 12, 11, 40, 0, 65535]),
};

describe("province-summaries.bin", () => {
  const bytes = writeProvinceSummaries(content);

  it("has the documented size: 32-byte header + names, 4-aligned, then (3 × 4 + 4)-byte records", () => {
    // names: 1+5 + 1+5 + 1+5 = 18 → header 50 → data at 52; 6 records × 16 bytes
    expect(bytes.length).toBe(52 + 6 * 16);
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe(SUMMARIES_MAGIC);
  });

  it("round-trips header, records and cells used", () => {
    const r = new ProvinceSummariesReader(bytes);
    expect(r.indexNames).toEqual(["spei1", "spei3", "spi12"]);
    expect([r.nProvinces, r.nMonths, r.nIndices, r.firstMonth]).toEqual([2, 3, 3, monthIndex(2020, 11)]);
    expect(Array.from(r.record(0, 0))).toEqual([0.5, -1.25, NaN]);
    expect(Array.from(r.record(0, 2))).toEqual([-0.75, 0, 0.125]);
    expect(Array.from(r.record(1, 1))).toEqual([NaN, NaN, NaN]);
    expect(Array.from(r.record(1, 2))).toEqual([4, 5, 6]);
    expect([0, 1, 2].map((m) => r.cellsUsed(0, m))).toEqual([12, 12, 11]);
    expect([0, 1, 2].map((m) => r.cellsUsed(1, m))).toEqual([40, 0, 65535]);
    expect(r.monthOffset(monthIndex(2021, 1))).toBe(2);
    expect(r.monthOffset(monthIndex(2021, 2))).toBe(-1);
  });

  it("reads from an unaligned Buffer slice", () => {
    const padded = new Uint8Array(bytes.length + 1);
    padded.set(bytes, 1);
    const r = new ProvinceSummariesReader(padded.subarray(1));
    expect(Array.from(r.record(1, 0))).toEqual([8, 7.5, 7]);
    expect(r.cellsUsed(1, 0)).toBe(40);
  });

  it("rejects bad magic, other versions, truncation and trailing bytes", () => {
    const bad = bytes.slice();
    bad[0] = 0x58;
    expect(() => new ProvinceSummariesReader(bad, "s.bin")).toThrow('s.bin: bad magic "XHPSUM01", expected THPSUM01');
    const v2 = bytes.slice();
    new DataView(v2.buffer).setUint32(8, 2, true);
    expect(() => new ProvinceSummariesReader(v2, "s.bin")).toThrow("s.bin: unsupported version 2, expected 1");
    expect(() => new ProvinceSummariesReader(bytes.subarray(0, bytes.length - 3), "s.bin")).toThrow(
      "s.bin: size 145 bytes, expected 148 (truncated)",
    );
    expect(() => new ProvinceSummariesReader(bytes.subarray(0, 20), "s.bin")).toThrow("s.bin: truncated header (20 bytes)");
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(() => new ProvinceSummariesReader(longer, "s.bin")).toThrow("(trailing bytes)");
  });

  it("rejects out-of-range lookups and inconsistent writer input", () => {
    const r = new ProvinceSummariesReader(bytes);
    expect(() => r.record(2, 0)).toThrow("province index 2 out of range 0..1");
    expect(() => r.cellsUsed(0, 3)).toThrow("month offset 3 out of range 0..2");
    expect(() => writeProvinceSummaries({ ...content, cellsUsed: new Uint16Array(5) })).toThrow(
      "cellsUsed has 5 entries, expected 6",
    );
  });

  it("writer and reader refuse a value no index computation gives: 30, −39, ±Inf (issue 39)", () => {
    for (const bad of [30, -39, Infinity, -Infinity]) {
      const values = content.values.slice();
      values[1] = bad; // province 0, first month, spei3
      expect(() => writeProvinceSummaries({ ...content, values })).toThrow(`value ${bad} of spei3 is outside [-38.4674, 8.2095]`);
      const b = bytes.slice();
      new DataView(b.buffer).setFloat32(52 + 4, bad, true);
      expect(() => new ProvinceSummariesReader(b, "s.bin")).toThrow(`s.bin: value ${bad} of spei3 for province 0, 2020-11 is outside [-38.4674, 8.2095]`);
    }
  });
});
