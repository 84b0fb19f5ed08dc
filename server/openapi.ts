// The OpenAPI 3.1 document: the operations the routes declare (routes/index.ts, routes/tiles-doc.ts), written from the
// zod schemas with z.toJSONSchema (JSON Schema 2020-12, which OpenAPI 3.1 uses as is), with the headers every response
// carries and the document's frame. Nothing here restates a field or a route.
import { errorEnvelopeSchema, RISK_TYPES } from "./schemas.ts";
import { attachExamples, loadExamples, type ExampleFile } from "./openapi-examples.ts";
import { jsonSchema, type Operation } from "./openapi-parts.ts";
import { API_ROUTES } from "./routes/index.ts";
import type { DocContext, Route } from "./routes/route.ts";
import { TILE_OPERATIONS } from "./routes/tiles-doc.ts";

const X_DATA_VERSION = { schema: { type: "string" }, description: "Version of the drought data that answered (none before loading)" };
const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { schema: { type: "integer" }, description: "Points of the key's plan per window" },
  "RateLimit-Remaining": { schema: { type: "integer" }, description: "Points left in the window" },
  "RateLimit-Reset": { schema: { type: "integer" }, description: "Seconds until the window resets" },
};

type Responses = Record<string, { headers?: Record<string, unknown>; [key: string]: unknown }>;

/**
 * Headers every response documents: X-Data-Version on all; the RateLimit-* set on every response of an operation
 * that needs a key (after authentication; a 401 has none) and counts against the plan; Retry-After on 429.
 */
function withHeaders<T extends Record<string, Record<string, { security?: unknown[]; responses: Responses; [key: string]: unknown }>>>(paths: T): T {
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      // Tiles need a key but are not counted against the plan (x-rate-limited: false): no RateLimit-* on them.
      const authenticated = (op.security === undefined || op.security.length > 0) && op["x-rate-limited"] !== false;
      for (const [status, r] of Object.entries(op.responses)) {
        const headers: Record<string, unknown> = { "X-Data-Version": X_DATA_VERSION };
        if (authenticated && status !== "401") Object.assign(headers, RATE_LIMIT_HEADERS);
        if (status === "429" || status === "503") headers["Retry-After"] = { schema: { type: "integer" }, description: "Seconds to wait before the next request (on a 503: when overloaded)" };
        if (status === "416") headers["Content-Range"] = { schema: { type: "string" }, description: "bytes */SIZE" };
        r.headers = { ...headers, ...(r.headers ?? {}) };
      }
    }
  }
  return paths;
}

/** The operations of a list of routes by path and method; a route without a key says so (security: []). */
function routePaths(routes: ReadonlyArray<Route>, d: DocContext): Record<string, Record<string, Operation>> {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const r of routes) {
    if (r.doc === null) continue;
    const op = r.doc(d);
    (paths[r.path] ??= {})[r.method.toLowerCase()] = r.auth ? op : { ...op, security: [] };
  }
  return paths;
}

export const API_TITLE = "Climate, outbreak and supply-chain risk API";

function apiDescription(): string {
  return (
    `Risk scores for ${RISK_TYPES.join(", ")} at any coordinate the data cover; drought indices, history and exports for ` +
    "Thailand's grid and provinces; outbreak radar (dengue, influenza, covid, cholera, malaria) and port supply-chain " +
    "status worldwide where their sources reach. Every /api route but /api/status needs the X-API-Key header. Errors use " +
    'one envelope: {"success": false, "error": {"code", "message", "details"}}, code from the enum of components.schemas.Error. ' +
    "Every answer says how fresh its data are (stale, staleSources; GET /api/status) and which period it rests on: " +
    "details.period {from, to}, details.asOf (the newest datum used) and details.currency (current or not against the " +
    "series' horizon: 3 days daily, 21 weekly, 92 monthly, 731 yearly); a recent window the data do not reach says " +
    "'no data for this window' (counts null), a record under a year gives no level, and heatwave comes only from a daily " +
    "station whose latest full year is current (docs/methods/currency.md). Query strings are text: a parameter " +
    "typed number or integer here is sent as a plain decimal (13.75, -0.5) or decimal digits (500) and read as that number, " +
    "and a bbox as four such numbers joined by commas; an exponent, hex, blanks or trailing text are 400 VALIDATION_ERROR. " +
    "Map tiles (/tiles) need the key too but are not counted against the plan. The examples are answers of the service " +
    "over the data mirror's build (lists cut to their first items where the summary says so)."
  );
}

/** The document with the recorded examples of server/openapi-examples.json (`examples`: another file's, for tests). */
export function buildOpenApi(opts: { bodyLimit: number; examples?: ExampleFile }) {
  // A copy without shared objects (operations share parameter and schema objects; structuredClone would keep them
  // shared), so that each operation gets its own examples.
  const doc = JSON.parse(JSON.stringify(openApiDocument(opts))) as ReturnType<typeof openApiDocument>;
  attachExamples(doc.paths as unknown as Parameters<typeof attachExamples>[0], opts.examples ?? loadExamples());
  return doc;
}

function openApiDocument(opts: { bodyLimit: number }) {
  return {
    openapi: "3.1.0",
    info: {
      title: API_TITLE,
      version: "1.0.0",
      description: apiDescription(),
      license: { name: "Proprietary service; the data keep their sources' licences, listed by GET /api/status", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/" }],
    security: [{ ApiKey: [] }],
    components: {
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
      schemas: { Error: jsonSchema(errorEnvelopeSchema, "output") },
    },
    paths: withHeaders({ ...routePaths(API_ROUTES, opts), ...TILE_OPERATIONS }),
  };
}
