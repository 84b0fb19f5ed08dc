// The drought region end to end (issue 34): the real server over the default build of the data mirror — CPC
// precipitation and GHCN-Monthly temperature on 1° cells over Thailand, Vietnam and Malaysia. Expected values are read
// from the artifact files with the format readers, not from the service.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDroughtGrid, type DroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceIndexReader, readProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { parseMonth } from "../../lib/months.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";
import { bruteNearestCell } from "./brute-nearest.ts";

let server: RealServer;
let grid: DroughtGrid;
let provinces: ProvinceMeta[];
let index: ProvinceIndexReader;
let summaries: ProvinceSummariesReader;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  const dir = join(art.dir, "current");
  grid = openDroughtGrid(new Uint8Array(readFileSync(join(dir, "drought-grid.bin"))));
  provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
  index = new ProvinceIndexReader(new Uint8Array(readFileSync(join(dir, "province-index.bin"))));
  summaries = new ProvinceSummariesReader(new Uint8Array(readFileSync(join(dir, "province-summaries.bin"))));
  server = await startRealServer(art.dir);
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (path: string): Promise<{ status: number; body: any }> => {
  const r = await fetch(server.base + path, { headers: { "x-api-key": server.key } });
  return { status: r.status, body: await r.json() };
};

const nearest = (lat: number, lng: number) => bruteNearestCell(grid, lat, lng);

