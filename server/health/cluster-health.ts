// HEALTH_PORT with WORKERS > 1: the primary, whose loop serves no API request, runs the health listener itself;
// each worker sends it a heartbeat over the cluster channel every HEARTBEAT_EVERY_MS. The answer is the worst
// worker's: a worker whose loop stalls past the limit makes the whole process unhealthy, as its share of the
// connections would wait.
import cluster from "node:cluster";
import { HEARTBEAT_EVERY_MS } from "./heartbeat.ts";
import { createHealthServer } from "./health-server.ts";
import type { HealthThread } from "./health-thread.ts";
import type { HttpTimeouts } from "../serve.ts";

/** In a worker: beat to the primary until the process ends. */
export function beatToPrimary(): void {
  const timer = setInterval(() => process.send?.({ heartbeat: true }), HEARTBEAT_EVERY_MS);
  timer.unref();
}

/** In the primary: the health listener, fed by the workers' beats (their arrival times on this loop). */
export function startClusterHealth(settings: { port: number; host: string; stallMs: number; timeouts?: HttpTimeouts }): Promise<HealthThread> {
  const lastBeat = new Map<number, number>();
  cluster.on("message", (worker, message: { heartbeat?: unknown }) => {
    if (message?.heartbeat === true) lastBeat.set(worker.id, Date.now());
  });
  cluster.on("exit", (worker) => lastBeat.delete(worker.id));
  const read = () => {
    const now = Date.now();
    let worst = 0;
    for (const t of lastBeat.values()) worst = Math.max(worst, now - t);
    return { heartbeatAgeMs: worst, serving: lastBeat.size };
  };
  const server = createHealthServer(read, settings.stallMs, settings.timeouts);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: settings.port, host: settings.host }, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : settings.port,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
