// The request and response schemas of the API, defined once: routes validate with them, types.ts infers the
// service types from them, and openapi.ts generates the OpenAPI 3.1 document from them (z.toJSONSchema).
import { z } from "zod";
import { dataPeriod, timeDetails, timeFields } from "./schemas-time.ts";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";
import { CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE, GRID_DEFAULT_MONTH_RULE, MONTH_REASONS } from "../lib/drought/cell-latest.ts";

export const RISK_TYPES = ["drought", "flood", "wildfire", "heatwave", "storm", "sea_level_rise"] as const;
export const TIMEFRAMES = ["7d", "30d", "90d", "1y"] as const;
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export const D_LEVELS = ["D0", "D1", "D2", "D3", "D4"] as const;
export const MAX_BATCH_LOCATIONS = 100;

/** YYYY-MM with a real month 01..12. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
/** Plain decimal numbers only in query strings: no exponent, hex, blanks, or trailing garbage. */
export const DECIMAL_PATTERN = /^[+-]?\d+(\.\d+)?$/;
/** Whole numbers in query strings: decimal digits with an optional sign. */
export const INTEGER_PATTERN = /^[+-]?\d+$/;

export const lat = z.number().min(-90).max(90).describe("Latitude, decimal degrees (WGS 84), -90 to 90");
export const lng = z.number().min(-180).max(180).describe("Longitude, decimal degrees (WGS 84), -180 to 180");
const month = z.string().regex(MONTH_PATTERN, "must be YYYY-MM with month 01-12").describe("Month, YYYY-MM");
export const riskLevel = z.enum(RISK_LEVELS);
/** How far to trust a SPEI-1 value (docs/methods/confidence.md); null with confidenceReason where there is none. */
const confidenceFields = {
  confidence: z.number().min(0).max(1).nullable().optional().describe("0..1, calibrated so that higher means a smaller leave-one-out error"),
  confidenceLabel: z.enum(["high", "medium", "low"]).nullable().optional(),
  confidenceReason: z.string().optional(),
};
const dLevel = z.enum(D_LEVELS);
const indexValue = z.number().nullable();
const timestamp = z.string().describe("ISO 8601 UTC date-time");

/** Query-string text of the pattern, read as a number, then the range of the number. */
function queryNumeric(pattern: RegExp, message: string, range: z.ZodType<number, number>) {
  return z.string().regex(pattern, message).transform(Number).pipe(range).describe(range.description ?? "");
}

/** A query-string number: strict decimal text, then the range of the number. */
export const queryNumber = (range: z.ZodType<number, number>) => queryNumeric(DECIMAL_PATTERN, "must be a decimal number", range);

/** A query-string integer: decimal digits, then the range of the number. */
export const queryInteger = (range: z.ZodType<number, number>) => queryNumeric(INTEGER_PATTERN, "must be a whole number", range);

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

/** Answer format of the drought GET routes: csv is text/csv with a header row (also chosen by Accept: text/csv). */
const format = z.enum(["json", "csv"]).optional().describe("json (default) or csv: text/csv with a header row; Accept: text/csv chooses csv too");

/** Why a point answer serves its month (lib/drought/cell-latest.ts). */
const monthReason = z
  .enum(MONTH_REASONS)
  .describe(`why this month: "requested" (the request named it) or, without a month, "${GRID_DEFAULT_MONTH_RULE}" — the default month of every drought answer (point, score, batch, province, choropleth, map): the latest month in which VALID_CELL_SHARE (90 % by default) of land cells have all six indices. A cell lacking an index that month answers "${CELL_COMPLETE_MONTH_RULE}", a cell that never has all six "${CELL_LATEST_MONTH_RULE}"`);

export const droughtQuery = z.object({
  lat: queryNumber(lat),
  lng: queryNumber(lng),
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest month with every index (period.monthReason says which rule chose it)"),
  format,
});

/** The indices a history may ask for (the grid's own names). */
export const HISTORY_INDICES = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"] as const;
export const DEFAULT_HISTORY_INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;

const monthRange = {
  from: month.optional().describe("First month, YYYY-MM; default the first month of the record"),
  to: month.optional().describe("Last month, YYYY-MM; default the last month of the record"),
};

