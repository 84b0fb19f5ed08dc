// The refresh of a CDS source (refresh kind "cds", the `era5` entry): one job for ERA5-Land monthly means over the
// build's box from ERA5_FROM_YEAR (1991, the baseline's start) to last year, checked by the NetCDF grid reader, kept
// as a raw-cache version like any download. The file is what GRID_SOURCE=netcdf builds drought from
// (docs/methods/reanalysis.md).
import { monthEndDay } from "./data-as-of.ts";
import { join } from "node:path";
import { sha256File } from "../../formats/manifest.ts";
import { log } from "../../lib/log.ts";
import { formatMonth } from "../../lib/months.ts";
import { readMonthlyClimateGrid } from "../inputs/netcdf/index.ts";
import { CdsError, ERA5_FILE, era5LandMonthlyRequest, retrieveFromCds } from "./cds.ts";
import { RawVersionBuilder, readSourceState, writeSourceState } from "./raw-cache.ts";
import { effectiveOrigin } from "./registry.ts";
import type { RefreshContext, SourceRefreshResult } from "./refresh-source.ts";
import type { SourceEntry } from "./types.ts";

/** Thailand with a margin, west, south, east, north. */
const THAILAND_BOX: [number, number, number, number] = [97.2, 5.5, 105.8, 20.6];

export async function refreshCdsSource(entry: SourceEntry, ctx: RefreshContext, start: number): Promise<SourceRefreshResult> {
  const key = ctx.env[entry.credential ?? "CDSAPI_KEY"] ?? "";
  const { url } = effectiveOrigin(entry, ctx.env);
  const m = /^(.*)\/retrieve\/v1\/processes\/([^/]+)\/execution$/.exec(url ?? "");
  const result = (outcome: SourceRefreshResult["outcome"], more: Partial<SourceRefreshResult> = {}): SourceRefreshResult => ({
    source: entry.name, outcome, files: 1, changed: 0, unchanged: 0, failed: 0, bytes: 0, dataAsOf: null, durationMs: Date.now() - start, ...more,
  });
  if (!m) return result("failed", { failed: 1, reason: `origin ${url} is not a CDS process execution URL` });
  const fromYear = Number(ctx.env.ERA5_FROM_YEAR ?? 1991);
  const years = Array.from({ length: ctx.now.getUTCFullYear() - fromYear }, (_, i) => fromYear + i);
  const builder = new RawVersionBuilder(ctx.artifactsDir, entry.name);
  const nowIso = ctx.now.toISOString();
  const prev = readSourceState(ctx.artifactsDir, entry.name);
  try {
    const out = join(builder.dir, ERA5_FILE);
    const { jobId, bytes } = await retrieveFromCds({
      baseUrl: m[1],
      key,
      dataset: decodeURIComponent(m[2]),
      request: era5LandMonthlyRequest(years, THAILAND_BOX),
      output: out,
      pollMs: Number(ctx.env.CDS_POLL_MS ?? 10_000),
      timeoutMs: ctx.settings.timeoutMs,
      fetchImpl: ctx.fetchImpl,
      onStatus: (status) => log.info({ source: entry.name, status }, "CDS job"),
    });
    // Content check: both variables read as monthly grids (units as the CDS stores ERA5 monthly means).
    const tp = await readMonthlyClimateGrid(out, { kind: "precipitation", units: "m day-1" });
    await readMonthlyClimateGrid(out, { kind: "temperature" });
    const dataAsOf = monthEndDay(tp.months.at(-1)!);
    await builder.carry(ERA5_FILE, out, await sha256File(out));
    const version = builder.commit(ctx.now);
    writeSourceState(ctx.artifactsDir, entry.name, {
      source: entry.name,
      version,
      fetchedAt: nowIso,
      checkedAt: nowIso,
      lastResult: "updated",
      files: { [ERA5_FILE]: { url: url!, sha256: await sha256File(join(ctx.artifactsDir, "raw", entry.name, "current", ERA5_FILE)), bytes, rows: tp.months.length, malformedRows: 0, malformedAt: [], dataAsOf, fetchedAt: nowIso, from: "download" } },
      dataAsOf,
    });
    log.info({ source: entry.name, jobId, bytes, months: `${formatMonth(tp.months[0])}..${formatMonth(tp.months.at(-1)!)}` }, "CDS download accepted");
    return result("updated", { changed: 1, bytes, dataAsOf, version });
  } catch (err) {
    builder.discard();
    const reason = err instanceof CdsError ? err.message : `${(err as Error).message}`;
    writeSourceState(ctx.artifactsDir, entry.name, { ...(prev ?? { source: entry.name, files: {}, dataAsOf: null }), checkedAt: nowIso, lastResult: "failed", reason });
    log.warn({ source: entry.name, reason }, "CDS refresh failed; previous copy kept");
    return result("failed", { failed: 1, reason });
  }
}
