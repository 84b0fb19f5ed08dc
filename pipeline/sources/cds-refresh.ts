// The refresh of a CDS source (refresh kind "cds", the `era5` entry): ERA5-Land monthly means over the drought
// region's box (Thailand, Vietnam, Malaysia: DROUGHT_REGION_BOX) from ERA5_FROM_YEAR (1991, the baseline's start) to
// the month ERA5_LAG_MONTHS (3) before now — jobs of whole years, as many years each as the size bound allows
// (cds.ts, yearsPerRequest), and one for the months of the last year when it is not whole. Each answer (a ZIP of one NetCDF per step type, or
// one NetCDF) is read by the NetCDF grid reader; the answers are merged into the one file GRID_SOURCE=era5 builds
// drought from (era5-merge.ts), kept as a raw-cache version like any download (docs/methods/reanalysis.md).
import { rmSync } from "node:fs";
import { monthEndDay } from "./data-as-of.ts";
import { join } from "node:path";
import { sha256File } from "../../formats/manifest.ts";
import { log } from "../../lib/log.ts";
import { formatMonth } from "../../lib/months.ts";
import { CdsError, DROUGHT_REGION_BOX, ERA5_FILE, ERA5_LAG_MONTHS, era5LandMonthlyRequest, era5Requests, retrieveFromCds, yearsPerRequest } from "./cds.ts";
import { readCdsAnswer, type Era5Grids } from "./era5-answer.ts";
import { mergeEra5Answers, writeMergedEra5 } from "./era5-merge.ts";
import { RawVersionBuilder, readSourceState, writeSourceState } from "./raw-cache.ts";
import { effectiveOrigin } from "./registry.ts";
import type { RefreshContext, SourceRefreshResult } from "./refresh-source.ts";
import type { SourceEntry } from "./types.ts";


export async function refreshCdsSource(entry: SourceEntry, ctx: RefreshContext, start: number): Promise<SourceRefreshResult> {
  const key = ctx.env[entry.credential ?? "CDSAPI_KEY"] ?? "";
  const { url } = effectiveOrigin(entry, ctx.env);
  const m = /^(.*)\/retrieve\/v1\/processes\/([^/]+)\/execution$/.exec(url ?? "");
  const result = (outcome: SourceRefreshResult["outcome"], more: Partial<SourceRefreshResult> = {}): SourceRefreshResult => ({
    source: entry.name, outcome, files: 1, changed: 0, unchanged: 0, failed: 0, bytes: 0, dataAsOf: null, durationMs: Date.now() - start, ...more,
  });
  if (!m) return result("failed", { failed: 1, reason: `origin ${url} is not a CDS process execution URL` });
  const fromYear = Number(ctx.env.ERA5_FROM_YEAR ?? 1991);
  const requests = era5Requests(ctx.now, fromYear, ERA5_LAG_MONTHS, yearsPerRequest(DROUGHT_REGION_BOX));
  const builder = new RawVersionBuilder(ctx.artifactsDir, entry.name);
  const nowIso = ctx.now.toISOString();
  const prev = readSourceState(ctx.artifactsDir, entry.name);
  try {
    if (requests.length === 0) throw new CdsError(`ERA5_FROM_YEAR ${fromYear} is after the newest month the CDS has`);
    const answers: Era5Grids[] = [];
    let downloaded = 0;
    for (const [i, r] of requests.entries()) {
      const answer = join(builder.dir, `.cds-answer-${i}`);
      try {
        const { jobId, bytes } = await retrieveFromCds({
          baseUrl: m[1],
          key,
          dataset: decodeURIComponent(m[2]),
          request: era5LandMonthlyRequest(r.years, DROUGHT_REGION_BOX, r.months),
          output: answer,
          pollMs: Number(ctx.env.CDS_POLL_MS ?? 10_000),
          timeoutMs: ctx.settings.timeoutMs,
          fetchImpl: ctx.fetchImpl,
          onStatus: (status) => log.info({ source: entry.name, status, years: `${r.years[0]}..${r.years.at(-1)}` }, "CDS job"),
        });
        downloaded += bytes;
        // Content check: both variables read as monthly grids from the answer's files.
        const grids = await readCdsAnswer(answer, Math.max(ctx.settings.maxBytes, entry.maxBytes ?? 0));
        answers.push(grids);
        log.info({ source: entry.name, jobId, bytes, members: grids.members, months: `${formatMonth(grids.precipitation.months[0])}..${formatMonth(grids.precipitation.months.at(-1)!)}` }, "CDS answer read");
      } catch (err) {
        // The months of the current year (the last request, when not a whole year) are a bonus: without them the
        // whole years are still published. A whole year missing is a failure: the series would have a gap.
        if (i === 0 || r.months.length === 12 || !(err instanceof CdsError)) throw err;
        log.warn({ source: entry.name, reason: err.message }, "CDS: the current year's months are not to be had yet; the whole years are kept");
        break;
      } finally {
        rmSync(answer, { force: true });
      }
    }
    const merged = mergeEra5Answers(answers);
    const out = join(builder.dir, ERA5_FILE);
    await writeMergedEra5(out, merged);
    const months = merged.precipitation.months;
    const dataAsOf = monthEndDay(months.at(-1)!);
    const sha256 = await sha256File(out);
    await builder.carry(ERA5_FILE, out, sha256);
    const version = builder.commit(ctx.now);
    writeSourceState(ctx.artifactsDir, entry.name, {
      source: entry.name,
      version,
      fetchedAt: nowIso,
      checkedAt: nowIso,
      lastResult: "updated",
      files: { [ERA5_FILE]: { url: url!, sha256, bytes: downloaded, rows: months.length, malformedRows: 0, malformedAt: [], dataAsOf, fetchedAt: nowIso, from: "download" } },
      dataAsOf,
    });
    log.info({ source: entry.name, bytes: downloaded, members: merged.members, months: `${formatMonth(months[0])}..${formatMonth(months.at(-1)!)}` }, "CDS download accepted");
    return result("updated", { changed: 1, bytes: downloaded, dataAsOf, version });
  } catch (err) {
    builder.discard();
    const reason = err instanceof CdsError ? err.message : `${(err as Error).message}`;
    writeSourceState(ctx.artifactsDir, entry.name, { ...(prev ?? { source: entry.name, files: {}, dataAsOf: null }), checkedAt: nowIso, lastResult: "failed", reason });
    log.warn({ source: entry.name, reason }, "CDS refresh failed; previous copy kept");
    return result("failed", { failed: 1, reason });
  }
}
