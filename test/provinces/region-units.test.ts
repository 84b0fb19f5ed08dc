// Vietnam's and Malaysia's units and their spellings (pipeline/provinces/region-units.ts) on the data directory's
// boundary and variant files, the name key (lib/admin1/unit-names.ts), and the 2025 merger table against the
// boundary file (lib/admin1/vietnam-2025.ts).
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { unitKey } from "../../lib/admin1/unit-names.ts";
import { VIETNAM_2025_MERGERS, VIETNAM_2025_UNCHANGED } from "../../lib/admin1/vietnam-2025.ts";
import { loadUnitNames, readVariantPairs, unitNameTable, unitsOf } from "../../pipeline/provinces/region-units.ts";

const { units, table } = loadUnitNames(dataDir());
const find = (name: string) => table.byKey.get(unitKey(name));

describe("unitKey", () => {
  it("drops diacritics, case, punctuation, Đ and the words around a name, but not a name's own", () => {
    expect(["TP. Hồ Chí Minh", "Thành phố Hồ Chí Minh", "Ho Chi Minh City", "hochiminh"].map(unitKey)).toEqual(Array(4).fill("hochiminh"));
    expect(["Đắk Lắk", "Dak Lak", "Daklak", "Tỉnh Đắk Lắk"].map(unitKey)).toEqual(Array(4).fill("daklak"));
    expect(["W.P. Kuala Lumpur", "Wilayah Persekutuan Kuala Lumpur", "Federal Territory of Kuala Lumpur"].map(unitKey)).toEqual(Array(3).fill("kualalumpur"));
    expect(unitKey("Hà Tĩnh")).toBe("hatinh"); // ends in "tinh", which is a prefix word only
    expect(unitKey("Negeri Sembilan")).toBe("negerisembilan");
  });
});

describe("the units of the boundary files", () => {
  it("Vietnam 64 (63 provinces and municipalities, Côn Đảo on its own), Malaysia 16, every code once", () => {
    expect(units.filter((u) => u.country === "VNM")).toHaveLength(64);
    expect(units.filter((u) => u.country === "MYS")).toHaveLength(16);
    expect(new Set(units.map((u) => u.code)).size).toBe(80);
    expect(units.find((u) => u.name === "Côn Đảo")!.code).toBe("VN-43-CONDAO");
    expect(units.find((u) => u.name === "Bà Rịa - Vũng Tàu")!.code).toBe("VN-43");
  });

  it("refuses a feature without an ISO code or name", () => {
    expect(() => unitsOf({ features: [{ properties: { shapeName: "X", shapeISO: "" } }] }, "VNM", "f.geojson")).toThrow("f.geojson: feature 0 (X) has no ISO 3166-2 shapeISO");
    expect(() => unitsOf({ features: [{ properties: { shapeISO: "VN-01" } }] }, "VNM", "f.geojson")).toThrow("f.geojson: feature 0 has no shapeName");
  });
});

describe("spellings", () => {
  it("every unit answers by its boundary-file name, and no key names two units", () => {
    for (const u of units) expect(find(u.name), u.name).toBe(u.code);
    expect(table.ambiguous).toEqual([]);
  });

  it("the common spellings of the issue reach their unit", () => {
    const cases: [string, string][] = [
      ["Hà Nội", "VN-HN"], ["Ha Noi", "VN-HN"], ["Hanoi", "VN-HN"],
      ["TP Hồ Chí Minh", "VN-SG"], ["Ho Chi Minh City", "VN-SG"], ["Saigon", "VN-SG"], ["TP. HCM", "VN-SG"],
      ["Đắk Lắk", "VN-33"], ["Dak Lak", "VN-33"], ["Daklak", "VN-33"],
      ["Huế", "VN-26"], ["Côn Đảo", "VN-43-CONDAO"],
      ["Penang", "MY-07"], ["Pulau Pinang", "MY-07"], ["Malacca", "MY-04"], ["Melaka", "MY-04"],
      ["Kuala Lumpur", "MY-14"], ["W.P. Kuala Lumpur", "MY-14"], ["Negri Sembilan", "MY-05"], ["Labuan", "MY-15"],
    ];
    expect(cases.map(([q]) => [q, find(q)])).toEqual(cases);
    expect(find("Kota Kinabalu")).toBeUndefined(); // a city, not a state: the province lookup answers 404
  });

  it("variant rows join the unit whose name has their standard name; pre-2004 units match none and are listed", () => {
    const t = unitNameTable(
      [{ code: "VN-HN", country: "VNM", name: "Hà Nội" }],
      readVariantPairs("var_1;translate\nHÃ  Ná»™i;Ha Noi\nHa Tay;Ha Tay\n"),
      new Map(),
    );
    expect(t.aliases.get("VN-HN")).toEqual(["Hà Nội", "HÃ  Ná»™i"]);
    expect(t.unmatchedStandards).toEqual(["Ha Tay"]);
    expect(table.unmatchedStandards).toContain("Ha Tay");
  });
});

describe("Vietnam's 2025 merger table", () => {
  it("the 23 new units and the 11 unchanged ones are 34, and they use each of the boundary file's 63 provinces exactly once", () => {
    expect(Object.keys(VIETNAM_2025_MERGERS).length + VIETNAM_2025_UNCHANGED.length).toBe(34);
    const used = [...Object.values(VIETNAM_2025_MERGERS).flat(), ...VIETNAM_2025_UNCHANGED].map((n) => find(n));
    expect(used.every((c) => c !== undefined)).toBe(true);
    expect(new Set(used).size).toBe(used.length);
    const provinces = units.filter((u) => u.country === "VNM" && u.code !== "VN-43-CONDAO").map((u) => u.code);
    expect(new Set(used)).toEqual(new Set(provinces));
    // Each new unit is named after one of the units it was formed from.
    for (const [name, from] of Object.entries(VIETNAM_2025_MERGERS)) expect(from[0]).toBe(name);
  });
});
