// POST /api/risk-map/score: the request, the answer of every risk type (drought's details here) and its GeoJSON Feature.
import { z } from "zod";
import { timeFields } from "./schemas-time.ts";
import { confidenceFields, dLevel, indexValue, lat, lng, month, pointGeometry, riskLevel, RISK_TYPES, TIMEFRAMES, timestamp } from "./schemas-common.ts";
import { monthReason } from "./schemas-drought.ts";
import { coverageDetails, eventHazardDetails, floodDetails, heatwaveDetails, seaLevelDetails, stormTrackRecord } from "./schemas-feed-risk.ts";

// ---- requests ----

export const scoreBody = z.strictObject({
  lat,
  lng,
  riskType: z.enum(RISK_TYPES),
  includeHistorical: z.boolean().default(false),
  timeframe: z.enum(TIMEFRAMES).default("30d"),
});

export const scoreQuery = z.object({
  format: z.enum(["json", "geojson"]).default("json").describe("geojson returns a GeoJSON Feature without envelope"),
});

// ---- responses ----

export const droughtRecentMonth = z.object({ month, spei1: indexValue, spei3: indexValue, score: z.number().nullable(), severity: dLevel.nullable() });

export const droughtHistorical = z.object({
  baseline: z.string(),
  recordStart: month,
  recordEnd: month,
  monthsWithData: z.number(),
  droughtMonths: z.record(z.string(), z.number()).describe("months at each D-level D0..D4"),
  droughtMonthShare: z.number().nullable(),
  currentPercentile: z.number().nullable(),
  driestMonth: z.object({ month, spei1: indexValue }).nullable(),
});

const droughtEvent = z.object({
  index: z.literal("spei3"),
  threshold: z.number(),
  method: z.string(),
  recordFrom: month.describe("first month of the record the runs are counted in"),
  runsInRecord: z.int().describe("runs from recordFrom to the served month"),
  current: z
    .object({
      onset: month,
      months: z.int().min(1),
      peak: z.number().describe("lowest SPEI-3 of the run"),
      peakMonth: month,
      cumulativeDeficit: z.number().describe("Σ (threshold − SPEI-3) over the run's months"),
      rankBySeverity: z.int().min(1).describe("1 = the largest cumulative deficit of the record at this cell"),
      rankByDuration: z.int().min(1),
    })
    .nullable(),
  reason: z.string().optional().describe("why current is null"),
});

export const scoreData = z.object({
  location: z.object({ lat: z.number(), lng: z.number() }),
  riskType: z.enum(RISK_TYPES),
  riskScore: z.number().min(0).max(100),
  riskLevel,
  summary: z.string(),
  details: z.object({
    currentConditions: z
      .object({
        spei1: indexValue,
        spei3: indexValue,
        spei6: indexValue,
        spei12: indexValue,
        severity: dLevel.nullable(),
        distanceKm: z.number(),
        month,
        monthReason,
        ...confidenceFields,
      })
      .optional(),
    recentMonths: z.array(droughtRecentMonth).optional(),
    historical: droughtHistorical.optional(),
    droughtEvent: droughtEvent.optional().describe("drought: the current run of SPEI-3 below -1 at the cell (run theory) and its rank in the record"),
    ...timeFields,
    snapshotVersion: z.string().optional().describe("feed risk types: the snapshot version answered from"),
    coverage: coverageDetails.optional(),
    confidence: z.number().min(0).max(1).optional().describe("feed risk types: how far to trust the answer (docs/methods/feed-risks.md#confidence)"),
    confidenceLabel: z.enum(["high", "medium", "low"]).optional(),
    confidenceBasis: z.string().optional().describe("what the confidence rests on: record length, distance to data, source"),
    flood: floodDetails.optional(),
    wildfire: eventHazardDetails
      .extend({
        fireRecord: z
          .object({
            id: z.string(),
            name: z.string(),
            start: z.string(),
            end: z.string(),
            days: z.number(),
            years: z.number().describe("years of the record: a level needs 1 at least"),
            sensor: z.string().describe("the record's sensors: MODIS, VIIRS or MODIS+VIIRS"),
            sensors: z.object({ MODIS: z.object({ start: z.string(), end: z.string(), detections: z.number().int() }).optional(), VIIRS: z.object({ start: z.string(), end: z.string(), detections: z.number().int() }).optional() }).describe("each sensor's vegetation-fire detections in the record and their days"),
            country: z.string().optional().describe("a country's record (ISO 3166-1 alpha-3) answers only inside that country"),
          })
          .describe("the fire record that answers the point: the longest of a year or more whose extent holds it, else the first that holds it"),
        sensorScale: z
          .object({ viirsPerModis: z.number().nullable(), note: z.string() })
          .describe("one scale across sensors: a VIIRS detection weighs 1/viirsPerModis of a MODIS one, the ratio measured where both sensors saw the same area on the same days; null when no record of the snapshot has such an overlap"),
      })
      .optional(),
    storm: eventHazardDetails.extend({ trackRecord: stormTrackRecord }).optional(),
    heatwave: heatwaveDetails.optional(),
    sea_level_rise: seaLevelDetails.optional(),
  }),
  dataSources: z.array(z.string()),
  timestamp,
});

export const scoreFeature = z.object({
  type: z.literal("Feature"),
  geometry: pointGeometry,
  properties: z.object({
    riskType: z.enum(RISK_TYPES),
    riskScore: z.number(),
    riskLevel,
    summary: z.string(),
    spei1: indexValue,
    spei3: indexValue,
    dataSources: z.array(z.string()),
    periodFrom: z.string().describe("details.period.from of the JSON answer (flat, so answers append into one table)"),
    periodTo: z.string().describe("details.period.to"),
    asOf: z.string().describe("details.asOf"),
    current: z.boolean().describe("details.currency.current"),
    timestamp,
  }),
});
