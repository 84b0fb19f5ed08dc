// The bulk route's work, without HTTP: decoded body bytes in, scored rows out through a sink that says when it may be
// written again (backpressure both ways: the next chunk is read only after the rows before it are handed on).
//   1. Read ahead up to `readAheadBytes` of the body, counting its rows (bytes, not decoded): a body that ends
//      within it — most bodies: a million `id,lat,lng` rows are about 30 MB — is known whole before anything is
//      scored, so its row limit (413) and its whole cost (429) are answered in the envelope.
//   2. Then line by line: the CSV header (400 naming the columns), each row read (a malformed row gets its reason in
//      its own output row), scored in blocks of `blockRows` (1,024) through the one-version BatchScorer (the batch route's
//      numbers), each block charged before it is scored (the rows of step 1 at once), the output written in blocks
//      of about `outputBlockChars` (64 KB).
// An error before the first write is thrown as it is (the route answers it in the envelope). After it, the rows
// already scored are written, then an error record (bulk-output.ts errorText), and BulkCutShort is thrown: the route
// ends the response without its clean end. An aborted `signal` (the client left) stops the work at the next chunk or
// block and throws its reason.
import { ApiError, ValidationError } from "../errors.ts";
import { tooLarge } from "../http/body.ts";
import type { BatchScorer } from "../services/types.ts";
import { csvColumns, csvRow, isInvalid, LineCounter, LineSplitter, ndjsonRow, type BulkFormat, type BulkRow, type CsvColumns } from "./bulk-input.ts";
import { endText, errorText, headerText, invalidText, type BulkCounts } from "./bulk-output.ts";
import { RowTexts } from "../services/row-texts.ts";
import { MonthSpan } from "../../lib/months.ts";

export interface BulkLimits {
  /** Rows a request may hold (413 above). */
  maxRows: number;
  /** Decoded body bytes (413 above; also the gzip-bomb bound). */
  maxBytes: number;
  /** Body bytes read before the first row is scored. */
  readAheadBytes: number;
  /** Rows scored (and charged) at a time. */
  blockRows: number;
  /** Output text gathered before it is written. */
  outputBlockChars: number;
}

export const BULK_LIMITS: BulkLimits = {
  maxRows: 1_000_000,
  maxBytes: 64 * 1024 * 1024,
  readAheadBytes: 16 * 1024 * 1024,
  // Smaller blocks die young: 4,096 rows and 256 KB took 9.1 s a million rows in process, 1,024 and 64 KB 5.4 s (GC).
  blockRows: 1024,
  outputBlockChars: 64 * 1024,
};

/** Points a bulk request of n rows costs in total, as a batch of n: 1 + ceil(n/10) (the 1 is the gate's). */
export const rowPoints = (rows: number) => Math.ceil(rows / 10);

export interface BulkSink {
  /** Resolves when more may be written (backpressure); rejects when the client is gone. */
  write(text: string): Promise<void>;
}

export interface BulkRun {
  /** The decoded body's chunks. */
  source: AsyncIterator<Buffer>;
  input: BulkFormat;
  output: BulkFormat;
  scorer: BatchScorer;
  /** Charges rate-limit points (throws the 429 ApiError when the budget cannot cover them). */
  charge(points: number): Promise<void>;
  sink: BulkSink;
  signal: AbortSignal;
  limits?: BulkLimits;
  /** Fields of the NDJSON end record beyond the counts (time of the found rows' months, freshness). */
  endFields?(monthFrom: string | null, monthTo: string | null): Record<string, unknown>;
  /** Called once every row is scored, with the first and last month of the found rows (a CSV answer's trailers). */
  onScoredAll?(monthFrom: string | null, monthTo: string | null): void;
  /** Called with each block's row count once it is scored (metrics). */
  onScored?(rows: number): void;
}

/** A stream that failed after rows were sent; its error record is written. */
export class BulkCutShort extends Error {
  constructor(readonly error: ApiError, readonly rows: number) {
    super(`bulk answer cut short after ${rows} rows: ${error.code}`);
    this.name = "BulkCutShort";
  }
}

export const tooManyRows = (max: number) =>
  new ApiError("PAYLOAD_TOO_LARGE", `More than ${max} rows; split the body into requests of at most ${max} rows`, { maxRows: max });

