// The freshness fields every answer carries (server/services/source-status-service.ts) and the /api/status body,
// for the OpenAPI document.
import { z } from "zod";
import { ANSWER_KINDS, SOURCE_STATES, STALE_FACTOR } from "../formats/source-status.ts";

export const freshnessFields = {
  stale: z
    .boolean()
    .nullable()
    .describe(`true when a source of this answer is older than ${STALE_FACTOR} × its cadence (named in staleSources); null when no sources status is published (staleReason says so)`),
  staleSources: z.array(
    z.object({ name: z.string(), title: z.string(), dataAsOf: z.string().nullable(), ageDays: z.int().nullable(), cadence: z.string() }),
  ),
  staleReason: z.string().optional(),
};

export const statusData = z.object({
  generatedAt: z.string().nullable(),
  offline: z.boolean().nullable().describe("the last status was written without network (SOURCES_OFFLINE=1 or unreachable)"),
  reason: z.string().optional().describe("why there is no status"),
  staleRule: z.string(),
  sources: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      status: z.enum(SOURCE_STATES),
      reason: z.string(),
      dataAsOf: z.string().nullable(),
      ageSeconds: z.int().nullable(),
      ageDays: z.int().nullable(),
      cadence: z.string(),
      cadenceDays: z.number().nullable(),
      stale: z.boolean(),
      usedBy: z.array(z.enum(ANSWER_KINDS)),
      from: z.enum(["cache", "data-dir", "none"]),
      fetchedAt: z.string().nullable(),
      licence: z.string(),
      attribution: z.string(),
      nonCommercial: z.string().nullable(),
      lastAttemptAt: z.string().nullable().describe("the pipeline's last refresh attempt (null: never, or a status written before it was kept)"),
      lastOutcome: z.enum(["updated", "unchanged", "partial", "failed", "skipped"]).nullable(),
      lastSuccessAt: z.string().nullable().describe("the last refresh that did not fail"),
      consecutiveFailures: z.int().nullable().describe("failed refreshes in a row"),
    }),
  ),
  lastNightly: z
    .object({ startedAt: z.string(), finishedAt: z.string(), exitCode: z.int(), failed: z.array(z.string()), frozen: z.array(z.string()) })
    .nullable()
    .describe("the last `make nightly`: when it ran, its exit code (0 ok, 1 something failed, 2 nothing published), what failed and which upstreams are frozen"),
  published: z.object({
    drought: z.string(),
    snapshots: z.record(z.string(), z.object({ version: z.string(), asOf: z.string().nullable() }).nullable()),
  }),
});
