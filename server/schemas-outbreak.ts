// Request and response schemas of POST /api/outbreak-radar/query (spec 4.5, "Outbreak result"). The route
// validates with them, the service's types are inferred from them, openapi.ts documents them.
import { z } from "zod";
import { OUTBREAK_STATUSES, TIMEFRAMES, TRENDS } from "../lib/outbreaks/endemic-channel.ts";
import { ADMIN_LEVELS, SURVEILLED_DISEASES } from "../lib/outbreaks/series.ts";
import { RISK_LEVELS } from "./schemas-common.ts";

export const DISEASE_TYPES = ["dengue", "influenza", "covid", "cholera", "malaria", "general"] as const;

const lat = z.number().min(-90).max(90).describe("Latitude, decimal degrees (WGS 84), -90 to 90");
const lng = z.number().min(-180).max(180).describe("Longitude, decimal degrees (WGS 84), -180 to 180");
const isoDate = z.string().describe("YYYY-MM-DD");

export const outbreakBody = z.strictObject({
  lat,
  lng,
  diseaseType: z.enum(DISEASE_TYPES),
  timeframe: z.enum(TIMEFRAMES).default("30d").describe("window counted back from the data's as-of date; monthly data: 7d and 30d = latest month, 90d = 3 months"),
});

const channel = z
  .object({
    median: z.number(),
    p75: z.number(),
    p90: z.number(),
    baselineWindows: z.int(),
    baseline: z
      .enum(["seasonal", "recent"])
      .describe("seasonal: the same window in the 5 most recent previous years that report it (at most 10 back); recent: the 8 most recent windows before it that report it (at most 16 back)"),
    baselinePeriods: z.array(z.string()).describe("The baseline windows used, each as from..to, most recent first"),
  })
  .nullable();

const dateRange = z.object({ from: isoDate, to: isoDate });

/** lib/currency.ts: whether the newest datum an answer used is within its series' horizon of today. */
const currency = z
  .object({
    current: z.boolean().describe("true when the newest datum used is within the horizon of today (the service clock)"),
    cadence: z.enum(["daily", "weekly", "monthly", "yearly"]).describe("how often the series holding that datum reports"),
    horizonDays: z.int().describe("days after its newest datum a series of that cadence still describes the present: daily 3, weekly 21, monthly 92, yearly 731"),
    ageDays: z.int().describe("whole days from the end of the newest datum's day to today"),
    note: z.string(),
  })
  .describe("docs/methods/outbreaks.md#currency: not current → outbreakStatus no_recent_data, trend unknown, activeClusters null; a score resting on a recent window is then a 404");

/** What an answer's data span, its newest datum and whether that is current; the recent window where the answer rests on one. */
const answerTime = {
  period: dateRange.describe("span of the data the answer rests on: the first reported period of its series (news only: its oldest item about the disease in the country) to asOf"),
  currency,
  recent: z
    .object({ period: dateRange })
    .nullable()
    .describe("the endemic channel's timeframe window where the status or score rests on it (a current series, or a channel score); null otherwise"),
};

const seriesCoverage = z.object({
  disease: z.string(),
  area: z.object({ code: z.string(), name: z.string() }),
  adminLevel: z.enum(ADMIN_LEVELS),
  source: z.string(),
  subtype: z.string().nullable().describe("what is counted when the disease alone does not say it (influenza A, influenza A+B)"),
  resolution: z.enum(["month", "year", "day"]),
  period: dateRange.describe("first to last reported period of the series"),
  maskedPeriods: z.array(z.string()).describe("periods the source reports as 0 that are treated as missing (FluNet's zero-filled gaps)"),
});

const newsItem = z.object({ id: z.string(), date: isoDate, disease: z.string(), title: z.string(), link: z.string(), source: z.string() });

const burden = z
  .object({
    rate: z.number().describe("the rate on the disease's scale, three significant digits"),
    unit: z.string().describe("dengue and cholera: reported cases per 100,000 a year; malaria: cases per 1,000 population at risk a year; COVID-19: confirmed cases per 100,000 in 14 days"),
    score: z.number().min(0).max(100),
    cases: z.number().nullable().describe("cases the rate is made of; null for WHO's modelled malaria estimate"),
    period: dateRange,
    population: z.number().nullable(),
    populationYear: z.int().nullable(),
    basis: z.string().describe("what the rate rests on: the series and population, or the WHO estimate"),
    reference: z.string().describe("where the scale's bands come from"),
  })
  .nullable()
  .describe("Burden: the score's basis (docs/methods/outbreaks.md#burden); null with the reason in burdenNote");