export async function runBulk(run: BulkRun): Promise<BulkCounts> {
  const limits = run.limits ?? BULK_LIMITS;
  const { input, output, scorer, signal } = run;
  const counts: BulkCounts = { rows: 0, found: 0, notFound: 0, invalid: 0 };
  const rows = new RowTexts(scorer, output === "csv" ? "csv" : "json");
  let bytes = 0;
  const nextChunk = async (): Promise<Buffer | undefined> => {
    signal.throwIfAborted();
    const r = await orAbort(run.source.next(), signal);
    signal.throwIfAborted();
    if (r.done) return undefined;
    bytes += r.value.length;
    if (bytes > limits.maxBytes) throw tooLarge(limits.maxBytes, true);
    return r.value;
  };

  // 1. Read ahead, counting lines.
  const ahead: Buffer[] = [];
  const counter = new LineCounter();
  let ended = false;
  while (bytes < limits.readAheadBytes) {
    const chunk = await nextChunk();
    if (chunk === undefined) {
      ended = true;
      counter.end();
      break;
    }
    counter.push(chunk);
    ahead.push(chunk);
  }
  if (counter.lines === 0 && ended) throw new ValidationError(emptyMessage(input), { reason: "empty_body" });
  const aheadRows = counter.lines - (input === "csv" ? 1 : 0);
  if (aheadRows > limits.maxRows) throw tooManyRows(limits.maxRows);

  // 2. Line by line.
  const splitter = new LineSplitter();
  let lineNo = 0;
  let cols: CsvColumns | undefined;
  let paid = 0;
  let block: BulkRow[] = [];
  let out = "";
  let started = false;
  let sent = 0;
  let pending = 0;
  const months = new MonthSpan();

  const write = async (text: string) => {
    started = true;
    await run.sink.write(text);
  };

  const scoreBlock = async () => {
    if (block.length === 0) return;
    const total = counts.rows + block.length;
    // Before scoring: the read-ahead's rows all at once, later rows a block at a time.
    const owed = Math.max(total, aheadRows);
    if (owed > paid) {
      await run.charge(rowPoints(owed) - rowPoints(paid));
      paid = owed;
    }
    signal.throwIfAborted();
    if (counts.rows === 0) out += headerText(output);
    for (const row of block) {
      if (isInvalid(row)) {
        counts.invalid++;
        out += invalidText(output, row);
        continue;
      }
      const tail = rows.tail(row.lat, row.lng);
      if (tail.found) {
        counts.found++;
        months.add(tail.month!);
      } else counts.notFound++;
      out += row.head ?? rows.head(row.id, row.lat, row.lng);
      out += tail.text + "\n";
    }
    counts.rows = total;
    pending += block.length;
    run.onScored?.(block.length);
    block = [];
    if (out.length >= limits.outputBlockChars) await flush();
  };

  const flush = async () => {
    if (out.length === 0) return;
    const text = out;
    out = "";
    const rows = pending;
    pending = 0;
    await write(text);
    sent += rows;
  };

  const takeLines = async (lines: string[]) => {
    for (const line of lines) {
      lineNo++;
      if (line.length === 0) continue;
      if (input === "csv" && cols === undefined) {
        cols = csvColumns(line);
        continue;
      }
      if (counts.rows + block.length >= limits.maxRows) throw tooManyRows(limits.maxRows);
      block.push(input === "csv" ? csvRow(line, cols!, lineNo, output === "csv") : ndjsonRow(line, lineNo, output === "ndjson"));
      if (block.length >= limits.blockRows) await scoreBlock();
    }
    lines.length = 0;
  };

  try {
    const lines: string[] = [];
    for (let i = 0; i < ahead.length; i++) {
      splitter.push(ahead[i], lines);
      ahead[i] = EMPTY; // let the read-ahead go as it is consumed
      await takeLines(lines);
    }
    for (;;) {
      const chunk = ended ? undefined : await nextChunk();
      if (chunk === undefined) break;
      splitter.push(chunk, lines);
      await takeLines(lines);
    }
    ended = true;
    splitter.end(lines);
    await takeLines(lines);
    if (counts.rows + block.length === 0) {
      throw new ValidationError(cols === undefined ? emptyMessage(input) : "Request body has a header line but no rows", { reason: cols === undefined ? "empty_body" : "no_rows" });
    }
    await scoreBlock();
    run.onScoredAll?.(months.from, months.to);
    if (output === "ndjson") out += endText(counts, run.endFields?.(months.from, months.to) ?? {});
    await flush();
    return counts;
  } catch (err) {
    if (!started || !(err instanceof ApiError) || signal.aborted) throw err;
    // Rows already scored (and paid for) go out, then the record saying why the answer stops here.
    const rows = sent + pending;
    out += errorText(output, err, rows);
    pending = 0;
    await flush();
    throw new BulkCutShort(err, rows);
  }
}

const EMPTY = Buffer.alloc(0);

/** `p`, or the signal's reason once it aborts: a body that will never go on (its client gone) does not hold the work. */
export function orAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

const emptyMessage = (input: BulkFormat) =>
  input === "csv" ? "Request body is empty; a header line (id,lat,lng) and rows are required" : "Request body is empty; one JSON object per line is required";
