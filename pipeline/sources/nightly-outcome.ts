// What a nightly run amounts to, for cron and for people (docs/deploy.md): exit 0 when every source is current or
// unchanged (or offline on purpose, SOURCES_OFFLINE=1) and every build worked; 1 when something failed and the rest
// was published; 2 when nothing could be published — no source could be refreshed (every one tried failed) and no
// build published a new version, or every build failed. Frozen upstreams are named but do not fail the run: the
// refresh worked, the origin's data stand still. Pure.
import type { SourceRefreshResult } from "./refresh-source.ts";
import type { SourceReport } from "./state.ts";

export type ExitCode = 0 | 1 | 2;

export interface BuildResult {
  name: string;
  status: "published" | "unchanged" | "failed" | "refused";
  detail?: string;
}

export interface NightlyOutcome {
  exitCode: ExitCode;
  result: "ok" | "failures" | "nothing published";
  /** "source gdacs_events: fetch failed (timeout)", "snapshot flood refused: …", one per failure. */
  failed: string[];
  /** "source owid_covid: the origin answers … but its data end 2024-08-14 …". */
  frozen: string[];
  /** Builds that published a new version or found nothing to change: "drought published 20261126T… (grid from stations)", "flood unchanged". */
  published: string[];
  /** Sources per refresh outcome. */
  refresh: Record<string, number>;
  /** "source firms_global: MODIS_C6_1_Global.csv is gone (…)": files of an ending product left out; not failures. */
  ended: string[];
  /** "source firms_country: modis_2025_Greece.csv is not published yet (…)": files not out yet, left out; not failures. */
  unpublished: string[];
}

export function nightlyOutcome(results: readonly SourceRefreshResult[], builds: readonly BuildResult[], reports: readonly SourceReport[]): NightlyOutcome {
  const failed: string[] = [];
  for (const r of results) if (r.outcome === "failed" || r.outcome === "partial") failed.push(`source ${r.source} ${r.outcome}: ${r.reason ?? "no reason recorded"}`);
  for (const b of builds) if (b.status === "failed" || b.status === "refused") failed.push(`${b.name} ${b.status}${b.detail ? `: ${b.detail}` : ""}`);
  const frozen = reports.filter((r) => r.status === "frozen").map((r) => `source ${r.name}: ${r.reason}`);
  const published = builds.filter((b) => b.status === "published" || b.status === "unchanged").map((b) => `${b.name} ${b.status}${b.detail ? ` ${b.detail}` : ""}`);
  const newVersions = builds.filter((b) => b.status === "published").length;
  const refresh: Record<string, number> = {};
  for (const r of results) refresh[r.outcome] = (refresh[r.outcome] ?? 0) + 1;
  const tried = results.filter((r) => r.outcome !== "skipped");
  const noSourceRefreshed = tried.length > 0 && tried.every((r) => r.outcome === "failed");
  const everyBuildFailed = builds.length > 0 && builds.every((b) => b.status === "failed" || b.status === "refused");
  const exitCode: ExitCode = failed.length === 0 ? 0 : everyBuildFailed || (noSourceRefreshed && newVersions === 0) ? 2 : 1;
  const ended = results.flatMap((r) => (r.ended ?? []).map((e) => `source ${r.source}: ${e}`));
  const unpublished = results.flatMap((r) => (r.unpublished ?? []).map((e) => `source ${r.source}: ${e}`));
  return { exitCode, result: exitCode === 0 ? "ok" : exitCode === 1 ? "failures" : "nothing published", failed, frozen, published, refresh, ended, unpublished };
}

/** The terminal's last lines: what failed, what is frozen, what was published, and the exit code. */
export function outcomeText(o: NightlyOutcome): string {
  const lines = [
    `built: ${o.published.join(", ") || "nothing"}`,
    ...(o.frozen.length ? [`frozen upstreams (${o.frozen.length}):`, ...o.frozen.map((f) => `  ${f}`)] : []),
    ...(o.ended.length ? [`ended products left out (${o.ended.length}):`, ...o.ended.map((f) => `  ${f}`)] : []),
    ...(o.unpublished.length ? [`not published yet, left out (${o.unpublished.length}):`, ...o.unpublished.map((f) => `  ${f}`)] : []),
    ...(o.failed.length ? [`failed (${o.failed.length}):`, ...o.failed.map((f) => `  ${f}`)] : []),
    `exit ${o.exitCode}: ${o.result}`,
  ];
  return lines.join("\n") + "\n";
}
