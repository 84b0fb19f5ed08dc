// The long layout (series,date,prcp[,tmean|pet|balance][,lat]) read straight from bytes, for the `indices` workers:
// no string per line or field. It reads only the plain case — every field unquoted and untrimmed, dates exactly
// YYYY-MM in sequence, numbers plain decimals or missing (empty, NA, NaN), a series' rows together with one lat —
// and returns undefined on anything else, so that the text parser (parseIndicesTable) reads the slice again and
// reports the problem with its file:line message. Where it answers, it answers what the text parser would.
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { parseDecimalBytes } from "./decimal-bytes.ts";
import type { TableSeries } from "./indices-table.ts";

const KNOWN = new Set(["prcp", "tmean", "pet", "balance"]);

/** A field that means "missing": "", NA or NaN. */
export function isMissingBytes(buf: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n === 0) return true;
  if (n === 2) return buf[start] === 78 && buf[start + 1] === 65; // NA
  return n === 3 && buf[start] === 78 && buf[start + 1] === 97 && buf[start + 2] === 78; // NaN
}

export function sameBytes(buf: Uint8Array, start: number, end: number, want: Uint8Array): boolean {
  if (end - start !== want.length) return false;
  for (let i = 0; i < want.length; i++) if (buf[start + i] !== want[i]) return false;
  return true;
}

export function parseLongBytes(headerLine: string, body: Uint8Array): TableSeries[] | undefined {
  const header = headerLine.split(",").map((h) => h.trim().replace(/^\uFEFF/, "").toLowerCase());
  const nCols = header.length;
  const seriesCol = header.indexOf("series");
  const dateCol = header.indexOf("date");
  const latCol = header.indexOf("lat");
  if (seriesCol < 0 || dateCol < 0 || nCols > 64) return undefined;
  if (header.some((h, c) => c !== seriesCol && c !== dateCol && c !== latCol && !KNOWN.has(h))) return undefined;
  const valueCols = header.flatMap((h, c) => (KNOWN.has(h) ? [c] : []));
  // Trailing blank lines are dropped, as the text parser does; any other blank line is left to it.
  let end = body.length;
  while (end > 0 && (body[end - 1] === 10 || body[end - 1] === 13 || body[end - 1] === 32 || body[end - 1] === 9)) end--;
  if (end === 0) return undefined;

  const fieldEnd = new Int32Array(nCols);
  const fieldStart = new Int32Array(nCols);
  const monthBytes = new Map<number, Uint8Array>();
  const out: TableSeries[] = [];
  const seen = new Set<string>();
  let name = "";
  let nameBytes = new Uint8Array(0);
  let firstMonth = 0;
  let i = 0;
  let lat: number | undefined;
  let buffers: number[][] | undefined; // the current series' values, per value column
  const finish = (values: number[][]) => {
    out.push({ name, firstMonth, columns: new Map(valueCols.map((c, k) => [header[c], Float64Array.from(values[k])])), lat });
  };

  for (let at = 0; at < end; ) {
    let nl = at;
    while (nl < end && body[nl] !== 10) nl++;
    const lineEnd = nl > at && body[nl - 1] === 13 ? nl - 1 : nl;
    // Fields: exactly nCols, none quoted.
    let c = 0;
    fieldStart[0] = at;
    for (let p = at; p < lineEnd; p++) {
      const b = body[p];
      if (b === 44) {
        if (c === nCols - 1) return undefined;
        fieldEnd[c++] = p;
        fieldStart[c] = p + 1;
      } else if (b === 34) return undefined;
    }
    if (c !== nCols - 1) return undefined;
    fieldEnd[c] = lineEnd;
    const ns = fieldStart[seriesCol], ne = fieldEnd[seriesCol];
    if (buffers === undefined || !sameBytes(body, ns, ne, nameBytes)) {
      // A new series: its name plain (not empty, no blank at either end) and not seen before.
      if (ne === ns || body[ns] === 32 || body[ne - 1] === 32 || body[ns] === 9 || body[ne - 1] === 9) return undefined;
      if (buffers !== undefined) finish(buffers);
      nameBytes = body.slice(ns, ne);
      name = Buffer.from(nameBytes).toString("utf8");
      if (seen.has(name) || name.trim() !== name) return undefined;
      seen.add(name);
      const m = parseMonth(Buffer.from(body.subarray(fieldStart[dateCol], fieldEnd[dateCol])).toString("latin1"));
      if (m === undefined) return undefined;
      firstMonth = m;
      buffers = valueCols.map(() => []);
      lat = undefined;
      i = 0;
    }
    const expected = firstMonth + i;
    let want = monthBytes.get(expected);
    if (want === undefined) monthBytes.set(expected, (want = Buffer.from(formatMonth(expected))));
    if (!sameBytes(body, fieldStart[dateCol], fieldEnd[dateCol], want)) return undefined;
    for (let k = 0; k < valueCols.length; k++) {
      const col = valueCols[k];
      const s = fieldStart[col], e = fieldEnd[col];
      let v = parseDecimalBytes(body, s, e);
      if (Number.isNaN(v)) {
        if (!isMissingBytes(body, s, e)) return undefined;
        v = NaN;
      }
      buffers![k].push(v);
    }
    if (latCol >= 0) {
      const v = parseDecimalBytes(body, fieldStart[latCol], fieldEnd[latCol]);
      if (!(Math.abs(v) <= 90)) return undefined;
      if (lat === undefined) lat = v;
      else if (v !== lat) return undefined;
    }
    i++;
    at = nl + 1;
  }
  if (buffers !== undefined) finish(buffers);
  return out;
}
