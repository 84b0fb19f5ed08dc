// The bulk scorer: `npm run score -- --input points.csv --output scored.csv [--month YYYY-MM]` scores every row
// (columns id, lat, lng and optionally month, in any order, header first) against the published drought grid in
// ARTIFACTS_DIR, with the batch endpoint's fields (lib/drought/point-scorer.ts). Streams both files, so the input
// may be larger than memory; progress on a terminal, JSON log lines otherwise. Usage errors exit with code 2.
//
// Rows are split by a small hand-written reader on the fast path (no quote in the line): csv-parse, used for every
// other CSV here, costs several times the whole per-row budget of this command (≥ 1,000,000 rows/s per core).
// The common row (plain fields, decimal coordinates) is read and written as bytes: its id and coordinates are
// copied, the rest of its output row is the cell-month's cached bytes. Every other line is decoded and goes the
// text way; lines holding a quote go through csv-parse, and a quoted field may not span lines.
import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import { openPublishedVersion } from "../../formats/published-version.ts";
import { DROUGHT_OPENED_FILES, openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { csvField, MONTH_OUTSIDE_GRID, PointScorer, SCORED_HEADER, type ScoreCounts } from "../../lib/drought/point-scorer.ts";
import { parseMonth } from "../../lib/months.ts";
import type { Logger } from "../../lib/log.ts";
import { parseDecimalBytes } from "./decimal-bytes.ts";

export const SCORE_USAGE = "usage: npm run score -- --input points.csv --output scored.csv [--month YYYY-MM]";

export class ScoreUsageError extends Error {}

export interface ScoreOptions {
  input: string;
  output: string;
  month?: string;
}

export function parseScoreArgs(argv: string[]): ScoreOptions {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    if (flag !== "--input" && flag !== "--output" && flag !== "--month") throw new ScoreUsageError(`unknown option "${flag}"\n${SCORE_USAGE}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new ScoreUsageError(`${flag} needs a value\n${SCORE_USAGE}`);
    raw.set(flag, value);
  }
  const input = raw.get("--input");
  const output = raw.get("--output");
  if (!input || !output) throw new ScoreUsageError(`--input and --output are required\n${SCORE_USAGE}`);
  const month = raw.get("--month");
  if (month !== undefined && parseMonth(month) === undefined) throw new ScoreUsageError(`--month must be YYYY-MM, got "${month}"`);
  return { input, output, month };
}

interface Columns {
  id: number;
  lat: number;
  lng: number;
  month: number;
  count: number;
  /** id, lat, lng are the first three columns: a row's head is its text up to the third field's end. */
  plainHead: boolean;
}

function headerColumns(line: string, file: string): Columns {
  const names = splitLine(line).map((h) => h.trim().toLowerCase().replace(/^\uFEFF/, ""));
  const at = (n: string) => names.indexOf(n);
  const cols = { id: at("id"), lat: at("lat"), lng: at("lng") >= 0 ? at("lng") : at("lon"), month: at("month"), count: names.length, plainHead: false };
  cols.plainHead = cols.id === 0 && cols.lat === 1 && cols.lng === 2;
  const missing = (["id", "lat", "lng"] as const).filter((k) => cols[k] < 0);
  if (missing.length) throw new ScoreUsageError(`${file}:1: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (header: ${names.join(",")})`);
  return cols;
}

function splitLine(line: string): string[] {
  if (line.indexOf('"') < 0) return line.split(",");
  const rows = parseCsv(line, { relax_column_count: true }) as string[][];
  return rows[0] ?? [];
}

export interface ScoreResult extends ScoreCounts {
  month: string;
  seconds: number;
  pixels: CellRasterStats;
}
type CellRasterStats = PointScorer["raster"]["stats"];

/** Opens the published drought version in ARTIFACTS_DIR the way the server does (verified, every file checked). */
export async function openPublishedGrid(artifactsDir: string): Promise<DroughtArtifacts> {
  try {
    const { data } = await openPublishedVersion(artifactsDir, { open: openDroughtArtifacts, openedFiles: DROUGHT_OPENED_FILES });
    return data;
  } catch (err) {
    // The command prints a usage error's message itself (pipeline/cli-commands.ts): no log line besides.
    throw new ScoreUsageError(`no usable drought artifacts in ${artifactsDir} (${(err as Error).message}): run \`make artifacts\` first`);
  }
}

/** Bytes read from the input, and gathered for the output, per system call. */
const IO_BLOCK = 4 << 20;

