// POST /api/risk-map/batch: the request body, each location's item and the answer (JSON or GeoJSON).
import { z } from "zod";
import { timeDetails } from "./schemas-time.ts";
import { GRID_DEFAULT_MONTH_RULE } from "../lib/drought/cell-latest.ts";
import { confidenceFields, dLevel, lat, lng, month, pointGeometry, riskLevel, timestamp } from "./schemas-common.ts";

export const MAX_BATCH_LOCATIONS = 100;
/** A batch location's id: at most this many characters (UTF-16 units, as zod counts). */
export const MAX_LOCATION_ID_LENGTH = 200;
export const BATCH_FORMATS = ["json", "geojson", "csv"] as const;

// routes/batch-body.ts checks well-formed batch bodies by hand against these same rules (and falls back to
// batchBody for anything else): a change here is a change there.
export const batchLocation = z.strictObject({
  id: z.string().max(MAX_LOCATION_ID_LENGTH).optional(),
  lat,
  lng,
});

export const batchBody = z.strictObject({
  locations: z.array(batchLocation).min(1).max(MAX_BATCH_LOCATIONS),
  riskType: z.literal("drought").describe("only drought is supported"),
  format: z.enum(BATCH_FORMATS).default("json").describe("csv: text/csv, one row per location (Accept: text/csv chooses it too)"),
});

const batchFound = z.object({
  id: z.string().optional(),
  lat: z.number(),
  lng: z.number(),
  found: z.literal(true),
  month: month.describe(`the month served: ${GRID_DEFAULT_MONTH_RULE} where the cell has every index then (a batch names no month; see monthReason of the point answer)`),
  riskScore: z.number().min(0).max(100),
  riskLevel,
  severity: dLevel.nullable(),
  spei1: z.number(),
  ...confidenceFields,
});

const batchMissing = z.object({
  id: z.string().optional(),
  lat: z.number(),
  lng: z.number(),
  found: z.literal(false),
  month: z.null(),
  riskScore: z.null(),
  riskLevel: z.null(),
  severity: z.null(),
  spei1: z.null(),
  reason: z.string().describe("why no data, e.g. outside the grid"),
});

export const batchItem = z.discriminatedUnion("found", [batchFound, batchMissing]);

/** The time of a batch answer: the months its found items are answered for, as days; null when none was found. */
const batchTime = {
  details: timeDetails
    .nullable()
    .describe("the months the found items are answered for (the earliest to the latest month served), as days, with the newest as asOf and its currency; null with detailsReason when no location was found"),
  detailsReason: z.string().optional().describe("why details is null"),
};

export const batchData = z.object({
  count: z.int(),
  riskType: z.literal("drought"),
  results: z.array(batchItem),
  ...batchTime,
  timestamp,
});

export const batchFeatureCollection = z.object({
  type: z.literal("FeatureCollection"),
  count: z.int(),
  riskType: z.literal("drought"),
  ...batchTime,
  timestamp,
  dataVersion: z.string(),
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string().optional().describe("the location's id from the request"),
      geometry: pointGeometry,
      properties: z.object({
        id: z.string().nullable(),
        lat: z.number(),
        lng: z.number(),
        found: z.boolean(),
        month: month.nullable().describe("the month served (the default month of the point answer); null without data"),
        riskScore: z.number().nullable(),
        riskLevel: riskLevel.nullable(),
        severity: dLevel.nullable(),
        spei1: z.number().nullable(),
        confidence: z.number().nullable(),
        confidenceLabel: z.enum(["high", "medium", "low"]).nullable(),
        reason: z.string().nullable(),
      }).describe("the same keys and types on every Feature (null where no value), so that answers append into one table"),
    }),
  ),
});