const confidenceFields = {
  confidence: z.number().min(0).max(1).describe("0–1: the basis (province series 0.9, national 0.75, WHO estimate 0.8, news only 0.2) × the data's age counted to today (full to a year, a tenth less each year after) × 0.5 where imported cases cannot be told apart × 0.7 without a rate"),
  confidenceLabel: z.enum(["high", "medium", "low"]).describe("high ≥ 0.6, medium ≥ 0.3, else low"),
  confidenceBasis: z.string(),
};

const diseaseResult = z.object({
  diseaseType: z.enum(DISEASE_TYPES),
  surveillance: z.enum(["series", "news_only"]),
  area: z.object({ code: z.string(), name: z.string(), level: z.enum(ADMIN_LEVELS) }),
  asOf: isoDate.describe("the newest datum this disease's answer used: the series' last report, or the burden's or WHO estimate's period end when later; news only: the newest item about the disease in the country"),
  ...answerTime,
  window: dateRange.nullable(),
  previousWindow: dateRange.nullable(),
  casesInWindow: z.number().nullable(),
  casesPreviousWindow: z.number().nullable(),
  outbreakStatus: z.enum(OUTBREAK_STATUSES).describe("the endemic channel's status (raised to watch by news where the answer has a rate); no_recent_data when the series is not current; news_only"),
  riskScore: z.number().min(0).max(100),
  trend: z.enum(TRENDS).describe("unknown when the series is not current or has no window before"),
  activeClusters: z.int().nullable(),
  caseEstimate: z.int().nullable(),
  channel,
  coverage: seriesCoverage.nullable().describe("The count series this disease's answer used; null for news only"),
  scoreBasis: z.enum(["burden", "endemic channel", "news"]).describe("burden: the rate on a scale that means the same in every country; endemic channel: no population rate (influenza); news: WHO Disease Outbreak News only"),
  burden,
  burdenNote: z.string().nullable().describe("why burden is null"),
  statusFromNews: z
    .object({ id: z.string(), date: isoDate })
    .nullable()
    .describe("the WHO Disease Outbreak News item within the timeframe (or, the series not current, 365 days) before today that raised the status to watch; only where the answer has a rate"),
  seriesAgeYears: z.number().nullable().describe("years from the series' last report to today (the service clock); null for news only"),
  importedCaveat: z.string().nullable().describe("set where the record shows no established local transmission: reported cases cannot be told from travel-acquired ones"),
  basis: z.string().describe("what the answer rests on: admin-1 or national series (and why), estimate or news"),
  ...confidenceFields,
});

const coverage = z
  .object({
    country: z.string().describe("ISO 3166-1 alpha-3 of the country holding the point (lib/geo, Natural Earth 1:10m)"),
    countryName: z.string(),
    adminLevel: z.enum(ADMIN_LEVELS).describe("level of the answering (lead) series: admin-1 (a Thai province) or national; news only: national"),
    province: z.object({ code: z.string(), name: z.string() }).nullable().describe("Thai province holding the point, if any"),
    series: z.array(seriesCoverage).describe("the count series used, each with its period"),
    news: z.object({ source: z.string(), items: z.int().describe("WHO DON items about the disease(s) in the country"), newest: isoDate.nullable(), asOf: isoDate }),
    notCovered: z.array(z.string()).describe("general: diseases without a series or news for the country, and why"),
    summary: z.string(),
  })
  .describe("What the answer rests on: the country, the admin level, the series and their periods");