export async function scorePoints(opts: ScoreOptions, artifacts: DroughtArtifacts, logger: Logger): Promise<ScoreResult> {
  const started = performance.now();
  // Without --month each point gets its cell's default month, as a batch item does (lib/drought/cell-latest.ts).
  const scorer = new PointScorer(artifacts, opts.month !== undefined ? parseMonth(opts.month)! : undefined);
  logger.info({ ...scorer.raster.stats, ms: Math.round(performance.now() - started) }, "lookup raster built");
  const total = statSync(opts.input).size;
  // Plain synchronous reads and writes through two reused buffers: the command has nothing else to do meanwhile,
  // and a stream's fresh buffer per chunk cost more than the reads themselves.
  const input = openSync(opts.input, "r");
  const output = new OutputFile(openSync(opts.output, "w"));
  output.text(SCORED_HEADER + "\n");
  let cols: Columns | undefined;

  // The row of a line as text (its CR already cut): the header, and every row the byte path leaves — quotes, numbers
  // that are not plain decimals, a month outside the grid, a short or long row. Rare, so plainly split.
  const textRow = (line: string): string | undefined => {
    if (cols === undefined) {
      cols = headerColumns(line, opts.input);
      if (cols.count > 64) throw new ScoreUsageError(`${opts.input}:1: more than 64 columns`);
      return undefined;
    }
    if (line === "") return undefined;
    const f = splitLine(line);
    const get = (k: number) => f[k] ?? "";
    return scorer.row(`${csvField(get(cols.id))},${csvField(get(cols.lat))},${csvField(get(cols.lng))}`, get(cols.lat), get(cols.lng), cols.month >= 0 ? get(cols.month) : undefined);
  };

  // The byte path: a line with exactly the header's fields, no quote, plain decimal coordinates in range and a
  // month of the grid (or none) is copied and completed without making a string. commas[k] is the end of field k.
  const commas = new Int32Array(65);
  const byteRow = (buf: Buffer, start: number, end: number): boolean => {
    const c = cols!;
    let n = 0;
    for (let i = start; i < end; i++) {
      const b = buf[i];
      if (b === 44) {
        if (n === c.count - 1) return false;
        commas[n++] = i;
      } else if (b === 34 || b === 13) return false;
    }
    if (n !== c.count - 1) return false;
    commas[n] = end;
    const from = (k: number) => (k === 0 ? start : commas[k - 1] + 1);
    const lat = parseDecimalBytes(buf, from(c.lat), commas[c.lat]);
    const lng = parseDecimalBytes(buf, from(c.lng), commas[c.lng]);
    if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) return false;
    let offset = scorer.defaultOffset;
    if (c.month >= 0 && commas[c.month] > from(c.month)) {
      const month = scorer.gridOffsetOf(buf.toString("latin1", from(c.month), commas[c.month]));
      if (month === undefined) return false;
      offset = month;
    } else if (offset === MONTH_OUTSIDE_GRID) return false;
    if (c.plainHead) output.bytes(buf, start, commas[2]);
    else {
      output.bytes(buf, from(c.id), commas[c.id]);
      output.byte(44);
      output.bytes(buf, from(c.lat), commas[c.lat]);
      output.byte(44);
      output.bytes(buf, from(c.lng), commas[c.lng]);
    }
    const tail = scorer.validRowTail(lat, lng, offset);
    output.bytes(tail, 0, tail.length);
    return true;
  };

  const line = (buf: Buffer, start: number, end: number) => {
    if (cols !== undefined && byteRow(buf, start, end)) return;
    const row = textRow(buf.toString("utf8", start, end));
    if (row !== undefined) output.text(row + "\n");
  };

  let buf = Buffer.allocUnsafe(IO_BLOCK);
  let kept = 0; // bytes of an unfinished line at the start of buf
  let done = 0;
  let lastProgress = performance.now();
  try {
    for (;;) {
      if (kept === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]); // a line longer than buf
      const read = readSync(input, buf, kept, buf.length - kept, null);
      if (read === 0) break;
      const end = kept + read;
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0 && nl < end; nl = buf.indexOf(10, start)) {
        line(buf, start, nl > start && buf[nl - 1] === 13 ? nl - 1 : nl);
        start = nl + 1;
      }
      buf.copyWithin(0, start, end);
      kept = end - start;
      done += read;
      const now = performance.now();
      if (now - lastProgress > 500) {
        logger.info({ stage: "score", done: Math.min(done, total), total, rows: scorer.counts.rows }, "progress");
        lastProgress = now;
      }
    }
    if (kept > 0) line(buf, 0, buf[kept - 1] === 13 ? kept - 1 : kept);
    if (cols === undefined) throw new ScoreUsageError(`${opts.input}: empty file (a header id,lat,lng is required)`);
    output.flush();
  } finally {
    closeSync(input);
    output.close();
  }
  const seconds = (performance.now() - started) / 1000;
  logger.info({ stage: "score", done: total, total, rows: scorer.counts.rows }, "progress");
  return { ...scorer.counts, month: opts.month ?? "each point's default month (the grid's latest valid month where its cell has every index)", seconds, pixels: scorer.raster.stats };
}

/** The output file, written IO_BLOCK bytes at a time. */
class OutputFile {
  private readonly block = Buffer.allocUnsafe(IO_BLOCK);
  private used = 0;

  constructor(private readonly fd: number) {}

  bytes(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.used + n > this.block.length) {
      this.flush();
      if (n > this.block.length) {
        writeSync(this.fd, src, start, n);
        return;
      }
    }
    if (n <= 64) for (let i = 0; i < n; i++) this.block[this.used + i] = src[start + i];
    else this.block.set(src.subarray(start, end), this.used);
    this.used += n;
  }

  byte(b: number): void {
    if (this.used === this.block.length) this.flush();
    this.block[this.used++] = b;
  }

  text(s: string): void {
    const bytes = Buffer.from(s);
    this.bytes(bytes, 0, bytes.length);
  }

  flush(): void {
    for (let at = 0; at < this.used; ) at += writeSync(this.fd, this.block, at, this.used - at);
    this.used = 0;
  }

  close(): void {
    closeSync(this.fd);
  }
}
