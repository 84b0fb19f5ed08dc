// A build stage run with its start and end logged, and its time.
import { log } from "../../lib/log.ts";

export function stage<T>(name: string, fn: () => T): T {
  const t0 = performance.now();
  log.info({ stage: name }, `${name}…`);
  const out = fn();
  log.info({ stage: name, ms: Math.round(performance.now() - t0) }, `${name} done`);
  return out;
}
