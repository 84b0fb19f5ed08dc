// The default build on the real data mirror (the suite's global setup): the regional grid of CPC precipitation and
// GHCN-Monthly temperature over Thailand, Vietnam and Malaysia, its 157 provinces and states, their countries.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { readManifest } from "../../formats/manifest.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { ProvinceIndexReader, readProvincesJson } from "../../formats/province-index.ts";
import { CoverageMask, INSIDE, OUTSIDE } from "../../formats/coverage-mask.ts";
import { parseMonth } from "../../lib/months.ts";

const dir = join(inject("artifactsDir"), "current");
const read = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

describe("regional build on the real data mirror", () => {
  const m = readManifest(dir);
  const grid = openDroughtGrid(read("drought-grid.bin"));
  const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
  const report = JSON.parse(readFileSync(join(dir, "build-report.json"), "utf8"));

  it("is the CPC grid to 2023-12 against 1991–2020, from the CPC, GHCN-Monthly and three countries' boundary files", () => {
    expect(report.gridSource.name).toBe("cpc");
    expect(m.monthRange).toEqual({ first: "1979-01", last: "2023-12" });
    expect(m.latestValidMonth).toBe("2023-12");
    expect(m.baseline).toEqual({ start: "1991-01", end: "2020-12" });
    for (const f of [
      "climate/cpc-seasia-1deg/cpc_precip_seasia_1deg_monthly_1979_2023.nc",
      "climate/ghcnm-v4-tavg/ghcnm.tavg.v4.qcf.seasia.dat.gz",
      "boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson",
      "boundaries/geoboundaries-vnm-adm1/geoBoundaries-VNM-ADM1.geojson",
      "boundaries/geoboundaries-mys-adm1/geoBoundaries-MYS-ADM1.geojson",
    ]) {
      expect(m.inputs[f]?.sha256, f).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("has 157 provinces and states: Thailand's 77 first (their old indices), Vietnam's 64 units, Malaysia's 16", () => {
    const count = (c: string) => provinces.filter((p) => p.country === c).length;
    expect([provinces.length, count("THA"), count("VNM"), count("MYS")]).toEqual([157, 77, 64, 16]);
    expect(provinces[0]).toMatchObject({ code: "TH-10", nameEn: "Bangkok", country: "THA" });
    expect(provinces.slice(0, 77).every((p) => p.country === "THA")).toBe(true);
    expect(provinces.find((p) => p.code === "VN-43-CONDAO")).toMatchObject({ nameEn: "Côn Đảo", country: "VNM", nameTh: "" });
    expect(provinces.find((p) => p.code === "MY-07")?.aliases).toEqual(expect.arrayContaining(["Penang", "Pulau Pinang"]));
  });

  it("its 184 cells with data carry their countries; no value is infinite", () => {
    expect(grid.countries).toEqual(["THA", "VNM", "MYS"]);
    expect(report.source).toMatchObject({ landCells: 188, cellsWithoutData: 4, cellsServed: 184 });
    expect(grid.nCells).toBe(184);
    const perCountry: Record<string, number> = {};
    for (let c = 0; c < grid.nCells; c++) perCountry[grid.cellCountry(c)] = (perCountry[grid.cellCountry(c)] ?? 0) + 1;
    expect(perCountry).toEqual({ THA: 70, VNM: 60, MYS: 54 });
    expect(grid.values.every((v) => v !== Infinity && v !== -Infinity)).toBe(true);
  });

  it("summarises every unit in 2023-12; Côn Đảo, whose only cell is CPC's sea, from the nearest cell with data", () => {
    const s = new ProvinceSummariesReader(read("province-summaries.bin"));
    const off = s.monthOffset(parseMonth("2023-12")!);
    for (let p = 0; p < provinces.length; p++) expect(Number.isFinite(s.record(p, off)[0]), provinces[p].code).toBe(true);
    expect(report.source.provincesFromNearestCell).toEqual([{ code: "VN-43-CONDAO", cellLat: 9.5, cellLng: 106.5, distanceKm: 91 }]);
    expect(report.provinces.withSummaryAtLatestValidMonth).toBe(157);
  });

  it("calls a mask square inside only where it lies in one country, the country of its cell", () => {
    const mask = new CoverageMask(read("coverage-mask.bin"));
    const index = new ProvinceIndexReader(read("province-index.bin"));
    let inside = 0;
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 40_000; i++) {
      const lat = -2 + rand() * 26;
      const lng = 96 + rand() * 24;
      const state = mask.stateAt(lat, lng);
      const p = index.provinceAt(lat, lng);
      if (state === OUTSIDE) expect(p, `${lat},${lng}`).toBe(-1);
      if (state !== INSIDE) continue;
      inside++;
      expect(p, `${lat},${lng}`).toBeGreaterThanOrEqual(0);
      expect(provinces[p].country, `${lat},${lng}`).toBe(grid.cellCountry(grid.nearestCell(lat, lng).cell));
    }
    expect(inside).toBeGreaterThan(2000);
  });
});
