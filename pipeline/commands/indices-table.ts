// The tables the `indices` command reads and writes, in three layouts:
//   single  date,prcp[,balance|pet|tmean]            → date,value
//   long    series,date,prcp[,balance|pet|tmean][,lat] → series,date,value   (a series' rows together, in order)
//   wide    date,<series>,<series>,…                 → date,<series>,<series>,…  (values: prcp for SPI, the
//                                                       climatic balance P − PET in mm for SPEI)
// A header with a `series` column is long; the wide layout is asked for (--layout wide), so that a misspelt
// column of a single table is an error rather than a series. Months run consecutively; empty, NA or NaN is missing. Numbers are
// parsed by hand: the files are plain numeric tables, and this runs for millions of values per second.
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";

/** An input or usage problem, reported with exit code 2. */
export class IndicesInputError extends Error {}

const KNOWN = new Set(["prcp", "tmean", "pet", "balance"]);

export type Layout = "single" | "long" | "wide";

export interface TableSeries {
  /** "" in the single layout. */
  name: string;
  firstMonth: MonthIndex;
  columns: Map<string, Float64Array>;
  lat?: number;
}

export interface IndicesTable {
  layout: Layout;
  series: TableSeries[];
}

function cell(s: string, file: string, lineNo: number, column: string): number {
  const v = Number(s); // Number() ignores surrounding blanks and reads "" and " " as 0: those are missing
  if (v !== 0 ? Number.isFinite(v) : s.trim() !== "") return v;
  const t = s.trim();
  if (t === "" || t === "NA" || t === "NaN") return NaN;
  if (!Number.isFinite(v)) throw new IndicesInputError(`${file}:${lineNo}: column "${column}": not a number: "${t}"`);
  return v;
}

function lines(text: string, file: string): string[] {
  const out = text.split("\n");
  if (text.indexOf("\r") >= 0) for (let i = 0; i < out.length; i++) if (out[i].endsWith("\r")) out[i] = out[i].slice(0, -1);
  while (out.length > 0 && out[out.length - 1].trim() === "") out.pop();
  if (out.length < 2) throw new IndicesInputError(`${file}: no data rows`);
  return out;
}

function month(text: string, file: string, lineNo: number): MonthIndex {
  const m = parseMonth(text.trim());
  if (m === undefined) throw new IndicesInputError(`${file}:${lineNo}: bad date "${text}" (want YYYY-MM)`);
  return m;
}

function nextMonth(expected: MonthIndex, found: MonthIndex, file: string, lineNo: number): void {
  if (found !== expected) {
    throw new IndicesInputError(`${file}:${lineNo}: month sequence broken: expected ${formatMonth(expected)}, found ${formatMonth(found)}`);
  }
}

/** `lineOffset`: lines of the file before `text`'s first row (a slice of a larger file, header prepended). */
export function parseIndicesTable(text: string, file: string, index: "spei" | "spi", wide = false, lineOffset = 0): IndicesTable {
  const rows = lines(text, file);
  const header = rows[0].split(",").map((h) => h.trim().replace(/^\uFEFF/, ""));
  const lower = header.map((h) => h.toLowerCase());
  const dateCol = lower.indexOf("date");
  if (dateCol < 0) throw new IndicesInputError(`${file}:1: missing column "date"`);
  if (lower.includes("series")) return { layout: "long", series: parseLong(rows, lower, dateCol, file, lineOffset) };
  if (!wide) return { layout: "single", series: [parseColumns(rows, lower, dateCol, file, "", lineOffset)] };
  // Wide: every other column is one series' precipitation (SPI) or climatic balance (SPEI).
  const table = parseColumns(rows, header, dateCol, file, "", lineOffset);
  const valueName = index === "spi" ? "prcp" : "balance";
  const series = header.flatMap((name, c) => {
    if (c === dateCol) return [];
    if (name === "") throw new IndicesInputError(`${file}:1: column ${c + 1} has no name`);
    return [{ name, firstMonth: table.firstMonth, columns: new Map([[valueName, table.columns.get(name)!]]) }];
  });
  const names = new Set<string>();
  for (const s of series) {
    if (names.has(s.name)) throw new IndicesInputError(`${file}:1: column "${s.name}" appears twice`);
    names.add(s.name);
  }
  return { layout: "wide", series };
}

/** Columns of rows[1..] (one series per column name), months consecutive from the first row. */
function parseColumns(rows: string[], header: string[], dateCol: number, file: string, name: string, lineOffset: number): TableSeries {
  const n = rows.length - 1;
  const columns = new Map<string, Float64Array>();
  for (let c = 0; c < header.length; c++) if (c !== dateCol) columns.set(header[c], new Float64Array(n));
  const cols = header.map((h, c) => (c === dateCol ? null : columns.get(h)!));
  let firstMonth = 0;
  for (let r = 0; r < n; r++) {
    const lineNo = r + 2 + lineOffset;
    const cells = rows[r + 1].split(",");
    if (cells.length !== header.length) throw new IndicesInputError(`${file}:${lineNo}: expected ${header.length} fields, found ${cells.length}`);
    const m = month(cells[dateCol], file, lineNo);
    if (r === 0) firstMonth = m;
    else nextMonth(firstMonth + r, m, file, lineNo);
    for (let c = 0; c < cells.length; c++) {
      const col = cols[c];
      if (col !== null) col[r] = cell(cells[c], file, lineNo, header[c]);
    }
  }
  return { name, firstMonth, columns };
}