export const historyQuery = z
  .object({
    lat: queryNumber(lat),
    lng: queryNumber(lng),
    ...monthRange,
    indices: z
      .string()
      .transform((s) => s.split(",").map((x) => x.trim()))
      .pipe(z.array(z.enum(HISTORY_INDICES)).min(1).max(HISTORY_INDICES.length))
      .optional()
      .describe(`Comma-separated subset of ${HISTORY_INDICES.join(", ")}; default ${DEFAULT_HISTORY_INDICES.join(",")}`),
    format,
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to", path: ["from"] });

export const provinceQuery = z.object({
  name: z.string().trim().min(1).max(100).describe("Province name in English"),
  country: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "must be an ISO 3166-1 alpha-3 code")
    .transform((s) => s.toUpperCase())
    .default("THA")
    .describe("ISO 3166-1 alpha-3; default THA"),
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest valid month (the build's national rule: the latest month in which VALID_CELL_SHARE, 90 % by default, of land cells have every index)"),
  format,
});

export const provinceHistoryQuery = provinceQuery
  .omit({ month: true })
  .extend(monthRange)
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to", path: ["from"] });

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

// ---- responses ----

/** Where a point's drought answer comes from: the nearest grid cell. */
const gridLocation = z.object({
  requestedLat: z.number(),
  requestedLng: z.number(),
  gridId: z.string(),
  gridLat: z.number(),
  gridLng: z.number(),
  distanceKm: z.number(),
  country: z.string(),
});

const historyMonth = z.object({
  month,
  valid: z.boolean().describe("SPEI-1 has a value: the month has a score"),
  score: z.number().nullable(),
  level: riskLevel.nullable(),
  severity: dLevel.nullable(),
  indices: z.record(z.string(), indexValue),
});

export const droughtHistoryData = z.object({
  location: gridLocation,
  period: z.object({ from: month, to: month, months: z.int(), climatologyBaseline: z.string() }),
  series: z.array(historyMonth),
  details: timeDetails,
});

export const provinceHistoryData = z.object({
  province: z.string(),
  country: z.string(),
  period: z.object({ from: month, to: month, months: z.int(), climatologyBaseline: z.string() }),
  series: z.array(historyMonth.extend({ cellsUsed: z.int().describe("land cells with a value that month") })),
  details: timeDetails,
});

export const droughtIndices = z.object({
  spei1: indexValue,
  spei3: indexValue,
  spei6: indexValue,
  spei12: indexValue,
  spi1: indexValue,
  mcdi: indexValue,
});

// ---- feed-risk details (flood, wildfire, storm share one shape; docs/methods/feed-risks.md) ----

/** The recent window of a feed answer: the timeframe's days up to today, and how much of it the data observe. */
const recentWindowFields = {
  timeframe: z.enum(TIMEFRAMES),
  from: z.string().describe("the window's first day: the timeframe before today"),
  to: z.string().describe("today"),
  period: dataPeriod.describe("the window, from..to"),
  observed: z.enum(["full", "partial", "none"]).describe("none: the data end before the window starts (no data for this window: its counts are null, not 0); partial: they end inside it"),
  observedPeriod: dataPeriod.nullable().describe("the part of the window the data cover"),
  note: z.string().optional().describe("why the window is not fully observed"),
};

const contributingEvent = z.object({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  date: z.string().describe("start, YYYY-MM-DD"),
  endDate: z.string(),
  distanceKm: z.number(),
  magnitude: z.number().nullable().describe("in `unit`: DFO magnitude / GDACS alert score, FRP MW, wind kt; null: no wind reported (West Pacific storms before 1977)"),
  unit: z.string(),
  weight: z.number().describe("intensity × exp(-distance/decayKm)"),
});

export const eventHazardDetails = z.object({
  radiusKm: z.number(),
  decayKm: z.number(),
  record: z.object({ start: z.string(), end: z.string(), years: z.number(), days: z.number() }),
  eventsInRadius: z.number().describe("event groups within radiusKm over the record"),
  eventsPerYear: z.number().nullable().describe("null when the record is shorter than a year (rateNote says so)"),
  weightedAnnualRate: z.number().nullable(),
  returnPeriodYears: z.number().nullable(),
  rateNote: z.string().optional().describe("why there is no rate: the record is too short"),
  recent: z.object({
    ...recentWindowFields,
    events: z.number().nullable().describe("event groups in the window; null: no data for this window"),
    weighted: z.number().nullable(),
    currentActivity: z.literal(true).optional().describe("a record under a year answers only as the current activity over a window it covers up to today"),
  }),
  baseline: z.string(),
  contributingEvents: z.array(contributingEvent).describe("up to 10, largest weight first"),
  historical: z.object({ eventsPerYear: z.array(z.object({ year: z.number(), events: z.number() })) }).optional(),
});

export const stormTrackRecord = z
  .object({
    id: z.enum(["west-pacific", "global"]),
    name: z.string(),
    start: z.string(),
    end: z.string(),
    years: z.number().describe("frequency and return period: storm tracks over the whole record"),
    windStart: z.string().describe("the wind-weighted rate counts storms from this day on (wind reported from then)"),
    windYears: z.number(),
    note: z.string().optional().describe("a record under 10 years: its rates come from the years searched"),
  })
  .describe("the IBTrACS record the answer used: the West Pacific record 1884–2025 north of the equator between 100°E and 180°, the global recent and active tracks elsewhere");

export const coverageDetails = z
  .object({
    country: z.string().nullable().describe("ISO 3166-1 alpha-3 of the point (Natural Earth 1:50m); null at sea or where no country is"),
    dataset: z.string().describe("the event, track, gauge or series set the answer used"),
    period: z.object({ start: z.string(), end: z.string() }).describe("the period of that set"),
    area: z.string().describe("where this risk type answers; elsewhere 404 NOT_FOUND"),
  })
  .describe("what the answer covered (feed risk types; docs/methods/feed-risks.md)");

const notUsed = z.object({ used: z.literal(false), note: z.string() });

export const floodClimateGrid = z
  .union([
    notUsed,
    z.object({
      used: z.literal(true),
      source: z.string(),
      version: z.string().describe("drought artifact version"),
      gridMonth: month.describe("the grid's latest valid month; the latest year ends with it"),
      recordStart: month,
      baseline: z.string(),
      cell: z.object({ lat: z.number(), lng: z.number(), distanceKm: z.number() }),
      veryWetThreshold: z.number().describe("SPI-3 ≥ this is very wet (McKee et al. 1993)"),
      veryWetMonths: z.object({ record: z.number(), recordMonths: z.number(), latestYear: z.number(), latestYearMonths: z.array(month) }),
      latestSpi1: z.number().nullable(),
      latestSpi3: z.number().nullable(),
      wetness: z.number().describe("Σ SPI-3/1.5 over the very wet months of the latest year"),
      wetRef: z.number(),
      term: z.number().describe("wetness / wetRef: reported, not scored (the levels use footprints only, so they mean the same everywhere)"),
    }),
  ])
  .describe("SPI wet extremes of the nearest drought-grid cell (Thailand), reported beside the flood answer and not scored (docs/methods/feed-risks.md)");

export const floodDetails = z
  .object({
    method: z.literal("footprints"),
    bufferKm: z.number().describe("a point this close outside a polygon counts as covered"),
    record: z.object({ start: z.string(), end: z.string(), years: z.number() }),
    footprintsCovering: z.int().describe("events whose footprint covers the point over the record"),
    eventsPerYear: z.number(),
    weightedAnnualRate: z.number().describe("λ: Σ event weights / record years"),
    returnPeriodYears: z.number().nullable().describe("record years / covering events; null when none covers the point"),
    frequencyScore: z.number().describe("the score of λ alone, on the return-period anchors"),
    recent: z.object({
      ...recentWindowFields,
      events: z.int().nullable().describe("covering footprints in the window; null: no data for this window"),
      floor: z.number().describe("the score is at least this while a footprint covers the point in the timeframe"),
    }),
    levelScale: z.string(),
    contributingEvents: z
      .array(z.object({ id: z.string(), name: z.string(), source: z.string(), date: z.string(), endDate: z.string(), footprint: z.string(), distanceKm: z.number().describe("0 inside the footprint"), weight: z.number() }))
      .describe("up to 10, largest weight first"),
    climateGrid: floodClimateGrid,
    historical: z.object({ eventsPerYear: z.array(z.object({ year: z.number(), events: z.number() })) }).optional(),
  })
  .describe("flood from event footprints (docs/methods/feed-risks.md#flood)");

export const heatwaveDetails = z
  .object({
    method: z.literal("daily"),
    definition: z.string(),
    station: z.object({ id: z.string(), name: z.string(), distanceKm: z.number() }),
    period: z.object({ from: z.string(), to: z.string(), daysWithData: z.int() }).describe("the station's latest calendar year with 300 days of data"),
    base: z.object({ start: z.int(), end: z.int(), years: z.int(), heatwaveDaysMean: z.number(), heatwaveDaysSd: z.number(), hotDaysMean: z.number() }),
    heatwaves: z.int().describe("HWN: heatwaves in the period"),
    heatwaveDays: z.int().describe("HWF: days in heatwaves"),
    longestDays: z.int().describe("HWD: the longest heatwave"),
    hottestPeakC: z.number().nullable().describe("HWA: the hottest day of the hottest heatwave, °C"),
    hotDays: z.int().describe("days with a maximum ≥ 35 °C"),
    zScore: z.number(),
    relativeScore: z.number(),
    absoluteScore: z.number(),
    contributingEvents: z.array(z.object({ start: z.string(), days: z.int(), peakC: z.number() })).describe("heatwaves of the period that reach into the timeframe, latest first"),
    recent: z.object({ ...recentWindowFields, heatwaves: z.int().nullable().describe("null: no daily data for this window") }),
    historical: z.object({ byYear: z.array(z.object({ year: z.int(), heatwaves: z.int(), heatwaveDays: z.int(), hotDays: z.int() })) }).optional().describe("the station's every year with 300 days of data"),
  })
  .describe("heatwaves from daily maximum temperature at the nearest GHCN-Daily station within 100 km whose latest full year is current (Perkins & Alexander 2013); without one, 404 NOT_FOUND naming the nearest station, its distance and its last year (docs/methods/feed-risks.md#heatwave)");

const gaugeTrend = z.object({
  id: z.number(),
  name: z.string(),
  distanceKm: z.number(),
  trendMmYr: z.number(),
  seMmYr: z.number(),
  years: z.number(),
  firstYear: z.number().nullable(),
  lastYear: z.number().nullable(),
  lastValueMm: z.number().nullable(),
});

export const seaLevelDetails = z.object({
  trendMmYr: z.number().nullable().describe("null inland beyond inlandLimitKm (score 0, no trend needed)"),
  trendSeMmYr: z.number().nullable(),
  distanceToCoastKm: z.number(),
  atSea: z.boolean().describe("a point in coastal waters (≤ 25 km off the coast) scores as at the coast"),
  inlandLimitKm: z.number().describe("land farther than this from the coast scores 0"),
  coastSource: z.string(),
  gauges: z.array(gaugeTrend),
  baseline: z.string(),
  historical: z
    .object({ annualMeanSeaLevelMm: z.array(z.object({ id: z.number(), name: z.string(), annual: z.array(z.tuple([z.number(), z.number()])) })) })
    .optional(),
});

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
      .extend({ fireRecord: z.object({ id: z.string(), name: z.string(), start: z.string(), end: z.string(), days: z.number() }).describe("the fire file whose extent holds the point") })
      .optional(),
    storm: eventHazardDetails.extend({ trackRecord: stormTrackRecord }).optional(),
    heatwave: heatwaveDetails.optional(),
    sea_level_rise: seaLevelDetails.optional(),
  }),
  dataSources: z.array(z.string()),
  timestamp,
});

