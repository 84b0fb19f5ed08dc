// A route declared once: its method, path, authentication, OpenAPI operation and handlers. app.ts builds the routing
// gate (404/405, auth) and the dispatch from the list in routes/index.ts, openapi.ts the document's paths from the
// same list, so an endpoint is added by one entry in one file.
import type { NextFunction, Request, Response } from "express";
import type { AppDeps } from "../app.ts";
import type { Admission } from "../http/admission.ts";
import type { Metrics } from "../metrics.ts";
import type { Operation } from "../openapi-parts.ts";
import type { Freshness } from "../services/source-status-service.ts";

export type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
export type Method = "GET" | "POST";

/** What a route's handlers are built from: the app's dependencies and what the app makes of them. */
export interface RouteContext extends AppDeps {
  bodyLimit: number;
  /** Charges points beyond the entry point (batch, profile); throws a 429 ApiError when over budget. */
  charge: (req: Request, res: Response, points: number) => Promise<void>;
  /** The freshness flag of an answer kind (stale, staleSources). */
  freshness: Freshness;
  /** Batches answered and waiting at once; export downloads likewise (http/admission.ts). */
  batchAdmission: Admission;
  exportAdmission: Admission;
  /** Bulk streams running and waiting at once (one slot per request, for its whole stream). */
  bulkAdmission: Admission;
  metrics: Metrics;
  /** The OpenAPI document (built once, on first use). */
  openApi: () => object;
}

/** What a route's OpenAPI operation is written from. */
export interface DocContext {
  bodyLimit: number;
}

export interface Route {
  method: Method;
  path: string;
  /** Needs X-API-Key and counts against the plan (1 point at the gate). */
  auth: boolean;
  /** The OpenAPI operation; null only for the document itself and its page, which describe the others. */
  doc: ((d: DocContext) => Operation) | null;
  /** Run in turn, each calling next() to pass on, as Express runs a route's handlers. */
  handlers: (ctx: RouteContext) => Handler[];
}
