// The batch body read straight from its bytes on the path every well-formed request takes: one pass, the locations
// made as they are read, instead of decoding the text, scanning it for depth and repeated keys (json-scan.ts),
// JSON.parse and the hand check of batch-body.ts — about 60 µs of a 100-point batch's ~330 (a perf profile, issue 38).
// It accepts only what that path accepts and gives what it gives: a JSON object whose keys are riskType "drought",
// format one of BATCH_FORMATS and locations, 1 to MAX_BATCH_LOCATIONS objects of lat and lng (numbers in range) and
// an optional id (a string of at most MAX_LOCATION_ID_LENGTH characters), no key twice. Anything else — an escape
// or a character outside printable ASCII in a string, a key it does not know, malformed JSON — is undefined: the
// general path reads the body and answers it, every 400 as before (readBatchBody chooses). Numbers follow JSON's
// grammar exactly; their value is the decimal reader's (lib/decimal-text.ts: Number's value, most often by one exact
// division) or, with an exponent, Number of their text — JSON.parse's value either way.
import { BATCH_FORMATS, MAX_BATCH_LOCATIONS, MAX_LOCATION_ID_LENGTH } from "../schemas.ts";
import { parseBatchBody, type BatchBody } from "./batch-body.ts";
import { parseJsonBody } from "../http/body.ts";
import { DecimalReader } from "../../lib/decimal-text.ts";

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const BACKSLASH = 0x5c;
const PLUS = 0x2b;
/** JSON's number grammar (RFC 8259 §6), for the rare number with an exponent. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?[eE][+-]?\d+$/;
/** A scratch reader: synchronous, so one serves every request. */
const decimals = new DecimalReader();

/** Not the batch body this reader knows: the general path decides. */
class Unsure extends Error {}
const UNSURE = new Unsure();

export interface FastBatchBody {
  body: BatchBody;
  /** The body named a format (it then wins over Accept). */
  formatGiven: boolean;
}

/** The validated batch body of `bytes`: read in one pass when it is well formed, else the general way (its 400s). */
export function readBatchBody(bytes: Buffer): FastBatchBody {
  const fast = batchBodyFromJson(bytes);
  if (fast !== undefined) return fast;
  const raw = parseJsonBody(bytes);
  return { body: parseBatchBody(raw), formatGiven: "format" in raw };
}

/** The batch body of `bytes` (UTF-8 JSON) when it is a well-formed one this reader knows, else undefined. */
export function batchBodyFromJson(bytes: Buffer): FastBatchBody | undefined {
  try {
    // One char per byte: every byte it accepts is ASCII, where latin1 and UTF-8 agree, and it reads no further than
    // the first that is not. One decoding, then ids and long numbers are slices of it.
    return new Reader(bytes.toString("latin1")).body();
  } catch (err) {
    if (err === UNSURE) return undefined;
    throw err;
  }
}

/** An NDJSON line's location, and whether the line is the JSON answer's own text for it (see locationFromJson). */
export interface JsonLocation {
  id: string | undefined;
  lat: number;
  lng: number;
  /**
   * The line is `{"id":"…","lat":…,"lng":…}` (or without the id) with nothing between the tokens and each number as
   * String writes it: the JSON row's id and coordinates are the line without its closing brace.
   */
  compact: boolean;
}

/**
 * One JSON object of id (optional), lat and lng, as the batch body's locations are read — for a bulk NDJSON line
 * (server/bulk/bulk-input.ts ndjsonRow); undefined for anything else (another key, a number out of range, an id longer
 * than `maxIdLength`), which JSON.parse then reads.
 */
export function locationFromJson(line: string, maxIdLength: number): JsonLocation | undefined {
  try {
    const reader = new Reader(line, maxIdLength);
    const { id, lat, lng } = reader.location();
    const compact = reader.compact && reader.i === line.length;
    reader.ws();
    return reader.i === line.length ? { id, lat, lng, compact } : undefined;
  } catch (err) {
    if (err === UNSURE) return undefined;
    throw err;
  }
}

class Reader {
  i = 0;
  /** The last string's bytes. */
  private from = 0;
  private to = 0;
  /** The last number is written as String writes its value. */
  private canonical = false;
  /** The last location read is in the compact form locationFromJson describes. */
  compact = false;
  /** Whitespace was skipped since this was last set false. */
  private spaced = false;
  constructor(
    private readonly b: string,
    private readonly maxIdLength = MAX_LOCATION_ID_LENGTH,
  ) {}

  body(): FastBatchBody {
    let locations: BatchBody["locations"] | undefined;
    let riskType: string | undefined;
    let format: string | undefined;
    this.expect(OPEN_BRACE);
    do {
      this.key();
      if (this.is("locations") && locations === undefined) locations = this.locations();
      else if (this.is("riskType") && riskType === undefined) riskType = this.text();
      else if (this.is("format") && format === undefined) format = this.text();
      else throw UNSURE; // a key it does not know, or one given twice
    } while (this.next(COMMA, CLOSE_BRACE) === COMMA);
    this.ws();
    if (this.i !== this.b.length || locations === undefined || riskType !== "drought") throw UNSURE;
    if (format !== undefined && !(BATCH_FORMATS as readonly string[]).includes(format)) throw UNSURE;
    return { body: { locations, riskType, format: (format ?? "json") as BatchBody["format"] }, formatGiven: format !== undefined };
  }

