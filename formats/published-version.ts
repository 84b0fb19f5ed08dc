// The published version of an artifacts (or snapshots) directory: where its `current` link leads, and a version
// verified and opened there. The server's ArtifactStore follows it over time (hot swap); one-shot readers such as
// the bulk scorer open it once. Both go through the same checks: the manifest complete for its kind, names, bytes and
// checksums equal to the directory, every file validated (version-files.ts), then the caller's `open`.
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { MANIFEST_FILE, readManifest, type Manifest } from "./manifest.ts";
import { checkVersion } from "./version-files.ts";

export const NO_LINK = "no current link";

/**
 * Where `current` leads: the version directory and a key that changes when a new version is published there,
 * or why there is nothing to load (no link, a link to a missing directory, a directory without manifest).
 */
export function locateCurrent(root: string): { dir: string; seen: string } | { missing: string } {
  const link = join(root, "current");
  try {
    lstatSync(link);
  } catch {
    return { missing: NO_LINK };
  }
  let dir: string;
  try {
    dir = realpathSync(link);
  } catch {
    let target = "?";
    try {
      target = resolve(root, readlinkSync(link));
    } catch {
      // not a link: realpath failed for another reason
    }
    return { missing: `current points to ${target}, which does not exist` };
  }
  try {
    return { dir, seen: `${dir}:${statSync(join(dir, MANIFEST_FILE)).mtimeMs}` };
  } catch {
    return { missing: `${dir} has no ${MANIFEST_FILE}` };
  }
}

export interface OpenVersionOptions<T> {
  /** Opens the artifact files of a verified version; throws if they are not usable. */
  open: (dir: string, manifest: Manifest) => T;
  /** Files that `open` reads with the validating readers of formats/ itself: the load-time check skips them. */
  openedFiles?: ReadonlySet<string>;
  /** The manifest kind the version must have ("drought", "flood", ...; version-files.ts REQUIRED_FILES). */
  kind?: string;
}

/** Verifies the version in `dir` and opens it; throws with every problem found. */
export async function openVerifiedVersion<T>(dir: string, opts: OpenVersionOptions<T>): Promise<{ manifest: Manifest; data: T }> {
  const manifest = readManifest(dir);
  const problems = await checkVersion(dir, manifest, { skip: opts.openedFiles, expectedKind: opts.kind });
  if (problems.length > 0) throw new Error(problems.join("; "));
  return { manifest, data: opts.open(dir, manifest) };
}

/** The version `current` leads to in `root`, verified and opened; throws saying why there is none. */
export async function openPublishedVersion<T>(root: string, opts: OpenVersionOptions<T>): Promise<{ dir: string; manifest: Manifest; data: T }> {
  const located = locateCurrent(root);
  if ("missing" in located) throw new Error(located.missing === NO_LINK ? `nothing published in ${root}` : located.missing);
  return { dir: located.dir, ...(await openVerifiedVersion(located.dir, opts)) };
}
