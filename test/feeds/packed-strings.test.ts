// PackedStrings (formats/packed-strings.ts) gives back exactly the list it was made of; PackedPairs the table.
import { describe, expect, it } from "vitest";
import { PackedPairs, PackedStrings } from "../../formats/packed-strings.ts";

describe("PackedStrings", () => {
  it("returns every entry, empty and non-ASCII ones included, and finds them by value", () => {
    const list = ["MODIS-Aqua-2019-08-01-1", "", "Hà Nội", "a", "", "a", "𝔘nicode 🔥", "MODIS-Aqua-2019-08-01-10"];
    const p = new PackedStrings(list);
    expect(p.length).toBe(list.length);
    expect(list.map((_, i) => p.get(i))).toEqual(list);
    expect(p.toArray()).toEqual(list);
    for (const s of list) expect(p.indexOf(s)).toBe(list.indexOf(s));
    expect(p.indexOf("MODIS-Aqua-2019-08-01")).toBe(-1); // a prefix of an entry is not an entry
    expect(p.indexOf("b")).toBe(-1);
  });

  it("refuses an index outside the list", () => {
    const p = new PackedStrings(["x"]);
    expect(() => p.get(1)).toThrow(RangeError);
    expect(() => p.get(-1)).toThrow(RangeError);
    expect(new PackedStrings([]).length).toBe(0);
  });
});

describe("PackedPairs", () => {
  it("finds every key of a table, and no other", () => {
    const table: Record<string, [string, string]> = {};
    for (let i = 0; i < 5000; i++) table[`C${(i * 7919) % 100000}`.padEnd(5, "Z")] = [`Place ${i}, "quoted"`, i % 3 ? "--3-----" : ""];
    table["ÅÄÖ01"] = ["Ström", "1-------"];
    const p = new PackedPairs(table);
    expect(p.size).toBe(Object.keys(table).length);
    for (const [k, v] of Object.entries(table)) expect(p.get(k)).toEqual(v);
    for (const k of ["", "C", "CZZZZ", "ZZZZZ", "AAAAA", "C1000", "ÅÄÖ0"]) if (!(k in table)) expect(p.get(k)).toBeUndefined();
    expect(new PackedPairs({}).get("X")).toBeUndefined();
  });
});
