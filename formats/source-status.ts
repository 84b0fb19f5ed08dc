// The `sources` snapshot (format: source-status.md): the state of every input source — where its copy came from,
// how recent the data inside it are, and whether the last refresh worked. Written by the pipeline (registry in
// pipeline/sources/) after every refresh and snapshot build; read by the server for /api/status, the
// `source_data_age_seconds` gauge and the `stale` flag of answers. It holds nothing secret: origins are stored
// with credential placeholders ({FIRMS_MAP_KEY}), never their values.
import { z } from "zod";

export const SOURCES_SNAPSHOT = "sources";
export const SOURCE_STATUS_FILE = "sources.json";
export const SOURCE_STATUS_FORMAT = 1;

/** A source whose data are older than this many cadences is stale (in answers and in its status). */
export const STALE_FACTOR = 3;

/** The answers a source feeds; an answer checks the sources listed for it. */
export const ANSWER_KINDS = [
  "drought",
  "flood",
  "wildfire",
  "heatwave",
  "storm",
  "sea_level_rise",
  "outbreak",
  "supply_chain",
  "boundaries",
] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

export const SOURCE_STATES = ["fresh", "stale", "frozen", "offline", "failed"] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 time");
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

const sourceStatus = z.object({
  name: z.string().regex(/^[a-z0-9_]+$/),
  title: z.string(),
  /** The origin in use (placeholders for credentials), or null where none is public. */
  url: z.string().nullable(),
  cadence: z.enum(["daily", "weekly", "monthly", "yearly", "irregular", "static"]),
  /** Days between releases; null: no schedule (never stale by age). */
  cadenceDays: z.number().positive().nullable(),
  licence: z.string(),
  attribution: z.string(),
  /** The terms' restriction on commercial use, or null. */
  nonCommercial: z.string().nullable(),
  /** Environment variable naming the credential the origin needs, or null. */
  credential: z.string().nullable(),
  usedBy: z.array(z.enum(ANSWER_KINDS)),
  /** Which copy the build read: a download in the raw cache, the data directory's, or none. */
  from: z.enum(["cache", "data-dir", "none"]),
  fetchedAt: isoTime.nullable(),
  /** The latest date inside the data (end of the period for months and years). */
  dataAsOf: day.nullable(),
  status: z.enum(SOURCE_STATES),
  reason: z.string(),
  /** The refresh history (optional: files written before it was kept lack it). */
  lastAttemptAt: isoTime.nullable().optional(),
  lastOutcome: z.enum(["updated", "unchanged", "partial", "failed", "skipped"]).nullable().optional(),
  lastSuccessAt: isoTime.nullable().optional(),
  consecutiveFailures: z.int().min(0).optional(),
  failuresTotal: z.int().min(0).optional(),
});
export type SourceStatus = z.infer<typeof sourceStatus>;

export const sourceStatusFile = z.object({
  format: z.literal(SOURCE_STATUS_FORMAT),
  generatedAt: isoTime,
  /** SOURCES_OFFLINE=1 (or no network) when this was written. */
  offline: z.boolean(),
  sources: z.array(sourceStatus),
  /** The last `make nightly` (absent until one ran): when it ended, its exit code and what failed. */
  lastNightly: z
    .object({
      startedAt: isoTime,
      finishedAt: isoTime,
      exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      failed: z.array(z.string()),
      frozen: z.array(z.string()),
    })
    .optional(),
});
export type SourceStatusFile = z.infer<typeof sourceStatusFile>;

export function writeSourceStatus(file: SourceStatusFile): string {
  return JSON.stringify(sourceStatusFile.parse(file), null, 1) + "\n";
}

export function readSourceStatus(text: string, name = SOURCE_STATUS_FILE): SourceStatusFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name}: not JSON: ${(err as Error).message}`);
  }
  const parsed = sourceStatusFile.safeParse(raw);
  if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

const DAY_MS = 86_400_000;

/** Seconds from the end of the data's last day to `now`; null when the date is unknown. */
export function dataAgeSeconds(s: Pick<SourceStatus, "dataAsOf">, now: number): number | null {
  if (s.dataAsOf === null) return null;
  return Math.max(0, Math.round((now - (Date.parse(s.dataAsOf + "T00:00:00Z") + DAY_MS)) / 1000));
}

/** Older than STALE_FACTOR × cadence: the answer says so. Sources without a schedule are never stale by age. */
export function isStale(s: Pick<SourceStatus, "dataAsOf" | "cadenceDays">, now: number): boolean {
  const age = dataAgeSeconds(s, now);
  return age !== null && s.cadenceDays !== null && age > STALE_FACTOR * s.cadenceDays * 86_400;
}
