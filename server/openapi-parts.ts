// The pieces every route's OpenAPI operation is written with (server/routes/*.ts declare their operations; openapi.ts
// assembles the document): JSON Schema from the zod schemas, query parameters as clients send them, the error
// responses and the notes several operations share.
import { z } from "zod";
import { MAX_JSON_DEPTH } from "./http/body.ts";
import { bboxText } from "./schemas-events.ts";
import { RISK_TYPES } from "./schemas.ts";

export type JsonSchema = Record<string, unknown>;

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const out = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** How a number in a query string is read (queryNumber, queryInteger in schemas.ts), said on each such parameter. */
export const QUERY_NUMBER_NOTE = "Sent as text and read as this number: a plain decimal (13.75, -0.5); an exponent, hex, blanks or trailing text are 400 VALIDATION_ERROR.";
export const QUERY_INTEGER_NOTE = "Sent as text and read as this whole number: decimal digits (500); a fraction, exponent or blanks are 400 VALIDATION_ERROR.";
const BBOX_NOTE = "Sent as the four numbers joined by commas (style form, explode false: bbox=97,5,106,21), each a plain decimal.";

/**
 * A query parameter's schema as a client sends it. The zod schemas read query text (strings) and turn numbers into
 * numbers: the document types those by what they become (number, integer), with the rule of the text in the
 * description, so that generated clients take numbers; the bbox is an array of four numbers, comma-joined.
 */
function queryParameter(name: string, field: z.ZodType) {
  const required = !field.safeParse(undefined).success;
  if (field === bboxText) {
    const { description } = jsonSchema(field, "input");
    const schema = { type: "array", items: { type: "number" }, minItems: 4, maxItems: 4 };
    return { name, in: "query", required, style: "form", explode: false, description: `${String(description)}. ${BBOX_NOTE}`, schema };
  }
  const input = jsonSchema(field, "input");
  const output = jsonSchema(field, "output");
  const numeric = input.type === "string" && (output.type === "number" || output.type === "integer");
  const { description, ...schema } = numeric ? output : input;
  const note = numeric ? (output.type === "integer" ? QUERY_INTEGER_NOTE : QUERY_NUMBER_NOTE) : undefined;
  const text = [description, note].filter((x) => x !== undefined && x !== "").map((x) => String(x).replace(/([^.])$/, "$1.")).join(" ");
  return { name, in: "query", required, ...(text === "" ? {} : { description: text }), schema };
}

export function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => queryParameter(name, field as z.ZodType));
}

export function jsonBody(schema: z.ZodType) {
  return { required: true, content: { "application/json": { schema: jsonSchema(schema, "input") } } };
}

export const ERRORS = {
  "400":
    "VALIDATION_ERROR: missing or invalid parameters, malformed JSON, JSON nested deeper than 32 levels (too_deep), " +
    "a compressed body that does not decode (corrupt_encoding), forbidden keys, a key repeated in one object (duplicate_key). " +
    "BAD_REQUEST: malformed HTTP, no Host or more than one Host header (connection closed)",
  "401": "INVALID_API_KEY: missing, unknown, revoked or expired API key",
  "404": "NOT_FOUND: no data for this location / province / risk type",
  "405": "METHOD_NOT_ALLOWED (Allow header lists the methods)",
  "408": "REQUEST_TIMEOUT: headers or the whole request not received in time (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS); connection closed",
  "412": "PRECONDITION_FAILED: If-Match or If-Unmodified-Since does not hold for the file as it is now",
  "413": "PAYLOAD_TOO_LARGE: body over the size limit, as sent or once decoded (Content-Encoding)",
  "415": "UNSUPPORTED_MEDIA_TYPE: Content-Type is not application/json, or Content-Encoding is not gzip, deflate, br or identity",
  "416": "RANGE_NOT_SATISFIABLE: Range outside the file (Content-Range: bytes */size)",
  "417": "EXPECTATION_FAILED: an Expect other than 100-continue",
  "429": "RATE_LIMIT_EXCEEDED: plan quota exceeded (see Retry-After)",
  "431": "HEADERS_TOO_LARGE: request headers over 16 KiB; connection closed",
  "500": "INTERNAL_ERROR",
  "503":
    "SERVICE_UNAVAILABLE: data not loaded yet, the feature is not configured in this process, or (reason overloaded, " +
    "with Retry-After) too many heavy requests at once: batches, export downloads, tiles rendered on request",
} as const;

