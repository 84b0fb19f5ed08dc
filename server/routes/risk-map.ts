// The drought endpoints, declared with their OpenAPI operations; their handlers validate → call the DroughtService →
// shape the response. Nothing else.
import type { Request, Response } from "express";
import { readJsonBody, readJsonBytes } from "../http/body.ts";
import { sendCsv, sendJson, sendJsonText } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import {
  batchBody,
  batchData,
  batchFeatureCollection as batchFeatureCollectionSchema,
  choroplethQuery,
  droughtGridData,
  droughtHistoryData,
  droughtQuery,
  droughtQueryFast,
  historyQuery,
  MAX_BATCH_LOCATIONS,
  provinceChoropleth,
  provinceDroughtData,
  provinceHistoryData,
  provinceHistoryQuery,
  provinceQuery,
  scoreBody,
  scoreData,
  scoreFeature as scoreFeatureSchema,
  scoreQuery,
  successEnvelope,
} from "../schemas.ts";
import { z } from "zod";
import { bodyLimitNote, CSV_TIME_HEADER_DOCS, errorResponses, GET_ERRORS, jsonBody, ok, POINT_MONTH_NOTE, POST_ERRORS, queryParameters, RISK_TYPE_COVERAGE } from "../openapi-parts.ts";
import { freshnessFields } from "../schemas-freshness.ts";
import type { Route, RouteContext } from "./route.ts";
import { ApiError } from "../errors.ts";
import type { Admission } from "../http/admission.ts";
import { readBatchBody } from "./batch-json.ts";
import { BATCH_CSV_HEADER, batchCsv, csvTimeHeaders, droughtCsv, historyCsv, provinceCsv, provinceHistoryCsv, wantsCsv } from "./drought-csv.ts";
import type { BatchItem, BatchTime, DroughtHistory, DroughtService, ScoreData } from "../services/types.ts";
import { scorerOf } from "../services/batch-scorer.ts";
import { batchRows } from "../services/row-texts.ts";
import { batchCost } from "../limits/rate-limit.ts";
import type { Freshness } from "../services/source-status-service.ts";

export interface RiskMapDeps {
  drought: DroughtService;
  bodyLimit: number;
  /** Charges extra rate-limit points for the current request; throws a 429 ApiError when over budget. */
  charge: (req: Request, res: Response, points: number) => Promise<void>;
  /** The freshness flag of an answer kind (stale, staleSources). */
  freshness: Freshness;
  /** Batches being answered at once and waiting (http/admission.ts). */
  admission: Admission;
  /** The monthly records (history routes); without it they answer 503. */
  history?: DroughtHistory;
}

function requireHistory(h: DroughtHistory | undefined): DroughtHistory {
  if (!h) throw new ApiError("SERVICE_UNAVAILABLE", "drought history is not available in this process");
  return h;
}

export function scoreFeature(data: ScoreData) {
  const conditions = data.details.currentConditions;
  return {
    type: "Feature" as const,
    geometry: { type: "Point" as const, coordinates: [data.location.lng, data.location.lat] },
    properties: {
      riskType: data.riskType,
      riskScore: data.riskScore,
      riskLevel: data.riskLevel,
      summary: data.summary,
      spei1: conditions?.spei1 ?? null,
      spei3: conditions?.spei3 ?? null,
      dataSources: data.dataSources,
      periodFrom: data.details.period.from,
      periodTo: data.details.period.to,
      asOf: data.details.asOf,
      current: data.details.currency.current,
      timestamp: data.timestamp,
    },
  };
}

/**
 * The same properties, in the same order and of the same type, on every Feature whatever the location's outcome
 * (null where there is no value), so that successive answers append into one table (ogr2ogr -append, GIS layers).
 */
function featureProperties(item: BatchItem) {
  const c = item as BatchItem & { confidence?: number | null; confidenceLabel?: string | null; reason?: string };
  return {
    id: item.id ?? null,
    lat: item.lat,
    lng: item.lng,
    found: item.found,
    month: item.month,
    riskScore: item.riskScore,
    riskLevel: item.riskLevel,
    severity: item.severity,
    spei1: item.spei1,
    confidence: c.confidence ?? null,
    confidenceLabel: c.confidenceLabel ?? null,
    reason: c.reason ?? null,
  };
}

