// `make snapshots`: builds and publishes one snapshot per registered builder. A builder that fails (download,
// validation, anything) is reported and leaves its previous snapshot in place; the others still publish. A build
// whose accepted rows fell too far against the recent snapshots' largest count is refused the same way (row-drop.ts).
// Unchanged inputs publish nothing, and a snapshot whose inputs and code are unchanged since its current version
// (inputs-fingerprint.ts) is not even built: `make snapshots` then says "unchanged" for it in a second.
// Other engineers add builders to SNAPSHOT_BUILDERS (outbreaks, ports).
import { codeFingerprint } from "../publish/code-fingerprint.ts";
import { existsSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { readManifest } from "../../formats/manifest.ts";
import { currentVersion } from "../publish/publish.ts";
import { log } from "../../lib/log.ts";
import { publishSnapshot, snapshotRoot } from "./publish-snapshot.ts";
import { staleReason, writeInputsFingerprint } from "./inputs-fingerprint.ts";
import { FEED_BUILDERS, type BuildContext, type BuiltSnapshot } from "./feed-builders.ts";
import { buildPortsForRegistry } from "./ports.ts";
import { buildOutbreaksForRegistry } from "./outbreaks.ts";
import { RowDropError, maxRowDropFromEnv } from "./row-drop.ts";

export interface SnapshotBuilder {
  name: string;
  build(ctx: BuildContext): Promise<BuiltSnapshot>;
}

export const SNAPSHOT_BUILDERS: SnapshotBuilder[] = [
  { name: "flood", build: FEED_BUILDERS.flood },
  { name: "wildfire", build: FEED_BUILDERS.wildfire },
  { name: "heatwave", build: FEED_BUILDERS.heatwave },
  { name: "storm", build: FEED_BUILDERS.storm },
  { name: "sea_level_rise", build: FEED_BUILDERS.sea_level_rise },
  { name: "ports", build: buildPortsForRegistry },
  { name: "outbreaks", build: buildOutbreaksForRegistry },
];

export type SnapshotStatus = { status: "published" | "unchanged" | "failed" | "refused"; version?: string; error?: string };

/** The code behind the snapshots: a change republishes them even when the inputs are the same. */
export const SNAPSHOT_CODE = ["lib", "formats", "pipeline/feeds", "pipeline/health", "pipeline/ports", "pipeline/snapshots", "pipeline/provinces", "pipeline/inputs/ghcnd"];

function sameInputs(root: string, built: BuiltSnapshot, code: string): string | undefined {
  const cur = join(root, "current");
  if (!existsSync(cur)) return undefined;
  try {
    const m = readManifest(realpathSync(cur));
    const a = JSON.stringify(Object.entries(m.inputs).sort());
    const b = JSON.stringify(Object.entries(built.inputs).sort());
    return a === b && m.settings.codeFingerprint === code ? m.version : undefined;
  } catch {
    return undefined;
  }
}

export async function buildSnapshots(opts: {
  dataDir: string;
  artifactsDir: string;
  /** Where the drought artifact the flood climate term reads is published; default artifactsDir. */
  droughtArtifactsDir?: string;
  only?: string[];
  /** Build every snapshot even when its inputs and code are unchanged. */
  force?: boolean;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  builders?: SnapshotBuilder[];
}): Promise<Record<string, SnapshotStatus>> {
  const builders = opts.builders ?? SNAPSHOT_BUILDERS;
  const unknown = (opts.only ?? []).filter((n) => !builders.some((b) => b.name === n));
  if (unknown.length) throw new Error(`unknown snapshot(s): ${unknown.join(", ")}; known: ${builders.map((b) => b.name).join(", ")}`);
  const ctx: BuildContext = { dataDir: opts.dataDir, artifactsDir: opts.droughtArtifactsDir ?? opts.artifactsDir, env: opts.env ?? process.env, now: opts.now ?? new Date() };
  const results: Record<string, SnapshotStatus> = {};
  const code = codeFingerprint(SNAPSHOT_CODE);
  const maxRowDrop = maxRowDropFromEnv(ctx.env);
  for (const b of builders) {
    if (opts.only && !opts.only.includes(b.name)) continue;
    const root = snapshotRoot(opts.artifactsDir, b.name);
    const fpCtx = { dataDir: ctx.dataDir, artifactsDir: ctx.artifactsDir, env: ctx.env };
    try {
      const stale = opts.force ? "forced" : staleReason(root, fpCtx, code);
      if (stale === undefined) {
        const version = currentVersion(root)!;
        results[b.name] = { status: "unchanged", version };
        log.info({ snapshot: b.name, version }, "snapshot unchanged (same inputs and code), not rebuilt");
        continue;
      }
      log.info({ snapshot: b.name, reason: stale }, "building snapshot");
      const built = await b.build(ctx);
      const same = sameInputs(root, built, code);
      const version = same ?? (await publishSnapshot({ artifactsDir: opts.artifactsDir, name: b.name, ...built, maxRowDrop, settings: { codeFingerprint: code }, now: ctx.now })).version;
      writeInputsFingerprint(root, fpCtx, { version, code, inputs: built.inputs });
      results[b.name] = { status: same ? "unchanged" : "published", version };
      log.info({ snapshot: b.name, version }, same ? "snapshot unchanged" : "snapshot published");
    } catch (err) {
      if (err instanceof RowDropError) {
        results[b.name] = { status: "refused", version: err.previousVersion, error: err.message };
        log.error({ snapshot: b.name, serving: err.previousVersion, maxRowDrop, drops: err.drops }, "snapshot refused: accepted rows fell; previous snapshot kept");
        continue;
      }
      // A missing input is named by its place in the inputs tree: neither downloaded nor in the data directory.
      const e = err as NodeJS.ErrnoException;
      const error = e.code === "ENOENT" && e.path ? `${relative(ctx.dataDir, e.path)}: no copy (neither downloaded nor in the data directory)` : e.message;
      results[b.name] = { status: "failed", error };
      log.error({ snapshot: b.name, err: error }, "snapshot build failed; previous snapshot kept");
    }
  }
  return results;
}
