// The bulk route's input, pure: the body's format from its Content-Type, its bytes split into lines, the CSV header,
// and each row read into {id, lat, lng} or the reason it cannot be scored (answered in its own output row).
// Rows are split by hand on the fast path (no quote in the line: the product's own `id,lat,lng`), their coordinates
// read in place (lib/decimal-text.ts), and a CSV answer echoes the line's own `id,lat,lng` where it is already the
// answer's text (String's form of each number, an id that needs no quoting); a line holding a
// quote goes through csv-parse, as in the bulk CLI (pipeline/commands/score-points.ts), so a quoted field may hold
// commas and quotes but not a line break. Limits and the wording of reasons: docs/api.md "Bulk".
import { parse as parseCsv } from "csv-parse/sync";
import { ApiError, ValidationError } from "../errors.ts";
import { DecimalReader } from "../../lib/decimal-text.ts";
import { locationFromJson } from "../routes/batch-json.ts";

export type BulkFormat = "csv" | "ndjson";

/** Longest line accepted, in bytes; a longer row is answered with its reason, a longer header is 400. */
export const MAX_LINE_BYTES = 4096;
/** Longest id, as in a batch body. */
export const MAX_ID_LENGTH = 200;

const INPUT_TYPES: Record<string, BulkFormat> = { "text/csv": "csv", "application/x-ndjson": "ndjson", "application/ndjson": "ndjson" };
export const BULK_INPUT_TYPES = Object.keys(INPUT_TYPES);

/** The body's format from its Content-Type (charset, if given, utf-8); else 415. */
export function bulkInputFormat(header: string | undefined): BulkFormat {
  const [type, ...params] = (header ?? "").split(";").map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
  const format = INPUT_TYPES[type];
  if (format === undefined || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be text/csv (id,lat,lng with a header line) or application/x-ndjson (one JSON object per line)", {
      received: header ?? null,
      supported: BULK_INPUT_TYPES,
    });
  }
  return format;
}

/** A line longer than MAX_LINE_BYTES whose bytes were dropped as they came (never held whole). */
export const OVERLONG = "\u0000overlong";

/**
 * Splits a byte stream into lines (LF or CRLF; the CR dropped), as UTF-8 text: each chunk is decoded once up to its
 * last newline, so only a chunk's unfinished tail is kept as bytes. A line growing past MAX_LINE_BYTES is dropped
 * as it comes and reported as OVERLONG. Empty lines are reported too (the caller skips them).
 */
export class LineSplitter {
  private tail: Buffer | undefined;
  private skipping = false;

  /** The complete lines of `chunk` (with the tail of the previous chunks before them). */
  push(chunk: Buffer, out: string[]): void {
    let start = 0;
    const firstNl = chunk.indexOf(10);
    if (firstNl < 0) return this.keep(chunk);
    if (this.skipping) {
      out.push(OVERLONG);
      this.skipping = false;
      start = firstNl + 1;
    } else if (this.tail !== undefined) {
      const head = Buffer.concat([this.tail, chunk.subarray(0, firstNl)]);
      this.tail = undefined;
      out.push(head.length > MAX_LINE_BYTES ? OVERLONG : stripCr(head.toString("utf8")));
      start = firstNl + 1;
    }
    const lastNl = chunk.lastIndexOf(10);
    if (lastNl >= start) {
      const text = chunk.toString("utf8", start, lastNl);
      let from = 0;
      for (;;) {
        const nl = text.indexOf("\n", from);
        const line = nl < 0 ? text.slice(from) : text.slice(from, nl);
        out.push(stripCr(line));
        if (nl < 0) break;
        from = nl + 1;
      }
    }
    if (lastNl + 1 < chunk.length) this.keep(chunk.subarray(Math.max(lastNl + 1, start)));
  }

  /** The last line when the body does not end with a newline. */
  end(out: string[]): void {
    if (this.skipping) out.push(OVERLONG);
    else if (this.tail !== undefined) out.push(this.tail.length > MAX_LINE_BYTES ? OVERLONG : stripCr(this.tail.toString("utf8")));
    this.tail = undefined;
    this.skipping = false;
  }

  private keep(bytes: Buffer): void {
    if (this.skipping) return;
    const held = (this.tail?.length ?? 0) + bytes.length;
    if (held > MAX_LINE_BYTES) {
      this.tail = undefined;
      this.skipping = true;
      return;
    }
    // A copy: the chunk's memory is not kept alive by a few bytes of it.
    this.tail = this.tail === undefined ? Buffer.from(bytes) : Buffer.concat([this.tail, bytes]);
  }
}