export function batchFeatureCollection(results: BatchItem[], timestamp: string, dataVersion: string) {
  return {
    type: "FeatureCollection" as const,
    count: results.length,
    riskType: "drought" as const,
    timestamp,
    dataVersion,
    features: results.map((item) => ({
      type: "Feature" as const,
      // The request's id names the Feature (RFC 7946 3.2); a location without one has no Feature id.
      ...(item.id === undefined ? {} : { id: item.id }),
      geometry: { type: "Point" as const, coordinates: [item.lng, item.lat] },
      properties: featureProperties(item),
    })),
  };
}

/** A CSV answer with its time as headers (drought-csv.ts csvTimeHeaders). */
function sendDroughtCsv(req: Request, res: Response, csv: string, filename: string, time: BatchTime | null): void {
  for (const [name, value] of Object.entries(csvTimeHeaders(time))) res.setHeader(name, value);
  sendCsv(req, res, csv, filename);
}

/** A batch answer's time fields: its details, or why there are none. */
const timeFields = (time: BatchTime | null) => (time === null ? { details: null, detailsReason: "no location of the batch has drought data" } : { details: time });

export function riskMapHandlers(deps: RiskMapDeps) {
  const { drought } = deps;
  /** Validation, the rest of the cost, the lookups and the answer of a batch: the heavy part, in an admission slot. */
  async function batchAnswer(req: Request, res: Response, bytes: Buffer): Promise<void> {
    const { body, formatGiven } = readBatchBody(bytes);
    // A format in the body wins; without one, Accept: text/csv asks for CSV.
    const format = body.format === "json" && !formatGiven && wantsCsv(req, undefined) ? "csv" : body.format;
    // The entry gate charged 1 point; the rest of the batch cost is charged once the size is known.
    await deps.charge(req, res, batchCost(body.locations.length) - 1);
    const timestamp = new Date().toISOString();
    const scorer = scorerOf(drought);
    // With the version's lookup raster made, each row is its cell's cached text (services/row-texts.ts): the same
    // bytes as the items written below, without an item per point.
    if (format !== "geojson" && scorer.cellKey !== undefined) {
      const rows = batchRows(scorer, body.locations, format);
      const time = rows.months.from === null ? null : scorer.time(rows.months.from, rows.months.to!);
      if (format === "csv") return sendDroughtCsv(req, res, `${BATCH_CSV_HEADER}\n${rows.texts.join("\n")}\n`, "batch.csv", time);
      const rest = { ...timeFields(time), timestamp, ...deps.freshness("drought") };
      const head = `{"success":true,"data":{"count":${rows.texts.length},"riskType":${JSON.stringify(body.riskType)},"results":[`;
      return sendJsonText(req, res, 200, `${head}${rows.texts.join(",")}],${JSON.stringify(rest).slice(1)}}`);
    }
    const results = body.locations.map((loc) => scorer.item(loc.id, loc.lat, loc.lng));
    const time = drought.batchTime(results);
    if (format === "csv") return sendDroughtCsv(req, res, batchCsv(results), "batch.csv", time);
    const details = timeFields(time);
    if (format === "geojson") {
      const fc = batchFeatureCollection(results, timestamp, scorer.dataVersion);
      sendJson(req, res, 200, { type: fc.type, count: fc.count, riskType: fc.riskType, ...details, timestamp, dataVersion: fc.dataVersion, features: fc.features, ...deps.freshness("drought") }, "application/geo+json");
    } else {
      sendJson(req, res, 200, { success: true, data: { count: results.length, riskType: body.riskType, results, ...details, timestamp, ...deps.freshness("drought") } });
    }
  }

  return {
    async score(req: Request, res: Response) {
      const { format } = parseOrThrow(scoreQuery, req.query, "query");
      const body = parseOrThrow(scoreBody, await readJsonBody(req, deps.bodyLimit), "body");
      const data = drought.score(body);
      const flag = deps.freshness(body.riskType);
      if (format === "geojson") {
        const feature = scoreFeature(data);
        sendJson(req, res, 200, { ...feature, properties: { ...feature.properties, ...flag } }, "application/geo+json");
      } else sendJson(req, res, 200, { success: true, data: { ...data, ...flag } });
    },

    drought(req: Request, res: Response) {
      const q = droughtQueryFast(req.query) ?? parseOrThrow(droughtQuery, req.query, "query");
      if (wantsCsv(req, q.format)) {
        const data = drought.drought(q.lat, q.lng, q.month);
        return sendDroughtCsv(req, res, droughtCsv(data), "drought.csv", data.details);
      }
      const flag = deps.freshness("drought");
      // The JSON answer from the cell-month's cached text where the service writes it (services/point-texts.ts).
      if (drought.droughtJson !== undefined) sendJsonText(req, res, 200, drought.droughtJson(q.lat, q.lng, q.month, flag));
      else sendJson(req, res, 200, { success: true, data: { ...drought.drought(q.lat, q.lng, q.month), ...flag } });
    },

    history(req: Request, res: Response) {
      const q = parseOrThrow(historyQuery, req.query, "query");
      const data = requireHistory(deps.history).history(q);
      if (wantsCsv(req, q.format)) sendDroughtCsv(req, res, historyCsv(data), "drought-history.csv", data.details);
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    choropleth(req: Request, res: Response) {
      const q = parseOrThrow(choroplethQuery, req.query, "query");
      sendJson(req, res, 200, { ...requireHistory(deps.history).choropleth(q.month, q.country), ...deps.freshness("drought") }, "application/geo+json");
    },

    provinceHistory(req: Request, res: Response) {
      const q = parseOrThrow(provinceHistoryQuery, req.query, "query");
      const data = requireHistory(deps.history).provinceHistory(q);
      if (wantsCsv(req, q.format)) sendDroughtCsv(req, res, provinceHistoryCsv(data), "province-history.csv", data.details);
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    province(req: Request, res: Response) {
      const q = parseOrThrow(provinceQuery, req.query, "query");
      const data = drought.province(q.name, q.country, q.month);
      if (wantsCsv(req, q.format)) sendDroughtCsv(req, res, provinceCsv(data), "province.csv", data.details);
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    async batch(req: Request, res: Response) {
      const bytes = await readJsonBytes(req, deps.bodyLimit);
      // Parsed in its slot: a batch waiting for one holds its bytes (outside the JS heap), not a hundred objects
      // that every young-generation collection would copy while they wait.
      await deps.admission.run(res, () => batchAnswer(req, res, bytes));
    },
  };
}

const handlersOf = (ctx: RouteContext) => riskMapHandlers({ ...ctx, admission: ctx.batchAdmission });

/** The drought routes (and the composite score, which answers every risk type). */
export const riskMapRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/risk-map/score",
    auth: true,
    doc: (d) => ({
      operationId: "riskScore",
      summary: "Composite risk score for a coordinate",
      description:
        `${RISK_TYPE_COVERAGE} drought: ${POINT_MONTH_NOTE} The summary names the D-level of SPEI-1 and, when one is under way, ` +
        `the current drought event (SPEI-3 below -1, details.droughtEvent.current): it never reads "No drought" during one. ${bodyLimitNote(d.bodyLimit)}`,
      parameters: queryParameters(scoreQuery),
      requestBody: jsonBody(scoreBody),
      responses: {
        "200": ok("Risk score (envelope), or a GeoJSON Feature with format=geojson", {
          "application/json": successEnvelope(scoreData.extend(freshnessFields)),
          "application/geo+json": scoreFeatureSchema.extend({ properties: scoreFeatureSchema.shape.properties.extend(freshnessFields) }),
        }),
        ...errorResponses(POST_ERRORS),
      },
    }),
    handlers: (ctx) => [handlersOf(ctx).score],
  },
  {
    method: "GET",
    path: "/api/risk-map/drought",
    auth: true,
    doc: () => ({
      operationId: "droughtAtPoint",
      summary: "Drought indices at the nearest grid point",
      description: `${POINT_MONTH_NOTE} Query numbers are plain decimals (no exponent, hex or blanks).`,
      parameters: queryParameters(droughtQuery),
      responses: { "200": { ...ok("Drought grid result (or one CSV row with format=csv)", { "application/json": successEnvelope(droughtGridData.extend(freshnessFields)), "text/csv": z.string() }), headers: CSV_TIME_HEADER_DOCS }, ...errorResponses(GET_ERRORS) },
    }),
    handlers: (ctx) => [handlersOf(ctx).drought],
  },
  {
    method: "GET",
    path: "/api/risk-map/drought/history",
    auth: true,
    doc: () => ({
      operationId: "droughtHistoryAtPoint",
      summary: "The monthly record at the nearest grid point: indices, score, D-level and validity per month",
      description:
        "from/to are clamped to the record (period gives the months served); a range outside it is 404 NOT_FOUND naming the " +
        "record's span; from after to is 400. format=csv (or Accept: text/csv): one row per month.",
      parameters: queryParameters(historyQuery),
      responses: {
        "200": { ...ok("Monthly record", { "application/json": successEnvelope(droughtHistoryData.extend(freshnessFields)), "text/csv": z.string() }), headers: CSV_TIME_HEADER_DOCS },
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [handlersOf(ctx).history],
  },
  {
    method: "GET",
    path: "/api/risk-map/drought/provinces",
    auth: true,
    doc: () => ({
      operationId: "droughtChoropleth",
      summary: "All 77 provinces of a month as a GeoJSON FeatureCollection: simplified outlines (about 1 km) with each province's summary",
      description: "Feature id = ISO 3166-2 code. For map clients; province-history gives one province's months.",
      parameters: queryParameters(choroplethQuery),
      responses: {
        "200": ok("FeatureCollection", { "application/geo+json": provinceChoropleth.extend(freshnessFields) }),
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [handlersOf(ctx).choropleth],
  },
  {
    method: "GET",
    path: "/api/risk-map/drought/province/history",
    auth: true,
    doc: () => ({
      operationId: "droughtHistoryByProvince",
      summary: "The monthly record of a province: SPEI-1/3/6 means, score, D-level, validity and cells used per month",
      parameters: queryParameters(provinceHistoryQuery),
      responses: {
        "200": { ...ok("Monthly record", { "application/json": successEnvelope(provinceHistoryData.extend(freshnessFields)), "text/csv": z.string() }), headers: CSV_TIME_HEADER_DOCS },
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [handlersOf(ctx).provinceHistory],
  },
  {
    method: "GET",
    path: "/api/risk-map/drought/province",
    auth: true,
    doc: () => ({
      operationId: "droughtByProvince",
      summary: "Drought by province (77 Thai provinces, country THA)",
      parameters: queryParameters(provinceQuery),
      responses: {
        "200": { ...ok("Province drought result (or one CSV row with format=csv)", { "application/json": successEnvelope(provinceDroughtData.extend(freshnessFields)), "text/csv": z.string() }), headers: CSV_TIME_HEADER_DOCS },
        ...errorResponses(GET_ERRORS),
      },
    }),
    handlers: (ctx) => [handlersOf(ctx).province],
  },
  {
    method: "POST",
    path: "/api/risk-map/batch",
    auth: true,
    doc: (d) => ({
      operationId: "droughtBatch",
      summary: `Drought for up to ${MAX_BATCH_LOCATIONS} coordinates`,
      description:
        "A location without data does not fail the batch: its result has found=false, null values and a reason. " +
        `${POINT_MONTH_NOTE} ` +
        `Costs 1 + ceil(n/10) rate-limit points. ${bodyLimitNote(d.bodyLimit)}`,
      requestBody: jsonBody(batchBody),
      responses: {
        "200": {
          ...ok("Batch result (format=json), a FeatureCollection (format=geojson) or CSV rows (format=csv)", {
            "application/json": successEnvelope(batchData.extend(freshnessFields)),
            "application/geo+json": batchFeatureCollectionSchema.extend(freshnessFields),
            "text/csv": z.string(),
          }),
          headers: CSV_TIME_HEADER_DOCS,
        },
        ...errorResponses(POST_ERRORS),
      },
    }),
    handlers: (ctx) => [ctx.batchAdmission.gate, handlersOf(ctx).batch],
  },
];
