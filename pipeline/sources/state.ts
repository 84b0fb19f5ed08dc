// The local state of every source, for `pipeline sources`, the nightly summary and /api/status: which copy is
// used (the raw cache's current version, else the data directory's), its validators, checksum, size and
// dataAsOf, and a status —
//   fresh    a downloaded copy whose data are within STALE_FACTOR × the cadence,
//   stale    a downloaded copy older than that whose origin was not asked within a cadence (the nightly stopped),
//   frozen   the origin answers (asked within a cadence, no failure) but its data are older than STALE_FACTOR ×
//            the cadence: the upstream stopped advancing,
//   offline  no download is in use: network off (SOURCES_OFFLINE=1 or unreachable), credential missing, never
//            refreshed, or no public origin; the data-directory copy is used,
//   failed   the last refresh failed (the previous copy, if any, is still used)
// — each with a reason. Reads files only; never touches the network.
import { netcdfDataAsOf } from "./netcdf-as-of.ts";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256Bytes } from "../../formats/manifest.ts";
import type { AnswerKind } from "../../formats/source-status.ts";
import { checkContent } from "./content-check.ts";
import { currentRawDir, RAW_DIR, readSourceState } from "./raw-cache.ts";
import { effectiveOrigin, SOURCES } from "./registry.ts";
import { sourceSettings } from "./settings.ts";
import { CADENCE_DAYS, type Cadence, type FileState, type RefreshKind, type ResourceSpec, type SourceEntry, type SourceFormat, type SourceStatus, type SourceUpstream } from "./types.ts";

/** A copy is stale when its data are older than this many cadences. */
export const STALE_FACTOR = 3;

export interface SourceFileReport {
  file: string;
  url?: string;
  /** Which copy of this file is in use. */
  from: "cache" | "data-dir" | "none";
  /** The adapter reads the downloaded layout (else builders keep the data-directory copy). */
  adapterReadsLive: boolean;
  etag: string | null;
  lastModified: string | null;
  sha256: string | null;
  bytes: number | null;
  rows: number | null;
  malformedRows: number | null;
  dataAsOf: string | null;
  fetchedAt: string | null;
  error: string | null;
}

export interface SourceReport {
  name: string;
  title: string;
  usedBy: readonly AnswerKind[];
  /** The origin in use (SOURCE_URL_<NAME> when set); credentials appear as {VAR}, never as values. */
  url: string | null;
  overridden: boolean;
  /** The registry's origin. */
  origin: string | null;
  otherUrls: string[];
  format: SourceFormat;
  cadence: Cadence;
  cadenceDays: number | null;
  licence: string;
  attribution: string;
  nonCommercial: string | null;
  credential: string | null;
  credentialSet: boolean | null;
  dataDirPath: string | null;
  liveFormat: string | null;
  /** The origin has stopped (registry `upstream`), or null. */
  upstream: SourceUpstream | null;
  refresh: RefreshKind;
  from: "cache" | "data-dir" | "none";
  version: string | null;
  fetchedAt: string | null;
  checkedAt: string | null;
  etag: string | null;
  lastModified: string | null;
  sha256: string | null;
  bytes: number | null;
  dataAsOf: string | null;
  status: SourceStatus;
  reason: string;
  /** The refresh history (raw-cache state): last attempt, its outcome, last success, failures in a row and in all. */
  lastAttemptAt: string | null;
  lastOutcome: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  failuresTotal: number;
  files: SourceFileReport[];
}

export interface SourceStateOptions {
  dataDir: string;
  artifactsDir: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  sources?: readonly SourceEntry[];
  /** Facts of files read before (sourceStates loads and saves them under ARTIFACTS_DIR/raw/). */
  facts?: FileFacts;
}

function cachedFile(spec: ResourceSpec, s: FileState): SourceFileReport {
  return {
    file: spec.file, url: spec.url, from: "cache", adapterReadsLive: spec.adapterReadsLive,
    etag: s.etag ?? null, lastModified: s.lastModified ?? null, sha256: s.sha256, bytes: s.bytes, rows: s.rows, malformedRows: s.malformedRows,
    dataAsOf: s.dataAsOf, fetchedAt: s.fetchedAt ?? null, error: s.error ?? null,
  };
}

/** What reading a file told (checksum, rows, malformed rows, data as-of), by path, size and mtime. */
type FileFacts = Map<string, { sha256: string; bytes: number; rows: number | null; malformed: number | null; dataAsOf: string | null }>;
const FACTS_FILE = "file-facts.json";

/**
 * Where the facts are kept: beside the raw cache, or SOURCE_FACTS_FILE (one file several artifact directories share,
 * as the test suite's do: keyed by path, size and mtime, a fact never outlives its file).
 */
