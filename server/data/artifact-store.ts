// Follows ARTIFACTS_DIR/current. A new version is verified and opened off to the side (formats/published-version.ts:
// manifest complete for its kind, names, bytes and checksums equal to the directory, every file validated by
// formats/version-files.ts — readers, JSON shapes, PMTiles headers, value ranges);
// only then is it swapped in with one assignment. A request takes `current()` once and keeps that object, so
// in-flight requests finish on the version they started with. A version that fails is refused and logged once
// (not on every poll), and the previous one keeps serving; so is a version whose id sorts before the served one
// (X-Data-Version never goes back; a restarted server loads whatever `current` leads to).
import { watch, type FSWatcher } from "node:fs";
import { basename } from "node:path";
import { readManifest, type Manifest } from "../../formats/manifest.ts";
import { locateCurrent, NO_LINK, openVerifiedVersion } from "../../formats/published-version.ts";
import type { Logger } from "../../lib/log.ts";
import { LEASE_REFRESH_MS, removeLease, writeLease } from "../../formats/reader-leases.ts";
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
  /** Files that `open` reads with the validating readers of formats/ itself: the load-time check skips them. */
  openedFiles?: ReadonlySet<string>;
  logger: Logger;
  /** The manifest kind the versions must have ("drought", "flood", ...; formats/version-files.ts REQUIRED_FILES). */
  kind?: string;
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
  /** When this process last wrote its reader lease (0 = never, or it could not). */
  private leaseAt = 0;
  private leaseWarned = false;
  /** Why nothing is served, for the 503 (never a path or a file's problem: those are in the log). */
  private notLoaded = "nothing published yet";

  constructor(private readonly opts: ArtifactStoreOptions<T>) {}

  current(): LoadedVersion<T> | undefined {
    return this.loaded;
  }

  /** The version being served; 503 SERVICE_UNAVAILABLE while none is loaded, with the reason in details.reason. */
  require(): LoadedVersion<T> {
    if (!this.loaded) throw new ApiError("SERVICE_UNAVAILABLE", `${this.opts.label} not loaded yet`, { reason: this.notLoaded });
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
    const located = locateCurrent(root);
    if ("missing" in located) {
      const seen = `missing:${located.missing}`;
      this.notLoaded = located.missing === NO_LINK ? "nothing published yet" : "the published version cannot be read (see the server log)";
      if (seen !== this.lastSeen) {
        // Said once per state, not on every poll.
        // Nothing published yet is how a first start begins (make serve builds the rest in the background): said at
        // info, once; a link that leads nowhere is a problem (refused, at error).
        if (located.missing === NO_LINK && !this.loaded) logger.info({ root, label }, "no published version to serve yet");
        else this.refused(located.missing, root);
      }
      this.lastSeen = seen;
      return "missing";
    }
    const { dir, seen } = located;
    if (seen === this.lastSeen) {
      if (this.leaseAt > 0 && Date.now() - this.leaseAt > LEASE_REFRESH_MS) this.holdLease();
      return "unchanged";
    }
    this.lastSeen = seen;
    try {
      // Ids only move forward (pipeline/publish publishedId): a version that sorts before the one served — a link
      // switched back by hand, an old copy synced over — is refused before it is opened, so X-Data-Version never
      // goes back. The same id again (its manifest rewritten) is checked and loaded as any change.
      const served = this.loaded?.version;
      const next = served === undefined ? undefined : readManifest(dir).version;
      if (served !== undefined && next !== undefined && next < served) {
        throw new Error(`version ${next} sorts before the served version ${served}: versions only move forward (restart the server to serve an older one)`);
      }
      const { manifest, data } = await openVerifiedVersion(dir, { open: this.opts.open, openedFiles: this.opts.openedFiles, kind: this.opts.kind });
      const previous = this.loaded?.version;
      this.loaded = { version: manifest.version, dir, manifest, data, loadedAt: new Date() };
      logger.info({ label, version: manifest.version, previous }, "artifact version loaded");
      this.holdLease();
      return "loaded";
    } catch (err) {
      this.notLoaded = "the published version was refused by the load-time checks (see the server log)";
      this.refused((err as Error).message, dir);
      return "refused";
    }
  }

  /** Tells retention (pipeline/publish) which version this process serves, so it is not deleted under it. */
  private holdLease(): void {
    const served = this.loaded;
    if (!served) return;
    try {
      writeLease(this.opts.root, basename(served.dir));
      this.leaseAt = Date.now();
    } catch (err) {
      if (!this.leaseWarned) {
        this.opts.logger.warn({ label: this.opts.label, err: (err as Error).message }, "cannot write the reader lease; retention cannot see this server");
        this.leaseWarned = true;
      }
    }
  }

  private refused(reason: string, dir: string): void {
    this.opts.logger.error(
      { label: this.opts.label, dir, err: reason, serving: this.loaded?.version ?? null },
      "artifact version refused; previous version keeps serving",
    );
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
    if (this.leaseAt > 0) removeLease(this.opts.root);
    this.leaseAt = 0;
  }
}
