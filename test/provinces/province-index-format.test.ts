import { describe, expect, it } from "vitest";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { buildAliases, loadAliasSources } from "../../pipeline/provinces/aliases.ts";
import { provinceMetadata } from "../../pipeline/provinces/metadata.ts";
import {
  ProvinceIndexReader,
  readProvincesJson,
  writeProvinceIndex,
  writeProvincesJson,
} from "../../formats/province-index.ts";

const provinces = loadProvinces();
const bytes = writeProvinceIndex(flattenRings(provinces));
const reader = new ProvinceIndexReader(bytes);
const codeAt = (lat: number, lng: number): string | number => {
  const p = reader.provinceAt(lat, lng);
  return p < 0 ? p : provinces[p].code;
};

describe("province-index.bin on the real boundaries", () => {
  it.each([
    ["Bangkok", 13.75, 100.5, "TH-10"],
    ["Chiang Mai", 18.79, 98.98, "TH-50"],
    ["Hat Yai", 7.0, 100.47, "TH-90"],
    ["Khon Kaen", 16.43, 102.83, "TH-40"],
    ["Phuket town", 7.88, 98.39, "TH-83"],
    ["Gulf of Thailand", 12.0, 101.0, -1],
    ["Vientiane (Laos)", 17.97, 102.6, -1],
    ["Kuala Lumpur", 3.14, 101.69, -1],
  ] as const)("%s (%f, %f) → %s", (_name, lat, lng, expected) => {
    expect(codeAt(lat, lng)).toBe(expected);
  });

  it("returns -1 for non-finite input", () => {
    expect(reader.provinceAt(NaN, 100)).toBe(-1);
    expect(reader.provinceAt(13.75, Infinity)).toBe(-1);
  });

  it("answers in microseconds", () => {
    const n = 20_000;
    const t = performance.now();
    let hits = 0;
    for (let i = 0; i < n; i++) if (reader.provinceAt(13 + (i % 100) * 0.01, 100 + (i % 37) * 0.01) >= 0) hits++;
    const usPerQuery = ((performance.now() - t) * 1000) / n;
    expect(hits).toBeGreaterThan(0);
    expect(usPerQuery).toBeLessThan(100);
  });

  it("reads from an unaligned copy the same way", () => {
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const r = new ProvinceIndexReader(padded.subarray(3));
    expect(r.provinceAt(18.79, 98.98)).toBe(reader.provinceAt(18.79, 98.98));
    expect(r.nProvinces).toBe(77);
  });
});

describe("province-index.bin errors and a synthetic layout", () => {
  // Province 0: a 2×2 square with a 1×1 hole; province 1: the hole itself.
  const rings = flattenRings([
    { polygons: [[[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]], [[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5], [0.5, 0.5]]]] },
    { polygons: [[[[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5], [0.5, 0.5]]]] },
  ]);
  const small = writeProvinceIndex(rings);

  it("honours holes", () => {
    const r = new ProvinceIndexReader(small);
    expect(r.provinceAt(0.25, 0.25)).toBe(0);
    expect(r.provinceAt(1, 1)).toBe(1);
    expect(r.provinceAt(3, 3)).toBe(-1);
  });

  it("rejects bad magic, other versions and truncation", () => {
    const bad = small.slice();
    bad[7] = 0x39;
    expect(() => new ProvinceIndexReader(bad, "i.bin")).toThrow('i.bin: bad magic "THPIDX09", expected THPIDX01');
    const v9 = small.slice();
    new DataView(v9.buffer).setUint32(8, 9, true);
    expect(() => new ProvinceIndexReader(v9, "i.bin")).toThrow("i.bin: unsupported version 9, expected 1");
    expect(() => new ProvinceIndexReader(small.subarray(0, small.length - 8), "i.bin")).toThrow(
      `i.bin: size ${small.length - 8} bytes, expected ${small.length} (truncated)`,
    );
    expect(() => new ProvinceIndexReader(small.subarray(0, 10), "i.bin")).toThrow("i.bin: truncated header (10 bytes)");
  });

  it("rejects a corrupt flatbush section", () => {
    const bad = small.slice();
    const flatbushStart = bad.length - new DataView(bad.buffer).getUint32(24, true);
    bad[flatbushStart] = 0;
    expect(() => new ProvinceIndexReader(bad, "i.bin")).toThrow("i.bin: bad flatbush section");
  });
});

describe("provinces.json", () => {
  it("round-trips metadata in province order with aliases, bbox and area", () => {
    const meta = provinceMetadata(provinces, buildAliases(loadAliasSources(provinces)));
    const back = readProvincesJson(writeProvincesJson(meta));
    expect(back).toEqual(meta);
    expect(back).toHaveLength(77);
    const bkk = back[0];
    expect(bkk.code).toBe("TH-10");
    expect(bkk.aliases).toContain("Krung Thep Maha Nakhon");
    // geoBoundaries Bangkok ≈ 1,564 km² (official); the polygon gives about the same.
    expect(bkk.areaKm2).toBeGreaterThan(1500);
    expect(bkk.areaKm2).toBeLessThan(1620);
    expect(bkk.bbox[0]).toBeLessThan(100.5);
    expect(bkk.bbox[2]).toBeGreaterThan(100.5);
  });

  it("rejects malformed files", () => {
    expect(() => readProvincesJson("{", "p.json")).toThrow("p.json: not valid JSON");
    expect(() => readProvincesJson('{"version":2,"provinces":[]}', "p.json")).toThrow("p.json: expected {version: 1, provinces: [...]}");
    expect(() => readProvincesJson('{"version":1,"provinces":[{"code":"TH-10"}]}', "p.json")).toThrow(
      'p.json: province 0 lacks string field "nameEn"',
    );
  });
});