function factsPath(artifactsDir: string, env: NodeJS.ProcessEnv): string {
  return env.SOURCE_FACTS_FILE || join(artifactsDir, RAW_DIR, FACTS_FILE);
}

function loadFacts(path: string): FileFacts {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(path, "utf8"))));
  } catch {
    return new Map();
  }
}

function saveFacts(path: string, facts: FileFacts): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(facts)));
    renameSync(tmp, path);
  } catch {
    // a cache only: the next run reads the files again
  }
}

/** A copy on disk, read and checked once per (path, size, mtime): the data directory is large and rarely changes. */
async function diskFile(spec: ResourceSpec, path: string, from: "cache" | "data-dir", facts: FileFacts = new Map()): Promise<SourceFileReport> {
  const st = statSync(path);
  // "2": facts of NetCDF copies now carry their dataAsOf.
  const key = `2|${path}|${st.size}|${st.mtimeMs}|${spec.file}`;
  let f = facts.get(key);
  if (!f) {
    const bytes = readFileSync(path);
    let rows: number | null = null;
    let malformed: number | null = null;
    let dataAsOf: string | null = null;
    try {
      const c = checkContent(bytes, spec.check, spec.file, { maxMalformedShare: 1 });
      rows = c.rows;
      malformed = c.malformed.length;
      dataAsOf = c.dataAsOf;
    } catch {
      // The copy is reported as it is; its counts stay unknown.
    }
    if (spec.check.format === "netcdf") dataAsOf = await netcdfDataAsOf(path).catch(() => null);
    f = { sha256: sha256Bytes(bytes), bytes: bytes.length, rows, malformed, dataAsOf };
    facts.set(key, f);
  }
  return {
    file: spec.file, url: spec.url, from, adapterReadsLive: spec.adapterReadsLive, etag: null, lastModified: null,
    sha256: f.sha256, bytes: f.bytes, rows: f.rows, malformedRows: f.malformed, dataAsOf: f.dataAsOf, fetchedAt: null, error: null,
  };
}

const daysBetween = (later: Date, isoDay: string) => (later.getTime() - Date.parse(isoDay.length === 10 ? `${isoDay}T23:59:59Z` : isoDay)) / 86_400_000;

