// The raw cache: every accepted download lives under ARTIFACTS_DIR/raw/<source>/ as an immutable version —
//   versions/<id>/<files…>   a complete copy of the source (downloads, merged histories, carried files),
//   versions/<id>/files.json the checksum of every file,
//   current -> versions/<id> switched atomically (new link renamed over the old one),
//   state.json               what the last refresh did (state.ts reads it).
// A version is written in staging/ and only renamed into versions/ when complete, so a failed or interrupted
// refresh leaves `current` as it was. Unchanged files are hard links to the previous version.
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256File, type FileChecksum } from "../../formats/manifest.ts";
import { processAlive } from "../../formats/reader-leases.ts";
import { log } from "../../lib/log.ts";
import { CURRENT_LINK, VERSIONS_DIR, currentVersion, listVersions, makeVersionId, switchCurrent } from "../publish/publish.ts";
import type { SourceStateFile } from "./types.ts";

export const RAW_DIR = "raw";
export const STATE_FILE = "state.json";
export const FILES_MANIFEST = "files.json";
const STAGING = "staging";

export function rawRoot(artifactsDir: string, source: string): string {
  return join(artifactsDir, RAW_DIR, source);
}

/** The current version directory of a source, or undefined before its first accepted download. */
export function currentRawDir(artifactsDir: string, source: string): string | undefined {
  const link = join(rawRoot(artifactsDir, source), CURRENT_LINK);
  try {
    return realpathSync(link);
  } catch {
    return undefined;
  }
}

export function currentRawVersion(artifactsDir: string, source: string): string | undefined {
  return currentVersion(rawRoot(artifactsDir, source));
}

export function readSourceState(artifactsDir: string, source: string): SourceStateFile | undefined {
  const path = join(rawRoot(artifactsDir, source), STATE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as SourceStateFile;
  } catch (err) {
    log.warn({ source, path, err: (err as Error).message }, "unreadable source state file: treated as no state");
    return undefined;
  }
}

/**
 * The attempt's bookkeeping carried over from the previous state: last success, failures in a row and in all, and
 * since when the data as-of has stood still (a frozen upstream answers but its data do not advance).
 */
export function withHistory(prev: SourceStateFile | undefined, state: SourceStateFile): SourceStateFile {
  const failed = state.lastResult === "failed";
  const asOfChanged = prev === undefined || prev.dataAsOf !== state.dataAsOf;
  return {
    ...state,
    lastSuccessAt: failed ? prev?.lastSuccessAt : state.checkedAt,
    consecutiveFailures: failed ? (prev?.consecutiveFailures ?? 0) + 1 : 0,
    failuresTotal: (prev?.failuresTotal ?? 0) + (failed ? 1 : 0),
    dataAsOfSince: asOfChanged || prev?.dataAsOfSince === undefined ? state.checkedAt : prev.dataAsOfSince,
  };
}

/** Written beside the final name and renamed over it: a reader never sees half a state file. */
export function writeSourceState(artifactsDir: string, source: string, next: SourceStateFile): void {
  const state = withHistory(readSourceState(artifactsDir, source), next);
  const root = rawRoot(artifactsDir, source);
  mkdirSync(root, { recursive: true });
  const tmp = join(root, `.${STATE_FILE}.${process.pid}.${randomBytes(4).toString("hex")}`);
  writeFileSync(tmp, JSON.stringify(state, null, 2) + "\n");
  renameSync(tmp, join(root, STATE_FILE));
}

/** A new version being assembled in staging/. */
export class RawVersionBuilder {
  readonly root: string;
  readonly dir: string;
  private readonly files = new Map<string, FileChecksum>();

  constructor(artifactsDir: string, source: string) {
    this.root = rawRoot(artifactsDir, source);
    this.dir = join(this.root, STAGING, `${process.pid}.${randomBytes(4).toString("hex")}`);
    mkdirSync(this.dir, { recursive: true });
  }

  private target(file: string): string {
    const path = join(this.dir, file);
    mkdirSync(dirname(path), { recursive: true });
    return path;
  }

  write(file: string, bytes: Uint8Array | string, sha256: string): void {
    const data = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
    writeFileSync(this.target(file), data);
    this.files.set(file, { bytes: data.length, sha256 });
  }

  /** The file as another copy has it: a hard link where the file system allows, else a copy. */
  async carry(file: string, from: string, sha256?: string): Promise<void> {
    const to = this.target(file);
    try {
      linkSync(from, to);
    } catch {
      copyFileSync(from, to);
    }
    this.files.set(file, { bytes: statSync(to).size, sha256: sha256 ?? (await sha256File(to)) });
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  remove(file: string): void {
    rmSync(join(this.dir, file), { force: true });
    this.files.delete(file);
  }

  /** Renames the version into versions/ and makes it current; returns its id. */
  commit(now: Date): string {
    const listing = Object.fromEntries([...this.files].sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(join(this.dir, FILES_MANIFEST), JSON.stringify(listing, null, 2) + "\n");
    const digest = createHash("sha256").update(JSON.stringify(listing)).digest("hex").slice(0, 8);
    const versions = join(this.root, VERSIONS_DIR);
    mkdirSync(versions, { recursive: true });
    let id = makeVersionId(now, digest);
    for (let n = 2; existsSync(join(versions, id)); n++) id = `${makeVersionId(now, digest)}-${n}`;
    renameSync(this.dir, join(versions, id));
    switchCurrent(this.root, id);
    return id;
  }

  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The checksums a version recorded when it was written. */
export function readFilesManifest(versionDir: string): Record<string, FileChecksum> {
  try {
    return JSON.parse(readFileSync(join(versionDir, FILES_MANIFEST), "utf8")) as Record<string, FileChecksum>;
  } catch {
    return {};
  }
}

/** Removes versions beyond the newest `keep` (never the current one) and staging leftovers. */
export function pruneRawVersions(artifactsDir: string, source: string, keep: number): string[] {
  const root = rawRoot(artifactsDir, source);
  const versions = listVersions(root);
  const current = currentVersion(root);
  const keepIds = new Set(versions.slice(-Math.max(1, keep)));
  if (current) keepIds.add(current);
  const removed: string[] = [];
  for (const v of versions) {
    if (keepIds.has(v)) continue;
    rmSync(join(root, VERSIONS_DIR, v), { recursive: true, force: true });
    removed.push(v);
  }
  const staging = join(root, STAGING);
  if (existsSync(staging)) {
    for (const name of readdirSync(staging)) {
      const pid = Number(name.split(".")[0]);
      if (pid !== process.pid && !processAlive(pid)) rmSync(join(staging, name), { recursive: true, force: true });
    }
  }
  return removed;
}
