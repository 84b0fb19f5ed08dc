// Real examples for the OpenAPI document: requests to the service over the data mirror's build and its answers,
// recorded in server/openapi-examples.json by test/e2e/openapi-examples.test.ts (UPDATE_OPENAPI_EXAMPLES=1 writes the
// file; without it the test asks the running service again and fails where an answer is no longer the recorded one).
// attachExamples puts them on the operations: each parameter's and body's example from the operation's recorded
// request, and under every documented response the answers recorded for that status and content type.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { PROJECT_ROOT } from "../lib/config.ts";

export const EXAMPLES_FILE = resolve(PROJECT_ROOT, "server", "openapi-examples.json");

export interface Example {
  summary: string;
  value: unknown;
}

export interface RecordedRequest {
  method: string;
  /** Path with the query string, as sent. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OperationExamples {
  /** The request whose parameters and body are the operation's examples. */
  request?: RecordedRequest;
  /** Status → content type → example name → example. */
  responses: Record<string, Record<string, Record<string, Example>>>;
}

export interface ExampleFile {
  note: string;
  operations: Record<string, OperationExamples>;
  /** Error answers any operation may give (401, 408, 429, …), by status. */
  errors: Record<string, Example>;
}

export function loadExamples(file = EXAMPLES_FILE): ExampleFile | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ExampleFile) : undefined;
}

interface Parameter {
  name: string;
  in: string;
  schema?: { type?: string };
  example?: unknown;
}

interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }>;
}

/** A parameter's example as its schema types it: query and path text read as the number or array it stands for. */
function typed(p: Parameter, text: string): unknown {
  const type = p.schema?.type;
  if (type === "number" || type === "integer") return Number(text);
  if (type === "array") return text.split(",").map(Number);
  return text;
}

/** The values of a path template's parameters in a concrete path ("/tiles/{tileset}.json", "/tiles/cells.json"). */
function pathValues(template: string, path: string): Record<string, string> {
  const names: string[] = [];
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+?)";
  });
  const m = new RegExp(`^${pattern}$`).exec(path);
  return m ? Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) : {};
}

function requestExamples(template: string, op: Operation, request: RecordedRequest): void {
  const url = new URL(request.path, "http://localhost");
  const values: Record<string, Record<string, string>> = {
    query: Object.fromEntries(url.searchParams),
    path: pathValues(template, url.pathname),
    header: request.headers ?? {},
  };
  for (const p of op.parameters ?? []) {
    const text = values[p.in]?.[p.name];
    if (text !== undefined) p.example = typed(p, text);
  }
  // The body's example goes on the media type it was sent as (the bulk route's text/csv), JSON by default.
  const sentAs = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === "content-type")?.[1].split(";")[0].trim() ?? "application/json";
  const media = op.requestBody?.content[sentAs];
  if (media && request.body !== undefined) media.example = request.body;
}

/** Puts the recorded examples on the document's operations (in place). */
export function attachExamples(paths: Record<string, Record<string, Operation>>, examples: ExampleFile | undefined): void {
  if (examples === undefined) return;
  for (const [template, ops] of Object.entries(paths)) {
    for (const op of Object.values(ops)) {
      const own = op.operationId === undefined ? undefined : examples.operations[op.operationId];
      if (own?.request) requestExamples(template, op, own.request);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          const recorded = own?.responses[status]?.[type];
          const general = type === "application/json" ? examples.errors[status] : undefined;
          if (recorded) media.examples = recorded;
          else if (general) media.examples = { [`error${status}`]: general };
        }
      }
    }
  }
}
