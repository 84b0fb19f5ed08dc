// Feed snapshots (flood, wildfire, heatwave, storm, sea level, outbreaks, ports) are published exactly like the
// drought artifacts — staging directory, checksummed manifest, atomic `current` link — each under its own root
// ARTIFACTS_DIR/snapshots/<name>/, so the server can follow each one with an ArtifactStore.
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { createHash } from "node:crypto";
import type { FileChecksum } from "../../formats/manifest.ts";
import { createStaging, discardStaging, makeVersionId, publishStaging, pruneVersions } from "../publish/publish.ts";
import { MAX_ROW_DROP_DEFAULT, recordRowCounts, RowDropError, rowDropsAgainstReference, servingAcceptedRows } from "./row-drop.ts";

import { snapshotRoot } from "../../formats/snapshot-layout.ts";

export { SNAPSHOTS_DIR, snapshotRoot } from "../../formats/snapshot-layout.ts";

export interface SnapshotInput {
  artifactsDir: string;
  /** Snapshot name, e.g. "flood"; also the folder under ARTIFACTS_DIR/snapshots/. */
  name: string;
  /** Files of the snapshot (binary indexes, JSON tables, a report). */
  files: Record<string, Uint8Array | string>;
  /** The time the data are current as of (ISO 8601). */
  asOf: string;
  sources: string[];
  /** Raw inputs with their checksums, keyed by path relative to DATA_DIR. */
  inputs: Record<string, FileChecksum>;
  qc: Record<string, unknown>;
  /** Name of the report file among `files`. */
  report: string;
  /** Accepted rows per input feed; kept in qc.acceptedRows and checked against the largest of the recent snapshots' (row-drop.ts). */
  acceptedRows?: Record<string, number>;
  /** Largest allowed fall of an input's accepted rows, a share; default 0.2 (FEED_MAX_ROW_DROP). */
  maxRowDrop?: number;
  settings?: Record<string, unknown>;
  keep?: number;
  now?: Date;
}

/**
 * Publishes one snapshot version atomically; returns its version id and directory. Throws RowDropError, publishing
 * nothing, when an input's accepted rows fell too far against the serving version.
 */
export async function publishSnapshot(s: SnapshotInput): Promise<{ version: string; dir: string }> {
  const root = snapshotRoot(s.artifactsDir, s.name);
  const maxDrop = s.maxRowDrop ?? MAX_ROW_DROP_DEFAULT;
  if (s.acceptedRows) {
    const drops = rowDropsAgainstReference(root, s.acceptedRows, maxDrop);
    if (drops.length > 0) throw new RowDropError(s.name, servingAcceptedRows(root)?.version ?? "none", drops, maxDrop);
  }
  const h = createHash("sha256");
  for (const [name, content] of Object.entries(s.files).sort(([a], [b]) => (a < b ? -1 : 1))) h.update(name).update(content);
  const version = makeVersionId(s.now ?? new Date(), h.digest("hex").slice(0, 10));
  const staging = createStaging(root, version);
  try {
    for (const [name, content] of Object.entries(s.files)) writeFileSync(join(staging.dir, name), content);
    const dir = await publishStaging(staging, {
      builtAt: (s.now ?? new Date()).toISOString(),
      kind: s.name,
      asOf: s.asOf,
      sources: s.sources,
      inputs: s.inputs,
      qc: s.acceptedRows ? { ...s.qc, acceptedRows: s.acceptedRows } : s.qc,
      report: s.report,
      settings: s.settings ?? {},
    }, s.now);
    const published = basename(dir); // the staging id unless a version was published meanwhile (publishedId)
    if (s.acceptedRows) recordRowCounts(root, { version: published, acceptedRows: s.acceptedRows }, maxDrop >= 1);
    await pruneVersions(root, s.keep ?? 3);
    return { version: published, dir };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}
