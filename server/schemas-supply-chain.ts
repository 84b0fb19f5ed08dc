// Request and response schemas of POST /api/supply-chain/query (spec 4.6, "Supply chain result") and GET /api/supply-chain/ports. The route
// validates with them, the service's types are inferred from them, openapi.ts documents them.
import { z } from "zod";
import { bboxText } from "./schemas-events.ts";
import { queryInteger } from "./schemas.ts";
import { cursorText, pageFields } from "./schemas-paging.ts";

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
      .describe("UN/LOCODE of a port (named as a port by UN/LOCODE, the World Port Index or PortWatch); wins over lat/lng when both are sent"),
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
  firstDay: z.string().describe("First day of the daily series (YYYY-MM-DD)"),
  latestDay: z.string().describe("Last day of the daily series (YYYY-MM-DD)"),
  windowDays: z.number().int(),
  meanDailyCalls: num.describe("Mean daily port calls in the latest window"),
  baselineMeanDailyCalls: num.describe("Mean of the same-season windows of up to 5 previous years"),
  baselineWindows: z.number().int(),
  baselineYears: z.number().int(),
  ratio: num.describe("meanDailyCalls / baselineMeanDailyCalls"),
  percentile: num.describe("Percentile rank of meanDailyCalls among the baseline windows (= congestionIndex)"),
});

const countryTankers = z.object({
  country: z.string().describe("ISO 3166-1 alpha-3"),
  portwatchNames: z.array(z.string()).describe("PortWatch's country names merged into the series"),
  firstDay: z.string(),
  latestDay: z.string(),
  calls7d: num.describe("Tanker port calls in the country in the 7 days to latestDay; null if a day is missing"),
  meanDailyCalls30d: num,
  baselineMeanDailyCalls: num.describe("Same-season 30-day means of the previous years"),
  baselineYears: z.number().int(),
  ratio: num,
  percentile: num.describe("Percentile rank of the 30-day mean among the same-season windows; null with fewer than 2 previous years"),
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

const record = z.object({ record: z.string(), period: z.string().nullable().describe("YYYY-MM-DD..YYYY-MM-DD, a year range, or null when the list has no period") });

export const supplyChainData = z.object({
  port: z.object({
    code: z.string().nullable().describe("UN/LOCODE; null only for a PortWatch port that no list gives a code (found by coordinates)"),
    name: z.string(),
  }),
  queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  congestionIndex: num.describe("0-100; null without daily port calls (reason in details.missing)"),
  vesselCount: z
    .number()
    .int()
    .nullable()
    .describe("Port calls in the latest 7 days (daily series), else a mean week of PortWatch's yearly average; details.basis says which"),
  avgDwellDays: num.describe("Little's law from AIS moored vessels and the arrival rate; null without both"),
  etaDelayHours: num.describe("Little's law from AIS anchored vessels and the arrival rate; null without both"),
  disruptionRisk: z.enum(DISRUPTION_LEVELS),
  summary: z.string(),
  details: z.object({
    keyFindings: z.array(z.string()),
    coverage: z
      .object({
        country: z.string().nullable().describe("ISO 3166-1 alpha-3 of the port"),
        records: z.array(record).describe("The records this answer used, each with its period"),
        notAvailable: z.array(z.string()).describe("Records that do not reach this port"),
        period: z.object({ from: z.string().nullable(), to: z.string().nullable() }).describe("Earliest and latest day of the records used"),
        summary: z.string(),
      })
      .describe("What the answer rests on"),
    inputs: z.record(z.string(), z.boolean()).describe("Which inputs were available for this port"),
    basis: z.record(z.string(), z.string()).describe("How each non-null figure was derived"),
    missing: z.array(z.string()).describe("Fields that are null and why"),
    resolution: z.object({
      by: z.enum(["portCode", "coordinates"]),
      requestedCode: z.string().nullable(),
      alias: z
        .object({ code: z.string(), name: z.string(), function: z.string(), functions: z.array(z.string()), distanceKm: z.number() })
        .nullable()
        .describe("The requested code is a UN/LOCODE place without the port function that names this port's place"),
      distanceKm: num,
      coordinatesIgnored: z.boolean(),
      radiusKm: z.number(),
      rule: z.enum(["nearest port with PortWatch records in the nearest port's country", "nearest port"]).nullable().describe("How coordinates chose the port"),
      nearerPortWithoutRecords: z
        .object({ code: z.string().nullable(), name: z.string(), distanceKm: num })
        .nullable()
        .describe("A nearer port that was passed over because PortWatch has no records for it"),
    }),
    port: z.object({
      country: z.string(),
      iso3: z.string().nullable(),
      lat: num,
      lng: num,
      coordSource: z.string().nullable(),
      namedBy: z.array(z.string()).describe("Lists that name the code as a port: unlocode, wpi, portwatch"),
      unlocode: z.object({ name: z.string(), function: z.string(), functions: z.array(z.string()) }).nullable(),
      flags: z.array(z.string()),
      wpi: z.record(z.string(), z.unknown()).nullable(),
      portwatch: z.array(z.record(z.string(), z.unknown())).describe("PortWatch ports of this code, the busiest first"),
    }),
    activity: activity.nullable(),
    countryTankers: countryTankers.nullable().describe("The country's PortWatch tanker calls (a national figure)"),
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

/** GET /api/supply-chain/ports: the ports inside a box with their congestion index, for the map's ports layer. */
export const MAX_PORTS = 2000;

export const portsQuery = z.object({
  bbox: bboxText,
  limit: queryInteger(z.int().min(1).max(MAX_PORTS)).default(500).describe(`ports per page (1–${MAX_PORTS}, default 500): those with a congestion index first, then the busiest`),
  cursor: cursorText,
});
export type PortsQuery = z.output<typeof portsQuery>;

export const portsCollection = z.object({
  type: z.literal("FeatureCollection"),
  asOf: z.string().describe("the ports snapshot's as-of time"),
  snapshotVersion: z.string().describe("the snapshot version the features and the page order come from"),
  ...pageFields,
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string().describe("the port's UN/LOCODE, or PW-<PortWatch id> for a port no list gives a code"),
      geometry: z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) }),
      properties: z.object({
        code: z.string().nullable().describe("UN/LOCODE (POST /api/supply-chain/query takes it as portCode)"),
        name: z.string(),
        country: z.string().describe("ISO 3166-1 alpha-2"),
        congestionIndex: num.describe("as in the congestion answer: 0-100 percentile of the latest 30 days' port calls against the same season of previous years"),
        latestDay: z.string().nullable().describe("last day of the daily port calls the index rests on"),
        reason: z.string().nullable().describe("why congestionIndex is null"),
        yearlyPortCalls: num.describe("PortWatch's yearly average of port calls (2019..2024), all its terminals; null without PortWatch"),
      }),
    }),
  ),
});
export type PortsCollection = z.infer<typeof portsCollection>;
