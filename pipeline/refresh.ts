// The refresh step of `make nightly`: every source of the registry (pipeline/sources/registry.ts) with a public
// origin is fetched into the raw cache under ARTIFACTS_DIR/raw/, checked, merged where append-only, and switched
// atomically; a source that fails keeps its previous copy. DATA_DIR is never written. SOURCES_OFFLINE=1 (or no
// network) leaves everything as it is and says so. REFRESH_SOURCES picks sources (default all; `none` skips).
import pLimit from "p-limit";
import { log } from "../lib/log.ts";
import { progressReporter, type ProgressReporter } from "./sources/progress.ts";
import { refreshSource, type SourceRefreshResult } from "./sources/refresh-source.ts";
import { SOURCES } from "./sources/registry.ts";
import { sourceSettings } from "./sources/settings.ts";
import type { SourceEntry } from "./sources/types.ts";

export interface RefreshOptions {
  dataDir: string;
  artifactsDir: string;
  env?: NodeJS.ProcessEnv;
  /** Source names; default REFRESH_SOURCES, else all. */
  only?: string[];
  now?: Date;
  fetchImpl?: typeof fetch;
  progress?: ProgressReporter;
  /** Another registry (tests). */
  sources?: readonly SourceEntry[];
}

/** The sources a run refreshes: `only`, else REFRESH_SOURCES (comma list, `all`, `none`). */
export function selectSources(all: readonly SourceEntry[], only: string[] | undefined, env: NodeJS.ProcessEnv): SourceEntry[] {
  const names = only ?? (env.REFRESH_SOURCES ?? "all").split(",").map((s) => s.trim()).filter(Boolean);
  if (names.includes("none")) return [];
  if (names.length === 0 || names.includes("all")) return [...all];
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown source(s): ${unknown.join(", ")}; known: ${all.map((s) => s.name).join(", ")}`);
  return all.filter((s) => names.includes(s.name));
}

export async function refreshSources(opts: RefreshOptions): Promise<SourceRefreshResult[]> {
  const env = opts.env ?? process.env;
  const settings = sourceSettings(env);
  const entries = selectSources(opts.sources ?? SOURCES, opts.only, env);
  const progress = opts.progress ?? progressReporter();
  progress.start(entries.length);
  if (settings.offline) {
    log.info("SOURCES_OFFLINE=1: no source is fetched; the raw cache and DATA_DIR stay as they are");
    return entries.map((e) => {
      const r: SourceRefreshResult = { source: e.name, outcome: "skipped", reason: "SOURCES_OFFLINE=1", files: 0, changed: 0, unchanged: 0, failed: 0, bytes: 0, dataAsOf: null, durationMs: 0 };
      progress.source(r);
      return r;
    });
  }
  const ctx = { dataDir: opts.dataDir, artifactsDir: opts.artifactsDir, env, now: opts.now ?? new Date(), settings, limit: pLimit(settings.concurrency), fetchImpl: opts.fetchImpl };
  return Promise.all(
    entries.map(async (e) => {
      let r: SourceRefreshResult;
      try {
        r = await refreshSource(e, ctx);
      } catch (err) {
        // A bug or an I/O fault in one source must not stop the others.
        log.error({ source: e.name, err: (err as Error).message }, "source refresh crashed; previous copy kept");
        r = { source: e.name, outcome: "failed", reason: (err as Error).message, files: 0, changed: 0, unchanged: 0, failed: 1, bytes: 0, dataAsOf: null, durationMs: 0 };
      }
      progress.source(r);
      return r;
    }),
  );
}
