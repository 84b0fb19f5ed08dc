import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProvinces, parseProvinces, PROVINCE_CODES } from "../../pipeline/provinces/boundaries.ts";

describe("loadProvinces (real mirror)", () => {
  const provinces = loadProvinces();

  it("loads all 77 provinces with unique codes TH-10..TH-96, sorted by code", () => {
    expect(provinces).toHaveLength(77);
    const codes = provinces.map((p) => p.code);
    expect(new Set(codes).size).toBe(77);
    expect(codes[0]).toBe("TH-10");
    expect(codes[76]).toBe("TH-96");
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(PROVINCE_CODES);
  });

  it("includes Bueng Kan (TH-38) and Bangkok with their names", () => {
    const bk = provinces.find((p) => p.code === "TH-38")!;
    expect(bk.nameEn).toBe("Bueng Kan");
    expect(bk.nameTh).toBe("บึงกาฬ");
    expect(bk.region).toBe("northeastern");
    expect(provinces[0].nameEn).toBe("Bangkok");
    expect(provinces[0].nameTh).toBe("กรุงเทพมหานคร");
  });

  it("has about 146k vertices", () => {
    let n = 0;
    for (const p of provinces) for (const poly of p.polygons) for (const ring of poly) n += ring.length;
    expect(n).toBeGreaterThan(140_000);
    expect(n).toBeLessThan(150_000);
  });
});

function feature(code: string, props: Record<string, unknown> = {}) {
  return {
    type: "Feature",
    properties: { code, nameEn: `P ${code}`, nameTh: "ก", slug: `p-${code}`, region: "r", ...props },
    geometry: { type: "Polygon", coordinates: [[[100, 10], [101, 10], [101, 11], [100, 10]]] },
  };
}

describe("parseProvinces validation", () => {
  const all = () => PROVINCE_CODES.map((c) => feature(c));

  it("names the file and the missing province", () => {
    const features = all().filter((f) => f.properties.code !== "TH-38");
    expect(() => parseProvinces({ type: "FeatureCollection", features }, "x.geojson")).toThrow(
      "x.geojson: expected 77 provinces, missing TH-38",
    );
  });

  it("names the file, feature and missing field", () => {
    const features = all();
    features[3] = feature("TH-13", { nameTh: undefined });
    expect(() => parseProvinces({ type: "FeatureCollection", features }, "x.geojson")).toThrow(
      'x.geojson: feature 3 (TH-13): missing property "nameTh"',
    );
  });

  it("rejects duplicates, unknown codes, bad geometry and non-collections", () => {
    const dup = all();
    dup[1] = feature("TH-10");
    expect(() => parseProvinces({ type: "FeatureCollection", features: dup }, "f")).toThrow('duplicate province code "TH-10"');
    const unknown = all();
    unknown[0] = feature("TH-99");
    expect(() => parseProvinces({ type: "FeatureCollection", features: unknown }, "f")).toThrow('unknown province code "TH-99"');
    const point = all();
    (point[0] as { geometry: unknown }).geometry = { type: "Point", coordinates: [100, 10] };
    expect(() => parseProvinces({ type: "FeatureCollection", features: point }, "f")).toThrow(
      "f: feature 0 (TH-10): geometry must be Polygon or MultiPolygon, got Point",
    );
    expect(() => parseProvinces({ type: "Feature" }, "f")).toThrow("f: expected a GeoJSON FeatureCollection");
  });

  it("reports an unreadable or invalid file by path", () => {
    const dir = mkdtempSync(join(tmpdir(), "prov-"));
    const bad = join(dir, "bad.geojson");
    writeFileSync(bad, "{not json");
    expect(() => loadProvinces(bad)).toThrow(`${bad}: not valid JSON`);
    expect(() => loadProvinces(join(dir, "none.geojson"))).toThrow(`${join(dir, "none.geojson")}: cannot read province boundaries`);
  });
});
