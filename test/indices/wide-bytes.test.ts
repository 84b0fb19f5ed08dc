// The wide layout as bytes: the reader gives exactly the text parser's series on plain tables and declines the
// rest; blocks of columns written by workers and joined give exactly formatIndicesTable's wide text.
import { describe, expect, it } from "vitest";
import { parseWideBytes, wideBlockBytes, wideTableBytes } from "../../pipeline/commands/indices-wide-bytes.ts";
import { formatIndicesTable, parseIndicesTable } from "../../pipeline/commands/indices-table.ts";

const month = (i: number) => `${1990 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
const viaBytes = (text: string, index: "spi" | "spei" = "spi") => {
  const nl = text.indexOf("\n");
  return parseWideBytes(text.slice(0, nl).replace(/\r$/, ""), Buffer.from(text.slice(nl + 1)), index);
};

describe("wide tables as bytes", () => {
  it("reads a plain table as the text parser does and writes it back as formatIndicesTable does", () => {
    let seed = 8;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const names = ["a", "Chiang Mai", "ขอนแก่น", "s4", "s5"];
    const rows = [["\uFEFFDate", ...names].join(",")];
    for (let i = 0; i < 60; i++) {
      rows.push([month(i), ...names.map(() => (rnd() < 0.1 ? ["", "NA", "NaN"][i % 3] : (rnd() * 400 - 50).toFixed(Math.floor(rnd() * 4))))].join(","));
    }
    for (const text of [rows.join("\n") + "\n", rows.join("\r\n") + "\r\n\r\n"]) {
      for (const index of ["spi", "spei"] as const) {
        const want = parseIndicesTable(text, "in.csv", index, true).series;
        const got = viaBytes(text, index);
        expect(got).toEqual(want);
        // Columns computed in two blocks (as two workers would) and joined: the text formatIndicesTable writes.
        const values = want.map((s) => s.columns.values().next().value!.map((x) => x / 7));
        const blocks = [wideBlockBytes(values.slice(0, 2)), wideBlockBytes(values.slice(2))];
        expect(wideTableBytes(names, want[0].firstMonth, blocks).toString("utf8")).toBe(formatIndicesTable({ layout: "wide", series: want }, values).join(""));
      }
    }
  });

  it("declines every form the text parser must read or refuse", () => {
    const ok = "date,a,b\n2000-01,1,2\n2000-02,,NA";
    expect(viaBytes(ok)).toHaveLength(2);
    for (const text of [
      'date,a,b\n2000-01,"1",2',
      "date,a,b\n2000-01,1e2,2",
      "date,a,b\n2000-01, 1,2",
      "date,a,b\n2000-01,1,2\n2000-03,1,2",
      "date,a,b\n2000-1,1,2",
      "date,a,b\n2000-01,1",
      "date,a,b\n2000-01,1,2,3",
      "date,a,b\n2000-01,1,2\n\n2000-02,1,2",
      "date,a,a\n2000-01,1,2",
      "date,a,\n2000-01,1,2",
      "day,a,b\n2000-01,1,2",
      "date,a,b\n",
    ]) {
      expect(viaBytes(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
