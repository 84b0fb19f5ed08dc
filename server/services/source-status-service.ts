// How fresh the served data are: the `sources` snapshot the pipeline publishes (formats/source-status.md), followed
// like the other snapshots (hot reload, a broken version refused and the previous one kept). It answers
// GET /api/status, the gauge source_data_age_seconds{source}, and the `stale` flag every answer carries.
import { readFileSync, readlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { readManifest } from "../../formats/manifest.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import {
  dataAgeSeconds,
  isStale,
  readSourceStatus,
  SOURCE_STATUS_FILE,
  SOURCES_SNAPSHOT,
  STALE_FACTOR,
  type AnswerKind,
  type SourceStatusFile,
} from "../../formats/source-status.ts";
import type { Logger } from "../../lib/log.ts";
import { ArtifactStore } from "../data/artifact-store.ts";

/** What every answer says about the freshness of its sources. */
export interface FreshnessFlag {
  /** True when a source of the answer is older than STALE_FACTOR × its cadence; null when no status is published. */
  stale: boolean | null;
  /** The stale sources (empty when none). */
  staleSources: { name: string; title: string; dataAsOf: string | null; ageDays: number | null; cadence: string }[];
  /** Why `stale` is null. */
  staleReason?: string;
}

const NO_STATUS = "no sources status is published (run `npm run pipeline -- snapshots` or `make nightly`)";

/** The flag of an answer when this process has no sources status at all. */
export const UNKNOWN_FRESHNESS: FreshnessFlag = { stale: null, staleSources: [], staleReason: NO_STATUS };

/** What handlers call: the answer kind's flag. */
export type Freshness = (kind: AnswerKind) => FreshnessFlag;
const SNAPSHOT_NAMES = ["flood", "wildfire", "heatwave", "storm", "sea_level_rise", "outbreaks", "ports", SOURCES_SNAPSHOT];

const NONE_EXCLUDED: ReadonlySet<string> = new Set();

export class SourceStatusService {
  constructor(
    private readonly store: ArtifactStore<SourceStatusFile>,
    private readonly artifactsDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private readonly flags = new WeakMap<ReadonlySet<string>, Map<AnswerKind, { file: SourceStatusFile; second: number; flag: FreshnessFlag }>>();

  private current(): SourceStatusFile | undefined {
    return this.store.current()?.data;
  }

  /**
   * The flag of an answer drawn from the sources that feed `kind`, but for `notUsed` (e.g. the inputs of the drought
   * grids that the served version was not built from).
   */
  flag(kind: AnswerKind, notUsed?: ReadonlySet<string>): FreshnessFlag {
    const file = this.current();
    if (!file) return UNKNOWN_FRESHNESS;
    const now = this.now();
    // Every answer carries it: worked out once per status file, kind, excluded set and second, not per request.
    const second = Math.floor(now / 1000);
    let byKind = this.flags.get(notUsed ?? NONE_EXCLUDED);
    if (byKind === undefined) this.flags.set(notUsed ?? NONE_EXCLUDED, (byKind = new Map()));
    const cached = byKind.get(kind);
    if (cached !== undefined && cached.file === file && cached.second === second) return cached.flag;
    const flag = this.freshFlag(file, kind, now, notUsed);
    byKind.set(kind, { file, second, flag });
    return flag;
  }

  private freshFlag(file: SourceStatusFile, kind: AnswerKind, now: number, notUsed: ReadonlySet<string> | undefined): FreshnessFlag {
    const staleSources = file.sources
      .filter((s) => s.usedBy.includes(kind) && !notUsed?.has(s.name) && isStale(s, now))
      .map((s) => {
        const age = dataAgeSeconds(s, now);
        return { name: s.name, title: s.title, dataAsOf: s.dataAsOf, ageDays: age === null ? null : Math.floor(age / 86_400), cadence: s.cadence };
      });
    return { stale: staleSources.length > 0, staleSources };
  }

  /** The published sources status (for the refresh metrics), or undefined. */
  file(): SourceStatusFile | undefined {
    return this.current();
  }

  /** Seconds since each source's data end, for the gauge (sources without a date are left out). */
  ages(): { name: string; seconds: number }[] {
    const file = this.current();
    if (!file) return [];
    const now = this.now();
    return file.sources.flatMap((s) => {
      const seconds = dataAgeSeconds(s, now);
      return seconds === null ? [] : [{ name: s.name, seconds }];
    });
  }

  /** GET /api/status: every source with its age and status, and the published versions. */
  status(droughtVersion: string) {
    const file = this.current();
    const now = this.now();
    const sources = (file?.sources ?? []).map((s) => {
      const age = dataAgeSeconds(s, now);
      return {
        name: s.name,
        title: s.title,
        status: s.status,
        reason: s.reason,
        dataAsOf: s.dataAsOf,
        ageSeconds: age,
        ageDays: age === null ? null : Math.floor(age / 86_400),
        cadence: s.cadence,
        cadenceDays: s.cadenceDays,
        stale: isStale(s, now),
        usedBy: s.usedBy,
        from: s.from,
        fetchedAt: s.fetchedAt,
        licence: s.licence,
        attribution: s.attribution,
        nonCommercial: s.nonCommercial,
        lastAttemptAt: s.lastAttemptAt ?? null,
        lastOutcome: s.lastOutcome ?? null,
        lastSuccessAt: s.lastSuccessAt ?? null,
        consecutiveFailures: s.consecutiveFailures ?? null,
      };
    });
    return {
      generatedAt: file?.generatedAt ?? null,
      offline: file?.offline ?? null,
      ...(file ? {} : { reason: NO_STATUS }),
      staleRule: `a source is stale when its data are older than ${STALE_FACTOR} × its cadence; frozen when its origin answered within a cadence and its data are still that old`,
      lastNightly: file?.lastNightly ?? null,
      sources,
      published: { drought: droughtVersion, snapshots: this.snapshotVersions() },
    };
  }

  /** The version and as-of of each published snapshot, read from its `current` manifest. */
  private snapshotVersions(): Record<string, { version: string; asOf: string | null } | null> {
    const out: Record<string, { version: string; asOf: string | null } | null> = {};
    for (const name of SNAPSHOT_NAMES) {
      const root = snapshotRoot(this.artifactsDir, name);
      try {
        const version = basename(readlinkSync(join(root, "current")));
        const manifest = readManifest(join(root, "current"));
        out[name] = { version, asOf: typeof manifest.asOf === "string" ? manifest.asOf : null };
      } catch {
        out[name] = null;
      }
    }
    return out;
  }
}

export async function openSourceStatusService(artifactsDir: string, logger: Logger, opts: { pollMs?: number; now?: () => number } = {}) {
  const store = new ArtifactStore<SourceStatusFile>({
    root: snapshotRoot(artifactsDir, SOURCES_SNAPSHOT),
    open: (dir) => readSourceStatus(readFileSync(join(dir, SOURCE_STATUS_FILE), "utf8")),
    openedFiles: new Set([SOURCE_STATUS_FILE]),
    logger,
    kind: SOURCES_SNAPSHOT,
    label: "sources status",
    pollMs: opts.pollMs,
  });
  await store.reload();
  store.start();
  return { service: new SourceStatusService(store, artifactsDir, opts.now), store };
}
