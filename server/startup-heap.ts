// One full garbage collection after start-up, before the port opens. Loading the published versions and snapshots
// leaves about 70 MB of garbage in V8's old generation (parse buffers, intermediate arrays; 133 MB in use, 61 MB live),
// which V8 only collects some 7 s into serving. Until then every scavenge took ~17 ms instead of ~5 and the server
// answered GET drought at two thirds of its rate (bench/gc-heap.bench.ts "the first seconds after start").
// `gc` is exposed at run time (as jest-leak-detector and bench/geo.bench.ts do) so every way of starting the server
// (npm start, make serve, the cluster's workers, Docker) gets it without a node flag.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface StartupCollection {
  heapUsedMbBefore: number;
  heapUsedMbAfter: number;
  ms: number;
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Collects the whole heap once; what it freed and how long it took (~60–110 ms on this 2-core machine). */
export function collectStartupGarbage(): StartupCollection {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  gc();
  const ms = Math.round(performance.now() - t0);
  return { heapUsedMbBefore: mb(before), heapUsedMbAfter: mb(process.memoryUsage().heapUsed), ms };
}
