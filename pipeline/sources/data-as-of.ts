// dataAsOf: the latest date inside a source's data (not the time it was downloaded), as YYYY-MM-DD. Monthly
// values count to the last day of their month, yearly ones to 31 December. One small extractor per layout; the
// registry picks one per file, and they run on the mirror copies as well as on downloads.
import { readCsv, type CsvOptions } from "../feeds/csv.ts";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const pad = (n: number) => String(n).padStart(2, "0");

function valid(y: number, m: number, d: number): string | null {
  const t = Date.UTC(y, m - 1, d);
  const dt = new Date(t);
  if (!Number.isFinite(t) || dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const endOfMonth = (y: number, m: number) => valid(y, m, new Date(Date.UTC(y, m, 0)).getUTCDate());

/** The last day of a month index (months since year 0), YYYY-MM-DD: the dataAsOf of monthly data ending then. */
export function monthEndDay(month: number): string {
  return endOfMonth(Math.floor(month / 12), (month % 12) + 1)!;
}

/**
 * YYYY-MM-DD from the spellings the sources use: ISO dates and times, m/d/yyyy (OWID export, DFO), YYYY-MM
 * (end of month), YYYY (31 December), "27 May 2026 14:51:04" (GDACS), epoch milliseconds. null otherwise.
 */
export function isoDay(raw: unknown): string | null {
  if (typeof raw === "number") return Number.isFinite(raw) && raw > 1e11 ? new Date(raw).toISOString().slice(0, 10) : null;
  if (typeof raw !== "string") return null;
  const s = raw.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(s);
  if (m) return valid(+m[1], +m[2], +m[3]);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return valid(+m[3], +m[1], +m[2]);
  m = /^(\d{4})-(\d{2})$/.exec(s);
  if (m) return endOfMonth(+m[1], +m[2]);
  m = /^(\d{4})$/.exec(s);
  if (m) return valid(+m[1], 12, 31);
  m = /^(\d{1,2}) ([A-Za-z]{3})[A-Za-z]* (\d{4})\b/.exec(s);
  if (m && MONTHS.includes(m[2].toLowerCase())) return valid(+m[3], MONTHS.indexOf(m[2].toLowerCase()) + 1, +m[1]);
  return null;
}

/** The later of two YYYY-MM-DD dates (null-safe). */
export function laterDay(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/** Latest date in a CSV column (the first of `columns` the header has). */
export function csvColumnMax(columns: string | readonly string[], opts: CsvOptions = {}): (text: string, file: string) => string | null {
  const names = typeof columns === "string" ? [columns] : columns;
  return (text, file) => {
    const table = readCsv(text, file, opts);
    const header = table.header.map((h) => h.trim());
    const i = header.findIndex((h) => names.includes(h));
    if (i < 0) return null;
    let best: string | null = null;
    for (const r of table.rows) best = laterDay(best, isoDay(r.fields[i]));
    return best;
  };
}

/** Latest date in a GeoJSON property (the first of `props` a feature has). */
export function geojsonPropertyMax(props: readonly string[]): (text: string) => string | null {
  return (text) => {
    const fc = JSON.parse(text) as { features?: { properties?: Record<string, unknown> | null }[] };
    let best: string | null = null;
    for (const f of fc.features ?? []) {
      for (const p of props) {
        const v = f.properties?.[p] ?? f.properties?.[p.toUpperCase()];
        if (v !== undefined && v !== null) {
          best = laterDay(best, isoDay(v));
          break;
        }
      }
    }
    return best;
  };
}

/** Latest year in the first field of a `;`-separated PSMSL file, as 31 December. */
export function psmslYearMax(text: string): string | null {
  let best: number | null = null;
  for (const line of text.split(/\r\n|\n|\r/)) {
    const y = Number(line.split(";")[0]);
    if (line.trim() !== "" && Number.isInteger(y) && (best === null || y > best)) best = y;
  }
  return best === null ? null : `${best}-12-31`;
}

/**
 * Latest date in the last lines of a date-sorted CSV (GHCN-Daily station files are sorted by DATE): reads only
 * the header and the tail, so fifty station files cost milliseconds, not a full parse.
 */
export function sortedCsvTailMax(column: string, tailLines = 5): (text: string, file: string) => string | null {
  return (text, file) => {
    const firstBreak = text.indexOf("\n");
    const head = firstBreak < 0 ? text : text.slice(0, firstBreak + 1);
    let start = text.length;
    for (let n = 0; n <= tailLines && start > firstBreak; n++) start = text.lastIndexOf("\n", start - 2) + 1;
    const tail = text.slice(Math.max(start, firstBreak + 1));
    return csvColumnMax(column)(head + tail, file);
  };
}