export const droughtGridData = z.object({
  location: gridLocation,
  period: z.object({ month, monthReason, climatologyBaseline: z.string() }),
  drought: z.object({
    score: z.number().min(0).max(100),
    level: riskLevel,
    indices: droughtIndices,
    severity: z.object({ spei1: dLevel.nullable() }),
    ...confidenceFields,
  }),
  details: timeDetails,
});

export const provinceDroughtData = z.object({
  province: z.string(),
  country: z.string(),
  month,
  score: z.number().min(0).max(100),
  level: riskLevel,
  indices: z.object({ spei1: indexValue, spei3: indexValue, spei6: indexValue }),
  severity: z.object({ spei1: dLevel.nullable() }),
  ...confidenceFields,
  details: timeDetails,
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

const pointGeometry = z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) });

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

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).describe("the error table of docs/api.md: code → HTTP status"),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});

export const pingData = z.object({ pong: z.literal(true) });

export const exportsData = z.object({
  version: z.string().describe("the published drought version the files belong to"),
  files: z.array(
    z.object({
      name: z.string(),
      url: z.string(),
      contentType: z.string(),
      description: z.string(),
      bytes: z.int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/).describe("also the file's ETag"),
    }),
  ),
  pending: z
    .string()
    .optional()
    .describe("present when the version was published before its exports (make serve's first run): they come with the next version of the same data, and `files` is empty until then"),
});

export const choroplethQuery = z.object({
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest valid month (the build's national rule: the latest month in which VALID_CELL_SHARE, 90 % by default, of land cells have every index)"),
});

export const provinceChoropleth = z.object({
  type: z.literal("FeatureCollection"),
  month,
  climatologyBaseline: z.string(),
  details: timeDetails,
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string().describe("ISO 3166-2 code, e.g. TH-10"),
      geometry: z.object({ type: z.literal("MultiPolygon"), coordinates: z.array(z.array(z.array(z.tuple([z.number(), z.number()])))) }),
      properties: z.object({
        code: z.string(),
        province: z.string(),
        provinceTh: z.string(),
        region: z.string(),
        month,
        valid: z.boolean(),
        score: z.number().nullable(),
        level: riskLevel.nullable(),
        severity: dLevel.nullable(),
        spei1: indexValue,
        spei3: indexValue,
        spei6: indexValue,
        cellsUsed: z.int(),
      }),
    }),
  ),
});
