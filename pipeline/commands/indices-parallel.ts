// Many series on several cores: a long table is cut into slices of whole series, each handed over as bytes (moved,
// not copied) and decoded, parsed, computed and formatted by a worker thread (indices-worker.ts), which hands its
// output back as bytes the same way; a wide table is parsed here, and each worker computes and formats a block of
// its columns. Output order is the input's. Small inputs and single series run inline: a worker costs its start-up.
import { availableParallelism } from "node:os";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { computeSeries, type IndicesOptions } from "./indices.ts";
import { formatIndicesTable, IndicesInputError, longTableBytes, parseIndicesTable, type TableSeries } from "./indices-table.ts";
import { parseLongBytes } from "./indices-long-bytes.ts";
import { parseWideBytes, wideBlockBytes, wideTableBytes, type WideBlock } from "./indices-wide-bytes.ts";

export type IndicesJob =
  | { kind: "bytes"; opts: IndicesOptions; header: string; bytes: Uint8Array; firstLine: number }
  | { kind: "series"; opts: IndicesOptions; series: TableSeries[] };

/** Below this size (characters) a table is computed inline. */
const PARALLEL_MIN_CHARS = 1 << 20;

export function defaultWorkers(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

interface WorkerResult {
  bytes?: Uint8Array;
  names?: string[];
  block?: WideBlock;
}

function runWorker(job: IndicesJob): Promise<WorkerResult> {
  const transfer = job.kind === "bytes" ? [job.bytes.buffer as ArrayBuffer] : [];
  // The worker file has this module's extension: .ts under tsx, .js when compiled.
  const url = new URL(`./indices-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  return new Promise((resolve, reject) => {
    // Under tsx the worker loads the TypeScript file through tsx's API (a worker does not inherit the loader);
    // the compiled build runs the JavaScript file itself.
    const worker = url.pathname.endsWith(".ts")
      ? new Worker(`import("tsx/esm/api").then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true, workerData: job, transferList: transfer })
      : new Worker(url, { workerData: job, transferList: transfer });
    worker.once("message", (msg: WorkerResult & { error?: string; input?: boolean }) => {
      void worker.terminate();
      if (msg.error !== undefined) reject(msg.input ? new IndicesInputError(msg.error) : new Error(msg.error));
      else resolve(msg);
    });
    worker.once("error", reject);
  });
}

/** Where the slices of a long table start: about equal byte ranges, moved forward to the next series' first line. */
function sliceStarts(text: Buffer, bodyStart: number, parts: number, seriesCol: number): number[] {
  const seriesAt = (lineStart: number) => {
    let s = lineStart;
    for (let c = 0; c < seriesCol; c++) s = text.indexOf(",", s) + 1;
    const e = text.indexOf(",", s);
    return text.toString("utf8", s, e < 0 ? text.length : e).trim();
  };
  const starts = [bodyStart];
  for (let k = 1; k < parts; k++) {
    let at = text.indexOf("\n", bodyStart + Math.floor(((text.length - bodyStart) * k) / parts)) + 1;
    if (at <= starts[starts.length - 1] || at >= text.length) continue;
    // `at` begins a line; step to the first line of the next series.
    const prevLineStart = text.lastIndexOf("\n", at - 2) + 1;
    const name = seriesAt(prevLineStart);
    while (at < text.length && seriesAt(at) === name) {
      const nl = text.indexOf("\n", at);
      if (nl < 0) {
        at = text.length;
        break;
      }
      at = nl + 1;
    }
    if (at < text.length && at > starts[starts.length - 1]) starts.push(at);
  }
  return starts;
}

function countLines(text: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf(10, from); i >= 0 && i < to; i = text.indexOf(10, i + 1)) n++;
  return n;
}

/** The output table as text or UTF-8 chunks; throws IndicesInputError on bad input. */
export async function computeIndicesChunks(opts: IndicesOptions, input: string | Uint8Array, workers = defaultWorkers()): Promise<(string | Uint8Array)[]> {
  const bytes = typeof input === "string" ? Buffer.from(input) : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const headerEnd = bytes.indexOf(10);
  const header = bytes.toString("utf8", 0, headerEnd < 0 ? bytes.length : headerEnd).replace(/\r$/, "");
  const columns = header.split(",").map((h) => h.trim().toLowerCase().replace(/^\uFEFF/, ""));
  if (workers < 2 || bytes.length < PARALLEL_MIN_CHARS || (!columns.includes("series") && opts.layout !== "wide")) {
    // Plain long and wide tables inline as on the workers: read and written as bytes.
    const body = bytes.subarray(headerEnd + 1);
    if (headerEnd >= 0 && columns.includes("series")) {
      const series = parseLongBytes(header, body);
      if (series) return ["series,date,value\n", longTableBytes(series, series.map((s) => computeSeries(opts, s)))];
    } else if (headerEnd >= 0 && opts.layout === "wide") {
      const series = parseWideBytes(header, body, opts.index);
      if (series) return [wideTableBytes(series.map((s) => s.name), series[0].firstMonth, [wideBlockBytes(series.map((s) => computeSeries(opts, s)))])];
    }
    const table = parseIndicesTable(bytes.toString("utf8"), opts.input, opts.index, opts.layout === "wide");
    return formatIndicesTable(table, table.series.map((s) => computeSeries(opts, s)));
  }
  if (columns.includes("series")) {
    const starts = sliceStarts(bytes, headerEnd + 1, workers, columns.indexOf("series"));
    let line = 2;
    const jobs = starts.map((start, k) => {
      const end = k + 1 < starts.length ? starts[k + 1] : bytes.length;
      const slice = new Uint8Array(end - start); // its own buffer, moved to the worker
      slice.set(bytes.subarray(start, end));
      const job: IndicesJob = { kind: "bytes", opts, header, bytes: slice, firstLine: line };
      line += countLines(bytes, start, end);
      return job;
    });
    const results = await Promise.all(jobs.map(runWorker));
    // Each slice refuses a series whose rows are apart within it; across slices the names must not repeat either.
    const seen = new Set<string>();
    for (const r of results) {
      for (const name of r.names!) {
        if (seen.has(name)) throw new IndicesInputError(`${opts.input}: series "${name}" appears again (a series' rows must be together)`);
        seen.add(name);
      }
    }
    return ["series,date,value\n", ...results.map((r) => r.bytes!)];
  }
  // Wide: read here (as bytes when plain), each worker computes and writes a block of columns.
  const series =
    (headerEnd >= 0 ? parseWideBytes(header, bytes.subarray(headerEnd + 1), opts.index) : undefined) ??
    parseIndicesTable(bytes.toString("utf8"), opts.input, opts.index, true).series;
  const per = Math.ceil(series.length / workers);
  const groups: TableSeries[][] = [];
  for (let i = 0; i < series.length; i += per) groups.push(series.slice(i, i + per));
  const results = await Promise.all(groups.map((group) => runWorker({ kind: "series", opts, series: group })));
  return [wideTableBytes(series.map((s) => s.name), series[0].firstMonth, results.map((r) => r.block!))];
}
