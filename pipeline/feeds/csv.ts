// The pipeline's one CSV reader: csv-parse in strict mode (RFC 4180 quoting, no relaxed quotes) plus one recovery
// rule. A record csv-parse cannot read is rejected on its own — file, line and reason — and reading resumes at
// the next line, so a stray quote never swallows the rows after it (csv-parse's own skip_records_with_error
// would drop everything up to the next quote). A quoted field spanning lines is only accepted where the
// format has free text (`multiline`); elsewhere it is an unterminated quote and is rejected the same way.
import { CsvError, parse } from "csv-parse/sync";

/** A row the reader (or an adapter) could not use: where and why. Lines count from 1, the header included. */
export interface CsvRejection {
  file: string;
  line: number;
  reason: string;
}

export interface CsvRow {
  /** Line the record starts on. */
  line: number;
  fields: string[];
}

export interface CsvOptions {
  /** Field separator; default ",". */
  delimiter?: string;
  /** false: the format has no quoting and `"` is an ordinary character (PSMSL). Default true. */
  quote?: boolean;
  /** false: no header line; every record is a row. Default true. */
  header?: boolean;
  /** Lines before the header that are not part of the table (GISTEMP's title line); line numbers still count them. */
  skipLines?: number;
  /** "header": a row must have as many fields as the header, else it is rejected (default when there is a
   *  header). "any": the adapter checks (UN/LOCODE repairs rows with a split name). */
  fieldCount?: "header" | "any";
  /** Quoted fields may hold line breaks (free-text columns such as the DON texts). Default false. */
  multiline?: boolean;
  /**
   * Keep only these columns, in this order (the header and every row): a wide file (OWID's 67 columns over
   * 400,000 rows) is read without holding its other fields. A kept column missing from the header throws.
   */
  keep?: readonly string[];
}

export interface CsvTable {
  file: string;
  header: string[];
  rows: CsvRow[];
  rejected: CsvRejection[];
}

/** Thrown from inside csv-parse's record callback: reject the record starting on `line` and restart after it. */
class RestartAfter extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Why the record starting on (1-based) `line` failed; `detectedOn` is where csv-parse noticed. */
function reasonOf(err: CsvError, line: number, detectedOn: number): string {
  switch (err.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "unterminated quote: no closing quote before the end of the file";
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return detectedOn > line
        ? `unterminated quote: the quoted field runs on to line ${detectedOn}`
        : "quoted field not followed by a delimiter (misplaced quote)";
    case "INVALID_OPENING_QUOTE":
      return "quote inside an unquoted field";
    default:
      return err.message;
  }
}

/** Byte offset where each line starts (\n, \r\n or a lone \r ends a line), plus the end of the text. */
function lineStarts(buf: Uint8Array): Float64Array {
  const starts: number[] = [0];
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === 10 || (c === 13 && buf[i + 1] !== 10)) starts.push(i + 1);
  }
  if (starts[starts.length - 1] !== buf.length) starts.push(buf.length);
  return Float64Array.from(starts);
}

