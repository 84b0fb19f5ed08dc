// The health listener's HTTP side (HEALTH_PORT): GET or HEAD /healthz only, answered from the age of the
// serving loop's heartbeat, never from that loop. 200 while the loop beat within `stallMs`; 503 SERVICE_UNAVAILABLE
// (reason "event loop stalled") past it, so a liveness probe restarts a hung process but not a busy one.
// No key (as /healthz on the API port); bodies in the API's envelope; nothing is cached.
// HTTP as on the API port (serve.ts createLimitedServer): the same request, headers and keep-alive timeouts, and a
// malformed request, oversized headers or a timeout answered in the envelope with the API's headers
// (http/client-error.ts), never with Node's bare 400/431; an Expect other than 100-continue is 417 in the envelope.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { ApiError, errorEnvelope, type ErrorCode } from "../errors.ts";
import { FRAME_ANCESTORS_NONE, NOSNIFF } from "../http/security-headers.ts";
import { createLimitedServer, DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from "../serve.ts";
import { log, type Logger } from "../../lib/log.ts";

export interface HealthReading {
  /** Milliseconds since the serving loop last beat (the worst of the workers' under WORKERS > 1). */
  heartbeatAgeMs: number;
  /** Processes serving the API that beat (1 without workers). */
  serving: number;
}

const HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": NOSNIFF,
  "Content-Security-Policy": FRAME_ANCESTORS_NONE,
};

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, ...extra, "Content-Length": Buffer.byteLength(text) });
  res.end(res.req.method === "HEAD" ? undefined : text);
}

const fail = (code: ErrorCode, message: string, details: Record<string, unknown> = {}) => errorEnvelope(new ApiError(code, message, details));

export function healthAnswer(reading: HealthReading, stallMs: number): { status: number; body: unknown } {
  const heartbeatAgeMs = Math.round(reading.heartbeatAgeMs);
  if (reading.serving > 0 && heartbeatAgeMs <= stallMs) return { status: 200, body: { success: true, data: { status: "ok", heartbeatAgeMs, serving: reading.serving } } };
  const why = reading.serving === 0 ? "no process is serving the API" : `the serving event loop has not run for ${heartbeatAgeMs} ms`;
  return { status: 503, body: fail("SERVICE_UNAVAILABLE", `Not alive: ${why}`, { reason: reading.serving === 0 ? "no workers" : "event loop stalled", heartbeatAgeMs, stallMs }) };
}

export function createHealthServer(read: () => HealthReading, stallMs: number, timeouts: HttpTimeouts = DEFAULT_HTTP_TIMEOUTS, logger: Logger = log): Server {
  const server = createLimitedServer(
    (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? "").split("?")[0];
      if (path !== "/healthz") return send(res, 404, fail("NOT_FOUND", "The health port answers GET /healthz only", { path }));
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, fail("METHOD_NOT_ALLOWED", "Use GET or HEAD", { allowed: ["GET", "HEAD"] }), { Allow: "GET, HEAD" });
      const { status, body } = healthAnswer(read(), stallMs);
      send(res, status, body);
    },
    timeouts,
    logger,
  );
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) =>
    send(res, 417, fail("EXPECTATION_FAILED", "Only the expectation 100-continue is supported", { received: req.headers.expect, supported: ["100-continue"] }), { Connection: "close" }),
  );
  return server;
}
