// The express app. Request order (docs/api.md "Check order"):
//   CORS preflight → routing (404 NOT_FOUND / 405 METHOD_NOT_ALLOWED) → auth (401) → rate limit (429)
//   → admission of heavy requests (503, http/admission.ts) → content type (415) → body size (413) → JSON (400)
//   → validation (400) → service (404 / 200).
// Every response carries X-Data-Version, the CORS headers and the security headers (http/security-headers.ts);
// authenticated ones also carry RateLimit-*. Failures before routing (malformed HTTP, timeouts) are answered by
// the server's clientError listener (http/client-error.ts), bodies are read by http/body.ts.
import type { FeedRiskService } from "./services/feed-risk-service.ts";
import { otherGridInputs } from "../lib/drought/grid-sources.ts";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Logger } from "../lib/log.ts";
import type { KeyStore } from "./auth/key-store.ts";
import type { ExportService } from "./services/export-service.ts";
import { UNKNOWN_FRESHNESS, type Freshness, type SourceStatusService } from "./services/source-status-service.ts";
import { ApiError } from "./errors.ts";
import { Admission, DEFAULT_BULK_ADMISSION, type AdmissionLimits } from "./http/admission.ts";
import { errorHandler } from "./http/error-handler.ts";
import { headerProblem } from "./http/header-checks.ts";
import { DEFAULT_BODY_LIMIT } from "./http/body.ts";
import { securityHeaders } from "./http/security-headers.ts";
import type { RateDecision, RateLimiter } from "./limits/rate-limit.ts";
import { createMetrics } from "./metrics.ts";
import { buildOpenApi } from "./openapi.ts";
import { API_ROUTES } from "./routes/index.ts";
import { CSV_TIME_HEADERS } from "./routes/drought-csv.ts";
import type { Handler, Method, Route, RouteContext } from "./routes/route.ts";
import type { OutbreakService } from "./services/outbreak-service.ts";
import type { DroughtHistory, DroughtService } from "./services/types.ts";
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
  /** Bulk streams running and waiting at once (http/admission.ts DEFAULT_BULK_ADMISSION when not given). */
  bulkLimits?: AdmissionLimits;
  /** Routers with their own paths and auth (map page, tiles), mounted before the routing gate. */
  routers?: Router[];
}

/** A path's methods and authentication, for the routing gate (404/405, CORS preflight, auth). */
interface PathEntry {
  path: string;
  methods: Method[];
  auth: boolean;
}

/** The routes of API_ROUTES grouped by path (a path's routes agree on authentication). */
function pathTable(routes: ReadonlyArray<Route>): Map<string, PathEntry> {
  const table = new Map<string, PathEntry>();
  for (const r of routes) {
    const entry = table.get(r.path);
    if (entry === undefined) table.set(r.path, { path: r.path, methods: [r.method], auth: r.auth });
    else if (entry.auth !== r.auth || entry.methods.includes(r.method)) throw new Error(`${r.method} ${r.path} is declared twice or disagrees on auth`);
    else entry.methods.push(r.method);
  }
  return table;
}
const ROUTE_BY_PATH = pathTable(API_ROUTES);

export const EXPOSED_HEADERS = `X-Data-Version, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, ETag, ${CSV_TIME_HEADERS.join(", ")}`;

function allowHeader(route: PathEntry): string {
  return [...route.methods.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])), "OPTIONS"].join(", ");
}