export async function sourceState(entry: SourceEntry, opts: SourceStateOptions): Promise<SourceReport> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? new Date();
  const settings = sourceSettings(env);
  const { url, overridden } = effectiveOrigin(entry, env);
  const state = readSourceState(opts.artifactsDir, entry.name);
  const currentDir = currentRawDir(opts.artifactsDir, entry.name);
  let specs: ResourceSpec[] = [];
  let listError: string | undefined;
  try {
    specs = [...(await entry.resources({ origin: url ?? "", dataDir: opts.dataDir, currentDir, env, now }))];
  } catch (err) {
    listError = (err as Error).message;
  }
  // Files the last refresh found at the origin (dated releases) are in the state but not in the static list.
  if (currentDir && state) for (const f of Object.keys(state.files)) if (!specs.some((s) => s.file === f)) specs.push({ file: f, url: state.files[f].url, adapterReadsLive: true, check: { format: entry.format } });

  const files: SourceFileReport[] = [];
  for (const spec of specs) {
    const cached = currentDir ? join(currentDir, spec.file) : undefined;
    if (cached && existsSync(cached)) {
      const s = state?.files[spec.file];
      files.push(s ? cachedFile(spec, s) : await diskFile(spec, cached, "cache", opts.facts));
    } else if (spec.dataDirFile && existsSync(join(opts.dataDir, spec.dataDirFile))) {
      files.push(await diskFile(spec, join(opts.dataDir, spec.dataDirFile), "data-dir", opts.facts));
    } else if (!currentDir || spec.url) {
      files.push({ file: spec.file, url: spec.url, from: "none", adapterReadsLive: spec.adapterReadsLive, etag: null, lastModified: null, sha256: null, bytes: null, rows: null, malformedRows: null, dataAsOf: null, fetchedAt: null, error: null });
    }
  }
  const present = files.filter((f) => f.from !== "none");
  const from = currentDir ? "cache" : present.length > 0 ? "data-dir" : "none";
  let dataAsOf: string | null = null;
  for (const f of present) if (f.dataAsOf && (dataAsOf === null || f.dataAsOf > dataAsOf)) dataAsOf = f.dataAsOf;
  const single = present.length === 1 ? present[0] : undefined;
  const sha256 = single ? single.sha256 : present.length ? createHash("sha256").update(present.map((f) => `${f.file}:${f.sha256}`).sort().join("\n")).digest("hex") : null;

  const serving = from === "cache" ? `serving raw-cache version ${state?.version ?? "current"}` : from === "data-dir" ? "serving the data-directory copy" : "no copy at all";
  const cadenceDays = CADENCE_DAYS[entry.cadence];
  let status: SourceStatus;
  let reason: string;
  const byAge = (): [SourceStatus, string] => {
    const ref = dataAsOf ?? state?.fetchedAt ?? null;
    if (cadenceDays !== null && ref !== null) {
      const age = daysBetween(now, ref);
      if (age > STALE_FACTOR * cadenceDays) {
        const checked = state?.checkedAt;
        if (checked && !state.unreachable && state.lastResult !== "failed" && daysBetween(now, checked) <= cadenceDays + 1) {
          const since = state.dataAsOfSince ? `; the same data as-of since ${state.dataAsOfSince.slice(0, 10)}` : "";
          return ["frozen", `the origin answers (asked ${checked.slice(0, 10)}) but its data end ${ref.slice(0, 10)}, ${Math.floor(age)} days ago: not advanced for more than ${STALE_FACTOR} × the ${entry.cadence} cadence${since}`];
        }
        return ["stale", `data as of ${ref} are ${Math.floor(age)} days old, more than ${STALE_FACTOR} × the ${entry.cadence} cadence`];
      }
    }
    return ["fresh", cadenceDays === null ? `${entry.cadence} source, downloaded` : `within ${STALE_FACTOR} × the ${entry.cadence} cadence`];
  };
  if (listError) {
    [status, reason] = ["failed", `cannot list the source's files: ${listError}`];
  } else if (entry.refresh === "none") {
    [status, reason] = ["offline", `no public origin to refresh from; ${serving}`];
  } else if (from !== "cache" && settings.offline) {
    [status, reason] = ["offline", `SOURCES_OFFLINE=1; ${serving}`];
  } else if (from !== "cache" && entry.credential && !env[entry.credential] && !overridden) {
    [status, reason] = ["offline", `${entry.credential} is not set; ${serving}`];
  } else if (from !== "cache" && entry.refresh === "cds") {
    [status, reason] = ["offline", `the Copernicus CDS job flow is not built yet; ${serving}`];
  } else if (!state) {
    [status, reason] = ["offline", `never refreshed; ${serving}`];
  } else if (state.unreachable) {
    [status, reason] = ["offline", `origin unreachable at ${state.checkedAt} (${state.reason ?? "network"}); ${serving}`];
  } else if (state.lastResult === "failed" || from !== "cache") {
    [status, reason] = ["failed", `${state.reason ?? "the last refresh failed"}; ${serving}`];
  } else {
    [status, reason] = byAge();
    if (state.lastResult === "partial") reason += `; last refresh partial: ${state.reason}`;
    if (settings.offline) reason += "; SOURCES_OFFLINE=1 (not refreshed)";
  }
  return {
    name: entry.name,
    title: entry.title,
    usedBy: entry.usedBy,
    url,
    overridden,
    origin: entry.url,
    otherUrls: [...(entry.otherUrls ?? [])],
    format: entry.format,
    cadence: entry.cadence,
    cadenceDays,
    licence: entry.licence,
    attribution: entry.attribution,
    nonCommercial: entry.nonCommercial ?? null,
    credential: entry.credential ?? null,
    credentialSet: entry.credential ? Boolean(env[entry.credential]) : null,
    dataDirPath: entry.dataDirPath,
    liveFormat: entry.liveFormat ?? null,
    upstream: entry.upstream ?? null,
    refresh: entry.refresh,
    from,
    version: from === "cache" ? (state?.version ?? null) : null,
    fetchedAt: state?.fetchedAt ?? null,
    checkedAt: state?.checkedAt ?? null,
    etag: single?.etag ?? null,
    lastModified: single?.lastModified ?? null,
    sha256,
    bytes: present.length ? present.reduce((n, f) => n + (f.bytes ?? 0), 0) : null,
    dataAsOf,
    status,
    reason,
    lastAttemptAt: state?.checkedAt ?? null,
    lastOutcome: state?.lastResult ?? null,
    lastSuccessAt: state?.lastSuccessAt ?? null,
    consecutiveFailures: state?.consecutiveFailures ?? 0,
    failuresTotal: state?.failuresTotal ?? 0,
    files,
  };
}

/** Every source's state (the function /api/status and the nightly summary read). */
export async function sourceStates(opts: SourceStateOptions): Promise<SourceReport[]> {
  const out: SourceReport[] = [];
  const path = factsPath(opts.artifactsDir, opts.env ?? process.env);
  const facts = loadFacts(path);
  for (const entry of opts.sources ?? SOURCES) out.push(await sourceState(entry, { ...opts, facts }));
  saveFacts(path, facts);
  return out;
}
