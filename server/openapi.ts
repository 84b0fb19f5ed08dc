// The OpenAPI 3.1 document, generated from the zod schemas in schemas.ts with z.toJSONSchema (JSON Schema
// 2020-12, which OpenAPI 3.1 uses as is). Nothing here restates a field: only paths, words and wiring.
import { bboxText, eventsQuery, pointEvents, stormTracks } from "./schemas-events.ts";
import { stationsCollection, stationsQuery } from "./schemas-stations.ts";
import { z } from "zod";
import { MAX_JSON_DEPTH } from "./http/body.ts";
import { MAX_BATCH_LOCATIONS, RISK_TYPES } from "./schemas.ts";
import {
  batchBody,
  batchData,
  batchFeatureCollection,
  droughtGridData,
  droughtHistoryData,
  historyQuery,
  provinceHistoryData,
  provinceHistoryQuery,
  choroplethQuery,
  provinceChoropleth,
  droughtQuery,
  errorEnvelopeSchema,
  exportsData,
  pingData,
  provinceDroughtData,
  provinceQuery,
  scoreBody,
  scoreData,
  scoreFeature,
  scoreQuery,
  successEnvelope,
} from "./schemas.ts";
import { portsCollection, portsQuery, supplyChainBody, supplyChainData } from "./schemas-supply-chain.ts";
import { EXPORT_FILE_NAMES } from "../formats/drought-export.ts";
import { freshnessFields, statusData } from "./schemas-freshness.ts";
import { legendData, tileJson, tilesIndexData } from "./schemas-tiles.ts";
import { attachExamples, loadExamples, type ExampleFile } from "./openapi-examples.ts";
import { MAX_RENDER_ZOOM, TILE_INDICES } from "../tiles/tilesets.ts";
import { PROFILE_DISEASES, PROFILE_PARTS, profileData, profileQuery } from "./schemas-profile.ts";
import { DISEASE_TYPES, outbreakBody, outbreakData, outbreakStatusData, outbreakStatusQuery } from "./schemas-outbreak.ts";

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
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

function queryParameters(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => queryParameter(name, field as z.ZodType));
}

function jsonBody(schema: z.ZodType) {
  return { required: true, content: { "application/json": { schema: jsonSchema(schema, "input") } } };
}