const stripCr = (line: string) => (line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);

/**
 * Counts the non-empty lines of bytes (an empty line, or a lone CR, is skipped: not a row), across chunks: the same
 * lines LineSplitter gives, without decoding them. `ended`: the body's last line counts without its newline.
 */
export class LineCounter {
  lines = 0;
  /** Bytes of the line under way (2 means "more than a CR"). */
  private open = 0;
  private lastCr = false;

  push(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      if (end > from) {
        this.open = Math.min(2, this.open + (end - from));
        this.lastCr = chunk[end - 1] === 13;
      }
      if (nl < 0) return;
      if (this.open > 1 || (this.open === 1 && !this.lastCr)) this.lines++;
      this.open = 0;
      this.lastCr = false;
      from = nl + 1;
    }
  }

  end(): void {
    if (this.open > 1 || (this.open === 1 && !this.lastCr)) this.lines++;
    this.open = 0;
  }
}

export interface CsvColumns {
  id: number;
  lat: number;
  lng: number;
  /** id, lat, lng are the line's first three fields: plain rows split without an array. */
  plain: boolean;
}

export const EXPECTED_COLUMNS = ["id", "lat", "lng"] as const;

function splitCsv(line: string): string[] {
  if (line.indexOf('"') < 0) return line.split(",");
  const rows = parseCsv(line, { relax_column_count: true, relax_quotes: false }) as string[][];
  return rows[0] ?? [""];
}

/** The header line's columns: lat and lng (lon also names lng) required, id optional, others ignored; else 400. */
export function csvColumns(header: string): CsvColumns {
  if (header === OVERLONG || header.length > MAX_LINE_BYTES) {
    throw new ValidationError(`CSV header line is longer than ${MAX_LINE_BYTES} bytes`, { reason: "header_too_long", expected: [...EXPECTED_COLUMNS] });
  }
  let names: string[];
  try {
    names = splitCsv(header.replace(/^\uFEFF/, "")).map((n) => n.trim().toLowerCase());
  } catch (err) {
    throw new ValidationError("CSV header line is not valid CSV", { reason: "malformed_header", parser: (err as Error).message, expected: [...EXPECTED_COLUMNS] });
  }
  const at = (n: string) => names.indexOf(n);
  const lng = at("lng") >= 0 ? at("lng") : at("lon");
  const cols = { id: at("id"), lat: at("lat"), lng, plain: false };
  const missing = [cols.lat < 0 ? "lat" : undefined, cols.lng < 0 ? "lng" : undefined].filter((m) => m !== undefined);
  if (missing.length > 0) {
    throw new ValidationError(
      `CSV header must name the columns lat and lng (id optional; other columns are ignored): missing ${missing.join(", ")} in "${header.slice(0, 200)}"`,
      { reason: "missing_columns", expected: [...EXPECTED_COLUMNS], missing, received: names.slice(0, 50) },
    );
  }
  cols.plain = cols.id === 0 && cols.lat === 1 && cols.lng === 2;
  return cols;
}

/** A row that can be scored. */
export interface BulkPoint {
  id: string | undefined;
  lat: number;
  lng: number;
  /**
   * Asked for with csvRow's or ndjsonRow's `echo` (an answer in the input's format): the row's id and coordinates as
   * the answer writes them, the line's own text, when it already is that (the id needs no quoting or escaping and both
   * coordinates are in String's form, as most clients send them). The id is then not read out: `head` holds it.
   */
  head?: string;
}

/** A row that cannot: its id when one could be read, and why (with the line number). */
export interface BulkInvalid {
  id: string | undefined;
  reason: string;
}

export type BulkRow = BulkPoint | BulkInvalid;

export const isInvalid = (r: BulkRow): r is BulkInvalid => (r as BulkInvalid).reason !== undefined;

function quote(value: unknown): string {
  const text = typeof value === "string" ? `"${value}"` : JSON.stringify(value) ?? String(value);
  return text.length > 40 ? text.slice(0, 40) + "…" : text;
}

function coordinateReason(name: "lat" | "lng", value: unknown): string {
  const range = name === "lat" ? "-90 to 90" : "-180 to 180";
  return value === undefined || value === null || value === "" ? `${name} is required (a number from ${range})` : `${name} must be a number from ${range}, got ${quote(value)}`;
}

