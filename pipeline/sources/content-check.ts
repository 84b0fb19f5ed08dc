// The content check every download passes before anything uses it: not empty, not an HTML page, and it parses
// as its format — CSV through the pipeline's one reader (pipeline/feeds/csv.ts) with the columns the adapter
// needs, JSON/GeoJSON with its rows where they belong, NetCDF/Parquet/ZIP by their magic bytes (a ZIP cut short
// lacks its end record), gzip text as text once unpacked. Malformed CSV rows are counted with file:line; a file that is mostly malformed, has
// fewer than its minimum rows, or lost more than the allowed share of rows against the previous copy is refused.
import { gunzipSync } from "node:zlib";
import { readCsv, type CsvRejection } from "../feeds/csv.ts";
import type { ContentCheck } from "./types.ts";

export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = "ContentError";
  }
}

export interface CheckedContent {
  /** Data rows (CSV records, JSON rows, text lines); null for binary formats. */
  rows: number | null;
  malformed: CsvRejection[];
  dataAsOf: string | null;
  /** The decoded text (text formats only). */
  text: string | null;
}

const decoder = new TextDecoder("utf-8");

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** An error page served with status 200: HTML by content type or by its first characters. */
export function looksLikeHtml(bytes: Uint8Array, contentType?: string): boolean {
  if (contentType && /\b(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) return true;
  const head = decoder.decode(bytes.subarray(0, 512)).replace(/^\uFEFF/, "").trimStart().toLowerCase();
  return /^<(!doctype html|html|head|body)\b/.test(head);
}

function startsWith(bytes: Uint8Array, sig: number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  return sig.every((b, i) => bytes[at + i] === b);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function checkMagic(bytes: Uint8Array, format: "netcdf" | "parquet" | "zip" | "xlsx", file: string): void {
  if (format === "netcdf") {
    const classic = startsWith(bytes, ascii("CDF")) && [1, 2, 5].includes(bytes[3]);
    const hdf5 = startsWith(bytes, [0x89, ...ascii("HDF\r\n"), 0x1a, 0x0a]);
    if (!classic && !hdf5) throw new ContentError(file, "not a NetCDF file (no CDF or HDF5 signature)");
    return;
  }
  if (format === "parquet") {
    if (!startsWith(bytes, ascii("PAR1")) || !startsWith(bytes, ascii("PAR1"), bytes.length - 4) || bytes.length < 12) {
      throw new ContentError(file, "not a whole Parquet file (PAR1 missing at the start or the end)");
    }
    return;
  }
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) throw new ContentError(file, `not a ${format === "xlsx" ? "XLSX (ZIP)" : "ZIP"} file`);
  // The end-of-central-directory record sits in the last 22..65557 bytes; a truncated archive has none.
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return;
  }
  throw new ContentError(file, "ZIP archive without its end record (truncated)");
}

function jsonRows(value: unknown, check: ContentCheck, file: string): number {
  if (check.format === "geojson") {
    const fc = value as { type?: unknown; features?: unknown };
    if (fc?.type !== "FeatureCollection" || !Array.isArray(fc.features)) throw new ContentError(file, "not a GeoJSON FeatureCollection");
    return fc.features.length;
  }
  const at = check.rowsAt ?? "";
  const rows = at === "" ? value : (value as Record<string, unknown> | null)?.[at];
  if (!Array.isArray(rows)) throw new ContentError(file, at === "" ? "JSON is not an array" : `JSON has no "${at}" array`);
  return rows.length;
}

function readTable(text: string, check: ContentCheck, file: string) {
  try {
    return readCsv(text, file, check.csv);
  } catch (err) {
    throw new ContentError(file, (err as Error).message.replace(`${file}: `, "").replace(`${file}:`, "line "));
  }
}

function checkColumns(header: readonly string[], check: ContentCheck, file: string): void {
  const missing = (check.columns ?? []).filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new ContentError(file, `missing column${missing.length > 1 ? "s" : ""} ${missing.map((c) => `"${c}"`).join(", ")} (header: ${header.slice(0, 8).join(",")}${header.length > 8 ? ",…" : ""})`);
  }
}

