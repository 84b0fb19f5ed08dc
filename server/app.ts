// The express app. Request order (docs/api.md "Check order"):
//   CORS preflight → routing (404 NOT_FOUND / 405 METHOD_NOT_ALLOWED) → auth (401) → rate limit (429)
//   → admission of heavy requests (503, http/admission.ts) → content type (415) → body size (413) → JSON (400)
//   → validation (400) → service (404 / 200).
// Every response carries X-Data-Version, the CORS headers and the security headers (http/security-headers.ts);
// authenticated ones also carry RateLimit-*. Failures before routing (malformed HTTP, timeouts) are answered by
// the server's clientError listener (http/client-error.ts), bodies are read by http/body.ts.
import { eventsHandler } from "./routes/events.ts";
import { stationsHandler } from "./routes/stations.ts";
import { profileHandler } from "./routes/profile.ts";
import { ProfileService } from "./services/profile-service.ts";
import type { FeedRiskService } from "./services/feed-risk-service.ts";
import { otherGridInputs } from "../lib/drought/grid-sources.ts";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Logger } from "../lib/log.ts";
import type { KeyStore } from "./auth/key-store.ts";
import { EXPORT_FILE_NAMES } from "../formats/drought-export.ts";
import { exportHandlers } from "./routes/exports.ts";
import { EXPORTS_PATH, type ExportService } from "./services/export-service.ts";
import { UNKNOWN_FRESHNESS, type Freshness, type SourceStatusService } from "./services/source-status-service.ts";
import { DOCS_CSP, REDOC_BUNDLE_FILE, REDOC_BUNDLE_PATH, renderDocsPage } from "./docs-page.ts";
import { ApiError } from "./errors.ts";
import { Admission, type AdmissionLimits } from "./http/admission.ts";
import { errorHandler } from "./http/error-handler.ts";
import { headerProblem } from "./http/header-checks.ts";
import { DEFAULT_BODY_LIMIT } from "./http/body.ts";
import { sendJson } from "./http/respond.ts";
import { FRAME_ANCESTORS_NONE, securityHeaders } from "./http/security-headers.ts";
import type { RateDecision, RateLimiter } from "./limits/rate-limit.ts";
import { createMetrics } from "./metrics.ts";
import { buildOpenApi } from "./openapi.ts";
import { riskMapHandlers } from "./routes/risk-map.ts";
import { outbreakHandlers } from "./routes/outbreak.ts";
import type { OutbreakService } from "./services/outbreak-service.ts";
import type { DroughtHistory, DroughtService } from "./services/types.ts";
import { supplyChainHandlers } from "./routes/supply-chain.ts";
import type { SupplyChainService } from "./services/supply-chain-service.ts";

export interface AppDeps {
  drought: DroughtService;
  keys: KeyStore;
  limiter: RateLimiter;
  logger: Logger;
  ready: () => boolean;
  /** Largest accepted JSON body in bytes (default 64 KiB). */
  bodyLimit?: number;
  /** Outbreak radar; without it POST /api/outbreak-radar/query answers 503 SERVICE_UNAVAILABLE. */
  outbreak?: OutbreakService;
  /** Supply chain; without it POST /api/supply-chain/query answers 503 SERVICE_UNAVAILABLE. */
  supplyChain?: SupplyChainService;
  /** Monthly records at a point or of a province; without it the history routes answer 503. */
  history?: DroughtHistory;
  /** Sources status (freshness of answers, /api/status); without it answers say stale: null with the reason. */
  sources?: SourceStatusService;
  /** The drought version's exports; without it the export routes answer 503 SERVICE_UNAVAILABLE. */
  exports?: ExportService;
  /** Feed snapshots' events and stations for map layers; without it GET /api/risk-map/events and /stations answer 503. */
  feeds?: FeedRiskService;
  /** Heavy requests (batch, export downloads) running and waiting at once, per class; past them 503 (http/admission.ts). */
  admission?: AdmissionLimits;
  /** Routers with their own paths and auth (map page, tiles), mounted before the routing gate. */
  routers?: Router[];
}

interface RouteDef {
  path: string;
  methods: ReadonlyArray<"GET" | "POST">;
  auth: boolean;
}

