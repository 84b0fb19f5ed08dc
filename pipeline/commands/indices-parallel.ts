// Many series on several cores: a long table is cut into slices of whole series, each parsed, computed and
// formatted by a worker thread (indices-worker.ts); a wide table is parsed here, and each worker computes and
// formats a block of its columns. Output order is the input's. Small inputs and single series run inline: a worker costs its start-up.
import { availableParallelism } from "node:os";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { computeSeries, type IndicesOptions } from "./indices.ts";
import { formatIndicesTable, IndicesInputError, parseIndicesTable, type TableSeries } from "./indices-table.ts";

export type IndicesJob =
  | { kind: "text"; opts: IndicesOptions; text: string; firstLine: number }
  | { kind: "series"; opts: IndicesOptions; series: TableSeries[] };

/** Below this size (characters) a table is computed inline. */
const PARALLEL_MIN_CHARS = 1 << 20;

export function defaultWorkers(): number {
  return Math.max(1, Math.min(8, availableParallelism()));
}

interface WorkerResult {
  chunks?: string[];
  names?: string[];
  segments?: string[];
}

function runWorker(job: IndicesJob): Promise<WorkerResult> {
  // The worker file has this module's extension: .ts under tsx, .js when compiled.
  const url = new URL(`./indices-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  return new Promise((resolve, reject) => {
    // Under tsx the worker loads the TypeScript file through tsx's API (a worker does not inherit the loader);
    // the compiled build runs the JavaScript file itself.
    const worker = url.pathname.endsWith(".ts")
      ? new Worker(`import("tsx/esm/api").then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true, workerData: job })
      : new Worker(url, { workerData: job });
    worker.once("message", (msg: WorkerResult & { error?: string; input?: boolean }) => {
      void worker.terminate();
      if (msg.error !== undefined) reject(msg.input ? new IndicesInputError(msg.error) : new Error(msg.error));
      else resolve(msg);
    });
    worker.once("error", reject);
  });
}

/** Where the slices of a long table start: about equal byte ranges, moved forward to the next series' first line. */
function sliceStarts(text: string, bodyStart: number, parts: number, seriesCol: number): number[] {
  const seriesAt = (lineStart: number) => {
    let s = lineStart;
    for (let c = 0; c < seriesCol; c++) s = text.indexOf(",", s) + 1;
    const e = text.indexOf(",", s);
    return text.slice(s, e < 0 ? text.length : e).trim();
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

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The output table as text chunks; throws IndicesInputError on bad input. */
export async function computeIndicesChunks(opts: IndicesOptions, text: string, workers = defaultWorkers()): Promise<string[]> {
  const headerEnd = text.indexOf("\n");
  const header = (headerEnd < 0 ? text : text.slice(0, headerEnd)).replace(/\r$/, "");
  const columns = header.split(",").map((h) => h.trim().toLowerCase().replace(/^\uFEFF/, ""));
  if (workers < 2 || text.length < PARALLEL_MIN_CHARS || (!columns.includes("series") && opts.layout !== "wide")) {
    const table = parseIndicesTable(text, opts.input, opts.index, opts.layout === "wide");
    return formatIndicesTable(table, table.series.map((s) => computeSeries(opts, s)));
  }
  if (columns.includes("series")) {
    const starts = sliceStarts(text, headerEnd + 1, workers, columns.indexOf("series"));
    let line = 2;
    const jobs = starts.map((start, k) => {
      const end = k + 1 < starts.length ? starts[k + 1] : text.length;
      const job: IndicesJob = { kind: "text", opts, text: header + "\n" + text.slice(start, end), firstLine: line };
      line += countLines(text, start, end);
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
    return ["series,date,value\n", ...results.flatMap((r) => r.chunks!)];
  }
  const table = parseIndicesTable(text, opts.input, opts.index, true);
  const per = Math.ceil(table.series.length / workers);
  const groups: TableSeries[][] = [];
  for (let i = 0; i < table.series.length; i += per) groups.push(table.series.slice(i, i + per));
  const results = await Promise.all(groups.map((series) => runWorker({ kind: "series", opts, series })));
  return formatIndicesTable(table, [], true, results.map((r) => r.segments!));
}
