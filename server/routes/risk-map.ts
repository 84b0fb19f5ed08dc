// The drought endpoints' handlers: validate → call the DroughtService → shape the response. Nothing else.
import type { Request, Response } from "express";
import { readJsonBody } from "../http/body.ts";
import { sendCsv, sendJson } from "../http/respond.ts";
import { parseOrThrow } from "../http/validate.ts";
import { choroplethQuery, droughtQuery, historyQuery, provinceHistoryQuery, provinceQuery, scoreBody, scoreQuery } from "../schemas.ts";
import { ApiError } from "../errors.ts";
import type { Admission } from "../http/admission.ts";
import { parseBatchBody } from "./batch-body.ts";
import { batchCsv, droughtCsv, historyCsv, provinceCsv, provinceHistoryCsv, wantsCsv } from "./drought-csv.ts";
import type { BatchItem, DroughtHistory, DroughtService, ScoreData } from "../services/types.ts";
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

export function riskMapHandlers(deps: RiskMapDeps) {
  const { drought } = deps;
  /** Validation, the rest of the cost, the lookups and the answer of a batch: the heavy part, in an admission slot. */
  async function batchAnswer(req: Request, res: Response, raw: unknown): Promise<void> {
    const body = parseBatchBody(raw);
    // A format in the body wins; without one, Accept: text/csv asks for CSV.
    const explicit = typeof raw === "object" && raw !== null && "format" in raw;
    // The entry gate charged 1 point; the rest of the batch cost is charged once the size is known.
    await deps.charge(req, res, batchCost(body.locations.length) - 1);
    const results = body.locations.map((loc) => drought.batchItem(loc.id, loc.lat, loc.lng));
    const time = drought.batchTime(results);
    const details = time === null ? { details: null, detailsReason: "no location of the batch has drought data" } : { details: time };
    const timestamp = new Date().toISOString();
    if (body.format === "csv" || (!explicit && wantsCsv(req, undefined))) {
      sendCsv(req, res, batchCsv(results), "batch.csv");
    } else if (body.format === "geojson") {
      const fc = batchFeatureCollection(results, timestamp, drought.dataVersion());
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
      const q = parseOrThrow(droughtQuery, req.query, "query");
      const data = drought.drought(q.lat, q.lng, q.month);
      if (wantsCsv(req, q.format)) sendCsv(req, res, droughtCsv(data), "drought.csv");
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    history(req: Request, res: Response) {
      const q = parseOrThrow(historyQuery, req.query, "query");
      const data = requireHistory(deps.history).history(q);
      if (wantsCsv(req, q.format)) sendCsv(req, res, historyCsv(data), "drought-history.csv");
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    choropleth(req: Request, res: Response) {
      const q = parseOrThrow(choroplethQuery, req.query, "query");
      sendJson(req, res, 200, { ...requireHistory(deps.history).choropleth(q.month), ...deps.freshness("drought") }, "application/geo+json");
    },

    provinceHistory(req: Request, res: Response) {
      const q = parseOrThrow(provinceHistoryQuery, req.query, "query");
      const data = requireHistory(deps.history).provinceHistory(q);
      if (wantsCsv(req, q.format)) sendCsv(req, res, provinceHistoryCsv(data), "province-history.csv");
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    province(req: Request, res: Response) {
      const q = parseOrThrow(provinceQuery, req.query, "query");
      const data = drought.province(q.name, q.country, q.month);
      if (wantsCsv(req, q.format)) sendCsv(req, res, provinceCsv(data), "province.csv");
      else sendJson(req, res, 200, { success: true, data: { ...data, ...deps.freshness("drought") } });
    },

    async batch(req: Request, res: Response) {
      const raw = await readJsonBody(req, deps.bodyLimit);
      await deps.admission.run(res, () => batchAnswer(req, res, raw));
    },
  };

}
