// HEALTH_PORT: a liveness listener on a thread of its own. On the API port, /healthz waits behind every request
// the kernel queued before it: under a burst of 1,000 new connections even a bare node:http server on this
// 2-core machine stalled its loop 230–470 ms (bench/admission.bench.ts), so a probe there measures the burst, not
// whether the process lives. Here the answer comes from the main loop's heartbeat (heartbeat.ts) instead.
import { Worker } from "node:worker_threads";
import { intSetting } from "../../lib/config.ts";
import { newHeartbeat, startBeating } from "./heartbeat.ts";
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from "../serve.ts";

/** A loop that has not beaten for this long is reported stalled (503): HEALTH_STALL_MS. */
export const DEFAULT_HEALTH_STALL_MS = 5_000;

export interface HealthSettings {
  /** HEALTH_PORT; undefined = no health listener (the default). 0 = any free port. */
  port: number | undefined;
  host: string;
  stallMs: number;
}

export function healthFromEnv(env: NodeJS.ProcessEnv): HealthSettings {
  const raw = env.HEALTH_PORT;
  const port = raw === undefined || raw === "" ? undefined : intSetting(env, "HEALTH_PORT", 0);
  if (port !== undefined && (port < 0 || port > 65535)) throw new Error(`HEALTH_PORT must be a port number, got "${raw}"`);
  const stallMs = intSetting(env, "HEALTH_STALL_MS", DEFAULT_HEALTH_STALL_MS);
  if (stallMs < 1) throw new Error(`HEALTH_STALL_MS must be at least 1, got ${stallMs}`);
  return { port, host: env.HOST || "0.0.0.0", stallMs };
}

export interface HealthThread {
  port: number;
  stop(): Promise<void>;
}

// Compiled (dist/) the worker is the .js file beside this one. Under tsx (development, tests) it is the .ts file,
// and the worker registers tsx's loader itself first: Node 20 does not carry --import hooks into worker threads.
const compiled = !import.meta.url.endsWith(".ts");
const WORKER = new URL(compiled ? "./health-worker.js" : "./health-worker.ts", import.meta.url);

function workerEntry(): { entry: string | URL; eval: boolean } {
  if (compiled) return { entry: WORKER, eval: false };
  const tsx = import.meta.resolve("tsx/esm/api");
  return { entry: `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(WORKER.href)}))`, eval: true };
}

/** Starts the main loop's heartbeat and the health listener's thread; resolves once it listens. A later failure of the thread goes to `onFailure`. */
export function startHealthThread(
  settings: { port: number; host: string; stallMs: number; backlog?: number; timeouts?: HttpTimeouts },
  onFailure: (err: Error) => void = () => {},
  /** The thread's code; another only in tests (a thread that fails after it started). */
  code: { entry: string | URL; eval: boolean } = workerEntry(),
): Promise<HealthThread> {
  const beat = newHeartbeat();
  const stopBeating = startBeating(beat);
  const { entry, eval: isEval } = code;
  const worker = new Worker(entry, { eval: isEval, workerData: { beat, port: settings.port, host: settings.host, stallMs: settings.stallMs, backlog: settings.backlog ?? 511, timeouts: settings.timeouts ?? DEFAULT_HTTP_TIMEOUTS } });
  worker.unref();
  return new Promise((resolve, reject) => {
    const failed = (err: Error) => {
      stopBeating();
      reject(err);
    };
    worker.once("error", failed);
    worker.once("message", (m: { port?: number; error?: { code?: string; message: string } }) => {
      worker.off("error", failed);
      // After the start, a failure of the thread is reported, never thrown into the API's loop.
      worker.on("error", onFailure);
      if (m.error) {
        void worker.terminate();
        failed(new Error(`cannot start the health listener on ${settings.host}:${settings.port}: ${m.error.message}`));
        return;
      }
      resolve({
        port: m.port ?? settings.port,
        stop: async () => {
          stopBeating();
          worker.postMessage("stop");
          await new Promise<void>((done) => worker.once("exit", () => done()));
        },
      });
    });
  });
}
