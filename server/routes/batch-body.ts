// The batch request body (schemas.ts batchBody), checked by hand on the path every well-formed request takes: one
// pass over the parsed JSON, no copies, no objects made (zod's parse builds a new object per location and a result
// per field: 66 µs of a 100-point batch, bench/RESULTS.md). A body the hand check does not accept as it is goes to
// zod, so every 400 (its message, its `details.issues`) is zod's, as before; the hand check only ever says "valid".
import type { z } from "zod";
import { parseOrThrow } from "../http/validate.ts";
import { BATCH_FORMATS, batchBody, MAX_BATCH_LOCATIONS, MAX_LOCATION_ID_LENGTH } from "../schemas.ts";

export type BatchBody = z.output<typeof batchBody>;

/** The validated batch body: `raw` itself when it is well formed, otherwise zod's parse (or its 400). */
export function parseBatchBody(raw: unknown): BatchBody {
  return batchBodyAsIs(raw) ?? parseOrThrow(batchBody, raw, "body");
}

/**
 * `raw` as the body zod would return — the same locations (their own objects: they hold only id, lat and lng),
 * riskType, and format with its default — when it satisfies batchBody; undefined when it may not (zod decides).
 */
export function batchBodyAsIs(raw: unknown): BatchBody | undefined {
  if (!isPlainObject(raw)) return undefined;
  for (const key in raw) if (key !== "locations" && key !== "riskType" && key !== "format") return undefined;
  const { locations, riskType, format } = raw as Record<string, unknown>;
  if (riskType !== "drought") return undefined;
  if (format !== undefined && !(BATCH_FORMATS as readonly unknown[]).includes(format)) return undefined;
  if (!Array.isArray(locations) || locations.length < 1 || locations.length > MAX_BATCH_LOCATIONS) return undefined;
  for (let i = 0; i < locations.length; i++) if (!isLocation(locations[i])) return undefined;
  return { locations, riskType, format: (format ?? "json") as BatchBody["format"] };
}

function isPlainObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function isLocation(loc: unknown): boolean {
  if (!isPlainObject(loc)) return false;
  for (const key in loc) if (key !== "id" && key !== "lat" && key !== "lng") return false;
  const { id, lat, lng } = loc as Record<string, unknown>;
  return (
    typeof lat === "number" && lat >= -90 && lat <= 90 &&
    typeof lng === "number" && lng >= -180 && lng <= 180 &&
    (id === undefined || (typeof id === "string" && id.length <= MAX_LOCATION_ID_LENGTH))
  );
}