  private locations(): BatchBody["locations"] {
    const out: BatchBody["locations"] = [];
    this.expect(OPEN_BRACKET);
    do {
      if (out.length === MAX_BATCH_LOCATIONS) throw UNSURE;
      out.push(this.location());
    } while (this.next(COMMA, CLOSE_BRACKET) === COMMA);
    return out;
  }

  location(): { id: string | undefined; lat: number; lng: number } {
    let id: string | undefined;
    let lat = NaN;
    let lng = NaN;
    let seen = 0; // bits: 1 id, 2 lat, 4 lng
    // Compact: no whitespace, id (if any) first, then lat, then lng, each number as String writes it.
    this.spaced = false;
    let compact = true;
    this.expect(OPEN_BRACE);
    do {
      this.key();
      if (this.is("lat") && (seen & 2) === 0) {
        compact &&= (seen & 4) === 0;
        lat = this.number();
        compact &&= this.canonical;
        seen |= 2;
      } else if (this.is("lng") && (seen & 4) === 0) {
        compact &&= (seen & 2) !== 0;
        lng = this.number();
        compact &&= this.canonical;
        seen |= 4;
      } else if (this.is("id") && (seen & 1) === 0) {
        compact &&= seen === 0;
        id = this.text();
        if (id.length > this.maxIdLength) throw UNSURE;
        seen |= 1;
      } else throw UNSURE;
    } while (this.next(COMMA, CLOSE_BRACE) === COMMA);
    if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) throw UNSURE;
    this.compact = compact && !this.spaced;
    return { id, lat, lng };
  }

  /** Skips JSON whitespace (space, tab, LF, CR). */
  ws(): void {
    const b = this.b;
    let i = this.i;
    while (i < b.length && (b.charCodeAt(i) === 0x20 || b.charCodeAt(i) === 0x0a || b.charCodeAt(i) === 0x0d || b.charCodeAt(i) === 0x09)) i++;
    if (i !== this.i) this.spaced = true;
    this.i = i;
  }

  private expect(byte: number): void {
    this.ws();
    if (this.b.charCodeAt(this.i) !== byte) throw UNSURE;
    this.i++;
  }

  /** The next byte after whitespace, which must be `a` or `b`. */
  private next(a: number, b: number): number {
    this.ws();
    const c = this.b.charCodeAt(this.i);
    if (c !== a && c !== b) throw UNSURE;
    this.i++;
    return c;
  }

  /** A key and its colon; its bytes are [from, to). */
  private key(): void {
    this.word();
    this.expect(COLON);
  }

  /** Whether the last string read is `name`. */
  private is(name: string): boolean {
    return this.to - this.from === name.length && this.b.startsWith(name, this.from);
  }

  /** A string value as text. */
  private text(): string {
    this.word();
    return this.b.slice(this.from, this.to);
  }

  /** A string of printable ASCII without escapes: its bytes are [from, to). */
  private word(): void {
    this.expect(QUOTE);
    const b = this.b;
    let i = this.i;
    for (; i < b.length; i++) {
      const c = b.charCodeAt(i);
      if (c === QUOTE) break;
      if (c < 0x20 || c > 0x7e || c === BACKSLASH) throw UNSURE;
    }
    if (i === b.length) throw UNSURE;
    this.from = this.i;
    this.to = i;
    this.i = i + 1;
  }

  /**
   * A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. Without an exponent the decimal reader gives its
   * value and whether String writes it so (lib/decimal-text.ts); JSON's own rules on top: no '+', no leading zero.
   */
  private number(): number {
    this.ws();
    const b = this.b;
    const start = this.i;
    const first = b.charCodeAt(start) === MINUS ? start + 1 : start;
    const second = b.charCodeAt(first + 1);
    // JSON's own rules beyond the reader's: no '+', no leading zero.
    if (b.charCodeAt(start) === PLUS || (b.charCodeAt(first) === ZERO && second >= ZERO && second <= NINE)) throw UNSURE;
    let value = decimals.scan(b, start, b.length);
    if (value !== value) throw UNSURE; // "-", ".5", "1.": not a JSON number
    let end = decimals.end;
    this.canonical = decimals.canonical;
    const e = b.charCodeAt(end);
    if (e === 0x65 || e === 0x45) {
      // An exponent: the whole number through Number, once JSON's grammar holds.
      end++;
      while ((b.charCodeAt(end) >= ZERO && b.charCodeAt(end) <= NINE) || b.charCodeAt(end) === PLUS || b.charCodeAt(end) === MINUS) end++;
      const text = b.slice(start, end);
      if (!JSON_NUMBER.test(text)) throw UNSURE;
      value = Number(text);
      this.canonical = false;
    }
    this.i = end;
    return value;
  }
}