const ERRORS = {
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
function errorResponses(codes: ReadonlyArray<keyof typeof ERRORS>, descriptions: Partial<Record<keyof typeof ERRORS, string>> = {}) {
  return Object.fromEntries(
    codes.map((c) => [c, { description: descriptions[c] ?? ERRORS[c], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }]),
  );
}

function ok(description: string, schemas: Record<string, z.ZodType>) {
  return {
    description,
    content: Object.fromEntries(Object.entries(schemas).map(([type, s]) => [type, { schema: jsonSchema(s, "output") }])),
  };
}

const GET_ERRORS = ["400", "401", "404", "405", "408", "417", "429", "431", "500", "503"] as const;
const POST_ERRORS = ["400", "401", "404", "405", "408", "413", "415", "417", "429", "431", "500", "503"] as const;
/** A file sent from disk also answers its conditional and range headers. */
const FILE_ERRORS = [...GET_ERRORS, "412", "416"] as const;

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

const TILESET_PATTERN = `^(drought-(${TILE_INDICES.join("|")})(-\\d{4}-(0[1-9]|1[0-2]))?|provinces|cells|countries)$`;
const tileParameters = [
  {
    name: "tileset",
    in: "path",
    required: true,
    description:
      `drought-{index} (raster PNG; index ${TILE_INDICES.join(", ")}; month from ?month, default the data's latest valid month), ` +
      "drought-{index}-{YYYY-MM} (the month in the name, as TileJSON tile URLs give it), or the vector tilesets provinces, cells, countries (MVT)",
    schema: { type: "string", pattern: TILESET_PATTERN },
  },
  { name: "z", in: "path", required: true, description: `zoom: 0–${MAX_RENDER_ZOOM} for rasters, 0–22 for vector tiles`, schema: { type: "integer", minimum: 0, maximum: 22 } },
  { name: "x", in: "path", required: true, description: "column, 0..2^z-1 (XYZ scheme, Web Mercator)", schema: { type: "integer", minimum: 0 } },
  { name: "y", in: "path", required: true, description: "row, 0..2^z-1 from the north", schema: { type: "integer", minimum: 0 } },
  { name: "ext", in: "path", required: true, description: "png for drought tilesets, mvt for vector ones; the other is 404", schema: { type: "string", enum: ["png", "mvt"] } },
  { name: "month", in: "query", required: false, description: "YYYY-MM for a month-less drought tileset; another format is 400, a month without data 404", schema: { type: "string", pattern: "^\\d{4}-\\d{2}$" } },
];
const TILE_ERRORS = ["400", "401", "404", "405", "408", "431", "500", "503"] as const;
const TILE_404 =
  "NOT_FOUND: unknown tileset (details.tilesets lists them), a month without data (details.firstMonth, lastMonth), or the " +
  "other extension than the tileset's";
const tileResponses = (versioned: boolean) => ({
  "200": {
    description: "the tile: PNG (drought) or MVT 2.1 (vector; Content-Encoding gzip when accepted); ETag",
    headers: { "Cache-Control": { schema: { type: "string" }, description: versioned ? "private, max-age=31536000, immutable" : "private, no-cache (revalidate by ETag)" } },
    content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } }, "application/vnd.mapbox-vector-tile": { schema: { type: "string", contentMediaType: "application/vnd.mapbox-vector-tile" } } },
  },
  "204": { description: "no data in this tile (outside the grid, or sea)" },
  "304": { description: "not modified (If-None-Match)" },
  ...errorResponses(TILE_ERRORS, {
    "404": versioned ? `${TILE_404}; or a data version no longer served (details.current names the served one)` : TILE_404,
    "400": "VALIDATION_ERROR: z, x or y outside the zoom's range, or a month that is not YYYY-MM",
    "503": "SERVICE_UNAVAILABLE: drought data not loaded yet, or (with Retry-After) too many tiles rendered on request at once",
  }),
});

