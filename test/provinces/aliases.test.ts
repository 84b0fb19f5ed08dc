import { describe, expect, it } from "vitest";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import {
  aliasIndex,
  buildAliases,
  closeMatches,
  damerauLevenshtein,
  isThaiVariantOf,
  loadAliasSources,
  normalizeName,
  resolveProvince,
} from "../../pipeline/provinces/aliases.ts";

const provinces = loadProvinces();
const table = buildAliases(loadAliasSources(provinces));
const index = aliasIndex(table);

describe("normalizeName", () => {
  it("ignores case, spaces, hyphens, apostrophes and accents", () => {
    expect(normalizeName("  Buri Ram ")).toBe("buriram");
    expect(normalizeName("Phang-nga")).toBe("phangnga");
    expect(normalizeName("Ko'rat")).toBe("korat");
    expect(normalizeName("Nakhon Rātchasīmā")).toBe("nakhonratchasima");
    expect(normalizeName("TH-10")).toBe("th10");
  });

  it("keeps Thai as is after trimming and dropping zero-width characters", () => {
    expect(normalizeName(" สงขลา\u200B ")).toBe("สงขลา");
    expect(normalizeName("กรุงเทพมหานคร")).toBe("กรุงเทพมหานคร");
  });
});

describe("alias table", () => {
  const pairs: [string, string][] = [
    ["Buriram", "TH-31"],
    ["Buri Ram", "TH-31"],
    ["Krung Thep Maha Nakhon", "TH-10"],
    ["Bangkok", "TH-10"],
    ["กรุงเทพมหานคร", "TH-10"],
    ["กทม", "TH-10"],
    ["Lopburi", "TH-16"],
    ["Lop Buri", "TH-16"],
    ["Chonburi", "TH-20"],
    ["Chon Buri", "TH-20"],
    ["Sisaket", "TH-33"],
    ["Si Sa Ket", "TH-33"],
    ["Nong Bua Lamphu", "TH-39"],
    ["nong-bua-lam-phu", "TH-39"],
    ["Korat", "TH-30"],
    ["Khorat", "TH-30"],
    ["TH-10", "TH-10"],
    ["10", "TH-10"],
    ["th-96", "TH-96"],
    ["Chainat", "TH-18"],
    ["Ayutthaya", "TH-14"],
    ["Bueng Kan", "TH-38"],
    ["บึงกาฬ", "TH-38"],
    ["เชียงใหม่", "TH-50"],
    ["ชม", "TH-50"],
    ["CHIANG MAI", "TH-50"],
    ["ภูเก็ต", "TH-83"],
    ["สงขลา", "TH-90"],
  ];
  it.each(pairs)("%s → %s", (name, code) => {
    expect(resolveProvince(index, name)).toBe(code);
  });

  it("has every province and no normalised alias naming two provinces", () => {
    expect(table).toHaveLength(77);
    const owner = new Map<string, string>();
    for (const e of table) {
      for (const a of e.aliases) {
        const key = normalizeName(a);
        const prev = owner.get(key);
        expect(prev === undefined || prev === e.code, `${a} in ${prev} and ${e.code}`).toBe(true);
        owner.set(key, e.code);
      }
    }
    expect(owner.size).toBe(index.size);
  });

  it("drops district names and confusions from the variants file", () => {
    for (const junk of ["ยานนาวา", "บางนา", "ภาษีเจริญ", "ปลายพระยา", "บึงโขงหลง", "นาวัง", "ธารโต", "Ubon Thani", "Lam Phu"]) {
      expect(resolveProvince(index, junk), junk).toBeUndefined();
    }
    expect(isThaiVariantOf("ศรีษะเกษ", "ศรีสะเกษ")).toBe(true);
    expect(isThaiVariantOf("ยานนาวา", "กรุงเทพมหานคร")).toBe(false);
  });

  it("throws on a collision, naming both provinces", () => {
    expect(() =>
      buildAliases({
        provinces: [
          { code: "TH-10", nameEn: "Bangkok", nameTh: "ก" },
          { code: "TH-11", nameEn: "Bang-kok", nameTh: "ข" },
        ],
      }),
    ).toThrow('alias "Bang-kok" (normalised "bangkok") names both TH-10 and TH-11');
  });
});

describe("closeMatches", () => {
  it("suggests Chiang Mai first for Chang Mai", () => {
    const m = closeMatches(table, "Chang Mai", 3);
    expect(m[0]).toEqual({ code: "TH-50", nameEn: "Chiang Mai", distance: 1 });
    expect(m[1]).toEqual({ code: "TH-57", nameEn: "Chiang Rai", distance: 2 });
    expect(m).toHaveLength(3);
  });

  it("finds transposed letters", () => {
    expect(damerauLevenshtein("phuket", "puhket")).toBe(1);
    expect(damerauLevenshtein("kitten", "sitting")).toBe(3);
    expect(closeMatches(table, "Puhket", 1)[0].code).toBe("TH-83");
  });
});
