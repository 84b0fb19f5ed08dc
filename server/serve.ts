// Listening and graceful shutdown, separate from main.ts so tests can run it with a fake service.
// Shutdown: stop accepting connections, close idle keep-alive connections, let in-flight requests finish,
// then resolve; connections still busy after `graceMs` are destroyed.
// Timeouts (docs/api.md "Limits"): a request must arrive whole within requestTimeoutMs and its headers within
// headersTimeoutMs, else 408; Node's defaults (300 s, 60 s) would let slow clients hold connections for minutes.
import { createServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import type { Express } from "express";
import { intSetting } from "../lib/config.ts";
import type { Logger } from "../lib/log.ts";
import { onClientError } from "./http/client-error.ts";
import { expressMessageClasses } from "./http/express-messages.ts";

export interface RunningServer {
  server: Server;
  port: number;
  shutdown(): Promise<void>;
}

export interface HttpTimeouts {
  /** Whole request (headers and body) must arrive within this (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Headers must arrive within this; at most requestTimeoutMs (HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { requestTimeoutMs: 10_000, headersTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000 };

/** REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS: positive integers, headers ≤ request. */
export function httpTimeoutsFromEnv(env: NodeJS.ProcessEnv): HttpTimeouts {
  const d = DEFAULT_HTTP_TIMEOUTS;
  return checkTimeouts({
    requestTimeoutMs: intSetting(env, "REQUEST_TIMEOUT_MS", d.requestTimeoutMs),
    headersTimeoutMs: intSetting(env, "HEADERS_TIMEOUT_MS", d.headersTimeoutMs),
    keepAliveTimeoutMs: intSetting(env, "KEEP_ALIVE_TIMEOUT_MS", d.keepAliveTimeoutMs),
  });
}

function checkTimeouts(t: HttpTimeouts): HttpTimeouts {
  for (const [name, value] of Object.entries(t)) {
    if (!(value > 0)) throw new Error(`${name} must be positive (0 would disable the timeout), got ${value}`);
  }
  if (t.headersTimeoutMs > t.requestTimeoutMs) {
    throw new Error(`the headers timeout (${t.headersTimeoutMs} ms) must not exceed the request timeout (${t.requestTimeoutMs} ms)`);
  }
  return t;
}

/**
 * Pending connections the kernel queues before accept() (LISTEN_BACKLOG; the kernel caps it at
 * net.core.somaxconn). Node's default, 511, overflows under a burst of ~1,000 new connections: the kernel then
 * drops SYNs and those clients, /healthz probes among them, wait for TCP's 1 s retransmission (bench/admission.bench.ts).
 */
export const DEFAULT_LISTEN_BACKLOG = 4096;

/**
 * A node:http server with the API's HTTP limits: the timeouts above (checked every second at most, not Node's 30 s),
 * idle keep-alive connections closed after keepAliveTimeoutMs, and what Node's parser refuses (malformed request,
 * headers over the size limit, timeouts) answered in the error envelope with the API's headers (http/client-error.ts),
 * not with Node's bare 400/408/431. The API port and the health listener (health/health-server.ts) both use it.
 * `messages`: the classes of its requests and responses (the API's: http/express-messages.ts).
 */
export function createLimitedServer(handler: RequestListener, timeouts: HttpTimeouts, logger: Logger, messages?: Pick<ServerOptions, "IncomingMessage" | "ServerResponse">): Server {
  const checked = checkTimeouts(timeouts);
  const server = createServer(
    {
      ...messages,
      requestTimeout: checked.requestTimeoutMs,
      headersTimeout: checked.headersTimeoutMs,
      // Node checks the timeouts every 30 s by default, so a 10 s timeout could take 40 s to fire.
      connectionsCheckingInterval: Math.min(1_000, Math.max(10, Math.floor(checked.headersTimeoutMs / 4))),
      // Node's own missing-Host answer is an empty 400; the app answers it in the envelope instead (app.ts).
      requireHostHeader: false,
    },
    handler,
  );
  server.keepAliveTimeout = checked.keepAliveTimeoutMs;
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => onClientError(err, socket, logger));
  return server;
}

export function listen(
  app: Express,
  opts: { port: number; host: string; logger: Logger; graceMs?: number; timeouts?: Partial<HttpTimeouts>; backlog?: number },
): Promise<RunningServer> {
  const server = createLimitedServer(app, { ...DEFAULT_HTTP_TIMEOUTS, ...opts.timeouts }, opts.logger, expressMessageClasses(app));
  // An Expect other than 100-continue: the app answers 417 in the envelope (http/header-checks.ts), not Node.
  server.on("checkExpectation", app);
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
    server.listen({ port: opts.port, host: opts.host, backlog: opts.backlog ?? DEFAULT_LISTEN_BACKLOG }, () => {
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

