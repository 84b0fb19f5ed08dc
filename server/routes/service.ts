// The service's own routes: liveness, readiness, metrics, the API document and its page, the key check (ping) and
// the sources status. No data answers here.
import { z } from "zod";
import { DOCS_CSP, REDOC_BUNDLE_FILE, REDOC_BUNDLE_PATH, renderDocsPage } from "../docs-page.ts";
import { ApiError } from "../errors.ts";
import { sendJson } from "../http/respond.ts";
import { FRAME_ANCESTORS_NONE } from "../http/security-headers.ts";
import { errorResponses, jsonSchema, ok } from "../openapi-parts.ts";
import { pingData, successEnvelope } from "../schemas.ts";
import { statusData } from "../schemas-freshness.ts";
import type { Route } from "./route.ts";

const readyData = successEnvelope(z.object({ status: z.literal("ready"), dataVersion: z.string() }));

export const serviceRoutes: Route[] = [
  {
    method: "GET",
    path: "/healthz",
    auth: false,
    doc: () => ({
      operationId: "health",
      summary: "Liveness: 200 while the process runs (no auth)",
      description:
        "Answered in turn with the requests queued before it, so under a burst it can wait (bench/admission.bench.ts). " +
        "For a liveness probe that must answer under load, set HEALTH_PORT: a listener on a thread of its own answers GET /healthz there " +
        "from this process's event-loop heartbeat, 503 SERVICE_UNAVAILABLE (reason \"event loop stalled\") past HEALTH_STALL_MS (docs/deploy.md §3.5).",
      responses: { "200": { description: "alive", content: { "application/json": { schema: jsonSchema(successEnvelope(z.object({ status: z.literal("ok") })), "output") } } } },
    }),
    handlers: () => [(req, res) => sendJson(req, res, 200, { success: true, data: { status: "ok" } })],
  },
  {
    method: "GET",
    path: "/readyz",
    auth: false,
    doc: () => ({
      operationId: "ready",
      summary: "Readiness: 200 when drought data is loaded, else 503 SERVICE_UNAVAILABLE (no auth)",
      responses: {
        "200": { description: "ready", content: { "application/json": { schema: jsonSchema(readyData, "output") } } },
        "503": { description: "not ready", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    }),
    handlers: (ctx) => [
      (req, res) => {
        if (!ctx.ready()) throw new ApiError("SERVICE_UNAVAILABLE", "Drought data is not loaded yet");
        sendJson(req, res, 200, { success: true, data: { status: "ready", dataVersion: res.getHeader("X-Data-Version") } });
      },
    ],
  },
  {
    method: "GET",
    path: "/metrics",
    auth: false,
    doc: () => ({
      operationId: "metrics",
      summary: "Prometheus metrics (no auth; text exposition format, checked by promtool in the tests)",
      responses: { "200": { description: "text exposition format", content: { "text/plain": { schema: { type: "string" } } } } },
    }),
    handlers: (ctx) => [
      async (_req, res) => {
        const text = await ctx.metrics.registry.metrics();
        res.setHeader("Content-Type", ctx.metrics.registry.contentType);
        res.end(text);
      },
    ],
  },
  {
    method: "GET",
    path: "/openapi.json",
    auth: false,
    doc: null,
    handlers: (ctx) => [(req, res) => sendJson(req, res, 200, ctx.openApi())],
  },
  {
    method: "GET",
    path: "/docs",
    auth: false,
    doc: null,
    handlers: (ctx) => {
      let page: string | undefined;
      return [
        (_req, res) => {
          page ??= renderDocsPage(ctx.openApi() as Parameters<typeof renderDocsPage>[0]);
          res.setHeader("Content-Type", "text/html; charset=utf-8");
          res.setHeader("Content-Security-Policy", `${DOCS_CSP}; ${FRAME_ANCESTORS_NONE}`);
          res.end(page);
        },
      ];
    },
  },
  {
    method: "GET",
    path: REDOC_BUNDLE_PATH,
    auth: false,
    doc: null,
    // Redoc's bundle changes only with the installed package: cached for a day, revalidated by ETag.
    handlers: () => [
      (_req, res, next) =>
        res.sendFile(REDOC_BUNDLE_FILE, { maxAge: "1d", immutable: false, headers: { "Content-Type": "text/javascript; charset=utf-8" } }, (err) => err && next(err)),
    ],
  },
  {
    method: "GET",
    path: "/api/ping",
    auth: true,
    doc: () => ({
      operationId: "ping",
      summary: "Authenticated no-op for benchmarks and key checks",
      responses: { "200": ok("pong", { "application/json": successEnvelope(pingData) }), ...errorResponses(["401", "429", "500", "503"]) },
    }),
    handlers: () => [(req, res) => sendJson(req, res, 200, { success: true, data: { pong: true } })],
  },
  {
    method: "GET",
    path: "/api/status",
    auth: false,
    doc: () => ({
      operationId: "status",
      summary: "How fresh the data are: every source with its data as-of, age, cadence and status, and the published versions (no key)",
      description:
        "Statuses: fresh, stale (older than 3 × the cadence), offline (no download in use: SOURCES_OFFLINE, no network, no credential, " +
        "or no public origin; the data directory's copy serves), failed (the last refresh failed; the previous copy serves). " +
        "Every answer carries `stale` and `staleSources` for the sources it is drawn from. 503 when the process has no status service.",
      responses: { "200": ok("Sources status", { "application/json": successEnvelope(statusData) }), ...errorResponses(["405", "408", "431", "500", "503"]) },
    }),
    handlers: (ctx) => [
      (req, res) => {
        if (!ctx.sources) throw new ApiError("SERVICE_UNAVAILABLE", "the sources status is not available in this process");
        let drought = "none";
        try {
          drought = ctx.drought.dataVersion() || "none";
        } catch {
          // not loaded yet
        }
        sendJson(req, res, 200, { success: true, data: ctx.sources.status(drought) });
      },
    ],
  },
];