/** The error responses of an operation; `descriptions` says what a status means there when it says more than ERRORS. */
export function errorResponses(codes: ReadonlyArray<keyof typeof ERRORS>, descriptions: Partial<Record<keyof typeof ERRORS, string>> = {}) {
  return Object.fromEntries(
    codes.map((c) => [c, { description: descriptions[c] ?? ERRORS[c], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }]),
  );
}

export function ok(description: string, schemas: Record<string, z.ZodType>) {
  return {
    description,
    content: Object.fromEntries(Object.entries(schemas).map(([type, s]) => [type, { schema: jsonSchema(s, "output") }])),
  };
}

/** The time headers of a drought CSV answer (routes/drought-csv.ts csvTimeHeaders): JSON answers carry them in details. */
export const CSV_TIME_HEADER_DOCS = {
  "X-Data-Period": { description: "CSV answers only: the days the data span, YYYY-MM-DD/YYYY-MM-DD (JSON: details.period); absent when no row has drought data", schema: { type: "string" } },
  "X-Data-As-Of": { description: "CSV answers only: the newest datum's day (JSON: details.asOf)", schema: { type: "string" } },
  "X-Data-Current": { description: "CSV answers only: true when the newest datum is within the series' horizon of today (JSON: details.currency.current)", schema: { type: "string", enum: ["true", "false"] } },
};

export const GET_ERRORS = ["400", "401", "404", "405", "408", "417", "429", "431", "500", "503"] as const;
export const POST_ERRORS = ["400", "401", "404", "405", "408", "413", "415", "417", "429", "431", "500", "503"] as const;
/** A file sent from disk also answers its conditional and range headers. */
export const FILE_ERRORS = [...GET_ERRORS, "412", "416"] as const;

/** Where each risk type has data, from the same list the handlers validate against (RISK_TYPES). */
export const RISK_TYPE_COVERAGE =
  `riskType is one of ${RISK_TYPES.join(", ")}. drought: Thailand's 0.25° SPEI/SPI grid (a point outside its land ` +
  "is 404 NOT_FOUND naming the coverage); " +
  `${RISK_TYPES.filter((t) => t !== "drought").join(", ")}: the feed snapshots, wherever their data reach (worldwide for most; ` +
  "details.coverage names each source's reach, and a point beyond it is 404 NOT_FOUND).";

/** How a point answer picks its month when none is named (score, drought at a point, batch). */
export const POINT_MONTH_NOTE =
  "Without a month, every drought answer (point, score, batch, province, choropleth, map) is for one default month: the " +
  "grid's latest month with every index (spei1, spei3, spei6, spei12, spi1, mcdi all numbers); a cell lacking one that " +
  "month answers its own latest month with all six, and the answer says which rule chose the month (monthReason; batch " +
  "items carry their month). A month that ended more than a year ago is spoken of in the past tense, with the data's end.";


/** What a JSON-body route says of its body (the limit is the app's, AppDeps.bodyLimit). */
export function bodyLimitNote(bodyLimit: number): string {
  return (
    `JSON body of at most ${bodyLimit} bytes (also once decoded), nested at most ${MAX_JSON_DEPTH} levels; ` +
    "Content-Encoding gzip, deflate or br accepted."
  );
}

/** An OpenAPI operation object; `security` is set by openapi.ts from the route's `auth`. */
export interface Operation {
  operationId: string;
  summary: string;
  responses: Record<string, { headers?: Record<string, unknown>; [key: string]: unknown }>;
  [key: string]: unknown;
}
