// The feed risk types' details in a score answer: flood, wildfire, storm, heatwave and sea level (docs/methods/feed-risks.md).
import { z } from "zod";
import { dataPeriod } from "./schemas-time.ts";
import { month, TIMEFRAMES } from "./schemas-common.ts";

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
  .describe("SPI wet extremes of the nearest drought-grid cell (Thailand, Vietnam, Malaysia), reported beside the flood answer and not scored (docs/methods/feed-risks.md)");

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
