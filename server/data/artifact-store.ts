// Follows ARTIFACTS_DIR/current. A new version is verified (manifest checksums) and opened off to the side;
// only then is it swapped in with one assignment. A request takes `current()` once and keeps that object, so
// in-flight requests finish on the version they started with. A version that fails is refused and logged, and
// the previous one keeps serving.
import { realpathSync, statSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { readManifest, verifyArtifacts, type Manifest } from "../../formats/manifest.ts";
import type { Logger } from "../../lib/log.ts";
import { ApiError } from "../errors.ts";

export interface LoadedVersion<T> {
  version: string;
  dir: string;
  manifest: Manifest;
  data: T;
  loadedAt: Date;
}

export type ReloadOutcome = "loaded" | "unchanged" | "refused" | "missing";

export interface ArtifactStoreOptions<T> {
  /** Directory that holds the `current` link (ARTIFACTS_DIR, or a snapshots directory). */
  root: string;
  /** Opens the artifact files of a verified version; throws if they are not usable. */
  open: (dir: string, manifest: Manifest) => T;
  logger: Logger;
  /** What the store serves, for logs ("drought artifacts", "flood snapshot", ...). */
  label: string;
  pollMs?: number;
}

export class ArtifactStore<T> {
  private loaded: LoadedVersion<T> | undefined;
  private lastSeen = "";
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private reloading: Promise<ReloadOutcome> | undefined;

  constructor(private readonly opts: ArtifactStoreOptions<T>) {}

  current(): LoadedVersion<T> | undefined {
    return this.loaded;
  }

  /** The version being served; 503 SERVICE_UNAVAILABLE while none is loaded. */
  require(): LoadedVersion<T> {
    if (!this.loaded) throw new ApiError("SERVICE_UNAVAILABLE", `${this.opts.label} not loaded yet`);
    return this.loaded;
  }

  /** For the X-Data-Version header and readiness: the served version, or "none". */
  versionOrNone(): string {
    return this.loaded?.version ?? "none";
  }

  /** Checks `current` once; concurrent callers share one reload. */
  reload(): Promise<ReloadOutcome> {
    if (!this.reloading) {
      this.reloading = this.reloadOnce().finally(() => {
        this.reloading = undefined;
      });
    }
    return this.reloading;
  }

  private async reloadOnce(): Promise<ReloadOutcome> {
    const { root, logger, label } = this.opts;
    let dir: string;
    let seen: string;
    try {
      dir = realpathSync(join(root, "current"));
      seen = `${dir}:${statSync(join(dir, "manifest.json")).mtimeMs}`;
    } catch {
      // Said once, not on every poll.
      if (!this.loaded && this.lastSeen !== "missing") logger.warn({ root, label }, "no published version to serve yet");
      this.lastSeen = "missing";
      return "missing";
    }
    if (seen === this.lastSeen) return "unchanged";
    this.lastSeen = seen;
    try {
      const manifest = readManifest(dir);
      const problems = await verifyArtifacts(dir, manifest);
      if (problems.length > 0) throw new Error(`checksum verification failed: ${problems.join("; ")}`);
      const data = this.opts.open(dir, manifest);
      const previous = this.loaded?.version;
      this.loaded = { version: manifest.version, dir, manifest, data, loadedAt: new Date() };
      logger.info({ label, version: manifest.version, previous }, "artifact version loaded");
      return "loaded";
    } catch (err) {
      logger.error(
        { label, dir, err: (err as Error).message, serving: this.loaded?.version ?? null },
        "artifact version refused; previous version keeps serving",
      );
      return "refused";
    }
  }

  /** Watches the root for a changed link, with a poll as a fallback (watch events are not guaranteed). */
  start(): void {
    const pollMs = this.opts.pollMs ?? 2000;
    this.timer = setInterval(() => void this.reload(), pollMs);
    this.timer.unref();
    try {
      this.watcher = watch(this.opts.root, () => void this.reload());
      this.watcher.unref();
    } catch {
      // The root may not exist yet; polling covers it.
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.watcher?.close();
  }
}