function setRateHeaders(res: Response, d: RateDecision): void {
  res.setHeader("RateLimit-Limit", String(d.limit));
  res.setHeader("RateLimit-Remaining", String(d.remaining));
  res.setHeader("RateLimit-Reset", String(d.resetSeconds));
}

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
    // A streamed answer (bulk) charges as it goes: once its headers are out, the decision is only the 429's.
    if (!res.headersSent) setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimited(res, decision);
  }

  function rateLimited(res: Response, d: RateDecision): ApiError {
    if (!res.headersSent) res.setHeader("Retry-After", String(Math.max(1, d.resetSeconds)));
    return new ApiError("RATE_LIMIT_EXCEEDED", "Request quota exceeded for the plan", {
      limit: d.limit,
      retryAfterSeconds: Math.max(1, d.resetSeconds),
    });
  }

  // Two Express layers, each a few named steps called in turn (named, so a CPU profile names each step's cost:
  // bench/http-pinned.bench.ts): the entry (security and common headers, the request's log line and metrics, the map
  // and tiles routers for paths that are not API routes), then the API layer (routing gate, auth and rate limit,
  // dispatch). One layer per step cost Express's layer matching six times per request.
  const logRequests = () => logger.isLevelEnabled("info");
  const noop = () => {};

  /** X-Data-Version, CORS, the request's log line and metrics on finish; throws on a missing Host or unknown Expect. */
  function commonHeadersLogMetrics(req: Request, res: Response): void {
    const started = process.hrtime.bigint();
    res.setHeader("X-Data-Version", currentVersion());
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    // One listener ("close" comes once; `on` spares once's wrapper): "close" follows "finish" when the answer was sent.
    // Closed before it was sent (client gone, or closed on a request timeout): no status, not a server error, not in
    // the status metrics.
    res.on("close", function logAndMeasure() {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (!res.writableFinished) return logger.info(logFields(req, res, seconds), "request aborted");
      const route = (res.locals.route as string | undefined) ?? "unmatched";
      metrics.observe(req.method, route, res.statusCode, seconds);
      // req.path has no query string, so nothing secret in it; the key itself is never logged, only its id.
      if (logRequests()) logger.info({ ...logFields(req, res, seconds), status: res.statusCode }, "request");
    });
    // A missing or repeated Host (serve.ts turns off Node's empty-bodied 400) or an unknown Expect.
    const problem = headerProblem(req);
    if (problem !== undefined) {
      res.setHeader("Connection", "close");
      throw problem;
    }
  }

  // The map page and tiles answer their own paths (server/routes/tiles.ts); everything else goes to the API layer.
  // An API path never goes through them (one Map lookup instead of each router's path matching).
  const pageRouters = deps.routers ?? [];
  function mapAndTilesRouters(req: Request, res: Response, next: NextFunction): void {
    let i = 0;
    const step = (err?: unknown) => {
      if (err !== undefined && err !== "route" && err !== "router") return next(err);
      const router = pageRouters[i++];
      if (router === undefined) return next();
      router(req, res, step);
    };
    step();
  }

  app.use(function entry(req: Request, res: Response, next: NextFunction) {
    securityHeaders(req, res, noop); // helmet's two headers, set synchronously
    commonHeadersLogMetrics(req, res);
    if (pageRouters.length === 0 || ROUTE_BY_PATH.has(req.path)) return next();
    mapAndTilesRouters(req, res, next);
  });

  /** 404, CORS preflight (answered here: undefined), 405; else the path's entry. */
  function routingGate(req: Request, res: Response): PathEntry | undefined {
    const route = ROUTE_BY_PATH.get(req.path);
    if (route === undefined) throw new ApiError("NOT_FOUND", `No route ${req.method} ${req.path}`);
    res.locals.route = route.path;
    if (req.method === "OPTIONS") {
      res.setHeader("Allow", allowHeader(route));
      res.setHeader("Access-Control-Allow-Methods", allowHeader(route));
      res.setHeader("Access-Control-Allow-Headers", "X-API-Key, Content-Type, If-None-Match, Accept-Encoding");
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return undefined;
    }
    const method = req.method === "HEAD" ? "GET" : req.method;
    if (!route.methods.includes(method as "GET" | "POST")) {
      res.setHeader("Allow", allowHeader(route));
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed on ${route.path}`, {
        allow: allowHeader(route).split(", "),
      });
    }
    return route;
  }

  /** Auth, then the rate limit's entry point (1 point); throws 401 or 429. */
  async function authAndRateLimit(req: Request, res: Response): Promise<void> {
    const header = req.headers["x-api-key"];
    const record = deps.keys.authenticate(typeof header === "string" ? header : undefined);
    if (record === undefined) throw new ApiError("INVALID_API_KEY", "Missing, invalid, or expired API key");
    res.locals.keyId = record.id;
    res.locals.plan = record.plan;
    const decision = await deps.limiter.consume(record.id, record.plan, 1);
    setRateHeaders(res, decision);
    if (!decision.allowed) throw rateLimited(res, decision);
  }

  // The routes' handlers by "METHOD path": one Map lookup per request instead of Express matching each route's
  // path in turn (HEAD runs the GET handlers; sendJson sends no body for it).
  const handlers = new Map<string, Handler[]>();
  function dispatch(req: Request, res: Response, next: NextFunction): void {
    const chain = handlers.get(`${req.method === "HEAD" ? "GET" : req.method} ${res.locals.route as string}`);
    if (chain === undefined) return next();
    runChain(chain, req, res, next);
  }

  app.use(function api(req: Request, res: Response, next: NextFunction) {
    const route = routingGate(req, res);
    if (route === undefined) return;
    if (!route.auth) return dispatch(req, res, next);
    return authAndRateLimit(req, res).then(() => dispatch(req, res, next));
  });

  // A drought answer is stale by the inputs of the grid it was drawn from, not by those of the other grids.
  const freshness: Freshness = (kind) => deps.sources?.flag(kind, kind === "drought" ? otherGridInputs(deps.drought.gridSource() ?? "stations") : undefined) ?? UNKNOWN_FRESHNESS;
  const ctx: RouteContext = {
    ...deps,
    bodyLimit,
    charge,
    freshness,
    batchAdmission: new Admission("batch", deps.admission),
    exportAdmission: new Admission("export download", deps.admission),
    bulkAdmission: new Admission("bulk", deps.bulkLimits ?? { ...DEFAULT_BULK_ADMISSION, retryAfterSeconds: deps.admission?.retryAfterSeconds ?? 1 }),
    metrics,
    openApi,
  };
  for (const route of API_ROUTES) handlers.set(`${route.method} ${route.path}`, route.handlers(ctx));

  // Not reached: every route of API_ROUTES has its handlers.
  app.use((req) => {
    throw new ApiError("NOT_FOUND", `No route ${req.method} ${req.path}`);
  });

  app.use(errorHandler(logger));

  return app;
}