/** Every route the service knows: the routing gate answers 404/405 from this table. */
export const ROUTES: ReadonlyArray<RouteDef> = [
  { path: "/healthz", methods: ["GET"], auth: false },
  { path: "/readyz", methods: ["GET"], auth: false },
  { path: "/metrics", methods: ["GET"], auth: false },
  { path: "/api/status", methods: ["GET"], auth: false },
  { path: "/openapi.json", methods: ["GET"], auth: false },
  { path: "/docs", methods: ["GET"], auth: false },
  { path: "/docs/redoc.standalone.js", methods: ["GET"], auth: false },
  { path: "/api/ping", methods: ["GET"], auth: true },
  { path: "/api/risk-map/score", methods: ["POST"], auth: true },
  { path: "/api/risk-map/drought", methods: ["GET"], auth: true },
  { path: "/api/risk-map/drought/province", methods: ["GET"], auth: true },
  { path: "/api/risk-map/drought/history", methods: ["GET"], auth: true },
  { path: "/api/risk-map/drought/provinces", methods: ["GET"], auth: true },
  { path: "/api/risk-map/drought/province/history", methods: ["GET"], auth: true },
  { path: "/api/risk-map/batch", methods: ["POST"], auth: true },
  { path: "/api/risk-map/events", methods: ["GET"], auth: true },
  { path: "/api/risk-map/stations", methods: ["GET"], auth: true },
  { path: "/api/risk-map/profile", methods: ["GET"], auth: true },
  { path: "/api/supply-chain/query", methods: ["POST"], auth: true },
  { path: "/api/supply-chain/ports", methods: ["GET"], auth: true },
  { path: "/api/outbreak-radar/query", methods: ["POST"], auth: true },
  { path: "/api/outbreak-radar/status", methods: ["GET"], auth: true },
  { path: EXPORTS_PATH, methods: ["GET"], auth: true },
  ...EXPORT_FILE_NAMES.map((name) => ({ path: `${EXPORTS_PATH}/${name}`, methods: ["GET"] as const, auth: true })),
];
const ROUTE_BY_PATH = new Map(ROUTES.map((r) => [r.path, r]));

export const EXPOSED_HEADERS = "X-Data-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag";

function allowHeader(route: RouteDef): string {
  return [...route.methods.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])), "OPTIONS"].join(", ");
}

function setRateHeaders(res: Response, d: RateDecision): void {
  res.setHeader("RateLimit-Limit", String(d.limit));
  res.setHeader("RateLimit-Remaining", String(d.remaining));
  res.setHeader("RateLimit-Reset", String(d.resetSeconds));
}

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;

/** Runs handlers in turn, each calling next() to pass on; a throw or a rejected promise goes to the error handler. */
function runChain(chain: Handler[], req: Request, res: Response, done: NextFunction): void {
  let i = 0;
  const step: NextFunction = (err?: unknown) => {
    if (err !== undefined && err !== "route") return done(err);
    const handler = chain[i++];
    if (handler === undefined) return done();
    try {
      const result = handler(req, res, step);
      if (result instanceof Promise) result.catch(done);
    } catch (thrown) {
      done(thrown);
    }
  };
  step();
}

function logFields(req: Request, res: Response, seconds: number) {
  return {
    method: req.method,
    path: req.path,
    route: (res.locals.route as string | undefined) ?? "unmatched",
    durationMs: Math.round(seconds * 1e4) / 10,
    keyId: res.locals.keyId as string | undefined,
  };
}

