// The manifest of one published artifact version: what went in, what came out, and the checksums that the
// server verifies before it swaps to the version. Written by pipeline/publish, read by server/data.
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const MANIFEST_FILE = "manifest.json";
export const MANIFEST_FORMAT = 1;

export interface FileChecksum {
  bytes: number;
  sha256: string;
}

export interface Manifest {
  manifestFormat: number;
  version: string;
  builtAt: string;
  /** Raw inputs, relative to the data directory. */
  inputs: Record<string, FileChecksum>;
  /** Every artifact file of the version (all files but the manifest itself). */
  artifacts: Record<string, FileChecksum>;
  /** What the version holds: "drought" (the default) or a snapshot name ("flood", "outbreaks", ...). */
  kind?: string;
  /** Snapshots: the time their data are current as of (ISO 8601), and the sources they were built from. */
  asOf?: string;
  sources?: string[];
  /** Drought artifacts: calibration period, month axis and the month served by default. */
  baseline?: { start: string; end: string };
  monthRange?: { first: string; last: string };
  latestValidMonth?: string | null;
  /**
   * Drought artifacts published before their derived products (formats/version-directory.md, "Deferred tiles and
   * exports"): "tiles" (tiles-index.json and the archives) and/or "exports". A later version of the same build
   * (same settings fingerprint) holds them and has no `deferred`.
   */
  deferred?: string[];
  qc: Record<string, unknown>;
  report: string;
  settings: Record<string, unknown>;
}

/** One read buffer for every checksum: reading 100 MB in fresh stream chunks left the heap of a server that
 * verified a version ~80 MB larger for good (freed chunks stay in the allocator's arenas). */
const HASH_CHUNK = 1 << 20;
let hashBuffer: Buffer | undefined;
let hashing = Promise.resolve();

export function sha256File(path: string): Promise<string> {
  // Verifications take turns so that they can share the buffer.
  const run = hashing.then(async () => {
    hashBuffer ??= Buffer.allocUnsafe(HASH_CHUNK);
    const hash = createHash("sha256");
    const fh = await open(path, "r");
    try {
      for (;;) {
        const { bytesRead } = await fh.read(hashBuffer, 0, HASH_CHUNK, null);
        if (bytesRead === 0) break;
        hash.update(hashBuffer.subarray(0, bytesRead));
      }
    } finally {
      await fh.close();
    }
    return hash.digest("hex");
  });
  hashing = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

export function sha256Bytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Reads and structurally checks a manifest; throws with the reason on anything unexpected. */
export function readManifest(versionDir: string): Manifest {
  const path = join(versionDir, MANIFEST_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${path}: cannot read manifest: ${(err as Error).message}`);
  }
  const m = parsed as Manifest;
  if (!m || typeof m !== "object" || m.manifestFormat !== MANIFEST_FORMAT) {
    throw new Error(`${path}: unsupported manifest format ${String((m as { manifestFormat?: unknown })?.manifestFormat)}`);
  }
  if (typeof m.version !== "string" || !m.artifacts || typeof m.artifacts !== "object") {
    throw new Error(`${path}: manifest lacks version or artifacts`);
  }
  return m;
}

/**
 * Checks the manifest against the directory: it lists at least one artifact, every listed file exists with the
 * listed `bytes` and `sha256`, and no file on disk is unlisted (a file slipped in beside a version is refused, not
 * ignored). Returns the list of problems (empty when the version is intact), so callers can log all of them at
 * once. Hashing every file on every load was measured at ~0.2–0.4 s for a 108 MB drought version, off the request
 * path, so checksums are not cached (version-directory.md).
 */
export async function verifyArtifacts(versionDir: string, manifest: Manifest): Promise<string[]> {
  const problems: string[] = [];
  const listed = Object.entries(manifest.artifacts);
  if (listed.length === 0) problems.push(`${MANIFEST_FILE}: lists no artifacts`);
  for (const [name, expected] of listed) {
    if (name.includes("/") || name.includes("\\") || name.startsWith(".") || name === MANIFEST_FILE) {
      problems.push(`${name}: artifact name not allowed`);
      continue;
    }
    try {
      const path = join(versionDir, name);
      const bytes = statSync(path).size;
      if (bytes !== expected.bytes) {
        problems.push(`${name}: ${bytes} bytes, manifest says ${String(expected.bytes)}`);
        continue;
      }
      const actual = await sha256File(path);
      if (actual !== expected.sha256) problems.push(`${name}: sha256 ${actual} does not match manifest ${expected.sha256}`);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
    }
  }
  for (const name of readdirSync(versionDir).sort()) {
    if (name !== MANIFEST_FILE && !Object.hasOwn(manifest.artifacts, name)) problems.push(`${name}: file on disk not listed in the manifest`);
  }
  return problems;
}
