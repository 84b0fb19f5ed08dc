// The inputs the builders read after a refresh: ARTIFACTS_DIR/inputs/, a tree of symbolic links shaped like DATA_DIR
// in which every file that has an accepted download (raw cache, adapter reads its layout) points at the download
// and every other file at DATA_DIR's copy. The builders keep reading "a data directory" and need no knowledge of
// the cache; DATA_DIR is never written. Written by `pipeline refresh` when any source has a download; the build,
// snapshot and sources commands use it when it was made from the same DATA_DIR (effectiveDataDir).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { currentRawDir, readSourceState } from "./raw-cache.ts";
import { effectiveOrigin, SOURCES } from "./registry.ts";
import type { ResourceSpec, SourceEntry } from "./types.ts";

export const INPUTS_DIR = "inputs";
const MARKER = ".overlay.json";

interface OverlayMarker {
  dataDir: string;
  createdAt: string;
  /** DATA_DIR-relative paths served from the raw cache, with the source. */
  fromCache: Record<string, string>;
}

function walk(root: string, rel = "", out: string[] = []): string[] {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = join(rel, e.name);
    if (e.isDirectory()) walk(root, path, out);
    else out.push(path);
  }
  return out;
}

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  rmSync(at, { force: true });
  symlinkSync(target, at);
}

/**
 * DATA_DIR-relative path → downloaded file, for every source with a current raw-cache version: the files its
 * resources name, and those its last refresh recorded with a place in the tree (discovered files: a WHO DON
 * release, the stations or gauges of a list fetched on an empty data directory).
 */
export async function downloadedInputs(dataDir: string, artifactsDir: string, env: NodeJS.ProcessEnv, sources: readonly SourceEntry[] = SOURCES): Promise<Map<string, { path: string; source: string }>> {
  const out = new Map<string, { path: string; source: string }>();
  for (const entry of sources) {
    const currentDir = currentRawDir(artifactsDir, entry.name);
    if (!currentDir) continue;
    // A listing that refuses its settings (FIRMS_COUNTRIES naming no country) links the files its state names.
    let specs: ResourceSpec[] = [];
    try {
      specs = await entry.resources({ origin: effectiveOrigin(entry, env).url ?? "", dataDir, currentDir, env, now: new Date() });
    } catch {
      // The state's links below.
    }
    const links: [string, string][] = specs.filter((s) => s.dataDirFile && s.adapterReadsLive).map((s) => [s.file, s.dataDirFile!]);
    for (const [file, state] of Object.entries(readSourceState(artifactsDir, entry.name)?.files ?? {})) if (state.linkAs) links.push([file, state.linkAs]);
    for (const [file, at] of links) {
      const cached = join(currentDir, file);
      if (existsSync(cached)) out.set(at, { path: cached, source: entry.name });
    }
  }
  return out;
}

/** Writes ARTIFACTS_DIR/inputs/ afresh (built aside, then renamed into place); returns its directory. */
export async function writeInputOverlay(dataDir: string, artifactsDir: string, env: NodeJS.ProcessEnv = process.env, sources?: readonly SourceEntry[]): Promise<{ dir: string; fromCache: number }> {
  const root = resolve(dataDir);
  const downloads = await downloadedInputs(root, artifactsDir, env, sources);
  const dir = join(artifactsDir, INPUTS_DIR);
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const rel of walk(root)) link(join(root, rel), join(staging, rel));
  const fromCache: Record<string, string> = {};
  for (const [rel, d] of downloads) {
    link(resolve(d.path), join(staging, rel));
    fromCache[rel] = d.source;
  }
  const marker: OverlayMarker = { dataDir: root, createdAt: new Date().toISOString(), fromCache };
  writeFileSync(join(staging, MARKER), JSON.stringify(marker, null, 1) + "\n");
  const old = `${dir}.old-${process.pid}`;
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(staging, dir);
  rmSync(old, { recursive: true, force: true });
  return { dir, fromCache: downloads.size };
}

/** The directory builders read: the overlay when a refresh made one from this DATA_DIR, else DATA_DIR itself. */
export function effectiveDataDir(dataDir: string, artifactsDir: string): string {
  const dir = join(artifactsDir, INPUTS_DIR);
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as OverlayMarker;
    if (marker.dataDir === resolve(dataDir)) return dir;
  } catch {
    // no overlay (never refreshed, or nothing downloaded)
  }
  return dataDir;
}

/** For logs: which inputs the overlay serves from downloads. */
export function overlaySummary(dir: string): { fromCache: number; path: string } | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as OverlayMarker;
    return { fromCache: Object.keys(marker.fromCache).length, path: relative(process.cwd(), dir) || "." };
  } catch {
    return undefined;
  }
}
