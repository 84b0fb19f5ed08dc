// The wide layout (date,<series>,<series>,…) as bytes, for tables of thousands of columns: read without a string
// per field, each worker's block of columns written into one buffer, and the blocks joined row by row into the
// output. Like the long reader (indices-long-bytes.ts) it reads only the plain case — unquoted fields, dates
// exactly YYYY-MM in sequence, plain decimals or missing values (empty, NA, NaN) — and returns undefined on
// anything else, so that the text parser reads the table and reports the problem with its file:line message.
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { parseDecimalBytes } from "./decimal-bytes.ts";
import { isMissingBytes, sameBytes } from "./indices-long-bytes.ts";
import { writeValue, type TableSeries } from "./indices-table.ts";

export function parseWideBytes(headerLine: string, body: Uint8Array, index: "spei" | "spi"): TableSeries[] | undefined {
  const header = headerLine.split(",").map((h) => h.trim().replace(/^\uFEFF/, ""));
  const dateCol = header.findIndex((h) => h.toLowerCase() === "date");
  const nCols = header.length;
  if (dateCol < 0 || nCols < 2 || header.some((h) => h === "") || new Set(header).size !== nCols) return undefined;
  let end = body.length;
  while (end > 0 && (body[end - 1] === 10 || body[end - 1] === 13 || body[end - 1] === 32 || body[end - 1] === 9)) end--;
  if (end === 0) return undefined;
  let nRows = 1;
  for (let p = 0; p < end; p++) if (body[p] === 10) nRows++;
  const columns = header.map((_, c) => (c === dateCol ? new Float64Array(0) : new Float64Array(nRows)));
  let firstMonth = 0;
  let want: Uint8Array = new Uint8Array(0);
  let r = 0;
  for (let at = 0; at < end; r++) {
    let c = 0;
    let start = at;
    let p = at;
    for (; ; p++) {
      const b = p < end ? body[p] : 10;
      if (b === 44 || b === 10) {
        const fieldEnd = b === 10 && p > start && body[p - 1] === 13 ? p - 1 : p;
        if (c >= nCols) return undefined;
        if (c === dateCol) {
          if (r === 0) {
            const m = parseMonth(Buffer.from(body.subarray(start, fieldEnd)).toString("latin1"));
            if (m === undefined) return undefined;
            firstMonth = m;
          }
          want = Buffer.from(formatMonth(firstMonth + r));
          if (!sameBytes(body, start, fieldEnd, want)) return undefined;
        } else {
          let v = parseDecimalBytes(body, start, fieldEnd);
          if (Number.isNaN(v)) {
            if (!isMissingBytes(body, start, fieldEnd)) return undefined;
            v = NaN;
          }
          columns[c][r] = v;
        }
        c++;
        start = p + 1;
        if (b === 10) break;
      } else if (b === 34) return undefined;
    }
    if (c !== nCols) return undefined;
    at = p + 1;
  }
  const valueName = index === "spi" ? "prcp" : "balance";
  return header.flatMap((name, c) => (c === dateCol ? [] : [{ name, firstMonth, columns: new Map([[valueName, columns[c]]]) }]));
}

/** A block of columns, per output row the values joined by commas; row i is bytes[ends[i-1] (0 for i = 0)..ends[i]). */
export interface WideBlock {
  bytes: Uint8Array;
  ends: Int32Array;
}

export function wideBlockBytes(values: Float64Array[]): WideBlock {
  const n = values[0]?.length ?? 0;
  const ends = new Int32Array(n);
  let out = Buffer.allocUnsafeSlow(Math.max(1024, n * values.length * 12));
  let at = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < values.length; k++) {
      if (at + 33 > out.length) {
        const bigger = Buffer.allocUnsafeSlow(2 * out.length);
        out.copy(bigger, 0, 0, at);
        out = bigger;
      }
      if (k > 0) out[at++] = 44;
      at = writeValue(out, at, values[k][i]);
    }
    ends[i] = at;
  }
  return { bytes: out.subarray(0, at), ends };
}

/** The wide output table: header, then per row its month and every block's part of the row. */
export function wideTableBytes(names: string[], firstMonth: number, blocks: WideBlock[]): Buffer {
  const head = Buffer.from(["date", ...names].join(",") + "\n");
  const n = blocks[0]?.ends.length ?? 0;
  let size = head.length + n * 9;
  for (const b of blocks) size += b.bytes.length + n;
  const out = Buffer.allocUnsafeSlow(size);
  let at = head.copy(out, 0);
  for (let i = 0; i < n; i++) {
    at += out.write(formatMonth(firstMonth + i), at, "latin1");
    for (const b of blocks) {
      out[at++] = 44;
      const from = i === 0 ? 0 : b.ends[i - 1];
      out.set(b.bytes.subarray(from, b.ends[i]), at);
      at += b.ends[i] - from;
    }
    out[at++] = 10;
  }
  return out.subarray(0, at);
}