export function createApp(deps: AppDeps) {
  const { logger } = deps;
  const bodyLimit = deps.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const metrics = createMetrics(() => deps.drought.dataVersion(), undefined, () => deps.sources?.ages() ?? [], () => deps.sources?.file());
  let openApiCache: object | undefined;
  let docsCache: string | undefined;
  const openApi = () => (openApiCache ??= buildOpenApi({ bodyLimit }));

  const app = express();
  /** The drought version's name for X-Data-Version; "none" before the data are loaded (readyz says so). */
  const currentVersion = () => {
    try {
      return deps.drought.dataVersion() || "none";
    } catch {
      return "none";
    }
  };
  app.disable("x-powered-by");
  app.set("etag", false); // we set our own ETags (respond.ts)

  /** Points beyond the entry point (batch cost); a 429 when over budget. */
  async function charge(_req: Request, res: Response, points: number): Promise<void> {
    if (points <= 0) return;
    const { keyId, plan } = res.locals as { keyId: string; plan: string };
    const decision = await deps.limiter.consume(keyId, plan, points);
    setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimited(res, decision);
  }

  function rateLimited(res: Response, d: RateDecision): ApiError {
    res.setHeader("Retry-After", String(Math.max(1, d.resetSeconds)));
    return new ApiError("RATE_LIMIT_EXCEEDED", "Request quota exceeded for the plan", {
      limit: d.limit,
      retryAfterSeconds: Math.max(1, d.resetSeconds),
    });
  }

  // Common headers, request log line and metrics (named, so a CPU profile names each middleware's cost:
  // bench/http-pinned.bench.ts).
  const logRequests = () => logger.isLevelEnabled("info");
  app.use(securityHeaders);
  app.use(function commonHeadersLogMetrics(req, res, next) {
    const started = process.hrtime.bigint();
    res.setHeader("X-Data-Version", currentVersion());
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    res.on("finish", function logAndMeasure() {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (res.locals.route as string | undefined) ?? "unmatched";
      metrics.observe(req.method, route, res.statusCode, seconds);
      // req.path has no query string, so nothing secret in it; the key itself is never logged, only its id.
      if (logRequests()) logger.info({ ...logFields(req, res, seconds), status: res.statusCode }, "request");
    });
    // Connection closed before our answer was sent (client gone, or closed on a request timeout): no status,
    // not a server error, not in the status metrics.
    res.on("close", () => {
      if (!res.writableFinished) logger.info(logFields(req, res, Number(process.hrtime.bigint() - started) / 1e9), "request aborted");
    });
    // A missing or repeated Host (serve.ts turns off Node's empty-bodied 400) or an unknown Expect.
    const problem = headerProblem(req);
    if (problem !== undefined) {
      res.setHeader("Connection", "close");
      throw problem;
    }
    next();
  });

  // The map page and tiles answer their own paths (server/routes/tiles.ts); everything else goes to the gate.
  // An API path never goes through them (one Map lookup instead of each router's path matching).
  const pageRouters = deps.routers ?? [];
  app.use(function mapAndTilesRouters(req, res, next) {
    if (pageRouters.length === 0 || ROUTE_BY_PATH.has(req.path)) return next();
    let i = 0;
    const step = (err?: unknown) => {
      if (err !== undefined && err !== "route" && err !== "router") return next(err);
      const router = pageRouters[i++];
      if (router === undefined) return next();
      router(req, res, step);
    };
    step();
  });

  // Routing gate: 404, CORS preflight, 405.
  app.use(function routingGate(req, res, next) {
    const route = ROUTE_BY_PATH.get(req.path);
    if (route === undefined) throw new ApiError("NOT_FOUND", `No route ${req.method} ${req.path}`);
    res.locals.route = route.path;
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", allowHeader(route));
      res.setHeader("Access-Control-Allow-Methods", allowHeader(route));
      res.setHeader("Access-Control-Allow-Headers", "X-API-Key, Content-Type, If-None-Match, Accept-Encoding");
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    const method = req.method === "HEAD" ? "GET" : req.method;
    if (!route.methods.includes(method as "GET" | "POST")) {
      res.setHeader("Allow", allowHeader(route));
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed on ${route.path}`, {
        allow: allowHeader(route).split(", "),
      });
    }
    res.locals.auth = route.auth;
    next();
  });

  // Auth, then the rate limit's entry point (1 point).
  app.use(async function authAndRateLimit(req: Request, res: Response, next: NextFunction) {
    if (!res.locals.auth) return next();
    const header = req.headers["x-api-key"];
    const record = deps.keys.authenticate(typeof header === "string" ? header : undefined);
    if (record === undefined) throw new ApiError("INVALID_API_KEY", "Missing, invalid, or expired API key");
    res.locals.keyId = record.id;
    res.locals.plan = record.plan;
    const decision = await deps.limiter.consume(record.id, record.plan, 1);
    setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimited(res, decision);
    next();
  });

  // The routes' handlers by "METHOD path": one Map lookup per request instead of Express matching each route's
  // path in turn (HEAD runs the GET handlers; sendJson sends no body for it).
  const handlers = new Map<string, Handler[]>();
  app.use(function dispatch(req, res, next) {
    const chain = handlers.get(`${req.method === "HEAD" ? "GET" : req.method} ${res.locals.route as string}`);
    if (chain === undefined) return next();
    runChain(chain, req, res, next);
  });

  on("GET", "/healthz", (req, res) => sendJson(req, res, 200, { success: true, data: { status: "ok" } }));
  on("GET", "/readyz", (req, res) => {
    if (!deps.ready()) throw new ApiError("SERVICE_UNAVAILABLE", "Drought data is not loaded yet");
    sendJson(req, res, 200, { success: true, data: { status: "ready", dataVersion: res.getHeader("X-Data-Version") } });
  });
  on("GET", "/metrics", async (_req, res) => {
    const text = await metrics.registry.metrics();
    res.setHeader("Content-Type", metrics.registry.contentType);
    res.end(text);
  });
  on("GET", "/openapi.json", (req, res) => sendJson(req, res, 200, openApi()));
  on("GET", "/docs", (_req, res) => {
    docsCache ??= renderDocsPage(openApi() as Parameters<typeof renderDocsPage>[0]);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Security-Policy", `${DOCS_CSP}; ${FRAME_ANCESTORS_NONE}`);
    res.end(docsCache);
  });
  // Redoc's bundle changes only with the installed package: cached for a day, revalidated by ETag.
  on("GET", REDOC_BUNDLE_PATH, (_req, res, next) => res.sendFile(REDOC_BUNDLE_FILE, { maxAge: "1d", immutable: false, headers: { "Content-Type": "text/javascript; charset=utf-8" } }, (err) => err && next(err)));
  on("GET", "/api/ping", (req, res) => sendJson(req, res, 200, { success: true, data: { pong: true } }));

  // A drought answer is stale by the inputs of the grid it was drawn from, not by those of the other grids.
  const freshness: Freshness = (kind) => deps.sources?.flag(kind, kind === "drought" ? otherGridInputs(deps.drought.gridSource() ?? "stations") : undefined) ?? UNKNOWN_FRESHNESS;
  on("GET", "/api/status", (req, res) => {
    if (!deps.sources) throw new ApiError("SERVICE_UNAVAILABLE", "the sources status is not available in this process");
    let drought = "none";
    try {
      drought = deps.drought.dataVersion() || "none";
    } catch {
      // not loaded yet
    }
    sendJson(req, res, 200, { success: true, data: deps.sources.status(drought) });
  });
  const batchAdmission = new Admission("batch", deps.admission);
  const riskMap = riskMapHandlers({ drought: deps.drought, bodyLimit, charge, freshness, history: deps.history, admission: batchAdmission });
  on("POST", "/api/risk-map/score", riskMap.score);
  on("GET", "/api/risk-map/drought", riskMap.drought);
  on("GET", "/api/risk-map/drought/province", riskMap.province);
  on("GET", "/api/risk-map/drought/history", riskMap.history);
  on("GET", "/api/risk-map/drought/provinces", riskMap.choropleth);
  on("GET", "/api/risk-map/drought/province/history", riskMap.provinceHistory);
  on("POST", "/api/risk-map/batch", batchAdmission.gate, riskMap.batch);
  on("GET", "/api/risk-map/events", eventsHandler(deps.feeds, freshness));
  on("GET", "/api/risk-map/stations", stationsHandler(deps.feeds, freshness));
  const profile = new ProfileService({ score: deps.drought, outbreak: deps.outbreak, supplyChain: deps.supplyChain, freshness });
  on("GET", "/api/risk-map/profile", profileHandler({ profile, charge }));
  const supplyChain = supplyChainHandlers({ supplyChain: deps.supplyChain, bodyLimit, freshness });
  on("POST", "/api/supply-chain/query", supplyChain.query);
  on("GET", "/api/supply-chain/ports", supplyChain.ports);
  const outbreak = outbreakHandlers({ outbreak: deps.outbreak, bodyLimit, freshness });
  on("POST", "/api/outbreak-radar/query", outbreak.query);
  on("GET", "/api/outbreak-radar/status", outbreak.status);
  const exportsOrUnavailable = () => {
    if (!deps.exports) throw new ApiError("SERVICE_UNAVAILABLE", "exports are not available in this process");
    return exportHandlers(deps.exports);
  };
  on("GET", EXPORTS_PATH, (req, res) => exportsOrUnavailable().list(req, res));
  const exportAdmission = new Admission("export download", deps.admission);
  for (const name of EXPORT_FILE_NAMES) on("GET", `${EXPORTS_PATH}/${name}`, exportAdmission.middleware, (req, res, next) => exportsOrUnavailable().file(name)(req, res, next));

  // Reached only if a route in ROUTES has no handler.
  app.use((req) => {
    throw new ApiError("NOT_FOUND", `No route ${req.method} ${req.path}`);
  });

  app.use(errorHandler(logger));

  /** Registers a route's handlers (run in turn, as Express runs a route's), reached through dispatch. */
  function on(method: "GET" | "POST", path: string, ...chain: Handler[]): void {
    if (!ROUTE_BY_PATH.get(path)?.methods.includes(method)) throw new Error(`${method} ${path} is not in ROUTES`);
    handlers.set(`${method} ${path}`, chain);
  }

  return app;
}