export const outbreakData = z.object({
  location: z.object({ lat: z.number(), lng: z.number() }),
  country: z.object({ code: z.string(), name: z.string() }).describe("country holding the point (ISO 3166-1 alpha-3)"),
  province: z.object({ code: z.string(), name: z.string() }).nullable().describe("Thai province holding the point; null elsewhere"),
  diseaseType: z.enum(DISEASE_TYPES),
  timeframe: z.enum(TIMEFRAMES),
  asOf: isoDate.describe("the newest datum the answer used (= details.asOf; general: the newest of its surveillance series)"),
  riskScore: z.number().min(0).max(100),
  riskLevel: z.enum(RISK_LEVELS),
  outbreakStatus: z
    .enum(OUTBREAK_STATUSES)
    .describe("normal ≤ median < watch ≤ p75 < warning ≤ p90 < alert; insufficient_history; news_only (no count series for the country); no_recent_data (the series' newest datum is older than its horizon: details.currency)"),
  activeClusters: z
    .int()
    .nullable()
    .describe("admin-1: provinces within clusterRadiusKm above their 75th percentile; national: 1 when the country is, else 0; null with the reason in details.missing"),
  caseEstimate: z
    .int()
    .nullable()
    .describe("cases in the window: admin-1 within clusterRadiusKm, national the country; null with the reason in details.missing"),
  trend: z.enum(TRENDS).describe("increasing, stable, decreasing against the window before; unknown without one or when the series is not current"),
  summary: z.string(),
  details: z.object({
    intelligence: z.string(),
    keyFindings: z.array(z.string()),
    surveillance: z.enum(["series", "news_only"]),
    basis: z.string().describe("the lead disease's basis (see diseases[].basis)"),
    asOf: isoDate.describe("the newest datum the answer used, never later than period.to (general: the newest of the diseases counted)"),
    ...answerTime,
    ...confidenceFields,
    clusterRadiusKm: z.number(),
    coverage,
    missing: z.array(z.string()).describe("Fields that are null and why"),
    diseases: z.array(diseaseResult),
    news: z.array(newsItem),
  }),
  dataSources: z.array(z.string()),
  timestamp: z.string().describe("ISO 8601 UTC date-time"),
});

export type OutbreakBody = z.output<typeof outbreakBody>;
export type OutbreakData = z.infer<typeof outbreakData>;
export type DiseaseResult = z.infer<typeof diseaseResult>;
export type NewsItemOut = z.infer<typeof newsItem>;

/** GET /api/outbreak-radar/status: every area's status for one disease, for the map's outbreak layer. */
export const outbreakStatusQuery = z.object({
  diseaseType: z.enum(SURVEILLED_DISEASES).describe("one disease (general, the worst of all, is a per-point answer: POST /api/outbreak-radar/query)"),
  timeframe: z.enum(TIMEFRAMES).default("30d").describe("as in POST /api/outbreak-radar/query"),
});
export type OutbreakStatusQuery = z.output<typeof outbreakStatusQuery>;

const areaStatus = {
  outbreakStatus: z.enum(OUTBREAK_STATUSES),
  riskScore: z.number().min(0).max(100),
  riskLevel: z.enum(RISK_LEVELS),
  asOf: isoDate.describe("the newest datum used, as the query's asOf (news only: the newest item about the disease in the country)"),
  current: z.boolean().describe("whether that datum is within its series' horizon of today (details.currency.current of the query)"),
  source: z.string(),
};

export const outbreakStatusData = z.object({
  diseaseType: z.enum(SURVEILLED_DISEASES),
  timeframe: z.enum(TIMEFRAMES),
  newsAsOf: isoDate,
  countries: z
    .array(
      z.object({
        code: z.string().describe("ISO 3166-1 alpha-3"),
        isoNumeric: z.string().nullable().describe("ISO 3166-1 numeric, zero-padded: the id of the country in the countries tiles"),
        name: z.string(),
        surveillance: z.enum(["series", "news_only"]),
        ...areaStatus,
      }),
    )
    .describe("every country with a national series of the disease or a WHO Disease Outbreak News item about it, as the query answers for a point there"),
  provinces: z
    .array(z.object({ code: z.string().describe("ISO 3166-2 (TH-10)"), name: z.string(), ...areaStatus }))
    .describe("Thai provinces with a province series of the disease (dengue); empty for the others"),
  notCurrent: z
    .array(z.object({ code: z.string(), name: z.string(), asOf: isoDate, reason: z.string() }))
    .describe("countries left out because their score rests on a recent window (COVID-19's 14 days, influenza's channel) and their series is not current: the query answers 404 there"),
});
export type OutbreakStatusData = z.infer<typeof outbreakStatusData>;
