// Reader leases: a server process that serves a version says so in ARTIFACTS_DIR/readers/<host>.<pid>.json
// (or <snapshot root>/readers/), so that retention does not delete a version still being served. A lease counts
// while its process runs (same host: checked by pid) or, for another host sharing the directory, while the file
// was refreshed within LEASE_TTL_MS. Writing is best effort: a read-only artifacts directory only loses this
// protection, never the service.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

export const READERS_DIR = "readers";
/** A lease of another host expires this long after its last refresh. */
export const LEASE_TTL_MS = 10 * 60_000;
/** Readers refresh their lease this often (well inside the TTL). */
export const LEASE_REFRESH_MS = 60_000;

export interface Lease {
  version: string;
  pid: number;
  host: string;
  updatedAt: string;
}

function leasePath(root: string, host = hostname(), pid = process.pid): string {
  return join(root, READERS_DIR, `${host}.${pid}.json`);
}

/** Records that this process serves `version` of the store at `root` (atomic: written aside, then renamed). */
export function writeLease(root: string, version: string): void {
  const path = leasePath(root);
  mkdirSync(join(root, READERS_DIR), { recursive: true });
  const lease: Lease = { version, pid: process.pid, host: hostname(), updatedAt: new Date().toISOString() };
  writeFileSync(`${path}.tmp`, JSON.stringify(lease));
  renameSync(`${path}.tmp`, path);
}

export function removeLease(root: string): void {
  rmSync(leasePath(root), { force: true });
}

/** Versions held by live leases; leases of dead processes on this host are removed on the way. */
export function leasedVersions(root: string, now = Date.now()): Set<string> {
  const held = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(join(root, READERS_DIR));
  } catch {
    return held;
  }
  const host = hostname();
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const path = join(root, READERS_DIR, name);
    try {
      const lease = JSON.parse(readFileSync(path, "utf8")) as Lease;
      if (typeof lease.version !== "string") continue;
      if (lease.host === host) {
        if (processAlive(lease.pid)) held.add(lease.version);
        else rmSync(path, { force: true });
      } else if (now - statSync(path).mtimeMs <= LEASE_TTL_MS) {
        held.add(lease.version);
      }
    } catch {
      // a lease being replaced or unreadable: it protects nothing
    }
  }
  return held;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
