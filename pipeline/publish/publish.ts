// Versioned artifact publishing. A build writes into a private staging directory; only a complete, checksummed
// version is renamed into versions/ and then made `current` by an atomic symlink swap. A failed or interrupted
// build leaves `current` and every published version untouched.
//
// Retention (pruneVersions) keeps the `keep` newest versions and never removes
//   - the version `current` points to,
//   - the newest version that passes the server's load-time check (formats/version-files.ts: manifest,
//     checksums, every file) — when newer versions are refused, servers still serve this one,
//   - a version a running server holds a lease on (formats/reader-leases.ts).
import { mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join, basename } from "node:path";
import { MANIFEST_FILE, MANIFEST_FORMAT, sha256File, type FileChecksum, type Manifest } from "../../formats/manifest.ts";
import { validateVersion } from "../../formats/version-files.ts";
import { leasedVersions, processAlive } from "../../formats/reader-leases.ts";

export const CURRENT_LINK = "current";
export const VERSIONS_DIR = "versions";
const STAGING_DIR = "staging";

export interface Staging {
  artifactsDir: string;
  version: string;
  dir: string;
}

/** A version id sorts by time: 20261123T103000Z-<suffix> (build start, or publish time: publishedId). */
export function makeVersionId(now: Date, suffix: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${suffix}`;
}

const STAMPED_ID = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-(.+)$/;

/** The time and suffix of an id made by makeVersionId, or undefined for any other name. */
export function parseVersionId(id: string): { at: Date; suffix: string } | undefined {
  const m = STAMPED_ID.exec(id);
  if (!m) return undefined;
  const at = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(at.getTime()) ? undefined : { at, suffix: m[7] };
}

/**
 * The id a staged version is published under, so that ids only move forward (X-Data-Version never goes back):
 * its own id (stamped when its build started) while that sorts after every version of the root — `current` and
 * everything in versions/ —, else the same suffix stamped at publish time `now`, and at least one second after the
 * newest (a build that started before another but finished after it, two publishes within one second, a clock set
 * back). Names not in the id format (tests' "v1", "v2") are kept as they are.
 */
export function publishedId(stagedId: string, published: readonly string[], now: Date): string {
  const staged = parseVersionId(stagedId);
  const newest = published.filter((v) => parseVersionId(v) !== undefined).sort().at(-1);
  if (staged === undefined || newest === undefined || stagedId > newest) return stagedId;
  const after = parseVersionId(newest)!.at.getTime() + 1000;
  return makeVersionId(new Date(Math.max(now.getTime(), after)), staged.suffix);
}

export function createStaging(artifactsDir: string, version: string): Staging {
  const dir = join(artifactsDir, STAGING_DIR, `${version}.${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { artifactsDir, version, dir };
}

export function discardStaging(staging: Staging): void {
  rmSync(staging.dir, { recursive: true, force: true });
}

export type ManifestBody = Omit<Manifest, "manifestFormat" | "version" | "artifacts">;

/**
 * Checksums every file in the staging directory into the manifest, moves the directory into versions/ and
 * points `current` at it. Returns the published version directory, whose name is the version id: the staging id,
 * or a later one when another version was published meanwhile (publishedId; the report's `version` follows).
 * `now`: the clock at publish time (a build's fixed clock in tests; default the real one).
 */
export async function publishStaging(staging: Staging, body: ManifestBody, now?: Date): Promise<string> {
  const current = currentVersion(staging.artifactsDir);
  const version = publishedId(staging.version, [...listVersions(staging.artifactsDir), ...(current === undefined ? [] : [current])], now ?? new Date());
  if (version !== staging.version && body.report !== undefined) restampReport(join(staging.dir, body.report), staging.version, version);
  const artifacts: Record<string, FileChecksum> = {};
  for (const name of readdirSync(staging.dir).sort()) {
    if (name === MANIFEST_FILE) continue;
    const path = join(staging.dir, name);
    artifacts[name] = { bytes: statSync(path).size, sha256: await sha256File(path) };
  }
  // The staging version and the checksums just computed win over anything the caller passed along.
  const manifest: Manifest = { ...body, manifestFormat: MANIFEST_FORMAT, version, artifacts };
  writeFileSync(join(staging.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");

  const versionsDir = join(staging.artifactsDir, VERSIONS_DIR);
  mkdirSync(versionsDir, { recursive: true });
  const target = join(versionsDir, version);
  if (existsSync(target)) throw new Error(`version ${version} already exists`);
  renameSync(staging.dir, target);
  switchCurrent(staging.artifactsDir, version);
  return target;
}

/** A build report (a JSON object) that names the staging id as its `version` names the published one instead. */
function restampReport(path: string, from: string, to: string): void {
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return; // no report, or not JSON: the load-time check judges it, as before
  }
  if (report === null || typeof report !== "object" || Array.isArray(report) || (report as { version?: unknown }).version !== from) return;
  writeFileSync(path, JSON.stringify({ ...report, version: to }, null, 2) + "\n");
}

/** Atomic: a new symlink is created beside `current` and renamed over it. */
export function switchCurrent(artifactsDir: string, version: string): void {
  const tmp = join(artifactsDir, `${CURRENT_LINK}.${process.pid}.tmp`);
  rmSync(tmp, { force: true });
  symlinkSync(join(VERSIONS_DIR, version), tmp);
  renameSync(tmp, join(artifactsDir, CURRENT_LINK));
}

export function currentVersion(artifactsDir: string): string | undefined {
  try {
    return basename(readlinkSync(join(artifactsDir, CURRENT_LINK)));
  } catch {
    return undefined;
  }
}

export function listVersions(artifactsDir: string): string[] {
  const dir = join(artifactsDir, VERSIONS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => !n.startsWith(".")).sort();
}

/** The newest version that would load (manifest, checksums, every file valid), or undefined. */
export async function newestValidVersion(artifactsDir: string): Promise<string | undefined> {
  const versions = listVersions(artifactsDir);
  for (let i = versions.length - 1; i >= 0; i--) {
    if ((await validateVersion(join(artifactsDir, VERSIONS_DIR, versions[i]))).length === 0) return versions[i];
  }
  return undefined;
}

/**
 * Removes versions beyond the newest `keep`, except the current one, the newest valid one and those a running
 * reader holds a lease on (see the rule at the top). Returns the removed ids.
 */
export async function pruneVersions(artifactsDir: string, keep: number): Promise<string[]> {
  const versions = listVersions(artifactsDir);
  const protectedIds = new Set(versions.slice(-Math.max(1, keep)));
  const current = currentVersion(artifactsDir);
  if (current !== undefined) protectedIds.add(current);
  const valid = await newestValidVersion(artifactsDir);
  if (valid !== undefined) protectedIds.add(valid);
  for (const v of leasedVersions(artifactsDir)) protectedIds.add(v);
  const removed: string[] = [];
  for (const v of versions) {
    if (protectedIds.has(v)) continue;
    rmSync(join(artifactsDir, VERSIONS_DIR, v), { recursive: true, force: true });
    removed.push(v);
  }
  // Staging leftovers of interrupted builds by dead processes are garbage.
  const stagingDir = join(artifactsDir, STAGING_DIR);
  if (existsSync(stagingDir)) {
    for (const name of readdirSync(stagingDir)) {
      const pid = Number(name.slice(name.lastIndexOf(".") + 1));
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) {
        rmSync(join(stagingDir, name), { recursive: true, force: true });
      }
    }
  }
  return removed;
}
