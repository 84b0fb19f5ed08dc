// The refusal rule of the snapshots: when a feed input's accepted rows fall by more than a set share against the
// reference count, the new snapshot is refused and the previous one keeps serving. A truncated download, a
// changed export format or a parser fault all look like this; a real source rarely loses a fifth of its rows
// overnight. The share is FEED_MAX_ROW_DROP (default 0.2).
//
// The reference cannot drift down unnoticed: it is, per input, the largest count among the last
// ROW_REFERENCE_BUILDS published snapshots and the serving one — not the previous snapshot alone, against which
// builds each 15 % smaller would all pass. The counts are kept in <root>/accepted-rows.json (beside versions/, so
// pruning old versions does not lose them); each snapshot also records its own in manifest qc.acceptedRows. A
// publish with FEED_MAX_ROW_DROP=1 (a deliberate change of source) restarts the reference from that snapshot.
import { existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readManifest } from "../../formats/manifest.ts";

export const MAX_ROW_DROP_ENV = "FEED_MAX_ROW_DROP";
export const MAX_ROW_DROP_DEFAULT = 0.2;

/** FEED_MAX_ROW_DROP as a share in [0, 1] (1 turns the rule off); throws on anything else. */
export function maxRowDropFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env[MAX_ROW_DROP_ENV];
  if (raw === undefined || raw.trim() === "") return MAX_ROW_DROP_DEFAULT;
  const v = Number(raw);
  if (!(v >= 0 && v <= 1)) throw new Error(`${MAX_ROW_DROP_ENV} must be a share between 0 and 1, got "${raw}"`);
  return v;
}

export interface RowDrop {
  /** Name of the input, as a key of qc.acceptedRows ("dfo", "unlocode", ...). */
  feed: string;
  /** The reference count (the largest of the recent snapshots). */
  previous: number;
  now: number;
  /** The snapshot the reference count is from (rowReference); absent when compared with plain counts. */
  reference?: string;
}

/** Inputs whose accepted rows fell by more than `maxDrop` (a share of the previous count). */
export function rowDrops(previous: Record<string, number>, now: Record<string, number>, maxDrop: number): RowDrop[] {
  const drops: RowDrop[] = [];
  for (const [feed, before] of Object.entries(previous)) {
    const after = now[feed];
    // An input the new build does not report (renamed by a code change) has nothing to compare with.
    if (after === undefined || !(before > 0)) continue;
    if (after < before * (1 - maxDrop)) drops.push({ feed, previous: before, now: after });
  }
  return drops;
}

/** The accepted-row counts of the snapshot now serving under `root`, or undefined when there is none. */
export function servingAcceptedRows(root: string): { version: string; acceptedRows: Record<string, number> } | undefined {
  const cur = join(root, "current");
  if (!existsSync(cur)) return undefined;
  const m = readManifest(realpathSync(cur));
  const rows = m.qc.acceptedRows;
  if (rows === null || typeof rows !== "object") return undefined;
  return { version: m.version, acceptedRows: rows as Record<string, number> };
}

/** Where the recent snapshots' counts are kept, in the snapshot root. */
export const ROW_REFERENCE_FILE = "accepted-rows.json";
/** How many published snapshots the reference looks back over. */
export const ROW_REFERENCE_BUILDS = 5;

export interface RowCounts {
  version: string;
  acceptedRows: Record<string, number>;
}

/** The recent snapshots' counts, oldest first (empty when the file is missing or unreadable). */
export function readRowHistory(root: string): RowCounts[] {
  try {
    const doc = JSON.parse(readFileSync(join(root, ROW_REFERENCE_FILE), "utf8")) as { builds?: unknown };
    if (!Array.isArray(doc.builds)) return [];
    return doc.builds.filter((b): b is RowCounts => typeof b?.version === "string" && b.acceptedRows !== null && typeof b.acceptedRows === "object");
  } catch {
    return [];
  }
}

/**
 * The reference per input: the largest count among the recent snapshots (accepted-rows.json) and the serving one,
 * with the snapshot it is from. Undefined when there is nothing to compare with (the first snapshot).
 */
export function rowReference(root: string): { acceptedRows: Record<string, number>; from: Record<string, string> } | undefined {
  const serving = servingAcceptedRows(root);
  const builds = [...readRowHistory(root), ...(serving ? [serving] : [])];
  if (builds.length === 0) return undefined;
  const acceptedRows: Record<string, number> = {};
  const from: Record<string, string> = {};
  for (const b of builds) {
    for (const [feed, n] of Object.entries(b.acceptedRows)) {
      if (typeof n === "number" && !(n <= (acceptedRows[feed] ?? -1))) {
        acceptedRows[feed] = n;
        from[feed] = b.version;
      }
    }
  }
  return { acceptedRows, from };
}

/** Inputs whose accepted rows fell by more than `maxDrop` against the reference of `root`, each naming its snapshot. */
export function rowDropsAgainstReference(root: string, now: Record<string, number>, maxDrop: number): RowDrop[] {
  const ref = rowReference(root);
  return ref ? rowDrops(ref.acceptedRows, now, maxDrop).map((d) => ({ ...d, reference: ref.from[d.feed] })) : [];
}

/**
 * Records a published snapshot's counts (atomic write): the last ROW_REFERENCE_BUILDS are kept; `restart` (a
 * publish with the rule off) keeps this one alone.
 */
export function recordRowCounts(root: string, counts: RowCounts, restart: boolean): void {
  const builds = [...(restart ? [] : readRowHistory(root)), counts].slice(-ROW_REFERENCE_BUILDS);
  const tmp = join(root, `${ROW_REFERENCE_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify({ builds }, null, 1) + "\n");
  renameSync(tmp, join(root, ROW_REFERENCE_FILE));
}

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

export class RowDropError extends Error {
  constructor(
    readonly snapshot: string,
    readonly previousVersion: string,
    readonly drops: RowDrop[],
    readonly maxDrop: number,
  ) {
    const list = drops.map((d) => `${d.feed} ${d.previous}${d.reference ? ` (${d.reference})` : ""} → ${d.now} (−${pct(1 - d.now / d.previous)})`).join(", ");
    super(`${snapshot}: refused, accepted rows fell by more than ${pct(maxDrop)} against the largest of the last ${ROW_REFERENCE_BUILDS} snapshots (serving ${previousVersion}): ${list}`);
    this.name = "RowDropError";
  }
}