/** The tiles routes (server/routes/tiles.ts): a key in X-API-Key but for the legend and the index, never rate-limited. */
function tilePaths() {
  const keyed = { security: [{ ApiKey: [] }], "x-rate-limited": false };
  const notModified = { "304": { description: "not modified (If-None-Match)" } };
  return {
    "/tiles/legend.json": {
      get: {
        operationId: "tilesLegend",
        summary: "The colour classes of the drought tiles (no key)",
        security: [],
        responses: { "200": ok("Legend", { "application/json": successEnvelope(legendData) }), ...notModified, ...errorResponses(["405", "408", "431", "500"]) },
      },
    },
    "/tiles/index.json": {
      get: {
        operationId: "tilesIndex",
        summary: "The tilesets of the served version: indices, months (default, first, last, precomputed) and a catalog with each TileJSON URL (no key)",
        security: [],
        responses: { "200": ok("Tiles index", { "application/json": successEnvelope(tilesIndexData) }), ...notModified, ...errorResponses(["405", "408", "431", "500", "503"]) },
      },
    },
    "/tiles/{tileset}.json": {
      get: {
        operationId: "tileJson",
        summary: "TileJSON 3.0 of a tileset: versioned tile URLs, zooms, bounds and centre from the archive, attribution, vector layers",
        ...keyed,
        parameters: [tileParameters[0], tileParameters[5]],
        responses: {
          "200": ok("TileJSON", { "application/json": tileJson }),
          ...notModified,
          ...errorResponses(TILE_ERRORS, { "404": TILE_404.replace(", or the other extension than the tileset's", ""), "400": "VALIDATION_ERROR: a month that is not YYYY-MM" }),
        },
      },
    },
    "/tiles/{tileset}/{z}/{x}/{y}.{ext}": {
      get: {
        operationId: "tile",
        summary: "A tile of the served version (revalidated: no-cache and ETag)",
        description:
          "Precomputed months are read from the version's PMTiles archives, other months rendered on request (up to zoom " +
          `${MAX_RENDER_ZOOM}; those wait for an admission slot, 503 with Retry-After past the queue). Tiles are not counted against the plan.`,
        ...keyed,
        parameters: tileParameters,
        responses: tileResponses(false),
      },
    },
    "/tiles/v/{version}/{tileset}/{z}/{x}/{y}.{ext}": {
      get: {
        operationId: "tileVersioned",
        summary: "A tile of a named data version (immutable; TileJSON tile URLs use this form)",
        ...keyed,
        parameters: [{ name: "version", in: "path", required: true, description: "the data version (GET /tiles/index.json, X-Data-Version)", schema: { type: "string" } }, ...tileParameters],
        responses: tileResponses(true),
      },
    },
    "/tiles/archives/{file}": {
      get: {
        operationId: "tileArchive",
        summary: "A PMTiles archive of the served version, for clients that read PMTiles themselves (HTTP Range)",
        description: "Range → 206, outside the file → 416; If-None-Match → 304; If-Match that does not hold → 412. ETag from the file's size and time.",
        ...keyed,
        parameters: [
          { name: "file", in: "path", required: true, description: "an archive the tiles index lists (tiles-provinces.pmtiles, tiles-drought-spei1-2018-10.pmtiles, …)", schema: { type: "string", pattern: "^tiles-[a-z0-9-]+\\.pmtiles$" } },
          { name: "Range", in: "header", required: false, schema: { type: "string" }, description: "bytes=START-END" },
        ],
        responses: {
          "200": { description: "the archive", content: { "application/vnd.pmtiles": { schema: { type: "string", contentMediaType: "application/vnd.pmtiles" } } } },
          "206": { description: "the requested byte range" },
          ...notModified,
          ...errorResponses([...TILE_ERRORS, "412", "416"], { "404": "NOT_FOUND: no such archive in the served version" }),
        },
      },
    },
  };
}

const readyData = successEnvelope(z.object({ status: z.literal("ready"), dataVersion: z.string() }));

export const API_TITLE = "Climate, outbreak and supply-chain risk API";

/** Where each risk type has data, from the same list the handlers validate against (RISK_TYPES). */
export const RISK_TYPE_COVERAGE =
  `riskType is one of ${RISK_TYPES.join(", ")}. drought: Thailand's 0.25° SPEI/SPI grid (a point outside its land ` +
  "is 404 NOT_FOUND naming the coverage); " +
  `${RISK_TYPES.filter((t) => t !== "drought").join(", ")}: the feed snapshots, wherever their data reach (worldwide for most; ` +
  "details.coverage names each source's reach, and a point beyond it is 404 NOT_FOUND).";

