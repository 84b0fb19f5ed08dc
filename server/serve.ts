// Listening and graceful shutdown, separate from main.ts so tests can run it with a fake service.
// Shutdown: stop accepting connections, close idle keep-alive connections, let in-flight requests finish,
// then resolve; connections still busy after `graceMs` are destroyed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import type { Express } from "express";
import { intSetting } from "../lib/config.ts";
import type { Logger } from "../lib/log.ts";

export interface RunningServer {
  server: Server;
  port: number;
  shutdown(): Promise<void>;
}

export function listen(app: Express, opts: { port: number; host: string; logger: Logger; graceMs?: number }): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 5_000;
  const graceMs = opts.graceMs ?? 10_000;
  let closing: Promise<void> | undefined;

  const shutdown = () =>
    (closing ??= new Promise<void>((resolve) => {
      opts.logger.info("shutting down: no new connections, finishing in-flight requests");
      const force = setTimeout(() => {
        opts.logger.warn("grace period over, closing remaining connections");
        server.closeAllConnections();
      }, graceMs);
      force.unref();
      // Keep-alive connections become idle as their last response ends: close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearTimeout(force);
        clearInterval(sweep);
        resolve();
      });
      server.closeIdleConnections();
    }));

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      opts.logger.info({ host: opts.host, port }, "listening");
      resolve({ server, port, shutdown });
    });
  });
}

/** SIGTERM/SIGINT → graceful shutdown → exit 0. */
export function exitOnSignals(running: RunningServer, onClosed: () => Promise<void> | void = () => {}): void {
  const stop = async () => {
    await running.shutdown();
    await onClosed();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** WORKERS: unset/empty → 1, a positive integer, or "auto" → one per core (os.availableParallelism). */
export function workerCount(env: NodeJS.ProcessEnv): number {
  const raw = env.WORKERS;
  if (raw === undefined || raw === "") return 1;
  if (raw === "auto") return availableParallelism();
  const n = intSetting(env, "WORKERS", 1);
  if (n < 1) throw new Error(`WORKERS must be at least 1 or "auto", got "${raw}"`);
  return n;
}

