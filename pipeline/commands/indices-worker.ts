// A worker thread of the `indices` command: computes and formats the long-layout table of one slice of the input
// (whole series only), or computes the values of some series of a wide table (indices-parallel.ts).
import { parentPort, workerData } from "node:worker_threads";
import { computeSeries } from "./indices.ts";
import { formatIndicesTable, parseIndicesTable, type TableSeries } from "./indices-table.ts";
import type { IndicesJob } from "./indices-parallel.ts";

const job = workerData as IndicesJob;
try {
  if (job.kind === "text") {
    const table = parseIndicesTable(job.text, job.opts.input, job.opts.index, false, job.firstLine - 2);
    const chunks = formatIndicesTable(table, table.series.map((s) => computeSeries(job.opts, s)), false);
    parentPort!.postMessage({ chunks, names: table.series.map((s) => s.name) });
  } else {
    const values = job.series.map((s: TableSeries) => computeSeries(job.opts, s));
    parentPort!.postMessage({ values }, values.map((v) => v.buffer as ArrayBuffer));
  }
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message, input: (err as Error).constructor.name === "IndicesInputError" });
}
