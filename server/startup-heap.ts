// One full garbage collection after start-up, before the port opens. Loading the published versions and snapshots
// leaves garbage in V8's old generation (parse buffers, intermediate arrays) that V8 only collected some 7 s into
// serving; until then each scavenge took ~17 ms instead of ~5 (--trace-gc, 1 s load steps; bench/RESULTS.md "GC and the
// live heap under HTTP load"). Collected before listening: 153 → 61 MB in 63 ms there, and 25.6 → 15.5 µs of GC a GET
// drought request in the first 4 s under load (bench/gc-heap.bench.ts).
// `gc` is exposed at run time (as jest-leak-detector does; bench/geo.bench.ts uses exposedGc too) so every way of starting the server
// (npm start, make serve, the cluster's workers, Docker) gets it without a node flag. Node documents setting V8 flags
// after start as unsupported: where it does not give a `gc`, the collection is skipped and the server starts as before.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export type StartupCollection = { heapUsedMbBefore: number; heapUsedMbAfter: number; ms: number } | { skipped: string };

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** A function that collects the whole heap: node's --expose-gc one if the process has it, else exposed now. */
export function exposedGc(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === "function") return own;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as unknown;
  if (typeof gc !== "function") throw new Error("--expose-gc set at run time gave no gc function");
  return gc as () => void;
}

/** Collects the whole heap once: what it freed and how long it took (~60–110 ms on this 2-core machine), or why not. */
export function collectStartupGarbage(getGc: () => () => void = exposedGc): StartupCollection {
  let gc: () => void;
  try {
    gc = getGc();
  } catch (err) {
    return { skipped: (err as Error).message };
  }
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  gc();
  const ms = Math.round(performance.now() - t0);
  return { heapUsedMbBefore: mb(before), heapUsedMbAfter: mb(process.memoryUsage().heapUsed), ms };
}
