// Runs in a worker thread (health-thread.ts starts it): the health listener, on this thread's own event loop, so
// GET /healthz answers while the main loop is busy with a burst of requests. Reads the main loop's heartbeat.
import { parentPort, workerData } from "node:worker_threads";
import { heartbeatAgeMs } from "./heartbeat.ts";
import { createHealthServer } from "./health-server.ts";
import type { HttpTimeouts } from "../serve.ts";

const { beat, port, host, stallMs, backlog, timeouts } = workerData as {
  beat: SharedArrayBuffer;
  port: number;
  host: string;
  stallMs: number;
  backlog: number;
  timeouts: HttpTimeouts;
};
const server = createHealthServer(() => ({ heartbeatAgeMs: heartbeatAgeMs(beat), serving: 1 }), stallMs, timeouts);
server.on("error", (err: NodeJS.ErrnoException) => parentPort?.postMessage({ error: { code: err.code, message: err.message } }));
server.listen({ port, host, backlog }, () => {
  const address = server.address();
  parentPort?.postMessage({ port: typeof address === "object" && address ? address.port : port });
});
parentPort?.on("message", (m: unknown) => {
  if (m === "stop") server.close(() => parentPort?.close());
});
