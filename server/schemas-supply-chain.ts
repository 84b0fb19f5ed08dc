// Request and response schemas of POST /api/supply-chain/query (spec 4.6, "Supply chain result") and GET /api/supply-chain/ports. The route
// validates with them, the service's types are inferred from them, openapi.ts documents them.
import { z } from "zod";
import { bboxText } from "./schemas-events.ts";
import { queryInteger } from "./schemas-common.ts";
import { cursorText, pageFields } from "./schemas-paging.ts";

export const SUPPLY_CHAIN_QUERY_TYPES = ["congestion", "vessel_count", "cargo_delay", "trade_risk"] as const;
export const DISRUPTION_LEVELS = ["low", "medium", "high"] as const;
/** UN/LOCODE: 2-letter country + 3 letters or digits 2-9; one space after the country is accepted ("TH LCH"). */
export const PORT_CODE_PATTERN = /^[A-Za-z]{2} ?[A-Za-z2-9]{3}$/;

/** PortWatch's chokepoint ids: chokepoint1 … chokepoint28 (case ignored). */
export const CHOKEPOINT_ID_PATTERN = /^chokepoint\d{1,3}$/i;

export const supplyChainBody = z
  .strictObject({
    lat: z.number().min(-90).max(90).optional().describe("Latitude; required when portCode and chokepoint are omitted"),
    lng: z.number().min(-180).max(180).optional().describe("Longitude; required when portCode and chokepoint are omitted"),
    portCode: z
      .string()
      .regex(PORT_CODE_PATTERN, "must be a UN/LOCODE: 2-letter country code and 3 letters or digits (e.g. THLCH)")
      .transform((s) => s.replace(" ", "").toUpperCase())
      .optional()
      .describe("UN/LOCODE of a port (named as a port by UN/LOCODE, the World Port Index or PortWatch); wins over chokepoint and lat/lng when sent"),
    chokepoint: z
      .string()
      .regex(CHOKEPOINT_ID_PATTERN, "must be a PortWatch chokepoint id (chokepoint1 … chokepoint28; GET /api/supply-chain/chokepoints lists them)")
      .transform((s) => s.toLowerCase())
      .optional()
      .describe("PortWatch chokepoint id (GET /api/supply-chain/chokepoints lists them): the answer is for the strait or canal; wins over lat/lng"),
    queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  })
  .superRefine((b, ctx) => {
    if (b.portCode !== undefined || b.chokepoint !== undefined) return;
    if (b.lat === undefined) ctx.addIssue({ code: "custom", path: ["lat"], message: "required when portCode and chokepoint are omitted" });
    if (b.lng === undefined) ctx.addIssue({ code: "custom", path: ["lng"], message: "required when portCode and chokepoint are omitted" });
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

const period = z
  .object({ from: z.string().describe("first day (YYYY-MM-DD)"), to: z.string().describe("last day (YYYY-MM-DD)") })
  .describe("a span of days, both ends included");

export const currency = z
  .object({
    current: z.boolean().describe("true when the dated datum is within the series' horizon of today (lib/currency.ts); false = the figure is kept but does not describe the present"),
    cadence: z.enum(["daily", "weekly", "monthly", "yearly"]).describe("the cadence of the series the datum comes from"),
    horizonDays: z.number().int().describe("how many days after its datum a series of this cadence still describes the present (daily 3, weekly 21, monthly 92, yearly 731)"),
    ageDays: z.number().int().describe("whole days from the end of the datum's day to today"),
    note: z.string().describe("one sentence: how old the data are against the horizon"),
  })
  .describe("whether the data reach the present (currencyOf of lib/currency.ts at the service clock)");

const figure = z
  .object({
    period: period.nullable().describe("the span of all the data the figure rests on (long record and recent window); null when the figure is null or rests on no dated data"),
    recent: period.nullable().describe("the recent window the figure reads (e.g. the latest 30 days of port calls); null when it has none"),
    asOf: z.string().nullable().describe("the day the figure is dated by (YYYY-MM-DD): the newest datum of the series that sets its time, never later than period.to; for a status resting on several series, the oldest of their latest days"),
    source: z.string().nullable().describe("the series the figure comes from"),
    currency: currency.nullable().describe("whether the datum the figure is dated by is current; null when the figure is null"),
    note: z.string().describe("what the figure is as a statement in time (e.g. a single AIS sample of 2018-07-06), or why it is null"),
  })
  .describe("when a figure is from");

const record = z.object({ record: z.string(), period: z.string().nullable().describe("YYYY-MM-DD..YYYY-MM-DD, a year range, or null when the list has no period") });

const transitFigures = z.object({
  transitsPerDay: z.number().nullable().describe("mean daily transits over the 30 days of period"),
  baselinePerDay: z.number().nullable().describe("median over baselineYears of the same 30 days' mean"),
  change: z.number().nullable().describe("transitsPerDay / baselinePerDay − 1"),
});

/** A chokepoint's latest 30 days of transits against the same days of 2019–2022 (lib/ports/chokepoints.ts). */
export const chokepointTransits = transitFigures.extend({
  name: z.string(),
  portid: z.string().describe("PortWatch's chokepoint id (chokepoint1 …)"),
  period: z.object({ from: z.string(), to: z.string() }),
  baselineYears: z.array(z.number().int()),
  risk: z.enum(["low", "medium", "high"]).describe("high from a 40 % fall, medium from 30 %"),
  current: z.boolean().describe("false: the newest transits are older than a daily series' currency allows"),
  byVesselType: z
    .object({ container: transitFigures.nullable(), dry_bulk: transitFigures.nullable(), general_cargo: transitFigures.nullable(), roro: transitFigures.nullable(), tanker: transitFigures.nullable() })
    .describe("the same comparison by vessel type; null where a type has no full window or baseline"),
});

export const supplyChainData = z.object({
  port: z.object({
    code: z.string().nullable().describe("UN/LOCODE; null only for a PortWatch port that no list gives a code (found by coordinates)"),
    name: z.string(),
  }),
  queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  congestionIndex: num.describe("0-100: percentile rank of the latest 30 days' port calls among the same season of up to 5 previous years — how busy the port is against its own seasonal normal (call volume), not waiting time; null without daily port calls (reason in details.missing)"),
  vesselCount: z
    .number()
    .int()
    .nullable()
    .describe("Port calls in the latest 7 days (daily series), else a mean week of PortWatch's yearly average; details.basis says which"),
  avgDwellDays: num.describe("Always null: a dwell needs each call's arrival and departure, which no data here give (PortWatch counts calls; the only vessel positions are one AIS minute of 2018); the reason is in details.missing"),
  etaDelayHours: num.describe("Always null: a waiting time needs each vessel's time at anchor before it berths, which no data here give; the reason is in details.missing"),
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
      chokepoints: z
        .array(
          chokepointTransits,
        )
        .describe("the chokepoints on the country's main trade routes (lib/ports/chokepoints.ts), the largest fall first; empty when the exposure table does not list the country"),
      setBy: z.enum(["port", "chokepoints"]).describe("what sets disruptionRisk: the port's own hazards and activity, or its trade routes' chokepoints"),
    }),
    period: period.nullable().describe("the span of all the dated data this answer rests on (every series in coverage.records with a period); null when it rests on none"),
    asOf: z.string().nullable().describe("the newest datum this answer actually used (YYYY-MM-DD), never the snapshot's build date; ≤ period.to"),
    currency: currency.nullable().describe("currency of the newest series used (its cadence and age at the service clock); current false = the answer does not describe the present"),
    recent: z
      .object({
        period: period.describe("from the first to the last day of the recent windows"),
        windows: z.array(z.object({ source: z.string(), period })).describe("each recent window: the 30 days of port calls, the 30 days of hazards before the GDACS feed, the national tanker calls"),
      })
      .nullable()
      .describe("the recent-window part of the answer, apart from the long records (baselines, flood history, yearly averages)"),
    figures: z
      .object({
        congestionIndex: figure,
        vesselCount: figure,
        avgDwellDays: figure,
        etaDelayHours: figure,
        disruption: figure.describe("disruptionRisk: the GDACS hazards of the 30 days before the feed and, with daily port calls, the activity anomaly"),
        countryTankers: figure.describe("details.countryTankers (a national figure, context)"),
      })
      .describe("when each figure is from: period, recent window, source and currency"),
    congestion: z.record(z.string(), z.unknown()).optional().describe("queryType congestion"),
    vessels: z.record(z.string(), z.unknown()).optional().describe("queryType vessel_count"),
    delay: z.record(z.string(), z.unknown()).optional().describe("queryType cargo_delay"),
    trade: z.record(z.string(), z.unknown()).optional().describe("queryType trade_risk"),
  }),
  asOf: z.string().nullable().describe("= details.asOf: the newest datum this answer used (YYYY-MM-DD), not the snapshot's date; whether it is current is in details.currency"),
  dataVersion: z.string(),
  dataSources: z.array(z.string()),
  timestamp: z.string(),
});

