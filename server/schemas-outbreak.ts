// Request and response schemas of POST /api/outbreak-radar/query (spec 4.5, "Outbreak result"). The route
// validates with them, the service's types are inferred from them, openapi.ts documents them.
import { z } from "zod";
import { OUTBREAK_STATUSES, TIMEFRAMES, TRENDS } from "../lib/outbreaks/endemic-channel.ts";
import { RISK_LEVELS } from "./schemas.ts";

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

const dateRange = z.object({ from: isoDate, to: isoDate });

const channel = z
  .object({
    median: z.number(),
    p75: z.number(),
    p90: z.number(),
    baselineWindows: z.int(),
    baseline: z.enum(["seasonal", "recent"]).describe("seasonal: same window in up to 5 previous years; recent: up to 8 windows just before"),
  })
  .nullable();

const newsItem = z.object({ id: z.string(), date: isoDate, disease: z.string(), title: z.string(), link: z.string(), source: z.string() });

const diseaseResult = z.object({
  diseaseType: z.enum(DISEASE_TYPES),
  surveillance: z.enum(["series", "news_only"]),
  area: z.object({ code: z.string(), name: z.string(), level: z.enum(["province", "country"]) }),
  asOf: isoDate,
  window: dateRange.nullable(),
  previousWindow: dateRange.nullable(),
  casesInWindow: z.number().nullable(),
  casesPreviousWindow: z.number().nullable(),
  outbreakStatus: z.enum(OUTBREAK_STATUSES),
  riskScore: z.number().min(0).max(100),
  trend: z.enum(TRENDS),
  activeClusters: z.int().nullable(),
  caseEstimate: z.int().nullable(),
  channel,
});

export const outbreakData = z.object({
  location: z.object({ lat: z.number(), lng: z.number() }),
  province: z.object({ code: z.string(), name: z.string() }),
  diseaseType: z.enum(DISEASE_TYPES),
  timeframe: z.enum(TIMEFRAMES),
  asOf: isoDate.describe("date the answering data are current as of (general: the newest of its surveillance series)"),
  riskScore: z.number().min(0).max(100),
  riskLevel: z.enum(RISK_LEVELS),
  outbreakStatus: z.enum(OUTBREAK_STATUSES).describe("normal ≤ median < watch ≤ p75 < warning ≤ p90 < alert; insufficient_history; news_only (influenza)"),
  activeClusters: z.int().nullable().describe("provinces within clusterRadiusKm above their 75th percentile; null for news-only"),
  caseEstimate: z.int().nullable().describe("cases in the window within clusterRadiusKm (country-level series: the country); null for news-only"),
  trend: z.enum(TRENDS),
  summary: z.string(),
  details: z.object({
    intelligence: z.string(),
    keyFindings: z.array(z.string()),
    surveillance: z.enum(["series", "news_only"]),
    clusterRadiusKm: z.number(),
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
