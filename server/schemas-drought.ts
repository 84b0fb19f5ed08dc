// The drought GET routes' schemas: a point's answer and history, a province's answer and history, the choropleth, the exports.
import { z } from "zod";
import { timeDetails } from "./schemas-time.ts";
import { CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE, GRID_DEFAULT_MONTH_RULE, MONTH_REASONS } from "../lib/drought/cell-latest.ts";
import { confidenceFields, DECIMAL_PATTERN, dLevel, indexValue, lat, lng, month, MONTH_PATTERN, queryNumber, riskLevel } from "./schemas-common.ts";

// ---- requests ----

/** Answer format of the drought GET routes: csv is text/csv with a header row (also chosen by Accept: text/csv). */
const format = z.enum(["json", "csv"]).optional().describe("json (default) or csv: text/csv with a header row; Accept: text/csv chooses csv too");

/** Why a point answer serves its month (lib/drought/cell-latest.ts). */
export const monthReason = z
  .enum(MONTH_REASONS)
  .describe(`why this month: "requested" (the request named it) or, without a month, "${GRID_DEFAULT_MONTH_RULE}" — the default month of every drought answer (point, score, batch, province, choropleth, map): the latest month in which VALID_CELL_SHARE (90 % by default) of land cells have all six indices. A cell lacking an index that month answers "${CELL_COMPLETE_MONTH_RULE}", a cell that never has all six "${CELL_LATEST_MONTH_RULE}"`);

export const droughtQuery = z.object({
  lat: queryNumber(lat),
  lng: queryNumber(lng),
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest month with every index (period.monthReason says which rule chose it)"),
  format,
});

export type DroughtQuery = z.output<typeof droughtQuery>;

/**
 * droughtQuery's common case read without zod (the drought GET is the busiest route; zod took a twentieth of its
 * CPU): lat and lng plain decimals in range, month YYYY-MM or absent, format json or csv or absent, other fields
 * dropped as zod drops them. Anything else (missing, repeated or malformed) → undefined, and zod answers with its 400.
 * Equal to droughtQuery's output wherever it answers (test/server/point-query.test.ts).
 */
export function droughtQueryFast(q: Record<string, unknown>): DroughtQuery | undefined {
  const { lat: la, lng: ln, month: m, format: f } = q;
  if (typeof la !== "string" || typeof ln !== "string" || !DECIMAL_PATTERN.test(la) || !DECIMAL_PATTERN.test(ln)) return undefined;
  const latN = Number(la);
  const lngN = Number(ln);
  if (!(latN >= -90 && latN <= 90 && lngN >= -180 && lngN <= 180)) return undefined;
  if (m !== undefined && (typeof m !== "string" || !MONTH_PATTERN.test(m))) return undefined;
  if (f !== undefined && f !== "json" && f !== "csv") return undefined;
  const out: DroughtQuery = { lat: latN, lng: lngN };
  if (m !== undefined) out.month = m;
  if (f !== undefined) out.format = f;
  return out;
}

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

const countryCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/, "must be an ISO 3166-1 alpha-3 code")
  .transform((s) => s.toUpperCase());

export const provinceQuery = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe("Province (Vietnam), state or federal territory (Malaysia) name: English, Thai, Vietnamese with or without diacritics (\"Hà Nội\", \"Ha Noi\", \"Hanoi\"), Malay (\"Pulau Pinang\"), or the ISO 3166-2 code"),
  country: countryCode.default("THA").describe("ISO 3166-1 alpha-3 of the province's country: THA (default), VNM or MYS — the drought region; another code is a 404 naming the covered countries"),
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest valid month (the build's national rule: the latest month in which VALID_CELL_SHARE, 90 % by default, of land cells have every index)"),
  format,
});

export const provinceHistoryQuery = provinceQuery
  .omit({ month: true })
  .extend(monthRange)
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { message: "from must not be after to", path: ["from"] });

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

const provinceCode = z.string().describe("ISO 3166-2 code (Côn Đảo, which shares Bà Rịa - Vũng Tàu's, is VN-43-CONDAO)");

/** What Vietnam's 2025-07-01 merger of 63 provinces into 34 made of the province (Vietnamese provinces only). */
const reform2025 = z
  .object({
    effective: z.literal("2025-07-01"),
    unit: z.string().describe("the province it belongs to since the reform"),
    formerProvinces: z.array(z.string()).describe("the pre-2025 provinces merged into that unit"),
    note: z.string(),
  })
  .describe("Vietnamese provinces only: the answer is the pre-2025 province of the boundary file (the grid's summaries are of the 63 units); this says which unit it now belongs to and what else that unit covers");

export const provinceHistoryData = z.object({
  province: z.string(),
  code: provinceCode,
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
  code: provinceCode,
  country: z.string(),
  month,
  score: z.number().min(0).max(100),
  level: riskLevel,
  indices: z.object({ spei1: indexValue, spei3: indexValue, spei6: indexValue }),
  severity: z.object({ spei1: dLevel.nullable() }),
  ...confidenceFields,
  reform2025: reform2025.optional(),
  details: timeDetails,
});

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
  country: countryCode.optional().describe("ISO 3166-1 alpha-3 (THA, VNM or MYS): that country's provinces only; default every province of the drought region"),
  month: month.optional().describe("Month, YYYY-MM; default the grid's latest valid month (the build's national rule: the latest month in which VALID_CELL_SHARE, 90 % by default, of land cells have every index)"),
});

export const provinceChoropleth = z.object({
  type: z.literal("FeatureCollection"),
  month,
  climatologyBaseline: z.string(),
  countries: z.array(z.string()).describe("the countries whose provinces are the features"),
  details: timeDetails,
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string().describe("ISO 3166-2 code, e.g. TH-10, VN-HN, MY-14"),
      geometry: z.object({ type: z.literal("MultiPolygon"), coordinates: z.array(z.array(z.array(z.tuple([z.number(), z.number()])))) }),
      properties: z.object({
        code: z.string(),
        country: z.string(),
        province: z.string(),
        provinceTh: z.string().optional().describe("Thai provinces only"),
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