/**
 * The answer for a strait or canal (a `chokepoint` id, or coordinates nearer to a chokepoint than to any port with PortWatch records): the
 * spec's fields where a strait has them — vesselCount is its transits of the latest 7 days, disruptionRisk its fall in
 * transits — and null where it has none (congestionIndex, dwell, waiting), with the reason.
 */
export const chokepointAnswerData = z.object({
  port: z.null().describe("null: the answer is for a chokepoint, not a port"),
  chokepoint: z.object({ id: z.string(), name: z.string(), lat: num, lng: num }),
  queryType: z.enum(SUPPLY_CHAIN_QUERY_TYPES),
  congestionIndex: z.null().describe("null: a strait has no port calls to rank"),
  vesselCount: z.number().int().nullable().describe("transits (all vessel types) in the 7 days to details.asOf; null when a day is missing"),
  avgDwellDays: z.null(),
  etaDelayHours: z.null(),
  disruptionRisk: z.enum(DISRUPTION_LEVELS).describe("from the fall in transits: high from 40 %, medium from 30 % against the same 30 days of 2019–2022"),
  summary: z.string(),
  details: z.object({
    keyFindings: z.array(z.string()),
    resolution: z.object({
      by: z.enum(["chokepoint", "coordinates"]),
      requestedChokepoint: z.string().nullable(),
      distanceKm: num.describe("from the coordinates to PortWatch's point of the chokepoint"),
      radiusKm: z.number().describe("coordinates answer for a chokepoint within this distance that is nearer than every port with PortWatch records"),
      nearestPort: z.object({ code: z.string().nullable(), name: z.string(), distanceKm: z.number() }).nullable().describe("the nearest port with PortWatch records within the ports' radius (farther than the chokepoint)"),
    }),
    transits: chokepointTransits,
    exposedCountries: z.array(z.string()).describe("ISO3 of the countries whose ports' trade risk this chokepoint enters (the exposure table)"),
    basis: z.record(z.string(), z.string()),
    missing: z.array(z.string()),
    period: period.describe("the daily transits this answer rests on: the baseline years' first day to the latest day"),
    asOf: z.string().describe("the latest day of transits"),
    currency,
    figures: z.object({ vesselCount: figure, disruption: figure }),
  }),
  asOf: z.string(),
  dataVersion: z.string(),
  dataSources: z.array(z.string()),
  timestamp: z.string(),
});
export type ChokepointAnswerData = z.infer<typeof chokepointAnswerData>;