/** How a point answer picks its month when none is named (score, drought at a point, batch). */
const POINT_MONTH_NOTE =
  "Without a month, every drought answer (point, score, batch, province, choropleth, map) is for one default month: the " +
  "grid's latest month with every index (spei1, spei3, spei6, spei12, spi1, mcdi all numbers); a cell lacking one that " +
  "month answers its own latest month with all six, and the answer says which rule chose the month (monthReason; batch " +
  "items carry their month). A month that ended more than a year ago is spoken of in the past tense, with the data's end.";

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
  const limitNote =
    `JSON body of at most ${opts.bodyLimit} bytes (also once decoded), nested at most ${MAX_JSON_DEPTH} levels; ` +
    "Content-Encoding gzip, deflate or br accepted.";
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
    paths: withHeaders({
      "/api/risk-map/score": {
        post: {
          operationId: "riskScore",
          summary: "Composite risk score for a coordinate",
          description:
            `${RISK_TYPE_COVERAGE} drought: ${POINT_MONTH_NOTE} The summary names the D-level of SPEI-1 and, when one is under way, ` +
            `the current drought event (SPEI-3 below -1, details.droughtEvent.current): it never reads "No drought" during one. ${limitNote}`,
          parameters: queryParameters(scoreQuery),
          requestBody: jsonBody(scoreBody),
          responses: {
            "200": ok("Risk score (envelope), or a GeoJSON Feature with format=geojson", {
              "application/json": successEnvelope(scoreData.extend(freshnessFields)),
              "application/geo+json": scoreFeature.extend({ properties: scoreFeature.shape.properties.extend(freshnessFields) }),
            }),
            ...errorResponses(POST_ERRORS),
          },
        },
      },
      "/api/risk-map/drought": {
        get: {
          operationId: "droughtAtPoint",
          summary: "Drought indices at the nearest grid point",
          description: `${POINT_MONTH_NOTE} Query numbers are plain decimals (no exponent, hex or blanks).`,
          parameters: queryParameters(droughtQuery),
          responses: { "200": ok("Drought grid result (or one CSV row with format=csv)", { "application/json": successEnvelope(droughtGridData.extend(freshnessFields)), "text/csv": z.string() }), ...errorResponses(GET_ERRORS) },
        },
      },
      "/api/risk-map/drought/history": {
        get: {
          operationId: "droughtHistoryAtPoint",
          summary: "The monthly record at the nearest grid point: indices, score, D-level and validity per month",
          description:
            "from/to are clamped to the record (period gives the months served); a range outside it is 404 NOT_FOUND naming the " +
            "record's span; from after to is 400. format=csv (or Accept: text/csv): one row per month.",
          parameters: queryParameters(historyQuery),
          responses: {
            "200": ok("Monthly record", { "application/json": successEnvelope(droughtHistoryData.extend(freshnessFields)), "text/csv": z.string() }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/drought/provinces": {
        get: {
          operationId: "droughtChoropleth",
          summary: "All 77 provinces of a month as a GeoJSON FeatureCollection: simplified outlines (about 1 km) with each province's summary",
          description: "Feature id = ISO 3166-2 code. For map clients; province-history gives one province's months.",
          parameters: queryParameters(choroplethQuery),
          responses: {
            "200": ok("FeatureCollection", { "application/geo+json": provinceChoropleth.extend(freshnessFields) }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/events": {
        get: {
          operationId: "eventsInBox",
          summary: "Flood and wildfire events, or storm tracks, inside a box as GeoJSON (map layers), a page at a time",
          description:
            "From the published feed snapshots, newest first (ties by id): flood (DFO, GDACS) and wildfire (FIRMS) events, every " +
            "feature a Point; storms (IBTrACS), every feature a MultiLineString: the storm's fixes inside the box, cut where the " +
            "track crosses the antimeridian (RFC 7946 3.1.9); a storm with one fix there is the line of that fix twice " +
            "(properties.fixes 1). A bbox with west > east crosses the antimeridian. Paging: at most " +
            "`limit` features a page; while more follow, truncated is true and `next` (also `links`, rel next) is the path and query " +
            "of the next page, the same query with a `cursor`; walking the pages of one snapshot version gives every feature once " +
            "(a cursor of a version no longer served is 404). numberMatched counts all pages. Click-through: POST " +
            "/api/risk-map/score with the feature's coordinates and riskType gives the score there.",
          parameters: queryParameters(eventsQuery),
          responses: {
            "200": ok("FeatureCollection", { "application/geo+json": z.discriminatedUnion("riskType", [pointEvents.extend(freshnessFields), stormTracks.extend(freshnessFields)]) }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/stations": {
        get: {
          operationId: "stationsInBox",
          summary: "Heatwave stations or sea-level tide gauges inside a box as GeoJSON (map layers)",
          description:
            "From the published heatwave and sea-level snapshots, the sites their scores are computed from: GHCN-Daily stations " +
            "with the heatwaves of their latest year with 300 days of data (Perkins & Alexander 2013) against their base years, " +
            "PSMSL tide gauges with their annual mean sea-level trend. Ordered by id. A bbox with west > east crosses the antimeridian. " +
            "Paging as /api/risk-map/events: `limit` a page, `next` (and `links`, rel next) while truncated, numberMatched over all " +
            "pages. Click-through: POST /api/risk-map/score with the site's coordinates and riskType gives the score there.",
          parameters: queryParameters(stationsQuery),
          responses: {
            "200": ok("FeatureCollection", { "application/geo+json": stationsCollection.extend(freshnessFields) }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/profile": {
        get: {
          operationId: "profileAtPoint",
          summary: "Every risk, the outbreak radar of five diseases and the nearest port at one place",
          description:
            `One part per risk type (${RISK_TYPES.join(", ")}), per disease (${PROFILE_DISEASES.join(", ")}) and the nearest port. Each ` +
            "part is asked of the same service call as its own endpoint, with the body that endpoint would get (its `request`: " +
            "POST /api/risk-map/score, POST /api/outbreak-radar/query with the default timeframe 30d, POST /api/supply-chain/query " +
            "with queryType congestion), so its riskScore, riskLevel, summary, confidence and asOf are that answer's; a part " +
            "its endpoint answers with an error (NOT_FOUND naming the coverage, SERVICE_UNAVAILABLE) is `{error: {code, message, " +
            "details}, request}` with that error, and no port is nearestPort null with nearestPortReason. The request itself fails " +
            `only on bad coordinates (400), the key (401) and the rate limit (429). Costs ${PROFILE_PARTS} rate-limit points, one per part.`,
          parameters: queryParameters(profileQuery),
          responses: {
            "200": ok("Profile", { "application/json": successEnvelope(profileData) }),
            ...errorResponses(["400", "401", "405", "408", "417", "429", "431", "500", "503"]),
          },
        },
      },
      "/api/risk-map/drought/province/history": {
        get: {
          operationId: "droughtHistoryByProvince",
          summary: "The monthly record of a province: SPEI-1/3/6 means, score, D-level, validity and cells used per month",
          parameters: queryParameters(provinceHistoryQuery),
          responses: {
            "200": ok("Monthly record", { "application/json": successEnvelope(provinceHistoryData.extend(freshnessFields)), "text/csv": z.string() }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/drought/province": {
        get: {
          operationId: "droughtByProvince",
          summary: "Drought by province (77 Thai provinces, country THA)",
          parameters: queryParameters(provinceQuery),
          responses: {
            "200": ok("Province drought result (or one CSV row with format=csv)", { "application/json": successEnvelope(provinceDroughtData.extend(freshnessFields)), "text/csv": z.string() }),
            ...errorResponses(GET_ERRORS),
          },
        },
      },
      "/api/risk-map/batch": {
        post: {
          operationId: "droughtBatch",
          summary: `Drought for up to ${MAX_BATCH_LOCATIONS} coordinates`,
          description:
            "A location without data does not fail the batch: its result has found=false, null values and a reason. " +
            `${POINT_MONTH_NOTE} ` +
            `Costs 1 + ceil(n/10) rate-limit points. ${limitNote}`,
          requestBody: jsonBody(batchBody),
          responses: {
            "200": ok("Batch result (format=json) or a FeatureCollection (format=geojson)", {
              "application/json": successEnvelope(batchData.extend(freshnessFields)),
              "application/geo+json": batchFeatureCollection.extend(freshnessFields),
              "text/csv": z.string(),
            }),
            ...errorResponses(POST_ERRORS),
          },
        },
      },
      "/api/risk-map/drought/exports": {
        get: {
          operationId: "droughtExports",
          summary: "The served drought version's exports (GeoParquet, Parquet, gzip CSV) with sizes and checksums",
          description:
            "Formats: formats/drought-export.md. A version built before exports existed lists none; a version published " +
            "with its exports deferred (make serve's first run) lists none and says so in `pending`.",
          responses: { "200": ok("Export list", { "application/json": successEnvelope(exportsData) }), ...errorResponses(GET_ERRORS) },
        },
      },
      ...Object.fromEntries(
        EXPORT_FILE_NAMES.map((name) => [
          `/api/risk-map/drought/exports/${name}`,
          {
            get: {
              operationId: `droughtExport_${name.replace(/[^a-z0-9]+/g, "_")}`,
              summary: `Download ${name}`,
              description:
                "Strong ETag = the SHA-256 of the file as it is on disk (the listed checksum while the file is intact); " +
                "If-None-Match or If-Modified-Since → 304; Range and If-Range → 206 (bytes), a range outside the file → 416; " +
                "If-Match or If-Unmodified-Since that does not hold → 412. 404 NOT_FOUND when the served version has no such " +
                "export; 503 with Retry-After when too many downloads run and wait at once; 503 with details.reason " +
                "`exports-deferred` while the served version's exports are still being built (make serve's first run).",
              parameters: [
                { name: "Range", in: "header", required: false, schema: { type: "string" }, description: "bytes=START-END" },
                { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
                { name: "If-Match", in: "header", required: false, schema: { type: "string" } },
                { name: "If-Range", in: "header", required: false, schema: { type: "string" } },
              ],
              responses: {
                "200": { description: "the file", content: { [name.endsWith(".parquet") ? "application/vnd.apache.parquet" : "application/gzip"]: { schema: { type: "string", contentMediaType: "application/octet-stream" } } } },
                "206": { description: "the requested byte range" },
                "304": { description: "not modified" },
                ...errorResponses(FILE_ERRORS),
              },
            },
          },
        ]),
      ),
      "/api/outbreak-radar/query": {
        post: {
          operationId: "outbreakRadarQuery",
          summary: `Disease surveillance for a coordinate worldwide (${DISEASE_TYPES.join(", ")})`,
          description:
            "Endemic channel of the latest window of `timeframe`, counted back from the data's as-of date (monthly data: 7d and 30d " +
            "= latest month). Per disease the answer rests on the Thai province's series (dengue), else the country's national " +
            "series, else WHO Disease Outbreak News only (outbreakStatus news_only, caseEstimate null). A country with neither for " +
            "the disease, or a point at sea away from any coast: 404 NOT_FOUND naming the coverage. No outbreak snapshot " +
            `configured: 503. Methods: docs/methods/outbreaks.md. ${limitNote}`,
          requestBody: jsonBody(outbreakBody),
          responses: { "200": ok("Outbreak result", { "application/json": successEnvelope(outbreakData.extend(freshnessFields)) }), ...errorResponses(POST_ERRORS) },
        },
      },
      "/api/outbreak-radar/status": {
        get: {
          operationId: "outbreakStatusByArea",
          summary: "Every area's outbreak status for one disease: countries (with their ISO numeric id of the countries tiles) and Thai provinces (map layer)",
          description:
            "Each country with a national series of the disease or a WHO Disease Outbreak News item about it, with the status and " +
            "score POST /api/outbreak-radar/query gives for a point there (Thai provinces from their own series). Click-through: " +
            "that query at the clicked point.",
          parameters: queryParameters(outbreakStatusQuery),
          responses: { "200": ok("Statuses by area", { "application/json": successEnvelope(outbreakStatusData.extend(freshnessFields)) }), ...errorResponses(GET_ERRORS) },
        },
      },
      "/api/supply-chain/ports": {
        get: {
          operationId: "portsInBox",
          summary: "The ports inside a box with their congestion index, as GeoJSON (map layer), a page at a time",
          description:
            "Located ports of UN/LOCODE, the World Port Index and PortWatch, every feature a Point; congestionIndex as in the " +
            "congestion answer, null with its reason where the port has no PortWatch daily port calls. Ports with an index first, " +
            "then the busiest, then by name and id. A bbox with west > east crosses the antimeridian. Paging as GET " +
            "/api/risk-map/events: `limit` a page, `next` (and `links`, rel next) while truncated, numberMatched over all pages. " +
            "Click-through: POST /api/supply-chain/query with the feature's code (or its coordinates when code is null).",
          parameters: queryParameters(portsQuery),
          responses: { "200": ok("FeatureCollection", { "application/geo+json": portsCollection.extend(freshnessFields) }), ...errorResponses(GET_ERRORS) },
        },
      },
      "/api/supply-chain/query": {
        post: {
          operationId: "supplyChainQuery",
          summary: "Port congestion, vessel counts, delays and disruption for a port (UN/LOCODE) or a coordinate",
          description:
            "portCode wins over lat/lng when both are sent; a coordinate selects the nearest port within 50 km. " +
            "Unknown port or no port in range: 404 NOT_FOUND. Fields without data are null and listed in details.missing. " +
            `Methods: docs/methods/supply-chain.md. ${limitNote}`,
          requestBody: jsonBody(supplyChainBody),
          responses: { "200": ok("Supply chain result", { "application/json": successEnvelope(supplyChainData.extend(freshnessFields)) }), ...errorResponses(POST_ERRORS) },
        },
      },
      "/api/ping": {
        get: {
          operationId: "ping",
          summary: "Authenticated no-op for benchmarks and key checks",
          responses: { "200": ok("pong", { "application/json": successEnvelope(pingData) }), ...errorResponses(["401", "429", "500", "503"]) },
        },
      },
      "/api/status": {
        get: {
          operationId: "status",
          summary: "How fresh the data are: every source with its data as-of, age, cadence and status, and the published versions (no key)",
          description:
            "Statuses: fresh, stale (older than 3 × the cadence), offline (no download in use: SOURCES_OFFLINE, no network, no credential, " +
            "or no public origin; the data directory's copy serves), failed (the last refresh failed; the previous copy serves). " +
            "Every answer carries `stale` and `staleSources` for the sources it is drawn from. 503 when the process has no status service.",
          security: [],
          responses: { "200": ok("Sources status", { "application/json": successEnvelope(statusData) }), ...errorResponses(["405", "408", "431", "500", "503"]) },
        },
      },
      "/healthz": {
        get: {
          operationId: "health",
          summary: "Liveness: 200 while the process runs (no auth)",
          description:
            "Answered in turn with the requests queued before it, so under a burst it can wait (bench/admission.bench.ts). " +
            "For a liveness probe that must answer under load, set HEALTH_PORT: a listener on a thread of its own answers GET /healthz there " +
            "from this process's event-loop heartbeat, 503 SERVICE_UNAVAILABLE (reason \"event loop stalled\") past HEALTH_STALL_MS (docs/deploy.md §3.5).",
          security: [],
          responses: { "200": { description: "alive", content: { "application/json": { schema: jsonSchema(successEnvelope(z.object({ status: z.literal("ok") })), "output") } } } },
        },
      },
      "/readyz": {
        get: {
          operationId: "ready",
          summary: "Readiness: 200 when drought data is loaded, else 503 SERVICE_UNAVAILABLE (no auth)",
          security: [],
          responses: {
            "200": { description: "ready", content: { "application/json": { schema: jsonSchema(readyData, "output") } } },
            "503": { description: "not ready", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
          },
        },
      },
      "/metrics": {
        get: {
          operationId: "metrics",
          summary: "Prometheus metrics (no auth; text exposition format, checked by promtool in the tests)",
          security: [],
          responses: { "200": { description: "text exposition format", content: { "text/plain": { schema: { type: "string" } } } } },
        },
      },
      ...tilePaths(),
    }),
  };
}
