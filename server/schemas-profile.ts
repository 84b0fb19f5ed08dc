// GET /api/risk-map/profile: every risk, outbreak and the nearest port at one place, each part the numbers of its own
// endpoint (or the error that endpoint gives). The route validates with profileQuery, the service's types are inferred
// from profileData, openapi.ts documents them.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";
import { freshnessFields } from "./schemas-freshness.ts";
import { lat, lng, queryNumber, RISK_LEVELS, RISK_TYPES } from "./schemas-common.ts";
import { OUTBREAK_STATUSES, TRENDS } from "../lib/outbreaks/endemic-channel.ts";
import { DISRUPTION_LEVELS } from "./schemas-supply-chain.ts";
import { currency, dataPeriod } from "./schemas-time.ts";

/** The diseases a profile answers, one part each (general, the worst of them, is POST /api/outbreak-radar/query's). */
export const PROFILE_DISEASES = ["dengue", "influenza", "covid", "cholera", "malaria"] as const;
/** Parts a profile computes: the risk types, the diseases and the nearest port. One rate-limit point each. */
export const PROFILE_PARTS = RISK_TYPES.length + PROFILE_DISEASES.length + 1;

export const profileQuery = z.object({
  lat: queryNumber(lat),
  lng: queryNumber(lng),
});

const num = z.number().nullable();
const confidenceLabel = z.enum(["high", "medium", "low"]).nullable();

const request = z
  .object({ method: z.literal("POST"), path: z.string(), body: z.record(z.string(), z.unknown()) })
  .describe("the request to the part's own endpoint that gives its full answer: the same numbers, with every detail, or the same error");

const partError = z
  .object({
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .describe("why the part has no answer: the error its own endpoint gives for this place (e.g. NOT_FOUND naming the coverage, SERVICE_UNAVAILABLE before the data are loaded)");

const failedPart = z.object({ error: partError, request });

const riskAnswer = z.object({
  riskType: z.enum(RISK_TYPES),
  riskScore: z.number().min(0).max(100),
  riskLevel: z.enum(RISK_LEVELS),
  summary: z.string(),
  confidence: num.describe("0–1 as in the own answer (drought: details.currentConditions.confidence; the other types: details.confidence); null where the answer has none"),
  confidenceLabel,
  confidenceNote: z.string().nullable().describe("what the confidence rests on (details.confidenceBasis), or why there is none (drought: confidenceReason)"),
  period: dataPeriod.describe("details.period of the own answer: the span of the data it rests on"),
  asOf: z.string().describe("details.asOf of the own answer: the newest datum it used (YYYY-MM-DD; drought: the last day of the month served)"),
  currency: currency.describe("details.currency of the own answer: whether asOf is within the series' horizon of today"),
  request,
  ...freshnessFields,
});

const outbreakAnswer = z.object({
  diseaseType: z.enum(PROFILE_DISEASES),
  country: z.object({ code: z.string(), name: z.string() }),
  province: z.object({ code: z.string(), name: z.string() }).nullable(),
  riskScore: z.number().min(0).max(100),
  riskLevel: z.enum(RISK_LEVELS),
  outbreakStatus: z.enum(OUTBREAK_STATUSES),
  trend: z.enum(TRENDS),
  summary: z.string(),
  confidence: z.number().min(0).max(1),
  confidenceLabel: z.enum(["high", "medium", "low"]),
  confidenceNote: z.string().describe("details.confidenceBasis of the own answer"),
  asOf: z.string().describe("details.asOf of the own answer: the newest datum it used (YYYY-MM-DD)"),
  period: dataPeriod.describe("details.period of the own answer"),
  currency: currency.describe("details.currency of the own answer"),
  request,
  ...freshnessFields,
});

const portAnswer = z.object({
  port: z.object({ code: z.string().nullable(), name: z.string() }),
  distanceKm: num.describe("from the place to the port (details.resolution.distanceKm)"),
  rule: z.string().nullable().describe("how the coordinates chose the port (details.resolution.rule)"),
  congestionIndex: num,
  vesselCount: z.number().int().nullable(),
  avgDwellDays: num,
  etaDelayHours: num,
  disruptionRisk: z.enum(DISRUPTION_LEVELS),
  summary: z.string(),
  missing: z.array(z.string()).describe("the null figures and why (details.missing)"),
  asOf: z.string().nullable().describe("the newest datum the port's answer used (YYYY-MM-DD; its details.asOf, whose currency the summary states), not the snapshot's date; null when it rests on no dated data"),
  period: dataPeriod.nullable().describe("details.period of the port's answer; null when it rests on no dated data"),
  currency: currency.nullable().describe("details.currency of the port's answer; null when it rests on no dated data"),
  request,
  ...freshnessFields,
});

export const riskPart = z.union([riskAnswer, failedPart]);
export const outbreakPart = z.union([outbreakAnswer, failedPart]);

export const profileData = z.object({
  location: z.object({ lat: z.number(), lng: z.number() }),
  risks: z.object(Object.fromEntries(RISK_TYPES.map((t) => [t, riskPart])) as Record<(typeof RISK_TYPES)[number], typeof riskPart>),
  outbreaks: z.object(Object.fromEntries(PROFILE_DISEASES.map((d) => [d, outbreakPart])) as Record<(typeof PROFILE_DISEASES)[number], typeof outbreakPart>),
  nearestPort: portAnswer.nullable().describe("the port POST /api/supply-chain/query chooses for these coordinates, with its congestion answer; null with the reason in nearestPortReason"),
  nearestPortReason: partError.nullable().describe("why nearestPort is null (e.g. NOT_FOUND: no port within 50 km), as POST /api/supply-chain/query says it; null when there is a port"),
  timestamp: z.string().describe("ISO 8601 UTC date-time"),
});

export type ProfileQuery = z.output<typeof profileQuery>;
export type ProfileData = z.infer<typeof profileData>;
export type RiskPart = z.infer<typeof riskPart>;
export type OutbreakPart = z.infer<typeof outbreakPart>;
export type PartError = z.infer<typeof partError>;