/** GET /api/supply-chain/chokepoints: PortWatch's chokepoints with their latest transits (null without a series). */
export const chokepointList = z.object({
  asOf: z.string().nullable().describe("the newest day of transits among the chokepoints"),
  chokepoints: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      lat: num,
      lng: num,
      transits: chokepointTransits.nullable().describe("null: the data hold no daily transits for this chokepoint"),
      exposedCountries: z.array(z.string()),
    }),
  ),
  snapshotVersion: z.string(),
});
export type ChokepointList = z.infer<typeof chokepointList>;

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
  asOf: z.string().nullable().describe("= details.asOf: the newest datum the matched ports' figures use (YYYY-MM-DD), not the snapshot's date; null when none has dated data"),
  details: z
    .object({
      period: period.nullable().describe("the span of the data of the matched ports' figures"),
      asOf: z.string().nullable().describe("the newest datum used (YYYY-MM-DD), ≤ period.to"),
      currency: currency.nullable().describe("currency of the newest series used"),
      figures: z
        .object({ congestionIndex: figure, yearlyPortCalls: figure })
        .describe("when each property is from, over the matched ports (congestionIndex: the daily port calls of the ports that have them)"),
    })
    .describe("when the features' figures are from"),
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
        congestionPeriod: period.nullable().describe("the days the index rests on: its earliest same-season baseline window to latestDay"),
        congestionCurrent: z.boolean().nullable().describe("whether latestDay is current (a daily series: within 3 days of today); null without an index"),
        reason: z.string().nullable().describe("why congestionIndex is null"),
        yearlyPortCalls: num.describe("PortWatch's yearly average of port calls (2019..2024), all its terminals; null without PortWatch"),
      }),
    }),
  ),
});
export type PortsCollection = z.infer<typeof portsCollection>;
