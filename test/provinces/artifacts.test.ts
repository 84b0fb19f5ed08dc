import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProvinceData, writeProvinceArtifacts } from "../../pipeline/provinces/artifacts.ts";
import { ProvinceIndexReader, readProvincesJson } from "../../formats/province-index.ts";

describe("province artifacts", () => {
  it("builds from the mirror and writes a readable index and provinces.json", () => {
    const data = buildProvinceData(undefined, { resolutionDeg: 0.5, samples: 4 });
    expect(data.provinces).toHaveLength(77);
    expect(data.landCells.resolutionDeg).toBe(0.5);
    const dir = mkdtempSync(join(tmpdir(), "prov-art-"));
    expect(writeProvinceArtifacts(dir, data)).toEqual(["province-index.bin", "provinces.json"]);
    const reader = new ProvinceIndexReader(readFileSync(join(dir, "province-index.bin")));
    const meta = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
    expect(meta[reader.provinceAt(7.0, 100.47)].code).toBe("TH-90");
    expect(meta[reader.provinceAt(13.75, 100.5)].nameEn).toBe("Bangkok");
  });
});