function point(id: string | undefined, lat: number, lng: number, latRaw: unknown, lngRaw: unknown, line: number): BulkRow {
  if (id !== undefined && id.length > MAX_ID_LENGTH) return { id: undefined, reason: `line ${line}: id is longer than ${MAX_ID_LENGTH} characters` };
  if (!(lat >= -90 && lat <= 90)) return { id, reason: `line ${line}: ${coordinateReason("lat", latRaw)}` };
  if (!(lng >= -180 && lng <= 180)) return { id, reason: `line ${line}: ${coordinateReason("lng", lngRaw)}` };
  return { id, lat, lng };
}

const overlong = (line: number): BulkInvalid => ({ id: undefined, reason: `line ${line}: longer than ${MAX_LINE_BYTES} bytes` });

const decimals = new DecimalReader();

/** Whether text[from, to) holds a CR: the one character a plain field (no quote, no comma, no LF) can hold that csvField quotes. */
function holdsCr(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 13) return true;
  return false;
}

/**
 * A CSV data line (not blank) as a row; `line` is its 1-based line number in the body (the header is line 1). `echo`:
 * the answer is CSV, so a plain line whose `id,lat,lng` already read as the answer writes them gives them as `head`.
 */
export function csvRow(text: string, cols: CsvColumns, line: number, echo = false): BulkRow {
  if (text === OVERLONG || text.length > MAX_LINE_BYTES) return overlong(line);
  const a = text.indexOf(",");
  const b = a < 0 ? -1 : text.indexOf(",", a + 1);
  if (cols.plain && b >= 0 && text.indexOf('"') < 0) {
    // The product's own id,lat,lng: the coordinates read in place, no field sliced out unless it is needed.
    const c = text.indexOf(",", b + 1);
    const end = c < 0 ? text.length : c;
    const lat = decimals.read(text, a + 1, b);
    const latCanonical = decimals.canonical;
    const lng = decimals.read(text, b + 1, end);
    if (echo && latCanonical && decimals.canonical && a <= MAX_ID_LENGTH && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && !holdsCr(text, 0, a)) {
      return { id: undefined, lat, lng, head: c < 0 ? text : text.slice(0, c) };
    }
    const id = a === 0 ? undefined : text.slice(0, a);
    return point(id, lat, lng, text.slice(a + 1, b), text.slice(b + 1, end), line);
  }
  let fields: string[];
  try {
    fields = splitCsv(text);
  } catch (err) {
    return { id: undefined, reason: `line ${line}: not valid CSV (${(err as Error).message.split("\n")[0]})` };
  }
  let id = cols.id < 0 ? undefined : fields[cols.id];
  const latText = fields[cols.lat];
  const lngText = fields[cols.lng];
  if (latText === undefined || lngText === undefined) {
    return { id, reason: `line ${line}: ${fields.length} fields, the header names lat and lng as columns ${cols.lat + 1} and ${cols.lng + 1}` };
  }
  if (id === "") id = undefined;
  const lat = decimals.read(latText, 0, latText.length);
  const lng = decimals.read(lngText, 0, lngText.length);
  return point(id, lat, lng, latText, lngText, line);
}

/**
 * An NDJSON line (not blank) as a row: an object with numbers lat and lng, id a string if given; other keys ignored.
 * The common line (id, lat and lng only, ASCII) is read in one pass without JSON.parse (routes/batch-json.ts);
 * `echo`: the answer is NDJSON, so a compact line gives itself without its closing brace as `head`.
 */
export function ndjsonRow(text: string, line: number, echo = false): BulkRow {
  if (text === OVERLONG || text.length > MAX_LINE_BYTES) return overlong(line);
  const read = locationFromJson(text, MAX_ID_LENGTH);
  if (read !== undefined) {
    if (echo && read.compact) return { id: undefined, lat: read.lat, lng: read.lng, head: text.slice(0, -1) };
    return { id: read.id, lat: read.lat, lng: read.lng };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: undefined, reason: `line ${line}: not valid JSON` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { id: undefined, reason: `line ${line}: not a JSON object` };
  const o = value as { id?: unknown; lat?: unknown; lng?: unknown };
  if (o.id !== undefined && o.id !== null && typeof o.id !== "string") return { id: undefined, reason: `line ${line}: id must be a string, got ${quote(o.id)}` };
  const id = typeof o.id === "string" ? o.id : undefined;
  const lat = typeof o.lat === "number" ? o.lat : NaN;
  const lng = typeof o.lng === "number" ? o.lng : NaN;
  return point(id, lat, lng, o.lat, o.lng, line);
}