/** Long layout: runs of rows with the same series name, each a consecutive monthly table. */
function parseLong(rows: string[], header: string[], dateCol: number, file: string, lineOffset: number): TableSeries[] {
  const seriesCol = header.indexOf("series");
  const latCol = header.indexOf("lat");
  const nCols = header.length;
  const unknown = header.filter((h, c) => c !== seriesCol && c !== dateCol && c !== latCol && !KNOWN.has(h));
  if (unknown.length) throw new IndicesInputError(`${file}:1: unknown column "${unknown[0]}" (long layout: series, date, prcp, tmean, pet, balance, lat)`);
  const valueCols = header.flatMap((h, c) => (KNOWN.has(h) ? [c] : []));
  // Field c of the current row spans start[c]..end[c]: one scan per row, slices only for what is read.
  const start = new Int32Array(nCols);
  const end = new Int32Array(nCols);
  const split = (row: string, lineNo: number) => {
    let at = 0;
    for (let c = 0; c < nCols; c++) {
      let comma = row.indexOf(",", at);
      if (comma < 0) comma = row.length;
      else if (c === nCols - 1) throw new IndicesInputError(`${file}:${lineNo}: expected ${nCols} fields, found more`);
      if (at > row.length) throw new IndicesInputError(`${file}:${lineNo}: expected ${nCols} fields, found ${c}`);
      start[c] = at;
      end[c] = comma;
      at = comma + 1;
    }
  };
  const monthTexts = new Map<number, string>();
  const out: TableSeries[] = [];
  const seen = new Set<string>();
  let r = 1;
  while (r < rows.length) {
    const first = r + 1 + lineOffset;
    split(rows[r], first);
    const name = rows[r].slice(start[seriesCol], end[seriesCol]).trim();
    if (name === "") throw new IndicesInputError(`${file}:${first}: empty series name`);
    if (seen.has(name)) throw new IndicesInputError(`${file}:${first}: series "${name}" appears again (a series' rows must be together)`);
    seen.add(name);
    const firstMonth = month(rows[r].slice(start[dateCol], end[dateCol]), file, first);
    const buffers = valueCols.map(() => [] as number[]);
    let lat: number | undefined;
    let i = 0;
    for (; r < rows.length; r++, i++) {
      const row = rows[r];
      const lineNo = r + 1 + lineOffset;
      if (i > 0) {
        split(row, lineNo);
        if (row.slice(start[seriesCol], end[seriesCol]).trim() !== name) break;
      }
      const dateText = row.slice(start[dateCol], end[dateCol]);
      const expected = firstMonth + i;
      let want = monthTexts.get(expected);
      if (want === undefined) monthTexts.set(expected, (want = formatMonth(expected)));
      if (dateText !== want) nextMonth(expected, month(dateText, file, lineNo), file, lineNo);
      for (let k = 0; k < valueCols.length; k++) {
        const c = valueCols[k];
        buffers[k].push(cell(row.slice(start[c], end[c]), file, lineNo, header[c]));
      }
      if (latCol >= 0) {
        const v = cell(row.slice(start[latCol], end[latCol]), file, lineNo, "lat");
        if (!(Math.abs(v) <= 90)) throw new IndicesInputError(`${file}:${lineNo}: lat must be a latitude in degrees (−90..90), got "${row.slice(start[latCol], end[latCol])}"`);
        if (lat === undefined) lat = v;
        else if (v !== lat) throw new IndicesInputError(`${file}:${lineNo}: series "${name}" changes lat from ${lat} to ${v}`);
      }
    }
    out.push({ name, firstMonth, columns: new Map(valueCols.map((c, k) => [header[c], Float64Array.from(buffers[k])])), lat });
  }
  return out;
}

export function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NA";
  if (v === Infinity) return "Inf";
  if (v === -Infinity) return "-Inf";
  return decimal9(v);
}

const ZEROS = "000000000";

/**
 * A value rounded to 9 decimals, trailing zeros dropped ("-0.282055789", "1.5", "0"): an error of at most 5e-10,
 * far below the 1e-7 the indices agree with R SPEI to, and three times faster to write than the shortest
 * round-trip text (String(v)), which was the command's largest cost. |v| < 2^53 / 1e9 always holds for an index.
 */
