// A worker thread of the `indices` command: reads, computes and formats the long-layout table of one slice of the
// input (whole series only, as bytes), or computes and formats a block of columns of a wide table (indices-parallel.ts).
import { parentPort, workerData } from "node:worker_threads";
import { computeSeries } from "./indices.ts";
import { longTableBytes, parseIndicesTable, type TableSeries } from "./indices-table.ts";
import { wideBlockBytes } from "./indices-wide-bytes.ts";
import type { IndicesJob } from "./indices-parallel.ts";
import { parseLongBytes } from "./indices-long-bytes.ts";

const job = workerData as IndicesJob;
try {
  if (job.kind === "bytes") {
    // Plain tables are read from the bytes; anything else (and every error) by the text parser.
    const series =
      parseLongBytes(job.header, job.bytes) ??
      parseIndicesTable(job.header + "\n" + Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength).toString("utf8"), job.opts.input, job.opts.index, false, job.firstLine - 2).series;
    // The output in a buffer of its own (allocUnsafeSlow: not the shared pool), moved back rather than copied.
    const bytes = longTableBytes(series, series.map((s) => computeSeries(job.opts, s)));
    parentPort!.postMessage({ bytes, names: series.map((s) => s.name) }, [bytes.buffer as ArrayBuffer]);
  } else {
    // This worker's block of columns, per output row "v1,v2,…" as bytes, moved back: the main thread joins blocks.
    const block = wideBlockBytes(job.series.map((s: TableSeries) => computeSeries(job.opts, s)));
    parentPort!.postMessage({ block }, [block.bytes.buffer as ArrayBuffer, block.ends.buffer as ArrayBuffer]);
  }
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message, input: (err as Error).constructor.name === "IndicesInputError" });
}
