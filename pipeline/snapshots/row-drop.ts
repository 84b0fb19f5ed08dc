// The refusal rule of the snapshots: when a feed input's accepted rows fall by more than a set share against the
// snapshot now serving, the new snapshot is refused and the previous one keeps serving. A truncated download, a
// changed export format or a parser fault all look like this; a real source rarely loses a fifth of its rows
// overnight. The share is FEED_MAX_ROW_DROP (default 0.2); each snapshot records its counts in manifest
// qc.acceptedRows for the next build to compare with.
import { existsSync, realpathSync } from "node:fs";
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
  previous: number;
  now: number;
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

const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;

export class RowDropError extends Error {
  constructor(
    readonly snapshot: string,
    readonly previousVersion: string,
    readonly drops: RowDrop[],
    readonly maxDrop: number,
  ) {
    const list = drops.map((d) => `${d.feed} ${d.previous} → ${d.now} (−${pct(1 - d.now / d.previous)})`).join(", ");
    super(`${snapshot}: refused, accepted rows fell by more than ${pct(maxDrop)} against ${previousVersion}: ${list}`);
    this.name = "RowDropError";
  }
}