describe("points across the region", () => {
  it("Hanoi, Ho Chi Minh City, Kuala Lumpur, Kota Kinabalu and Kuching answer 2023-12 with their country and their cell's values", async () => {
    const places: [string, number, number, string][] = [
      ["Hanoi", 21.03, 105.85, "VNM"],
      ["Ho Chi Minh City", 10.78, 106.7, "VNM"],
      ["Kuala Lumpur", 3.14, 101.69, "MYS"],
      ["Kota Kinabalu", 5.9804, 116.0735, "MYS"],
      ["Kuching", 1.55, 110.35, "MYS"],
      ["Bangkok", 13.75, 100.5, "THA"],
    ];
    const off = grid.monthOffset(parseMonth("2023-12")!);
    for (const [name, lat, lng, country] of places) {
      const { status, body } = await json(`/api/risk-map/drought?lat=${lat}&lng=${lng}`);
      expect(status, name).toBe(200);
      const c = nearest(lat, lng);
      expect(body.data.location, name).toMatchObject({ country, gridId: `SEA100-${grid.cellId(c)}`, gridLat: grid.cellLat(c), gridLng: grid.cellLng(c) });
      expect(body.data.period, name).toMatchObject({ month: "2023-12", climatologyBaseline: "1991-2020" });
      expect(body.data.drought.indices.spei1, name).toBe(r3(grid.value(c, off, grid.indexNo("spei1"))));
      expect(body.data.details.currency.current, name).toBe(false);
    }
  });

  it("a point's country is the province's it lies in, on both sides of the Thai–Malaysian border", async () => {
    const seen = new Set<string>();
    let asked = 0;
    for (let lat = 5.55; lat < 6.95; lat += 0.1) {
      for (let lng = 100.05; lng < 102.1; lng += 0.15) {
        const p = index.provinceAt(lat, lng);
        if (p < 0) continue;
        const { status, body } = await json(`/api/risk-map/drought?lat=${lat.toFixed(2)}&lng=${lng.toFixed(2)}`);
        expect(status, `${lat},${lng}`).toBe(200);
        expect(body.data.location.country, `${lat},${lng}`).toBe(provinces[p].country);
        seen.add(`${provinces[p].country} in a ${grid.cellCountry(nearest(lat, lng))} cell`);
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(100);
    // Both countries, and points whose cell is mostly the other country's.
    expect([...seen].sort()).toEqual(["MYS in a MYS cell", "MYS in a THA cell", "THA in a MYS cell", "THA in a THA cell"]);
  });

  it("batch scores points across the region as the point route does, and says why a point outside has none", async () => {
    const locations = [
      { id: "bkk", lat: 13.75, lng: 100.5 },
      { id: "hanoi", lat: 21.03, lng: 105.85 },
      { id: "kl", lat: 3.14, lng: 101.69 },
      { id: "vientiane", lat: 17.97, lng: 102.6 },
    ];
    const r = await fetch(server.base + "/api/risk-map/batch", {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: JSON.stringify({ riskType: "drought", locations }),
    });
    const results = (await r.json()).data.results;
    for (const [i, l] of locations.slice(0, 3).entries()) {
      const one = (await json(`/api/risk-map/drought?lat=${l.lat}&lng=${l.lng}`)).body.data;
      expect(results[i], l.id).toMatchObject({ id: l.id, found: true, month: one.period.month, riskScore: one.drought.score, spei1: one.drought.indices.spei1 });
    }
    expect(results[3]).toMatchObject({ found: false, reason: "location is outside the covered area (the land of Thailand, Vietnam and Malaysia)" });
  });
});

describe("provinces of three countries", () => {
  it("every Vietnamese and Malaysian unit answers by its boundary-file name and every spelling it lists, with its own summary", async () => {
    const off = summaries.monthOffset(parseMonth("2023-12")!);
    let asked = 0;
    for (const [p, meta] of provinces.entries()) {
      if (meta.country === "THA") continue;
      for (const name of new Set([meta.nameEn, meta.code, ...meta.aliases])) {
        const { status, body } = await json(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}&country=${meta.country}`);
        expect(status, `${name} (${meta.code})`).toBe(200);
        expect(body.data, `${name} (${meta.code})`).toMatchObject({ province: meta.nameEn, code: meta.code, country: meta.country, month: "2023-12" });
        expect(body.data.indices.spei1, name).toBe(r3(summaries.record(p, off)[0]));
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(400);
  });

  it("answers the common spellings: accented and unaccented Vietnamese, English, Malay", async () => {
    const cases: [string, string, string][] = [
      ["Hà Nội", "VNM", "VN-HN"], ["Ha Noi", "VNM", "VN-HN"], ["Hanoi", "VNM", "VN-HN"],
      ["TP Hồ Chí Minh", "VNM", "VN-SG"], ["Ho Chi Minh City", "VNM", "VN-SG"], ["Saigon", "VNM", "VN-SG"],
      ["Đắk Lắk", "VNM", "VN-33"], ["Dak Lak", "VNM", "VN-33"], ["Daklak", "VNM", "VN-33"],
      ["Côn Đảo", "VNM", "VN-43-CONDAO"], ["Con Dao", "VNM", "VN-43-CONDAO"],
      ["Penang", "MYS", "MY-07"], ["Pulau Pinang", "MYS", "MY-07"], ["Malacca", "MYS", "MY-04"], ["Melaka", "MYS", "MY-04"],
      ["Kuala Lumpur", "MYS", "MY-14"], ["W.P. Kuala Lumpur", "MYS", "MY-14"], ["Johore", "MYS", "MY-01"],
    ];
    for (const [name, country, code] of cases) {
      const { status, body } = await json(`/api/risk-map/drought/province?name=${encodeURIComponent(name)}&country=${country}`);
      expect([status, body.data?.code], name).toEqual([200, code]);
    }
    // The country defaults to Thailand: a Vietnamese name alone is not found there.
    expect((await json("/api/risk-map/drought/province?name=Hanoi")).status).toBe(404);
  });

  it("a name of Vietnam's 2025 provinces answers the pre-2025 province of that name and says what the reform made of it", async () => {
    const laoCai = (await json(`/api/risk-map/drought/province?name=${encodeURIComponent("Lào Cai")}&country=VNM`)).body.data;
    expect(laoCai.reform2025).toEqual({
      effective: "2025-07-01",
      unit: "Lào Cai",
      formerProvinces: ["Lào Cai", "Yên Bái"],
      note: "since 2025-07-01 Lào Cai also covers the former Yên Bái; this answer is the pre-2025 Lào Cai of the boundary file (ask for Yên Bái for the rest)",
    });
    const yenBai = (await json("/api/risk-map/drought/province?name=Yen%20Bai&country=VNM")).body.data;
    expect(yenBai.reform2025).toMatchObject({ unit: "Lào Cai", note: "since 2025-07-01 Yên Bái is part of Lào Cai; this answer is the pre-2025 Yên Bái of the boundary file" });
    expect((await json("/api/risk-map/drought/province?name=Hanoi&country=VNM")).body.data.reform2025).toMatchObject({ unit: "Hà Nội", formerProvinces: ["Hà Nội"] });
    expect((await json("/api/risk-map/drought/province?name=Penang&country=MYS")).body.data.reform2025).toBeUndefined();
    // Côn Đảo, a district of Bà Rịa - Vũng Tàu the boundary file draws apart, went with it into TP. Hồ Chí Minh.
    expect((await json("/api/risk-map/drought/province?name=Con%20Dao&country=VNM")).body.data.reform2025).toEqual({
      effective: "2025-07-01",
      unit: "TP. Hồ Chí Minh",
      formerProvinces: ["TP. Hồ Chí Minh", "Bình Dương", "Bà Rịa - Vũng Tàu"],
      note: "Côn Đảo was part of Bà Rịa - Vũng Tàu, which is part of TP. Hồ Chí Minh since 2025-07-01; this answer is Côn Đảo's own area, as the boundary file draws it",
    });
  });

  it("404s: an unknown name lists the country's provinces, a country outside the region the covered ones, a month the range", async () => {
    const unknown = await json("/api/risk-map/drought/province?name=Hanoy&country=VNM");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.closeMatches[0]).toBe("Hà Nội");
    expect(unknown.body.error.details.provinces).toEqual(provinces.filter((p) => p.country === "VNM").map((p) => p.nameEn));
    const lao = await json("/api/risk-map/drought/province?name=Vientiane&country=LAO");
    expect([lao.status, lao.body.error.message, lao.body.error.details.coveredCountries]).toEqual([404, "no province data for country LAO: the drought region covers THA, VNM, MYS", ["THA", "VNM", "MYS"]]);
    const late = await json("/api/risk-map/drought/province?name=Hanoi&country=VNM&month=2030-01");
    expect([late.status, late.body.error.message, late.body.error.details.coverage]).toEqual([404, "no province summaries for 2030-01: they cover 1979-01 to 2023-12", { from: "1979-01", to: "2023-12" }]);
  });
});
