// The DFO archive as its publisher ships it: an Excel workbook (FloodArchive.xlsx), read with read-excel-file and
// written out as the CSV layout of the data mirror's export (same header, dates as m/d/yyyy), so that one adapter
// (dfo.ts) reads both. Rows keep their order: a rejected row's line is its row number in the sheet.
import { readSheet } from "read-excel-file/node";

const DATE_COLUMNS = new Set(["Began", "Ended"]);
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/** m/d/yyyy of a UTC date, as the mirror's CSV writes it. */
function mdy(d: Date): string {
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
}

function field(v: unknown, dateColumn: boolean): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return mdy(v);
  // A date cell whose format the reader did not recognise arrives as its serial day number.
  if (typeof v === "number" && dateColumn) return mdy(new Date(EXCEL_EPOCH + Math.round(v) * 86_400_000));
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The first sheet of the workbook as CSV text in the mirror's layout. */
export async function dfoWorkbookAsCsv(workbook: Buffer): Promise<string> {
  const rows = (await readSheet(workbook)) as unknown[][];
  if (rows.length === 0) throw new Error("FloodArchive.xlsx: the first sheet is empty");
  const header = rows[0].map((h) => String(h ?? "").trim());
  const dates = header.map((h) => DATE_COLUMNS.has(h));
  return rows.map((r, i) => (i === 0 ? header : header.map((_, c) => field(r[c], dates[c]))).join(",")).join("\n") + "\n";
}
