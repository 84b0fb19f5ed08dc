// A worker thread of the `indices` command: computes and formats the long-layout table of one slice of the input
// (whole series only), or computes and formats a block of columns of a wide table (indices-parallel.ts).
import { parentPort, workerData } from "node:worker_threads";
import { computeSeries } from "./indices.ts";
import { formatIndicesTable, parseIndicesTable, wideSegments, type TableSeries } from "./indices-table.ts";
import type { IndicesJob } from "./indices-parallel.ts";

const job = workerData as IndicesJob;
try {
  if (job.kind === "text") {
    const table = parseIndicesTable(job.text, job.opts.input, job.opts.index, false, job.firstLine - 2);
    const chunks = formatIndicesTable(table, table.series.map((s) => computeSeries(job.opts, s)), false);
    parentPort!.postMessage({ chunks, names: table.series.map((s) => s.name) });
  } else {
    // This worker's block of columns, one text segment per output row ("v1,v2,…"): the main thread joins blocks.
    const values = job.series.map((s: TableSeries) => computeSeries(job.opts, s));
    parentPort!.postMessage({ segments: wideSegments(values) });
  }
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message, input: (err as Error).constructor.name === "IndicesInputError" });
}
