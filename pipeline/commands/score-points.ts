// The bulk scorer: `npm run score -- --input points.csv --output scored.csv [--month YYYY-MM]` scores every row
// (columns id, lat, lng and optionally month, in any order, header first) against the published drought grid in
// ARTIFACTS_DIR, with the batch endpoint's fields (lib/drought/point-scorer.ts). Streams both files, so the input
// may be larger than memory; progress on a terminal, JSON log lines otherwise. Usage errors exit with code 2.
//
// Rows are split by a small hand-written reader on the fast path (no quote in the line): csv-parse, used for every
// other CSV here, costs several times the whole per-row budget of this command (≥ 1,000,000 rows/s per core).
// Lines holding a quote go through csv-parse; a quoted field may not span lines.
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { once } from "node:events";
import { parse as parseCsv } from "csv-parse/sync";
import { ArtifactStore } from "../../server/data/artifact-store.ts";
import { DROUGHT_OPENED_FILES, openDroughtArtifacts, type DroughtArtifacts } from "../../server/data/drought-artifacts.ts";
import { csvField, PointScorer, SCORED_HEADER, type ScoreCounts } from "../../lib/drought/point-scorer.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import type { Logger } from "../../lib/log.ts";

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
export async function openPublishedGrid(artifactsDir: string, logger: Logger): Promise<DroughtArtifacts> {
  const store = new ArtifactStore<DroughtArtifacts>({ root: artifactsDir, open: openDroughtArtifacts, openedFiles: DROUGHT_OPENED_FILES, logger, label: "drought artifacts" });
  const outcome = await store.reload();
  const loaded = store.current();
  store.stop();
  if (!loaded) throw new ScoreUsageError(`no usable drought artifacts in ${artifactsDir} (${outcome}): run \`make artifacts\` first`);
  return loaded.data;
}

export async function scorePoints(opts: ScoreOptions, artifacts: DroughtArtifacts, logger: Logger): Promise<ScoreResult> {
  const started = performance.now();
  const defaultMonth = opts.month !== undefined ? parseMonth(opts.month)! : artifacts.defaultMonth;
  const scorer = new PointScorer(artifacts, defaultMonth);
  logger.info({ ...scorer.raster.stats, ms: Math.round(performance.now() - started) }, "lookup raster built");
  const total = statSync(opts.input).size;
  const out = createWriteStream(opts.output);
  const outDone = once(out, "close");
  let pending: string[] = [SCORED_HEADER];
  let pendingChars = SCORED_HEADER.length;
  const flush = async () => {
    if (!out.write(pending.join("\n") + "\n")) await once(out, "drain");
    pending = [];
    pendingChars = 0;
  };
  let cols: Columns | undefined;
  let carry = "";
  let done = 0;
  let lastProgress = performance.now();
  const at = new Int32Array(2 * 64);
  const handle = (line: string) => {
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    if (cols === undefined) {
      cols = headerColumns(line, opts.input);
      if (cols.count > 64) throw new ScoreUsageError(`${opts.input}:1: more than 64 columns`);
      return;
    }
    if (line === "") return;
    let row: string;
    if (line.indexOf('"') < 0) {
      // Field k spans at[2k]..at[2k+1]; no field holds a comma or quote, so none needs quoting on output.
      let start = 0;
      for (let k = 0; k < cols.count; k++) {
        let end = line.indexOf(",", start);
        if (end < 0) end = line.length;
        at[2 * k] = start;
        at[2 * k + 1] = end;
        start = end + 1;
      }
      const latText = line.slice(at[2 * cols.lat], at[2 * cols.lat + 1]);
      const lngText = line.slice(at[2 * cols.lng], at[2 * cols.lng + 1]);
      const head = cols.plainHead ? line.slice(0, at[5]) : `${line.slice(at[2 * cols.id], at[2 * cols.id + 1])},${latText},${lngText}`;
      row = scorer.row(head, latText, lngText, cols.month < 0 ? undefined : line.slice(at[2 * cols.month], at[2 * cols.month + 1]));
    } else {
      const f = splitLine(line);
      const get = (k: number) => f[k] ?? "";
      row = scorer.row(`${csvField(get(cols.id))},${csvField(get(cols.lat))},${csvField(get(cols.lng))}`, get(cols.lat), get(cols.lng), cols.month >= 0 ? get(cols.month) : undefined);
    }
    pending.push(row);
    pendingChars += row.length;
  };
  for await (const chunk of createReadStream(opts.input, { encoding: "utf8", highWaterMark: 1 << 20 })) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      handle(text.slice(start, nl));
      start = nl + 1;
    }
    carry = text.slice(start);
    done += Buffer.byteLength(chunk as string);
    if (pendingChars > 1 << 20) await flush();
    const now = performance.now();
    if (now - lastProgress > 500) {
      logger.info({ stage: "score", done: Math.min(done, total), total, rows: scorer.counts.rows }, "progress");
      lastProgress = now;
    }
  }
  if (carry !== "") handle(carry);
  if (cols === undefined) throw new ScoreUsageError(`${opts.input}: empty file (a header id,lat,lng is required)`);
  await flush();
  out.end();
  await outDone;
  const seconds = (performance.now() - started) / 1000;
  logger.info({ stage: "score", done: total, total, rows: scorer.counts.rows }, "progress");
  return { ...scorer.counts, month: formatMonth(defaultMonth), seconds, pixels: scorer.raster.stats };
}