/** A source's own parser as the row check (ContentCheck.parse): the header line read as CSV for the columns. */
function parsedRows(text: string, check: ContentCheck, parse: (text: string, file: string) => number, file: string): number {
  const end = text.search(/\r?\n/);
  checkColumns(readTable(end < 0 ? text : text.slice(0, end), check, file).header.map((h) => h.trim()), check, file);
  try {
    return parse(text, file);
  } catch (err) {
    const message = (err as Error).message;
    throw new ContentError(file, message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message);
  }
}

function csvRows(text: string, check: ContentCheck, file: string): { rows: number; malformed: CsvRejection[] } {
  const table = readTable(text, check, file);
  checkColumns(table.header.map((h) => h.trim()), check, file);
  // Rows after the header that are not data (units) are neither counted nor malformed.
  const firstDataLine = (check.csv?.header === false ? 1 : 2) + (check.csv?.skipLines ?? 0) + (check.skipRows ?? 0);
  return {
    rows: table.rows.filter((r) => r.line >= firstDataLine).length,
    malformed: table.rejected.filter((r) => r.line >= firstDataLine),
  };
}

/** Gzip-compressed text unpacked; a file cut short or not gzip at all is refused. */
function gunzipText(bytes: Uint8Array, file: string): string {
  if (!startsWith(bytes, [0x1f, 0x8b])) throw new ContentError(file, "not a gzip file (no 1f 8b signature)");
  try {
    return decodeText(gunzipSync(bytes));
  } catch (err) {
    throw new ContentError(file, `not a complete gzip file (${(err as Error).message})`);
  }
}

/** Checks one download; throws ContentError with the reason it cannot be used. */
export function checkContent(bytes: Uint8Array, check: ContentCheck, file: string, opts: { contentType?: string; maxMalformedShare?: number } = {}): CheckedContent {
  if (bytes.length === 0) {
    if (check.emptyMeansNoData) return { rows: 0, malformed: [], dataAsOf: null, text: "" };
    throw new ContentError(file, "empty download");
  }
  if (looksLikeHtml(bytes, opts.contentType)) throw new ContentError(file, `an HTML page instead of ${check.format.toUpperCase()}`);
  if (check.format === "netcdf" || check.format === "parquet" || check.format === "zip" || check.format === "xlsx") {
    checkMagic(bytes, check.format, file);
    return { rows: null, malformed: [], dataAsOf: null, text: null };
  }
  const text = check.format === "gzip" ? gunzipText(bytes, file) : decodeText(bytes);
  if (text.trim() === "") throw new ContentError(file, "no content (only white space)");
  let rows: number;
  let malformed: CsvRejection[] = [];
  if (check.format === "csv" && check.parse !== undefined) {
    rows = parsedRows(text, check, check.parse, file);
  } else if (check.format === "csv") {
    ({ rows, malformed } = csvRows(text, check, file));
  } else if (check.format === "json" || check.format === "geojson") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new ContentError(file, `not valid JSON (${(err as Error).message})`);
    }
    rows = jsonRows(value, check, file);
  } else {
    rows = text.split(/\r\n|\n|\r/).filter((l) => l.trim() !== "").length;
  }
  const minRows = check.minRows ?? 1;
  if (rows < minRows) throw new ContentError(file, rows === 0 ? "no data rows" : `${rows} rows, fewer than the ${minRows} expected`);
  const share = opts.maxMalformedShare ?? 0.5;
  if (malformed.length > share * (rows + malformed.length)) {
    throw new ContentError(file, `${malformed.length} of ${rows + malformed.length} rows malformed (first: line ${malformed[0].line}: ${malformed[0].reason})`);
  }
  if (check.validate) {
    try {
      check.validate(text, file);
    } catch (err) {
      // Parsers name the file themselves; the refusal names it once.
      const message = (err as Error).message;
      throw new ContentError(file, message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message);
    }
  }
  let dataAsOf: string | null = null;
  try {
    dataAsOf = check.asOf?.(text, file) ?? null;
  } catch {
    dataAsOf = null;
  }
  return { rows, malformed, dataAsOf, text };
}

/** The refusal reason when rows fell by more than `maxDrop` against the previous copy, else undefined. */
export function rowDropReason(previous: number | null | undefined, now: number | null, maxDrop: number): string | undefined {
  if (previous === null || previous === undefined || now === null || !(previous > 0)) return undefined;
  if (now >= previous * (1 - maxDrop)) return undefined;
  const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
  return `rows fell from ${previous} to ${now} (−${pct(1 - now / previous)}), more than the ${pct(maxDrop)} allowed against the previous copy`;
}
