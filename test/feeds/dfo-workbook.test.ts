// The DFO archive as an Excel workbook (what the publisher ships, and `make refresh` downloads) reads into the same
// records as the data mirror's CSV export of it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { readCsv } from "../../pipeline/feeds/csv.ts";
import { parseDfoArchive } from "../../pipeline/feeds/dfo.ts";
import { dfoWorkbookAsCsv } from "../../pipeline/feeds/dfo-workbook.ts";
import { xlsxBytes } from "./write-xlsx.ts";

const csvText = readFileSync(join(dataDir(), "feeds", "dfo", "FloodArchive.csv"), "utf8");
const table = readCsv(csvText, "FloodArchive.csv");
const DATE = new Set(["Began", "Ended"]);
const NUMERIC = new Set(["ID", "GlideNumber", "long", "lat", "Area", "Dead", "Displaced", "Severity"]);

/** The mirror's rows as Excel holds them: dates as date cells, numbers as numbers, text as text. */
function asWorkbook(): Uint8Array {
  const rows = table.rows.map(({ fields }) =>
    fields.map((v, c) => {
      const h = table.header[c];
      if (v === "") return null;
      if (DATE.has(h)) {
        const [m, d, y] = v.split("/").map(Number);
        return new Date(Date.UTC(y, m - 1, d));
      }
      return NUMERIC.has(h) && Number.isFinite(Number(v)) ? Number(v) : v;
    }),
  );
  return xlsxBytes([table.header, ...rows]);
}

describe("DFO FloodArchive.xlsx", () => {
  it("reads into the same records as the CSV export, every row of the mirror's copy", async () => {
    const fromCsv = parseDfoArchive(csvText, null);
    const fromXlsx = parseDfoArchive(await dfoWorkbookAsCsv(Buffer.from(asWorkbook())), null, "FloodArchive.xlsx");
    expect(fromXlsx.records.length).toBe(fromCsv.records.length);
    expect(fromXlsx.records.length).toBeGreaterThan(4000);
    expect(fromXlsx.records).toEqual(fromCsv.records);
    expect([fromXlsx.rows, fromXlsx.rejected]).toEqual([fromCsv.rows, fromCsv.rejected]);
  });

  it("a date cell without a date format (its serial number) is read as the date", async () => {
    const text = await dfoWorkbookAsCsv(Buffer.from(xlsxBytes([["ID", "Began", "Ended"], [1, 31048, "1/5/1985"]])));
    expect(text).toBe("ID,Began,Ended\n1,1/1/1985,1/5/1985\n");
  });
});
