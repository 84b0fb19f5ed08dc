// The workers' byte reader of the long layout: on a plain table it gives exactly the text parser's series; on
// everything else it declines (undefined), so that the text parser reads the slice and reports with file:line.
import { describe, expect, it } from "vitest";
import { parseLongBytes } from "../../pipeline/commands/indices-long-bytes.ts";
import { parseIndicesTable } from "../../pipeline/commands/indices-table.ts";

const month = (i: number) => `${1990 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;

function table(rows: string[][]): string {
  return rows.map((r) => r.join(",")).join("\n");
}

const viaBytes = (text: string) => {
  const nl = text.indexOf("\n");
  return parseLongBytes(text.slice(0, nl), Buffer.from(text.slice(nl + 1)));
};

describe("parseLongBytes", () => {
  it("reads a plain table exactly as the text parser does (values, missing forms, lat, CRLF, blank end)", () => {
    let seed = 4;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const rows = [["Series", "date", "prcp", "tmean", "lat"]];
    for (const [name, lat] of [["a", "13.5"], ["เชียงใหม่", "-18.75"], ["s-3", "0"]]) {
      for (let i = 0; i < 40; i++) {
        const r = rnd();
        const prcp = r < 0.05 ? "" : r < 0.1 ? "NA" : r < 0.12 ? "NaN" : (rnd() * 300).toFixed(Math.floor(rnd() * 4));
        rows.push([name, month(i + 3), prcp, (20 + rnd() * 10).toFixed(1), lat]);
      }
    }
    for (const text of [table(rows) + "\n", table(rows).replace(/\n/g, "\r\n") + "\r\n\r\n  \n"]) {
      const want = parseIndicesTable(text, "in.csv", "spei").series;
      expect(viaBytes(text)).toEqual(want);
    }
  });

  it("declines every form the text parser must read or refuse", () => {
    const head = "series,date,prcp";
    const ok = `${head}\na,2000-01,1\na,2000-02,2`;
    expect(viaBytes(ok)).toHaveLength(1);
    for (const text of [
      `${head}\n"a",2000-01,1`, // quoted
      `${head}\n a,2000-01,1`, // blank around the name
      `${head}\na,2000-01,1e2`, // exponent
      `${head}\na,2000-01,+1`, // sign
      `${head}\na,2000-01, 1`, // blank around a number
      `${head}\na,2000-1,1`, // date not YYYY-MM
      `${head}\na,2000-01,1\na,2000-03,1`, // gap
      `${head}\na,2000-01,1\nb,2000-01,1\na,2000-02,1`, // series apart
      `${head}\na,2000-01,1,9`, // extra field
      `${head}\na,2000-01`, // missing field
      `${head}\na,2000-01,1\n\na,2000-02,1`, // blank line inside
      `${head}\n,2000-01,1`, // no name
      `${head}\na,2000-01,abc`, // not a number
      `series,date,prcp,lat\na,2000-01,1,13\na,2000-02,1,14`, // lat changes
      `series,date,prcp,lat\na,2000-01,1,95`, // lat out of range
      `series,date,rain\na,2000-01,1`, // unknown column
      `${head}\n`, // no rows
    ]) {
      expect(viaBytes(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
