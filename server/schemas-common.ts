// What the API's schemas share: risk types and levels, coordinates, months and index values, query-string numbers, the envelope.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "./errors.ts";

export const RISK_TYPES = ["drought", "flood", "wildfire", "heatwave", "storm", "sea_level_rise"] as const;
export const TIMEFRAMES = ["7d", "30d", "90d", "1y"] as const;
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export const D_LEVELS = ["D0", "D1", "D2", "D3", "D4"] as const;

/** YYYY-MM with a real month 01..12. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
/** Plain decimal numbers only in query strings: no exponent, hex, blanks, or trailing garbage. */
export const DECIMAL_PATTERN = /^[+-]?\d+(\.\d+)?$/;
/** Whole numbers in query strings: decimal digits with an optional sign. */
export const INTEGER_PATTERN = /^[+-]?\d+$/;

export const lat = z.number().min(-90).max(90).describe("Latitude, decimal degrees (WGS 84), -90 to 90");
export const lng = z.number().min(-180).max(180).describe("Longitude, decimal degrees (WGS 84), -180 to 180");
export const month = z.string().regex(MONTH_PATTERN, "must be YYYY-MM with month 01-12").describe("Month, YYYY-MM");
export const riskLevel = z.enum(RISK_LEVELS);
/** How far to trust a SPEI-1 value (docs/methods/confidence.md); null with confidenceReason where there is none. */
export const confidenceFields = {
  confidence: z.number().min(0).max(1).nullable().optional().describe("0..1, calibrated so that higher means a smaller leave-one-out error"),
  confidenceLabel: z.enum(["high", "medium", "low"]).nullable().optional(),
  confidenceReason: z.string().optional(),
};
export const dLevel = z.enum(D_LEVELS);
export const indexValue = z.number().nullable();
export const timestamp = z.string().describe("ISO 8601 UTC date-time");

/** Query-string text of the pattern, read as a number, then the range of the number. */
function queryNumeric(pattern: RegExp, message: string, range: z.ZodType<number, number>) {
  return z.string().regex(pattern, message).transform(Number).pipe(range).describe(range.description ?? "");
}

/** A query-string number: strict decimal text, then the range of the number. */
export const queryNumber = (range: z.ZodType<number, number>) => queryNumeric(DECIMAL_PATTERN, "must be a decimal number", range);

/** A query-string integer: decimal digits, then the range of the number. */
export const queryInteger = (range: z.ZodType<number, number>) => queryNumeric(INTEGER_PATTERN, "must be a whole number", range);

export const pointGeometry = z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) });

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
