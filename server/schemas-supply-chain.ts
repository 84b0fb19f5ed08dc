// Request and response schemas of POST /api/supply-chain/query (spec 4.6, "Supply chain result"). The route
// validates with them, the service's types are inferred from them, openapi.ts documents them.
import { z } from "zod";

export const SUPPLY_CHAIN_QUERY_TYPES = ["congestion", "vessel_count", "cargo_delay", "trade_risk"] as const;
export const DISRUPTION_LEVELS = ["low", "medium", "high"] as const;
/** UN/LOCODE: 2-letter country + 3 letters or digits 2-9; one space after the country is accepted ("TH LCH"). */
export const PORT_CODE_PATTERN = /^[A-Za-z]{2} ?[A-Za-z2-9]{3}$/;

export const supplyChainBody = z
  .strictObject({
    lat: z.number().min(-90).max(90).optional().describe("Latitude; required when portCode is omitted"),
    lng: z.number().min(-180).max(180).optional().describe("Longitude; required when portCode is omitted"),
    portCode: z
      .string()
      .regex(PORT_CODE_PATTERN, "must be a UN/LOCODE: 2-letter country code and 3 letters or digits (e.g. THLCH)")
      .transform((s) => s.replace(" ", "").toUpperCase())
      .optional()
      .describe("UN/LOCODE of a port; wins over lat/lng when both are sent"),
    queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  })
  .superRefine((b, ctx) => {
    if (b.portCode !== undefined) return;
    if (b.lat === undefined) ctx.addIssue({ code: "custom", path: ["lat"], message: "required when portCode is omitted" });
    if (b.lng === undefined) ctx.addIssue({ code: "custom", path: ["lng"], message: "required when portCode is omitted" });
  });

const num = z.number().nullable();

const activity = z.object({
  seriesId: z.string().describe("PortWatch portid of the daily port calls"),
  latestDay: z.string().describe("Last day of the daily series (YYYY-MM-DD)"),
  windowDays: z.number().int(),
  meanDailyCalls: num.describe("Mean daily port calls in the latest window"),
  baselineMeanDailyCalls: num.describe("Mean of the same-season windows of up to 5 previous years"),
  baselineWindows: z.number().int(),
  baselineYears: z.number().int(),
  ratio: num.describe("meanDailyCalls / baselineMeanDailyCalls"),
  percentile: num.describe("Percentile rank of meanDailyCalls among the baseline windows (= congestionIndex)"),
});

const hazard = z.object({
  id: z.string(),
  kind: z.enum(["cyclone", "flood"]),
  name: z.string(),
  alertLevel: z.string(),
  distanceKm: z.number(),
  from: z.string(),
  to: z.string(),
  source: z.string(),
});

export const supplyChainData = z.object({
  port: z.object({ code: z.string().describe("UN/LOCODE"), name: z.string() }),
  queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  congestionIndex: num.describe("0-100; null without daily port calls"),
  vesselCount: z.number().int().nullable().describe("Port calls in the latest 7 days; null without daily port calls"),
  avgDwellDays: num.describe("Little's law from AIS moored vessels and the arrival rate; null without both"),
  etaDelayHours: num.describe("Little's law from AIS anchored vessels and the arrival rate; null without both"),
  disruptionRisk: z.enum(DISRUPTION_LEVELS),
  summary: z.string(),
  details: z.object({
    keyFindings: z.array(z.string()),
    inputs: z.record(z.string(), z.boolean()).describe("Which inputs were available for this port"),
    missing: z.array(z.string()).describe("Fields that are null and why"),
    resolution: z.object({
      by: z.enum(["portCode", "coordinates"]),
      distanceKm: num,
      coordinatesIgnored: z.boolean(),
      radiusKm: z.number(),
    }),
    port: z.object({
      country: z.string(),
      lat: num,
      lng: num,
      coordSource: z.string().nullable(),
      flags: z.array(z.string()),
      wpi: z.record(z.string(), z.unknown()).nullable(),
      portwatch: z.record(z.string(), z.unknown()).nullable(),
    }),
    activity: activity.nullable(),
    disruption: z.object({
      points: z.number().int(),
      hazardPoints: z.number().int(),
      anomalyPoints: z.number().int(),
      hazardsActive: z.array(hazard),
      hazardFeedAsOf: z.string().nullable(),
      floodsWithinRadiusSince2014: z.number().int(),
    }),
    congestion: z.record(z.string(), z.unknown()).optional().describe("queryType congestion"),
    vessels: z.record(z.string(), z.unknown()).optional().describe("queryType vessel_count"),
    delay: z.record(z.string(), z.unknown()).optional().describe("queryType cargo_delay"),
    trade: z.record(z.string(), z.unknown()).optional().describe("queryType trade_risk"),
  }),
  asOf: z.string().describe("The snapshot's data are current as of this time (ISO 8601)"),
  dataVersion: z.string(),
  dataSources: z.array(z.string()),
  timestamp: z.string(),
});

export type SupplyChainBody = z.output<typeof supplyChainBody>;
export type SupplyChainData = z.infer<typeof supplyChainData>;