export function decimal9(v: number): string {
  if (round9(v)) return "0";
  const [whole, frac] = rounded;
  if (frac === 0) return `${v < 0 ? "-" : ""}${whole}`;
  let f = frac;
  let digits = 9;
  while (f % 10 === 0) {
    f /= 10;
    digits--;
  }
  const text = `${f}`;
  return `${v < 0 ? "-" : ""}${whole}.${ZEROS.slice(0, digits - text.length)}${text}`;
}

/** |v| rounded to 9 decimals as whole part and billionths in `rounded`; true when that is zero. */
const rounded = new Float64Array(2);
function round9(v: number): boolean {
  const a = v < 0 ? -v : v;
  let whole = Math.floor(a);
  let frac = Math.round((a - whole) * 1e9);
  if (frac >= 1e9) {
    whole++;
    frac -= 1e9;
  }
  rounded[0] = whole;
  rounded[1] = frac;
  return whole === 0 && frac === 0;
}

/** formatValue(v) written as ASCII into `out` at `at`; returns the position after it. `out` must have 32 bytes free. */
export function writeValue(out: Uint8Array, at: number, v: number): number {
  if (Number.isNaN(v)) return writeAscii(out, at, "NA");
  if (v === Infinity) return writeAscii(out, at, "Inf");
  if (v === -Infinity) return writeAscii(out, at, "-Inf");
  if (round9(v)) {
    out[at] = 48;
    return at + 1;
  }
  if (v < 0) out[at++] = 45;
  let whole = rounded[0];
  let frac = rounded[1];
  let n = 1;
  for (let w = whole; w >= 10; w = Math.floor(w / 10)) n++;
  for (let k = n - 1; k >= 0; k--) {
    out[at + k] = 48 + (whole % 10);
    whole = Math.floor(whole / 10);
  }
  at += n;
  if (frac === 0) return at;
  let digits = 9;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  out[at++] = 46;
  for (let k = digits - 1; k >= 0; k--) {
    out[at + k] = 48 + (frac % 10);
    frac = Math.floor(frac / 10);
  }
  return at + digits;
}

function writeAscii(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}

/**
 * The rows of a long table (series,date,value; no header) as UTF-8 bytes, the same text formatIndicesTable gives:
 * written straight into one buffer, which a worker then moves to the main thread. Building a string per row and
 * joining them cost more than computing the indices.
 */
export function longTableBytes(series: TableSeries[], values: Float64Array[]): Buffer {
  let out = Buffer.allocUnsafeSlow(1 << 20);
  let at = 0;
  const months = new Map<number, Buffer>();
  series.forEach((s, k) => {
    const head = Buffer.from(s.name + ",");
    const v = values[k];
    for (let i = 0; i < v.length; i++) {
      const need = head.length + 8 + 32 + 1;
      if (at + need > out.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(2 * out.length, at + need));
        out.copy(bigger, 0, 0, at);
        out = bigger;
      }
      at += head.copy(out, at);
      let month = months.get(s.firstMonth + i);
      if (month === undefined) months.set(s.firstMonth + i, (month = Buffer.from(formatMonth(s.firstMonth + i) + ",")));
      for (let j = 0; j < 8; j++) out[at + j] = month[j];
      at = writeValue(out, at + 8, v[i]);
      out[at++] = 10;
    }
  });
  return out.subarray(0, at);
}

/**
 * The output table in the input's layout (date,value / series,date,value / date,<series>,…) as text chunks of about
 * a megabyte: one string of a whole large table would be built and copied more than once. (Tables computed on
 * workers are written as bytes instead: longTableBytes here, wideTableBytes in indices-wide-bytes.ts.)
 */
export function formatIndicesTable(table: IndicesTable, values: Float64Array[], withHeader = true): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const push = (line: string) => {
    parts.push(line);
    size += line.length + 1;
    if (size > 1 << 20) {
      chunks.push(parts.join("\n") + "\n");
      parts = [];
      size = 0;
    }
  };
  const months = new Map<number, string>();
  const monthText = (m: number) => {
    let t = months.get(m);
    if (t === undefined) months.set(m, (t = formatMonth(m)));
    return t;
  };
  if (table.layout === "single") {
    const { firstMonth } = table.series[0];
    push("date,value");
    for (let i = 0; i < values[0].length; i++) push(`${monthText(firstMonth + i)},${formatValue(values[0][i])}`);
  } else if (table.layout === "long") {
    if (withHeader) push("series,date,value");
    table.series.forEach((s, k) => {
      const head = s.name + ",";
      const v = values[k];
      for (let i = 0; i < v.length; i++) push(head + monthText(s.firstMonth + i) + "," + formatValue(v[i]));
    });
  } else {
    push(["date", ...table.series.map((s) => s.name)].join(","));
    const { firstMonth } = table.series[0];
    for (let i = 0; i < values[0].length; i++) {
      let line = monthText(firstMonth + i);
      for (const v of values) line += "," + formatValue(v[i]);
      push(line);
    }
  }
  if (parts.length) chunks.push(parts.join("\n") + "\n");
  return chunks;
}
