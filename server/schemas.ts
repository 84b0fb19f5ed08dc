// The request and response schemas of the API, defined once: routes validate with them, types.ts infers the
// service types from them, and openapi.ts generates the OpenAPI 3.1 document from them (z.toJSONSchema). One module
// per route group (schemas-*.ts); this file names the shared ones and those of the drought and score routes, so
// their importers need one module.
export * from "./schemas-common.ts";
export * from "./schemas-drought.ts";
export * from "./schemas-batch.ts";
export * from "./schemas-score.ts";
export * from "./schemas-feed-risk.ts";