/** Reads `text` (the contents of `file`) into rows; throws only when the header cannot be read. */
export function readCsv(text: string, file: string, opts: CsvOptions = {}): CsvTable {
  const hasHeader = opts.header ?? true;
  const checkCount = hasHeader && (opts.fieldCount ?? "header") === "header";
  const buf = Buffer.from(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, "utf8");
  const starts = lineStarts(buf);
  const nLines = starts.length - 1;
  /** 0-based line holding byte `b`. */
  const lineOf = (b: number): number => {
    let lo = 0;
    let hi = nLines - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= b) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const isEmpty = (l: number): boolean => {
    for (let b = starts[l]; b < starts[l + 1]; b++) if (buf[b] !== 10 && buf[b] !== 13) return false;
    return true;
  };
  const firstRecordLine = (l: number): number => {
    while (l < nLines && isEmpty(l)) l++;
    return l;
  };

  let header: string[] | undefined = hasHeader ? undefined : [];
  let keepAt: number[] | undefined;
  const rows: CsvRow[] = [];
  const rejected: CsvRejection[] = [];
  const reject = (l: number, reason: string): void => {
    if (header === undefined) throw new Error(`${file}:${l + 1}: unreadable header: ${reason}`);
    rejected.push({ file, line: l + 1, reason });
  };

  const options = {
    delimiter: opts.delimiter ?? ",",
    quote: opts.quote === false ? false : '"',
    // Any of the three line ends ends a record, as in a text editor (auto-detection would take the first seen
    // and read a later bare \n as field content).
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    skip_empty_lines: true,
  };
  /** 1-based line where csv-parse notices the fault of the record starting on 0-based line `l`. */
  const noticedOn = (l: number): number => {
    try {
      parse(buf.subarray(starts[l]), { ...options, to: 1, raw: true });
    } catch (err) {
      // With raw, the error carries the text read so far.
      const raw = err instanceof CsvError && typeof err.raw === "string" ? err.raw : "";
      return l + raw.replace(/[\r\n]+$/, "").split(/\r\n|\n|\r/).length;
    }
    return l + 1;
  };

  let from = Math.min(opts.skipLines ?? 0, nLines);
  while (from < nLines) {
    const base = starts[from];
    let recordEnd = base;
    try {
      parse(buf.subarray(base), {
        ...options,
        on_record: (record: string[], info) => {
          const first = firstRecordLine(lineOf(recordEnd));
          const last = lineOf(base + info.bytes - 1);
          recordEnd = base + info.bytes;
          if (last > first && !opts.multiline) {
            throw new RestartAfter(first, `quoted field runs from line ${first + 1} to line ${last + 1} (unterminated quote)`);
          }
          if (header === undefined) {
            header = record;
            if (opts.keep) {
              keepAt = opts.keep.map((name) => record.indexOf(name));
              const missing = opts.keep.filter((_, k) => keepAt![k] < 0);
              if (missing.length) throw new Error(`${file}: missing column${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}`);
            }
            return null;
          }
          if (checkCount && record.length !== header.length) {
            const reason = `expected ${header.length} fields, found ${record.length}`;
            // A record over several lines may be a stray quote's doing: the lines after its first are re-read.
            if (last > first) throw new RestartAfter(first, reason);
            reject(first, reason);
            return null;
          }
          rows.push({ line: first + 1, fields: keepAt ? keepAt.map((i) => record[i] ?? "") : record });
          return null;
        },
      });
      break;
    } catch (err) {
      if (err instanceof RestartAfter) {
        reject(err.line, err.reason);
        from = err.line + 1;
        continue;
      }
      if (!(err instanceof CsvError)) throw err;
      const bad = firstRecordLine(lineOf(recordEnd));
      if (bad >= nLines) break;
      reject(bad, reasonOf(err, bad + 1, err.code === "CSV_INVALID_CLOSING_QUOTE" ? noticedOn(bad) : bad + 1));
      from = bad + 1;
    }
  }
  if (header === undefined) throw new Error(`${file}: empty file (no header)`);
  return { file, header: opts.keep && hasHeader ? [...opts.keep] : header, rows, rejected };
}

export interface CsvRecordOptions extends CsvOptions {
  /** Columns that must be in the header; a missing one throws naming the file. */
  required?: readonly string[];
  /** Trim header names and values. Default false. */
  trim?: boolean;
}

export interface CsvRecords {
  file: string;
  header: string[];
  /** Rows keyed by header name (a short row's missing fields are ""). */
  records: Record<string, string>[];
  /** Line of each record, same order. */
  lines: number[];
  rejected: CsvRejection[];
}

/** Rows as records keyed by the header row. */
export function readCsvRecords(text: string, file: string, opts: CsvRecordOptions = {}): CsvRecords {
  const table = readCsv(text, file, opts);
  const header = opts.trim ? table.header.map((h) => h.trim()) : table.header;
  for (const name of opts.required ?? []) {
    if (!header.includes(name)) throw new Error(`${file}: missing column "${name}"`);
  }
  const records = table.rows.map(({ fields }) => {
    const rec: Record<string, string> = {};
    for (let c = 0; c < header.length; c++) {
      const v = fields[c] ?? "";
      rec[header[c]] = opts.trim ? v.trim() : v;
    }
    return rec;
  });
  return { file, header, records, lines: table.rows.map((r) => r.line), rejected: table.rejected };
}

/** Number of a CSV field; blank or non-numeric → NaN. */
export function num(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.trim();
  return t === "" ? NaN : Number(t);
}

/** A count field: "NA", "" and non-numbers are missing (NaN); WHO GHO writes thousands with spaces ("28 569"). */
export function parseCount(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.replace(/\s/g, "");
  if (t === "" || t === "NA") return NaN;
  const n = Number(t);
  return Number.isFinite(n) ? n : NaN;
}
