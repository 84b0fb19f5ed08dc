// Refreshing one source: every file of the source is downloaded (conditional GET against the copy the cache
// holds), checked (content-check.ts), merged into its history where the feed is append-only (merge.ts), checked
// again, and compared with the previous copy's rows. A file that fails keeps its previous copy (the cache's, or
// the data directory's); a new version is written only when a download changed something, and `current` moves
// to it atomically. The first network failure before any success marks the origin unreachable: the other files
// are not tried, so an offline run costs one file's retries per source, not all of them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LimitFunction } from "p-limit";
import { sha256Bytes } from "../../formats/manifest.ts";
import { log } from "../../lib/log.ts";
import { fetchArcgisCsv } from "./arcgis.ts";
import { fetchGeojsonPages } from "./geojson-pages.ts";
import { checkContent, ContentError, decodeText, rowDropReason } from "./content-check.ts";
import { netcdfDataAsOf } from "./netcdf-as-of.ts";
import { unzipMember } from "./unzip.ts";
import { gunzipKeptLines } from "./gzip-lines.ts";
import { FetchFailure, fetchWithPolicy, type FetchPolicy, type FetchResult, type Validators } from "./http-fetch.ts";
import { mergeText } from "./merge.ts";
import { currentRawDir, currentRawVersion, pruneRawVersions, RawVersionBuilder, readSourceState, writeSourceState } from "./raw-cache.ts";
import { effectiveOrigin } from "./registry.ts";
import { refreshCdsSource } from "./cds-refresh.ts";
import type { SourceSettings } from "./settings.ts";
import type { FileState, RefreshOutcome, ResourceContext, ResourceSpec, SourceEntry, SourceStateFile } from "./types.ts";

/** Malformed rows listed by file:line in the state (all are counted). */
export const MAX_MALFORMED_LISTED = 10;

export interface RefreshContext {
  dataDir: string;
  artifactsDir: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  settings: SourceSettings;
  /** Shared by every source: bounds the downloads in flight. */
  limit: LimitFunction;
  fetchImpl?: typeof fetch;
}

export interface SourceRefreshResult {
  source: string;
  outcome: RefreshOutcome;
  reason?: string;
  /** Current raw-cache version after the refresh (new or kept). */
  version?: string;
  files: number;
  /** Files whose download changed the copy. */
  changed: number;
  /** Files confirmed unchanged (304 or the same bytes). */
  unchanged: number;
  failed: number;
  /** Bytes downloaded. */
  bytes: number;
  dataAsOf: string | null;
  unreachable?: boolean;
  /** Files of an ending product found gone or empty (ResourceSpec.ending): left out, not failed. */
  ended?: string[];
  /** Files not published yet, found gone or empty (ResourceSpec.notYetPublished): left out, not failed. */
  unpublished?: string[];
  durationMs: number;
}

interface FileOutcome {
  spec: ResourceSpec;
  /** An ending product's file found gone or empty: why, and that it left the version. */
  ended?: string;
  /** A file not published yet, found gone or empty: why, and that it left the version. */
  unpublished?: string;
  state?: FileState;
  /** The download changed the copy. */
  changed: boolean;
  /** The origin confirmed the copy (200 or 304). */
  confirmed: boolean;
  downloadedBytes: number;
  error?: string;
  network?: boolean;
}

function malformedList(rows: { file: string; line: number; reason: string }[]): string[] {
  return rows.slice(0, MAX_MALFORMED_LISTED).map((r) => `${r.file}:${r.line}: ${r.reason}`);
}

/** Checks a copy already on disk (rows, dataAsOf) for the state of a file not downloaded this time. */
function describeCopy(path: string, spec: ResourceSpec, from: FileState["from"]): FileState {
  const bytes = readFileSync(path);
  let rows: number | null = null;
  let dataAsOf: string | null = null;
  let malformed: { file: string; line: number; reason: string }[] = [];
  try {
    ({ rows, dataAsOf, malformed } = checkContent(bytes, spec.check, spec.file, { maxMalformedShare: 1 }));
  } catch {
    // A copy that no longer passes is still the copy in use; its counts stay unknown.
  }
  return { sha256: sha256Bytes(bytes), bytes: bytes.length, rows, malformedRows: malformed.length, malformedAt: malformedList(malformed), dataAsOf, from };
}

const skipped = (entry: SourceEntry, reason: string, start: number): SourceRefreshResult => ({
  source: entry.name, outcome: "skipped", reason, files: 0, changed: 0, unchanged: 0, failed: 0, bytes: 0, dataAsOf: null, durationMs: Date.now() - start,
});

export async function refreshSource(entry: SourceEntry, ctx: RefreshContext): Promise<SourceRefreshResult> {
  const start = Date.now();
  if (entry.refresh === "none") return skipped(entry, "no public origin to refresh from: the data-directory copy is used", start);
  const { url: origin, overridden } = effectiveOrigin(entry, ctx.env);
  if (!origin) return skipped(entry, "no origin URL", start);
  if (entry.credential && !ctx.env[entry.credential] && !overridden) return skipped(entry, `${entry.credential} is not set`, start);
  if (entry.refresh === "cds") return ctx.limit(() => refreshCdsSource(entry, ctx, start));

  const prev = readSourceState(ctx.artifactsDir, entry.name);
  const currentDir = currentRawDir(ctx.artifactsDir, entry.name);
  const policy: FetchPolicy = { ...ctx.settings, maxBytes: Math.max(ctx.settings.maxBytes, entry.maxBytes ?? 0), fetchImpl: ctx.fetchImpl, env: ctx.env };
  const rctx: ResourceContext = { origin, dataDir: ctx.dataDir, currentDir, env: ctx.env, now: ctx.now };
  const nowIso = ctx.now.toISOString();

  let specs: ResourceSpec[];
  try {
    specs = [...(await entry.resources(rctx))];
    if (entry.discover) {
      const fetchText = async (url: string) => {
        const r = await ctx.limit(() => fetchWithPolicy(url, policy));
        if (r.kind !== "body") throw new Error(`${url}: 304 without a conditional request`);
        return decodeText(r.bytes);
      };
      specs.push(...(await entry.discover(rctx, fetchText)));
    }
  } catch (err) {
    const reason = `listing the files failed: ${(err as Error).message}`;
    const network = err instanceof FetchFailure && err.network;
    writeSourceState(ctx.artifactsDir, entry.name, { ...(prev ?? { source: entry.name, files: {}, dataAsOf: null }), checkedAt: nowIso, lastResult: "failed", reason, unreachable: network });
    log.warn({ source: entry.name, reason }, "source refresh failed; previous copy kept");
    return { source: entry.name, outcome: "failed", reason, version: prev?.version, files: 0, changed: 0, unchanged: 0, failed: 1, bytes: 0, dataAsOf: prev?.dataAsOf ?? null, unreachable: network, durationMs: Date.now() - start };
  }

  const builder = new RawVersionBuilder(ctx.artifactsDir, entry.name);
  let unreachable: string | undefined;
  let anySuccess = false;

  const previousCopy = (spec: ResourceSpec): { path: string; fromCache: boolean } | undefined => {
    if (currentDir && existsSync(join(currentDir, spec.file))) return { path: join(currentDir, spec.file), fromCache: true };
    if (spec.dataDirFile && existsSync(join(ctx.dataDir, spec.dataDirFile))) return { path: join(ctx.dataDir, spec.dataDirFile), fromCache: false };
    return undefined;
  };

  // One request per URL and validators: several kept files made from one download (a .tar.gz's members) share it;
  // its bytes count once, for the file that asked first.
  const shared = new Map<string, { by: string; result: Promise<FetchResult> }>();
  const fetchShared = async (url: string, validators: Validators, file: string): Promise<{ r: FetchResult; first: boolean }> => {
    const key = `${url}\n${validators.etag ?? ""}\n${validators.lastModified ?? ""}`;
    let hit = shared.get(key);
    if (!hit) shared.set(key, (hit = { by: file, result: ctx.limit(() => fetchWithPolicy(url, policy, validators)) }));
    return { r: await hit.result, first: hit.by === file };
  };

  const keepPrevious = async (spec: ResourceSpec, from: FileState["from"], error?: string): Promise<FileState | undefined> => {
    const p = previousCopy(spec);
    if (!p) return undefined;
    const known = p.fromCache ? prev?.files[spec.file] : undefined;
    await builder.carry(spec.file, p.path, known?.sha256);
    // A file kept from the data directory is the mirror's copy, not an earlier download.
    const origin = from === "kept" && !p.fromCache ? "data-dir" : from;
    const state = known ? { ...known, from: origin } : describeCopy(p.path, spec, origin);
    return { ...state, error };
  };

  const processFile = async (spec: ResourceSpec): Promise<FileOutcome> => {
    const base = { spec, changed: false, confirmed: false, downloadedBytes: 0 };
    if (!spec.url) {
      const state = await keepPrevious(spec, "carried");
      return state ? { ...base, state } : { ...base, error: `${spec.file}: no previous copy and no data-directory copy to carry` };
    }
    if (unreachable) {
      const error = `not tried: origin unreachable (${unreachable})`;
      return { ...base, state: await keepPrevious(spec, "kept", error), error, network: true };
    }
    const p = previousCopy(spec);
    const known = p?.fromCache ? prev?.files[spec.file] : undefined;
    if (spec.refreshDays !== undefined && known?.fetchedAt && ctx.now.getTime() - Date.parse(known.fetchedAt) < spec.refreshDays * 86_400_000) {
      const state = await keepPrevious(spec, "carried");
      if (state) return { ...base, state };
    }
    try {
      let bytes: Uint8Array;
      let meta: { etag?: string; lastModified?: string; contentType?: string } = {};
      let sharedDownload = false;
      if (spec.arcgis) {
        const arcgis = spec.arcgis;
        bytes = (await ctx.limit(() => fetchArcgisCsv(spec.url!, arcgis, policy))).bytes;
      } else if (spec.geojsonPages) {
        const paging = spec.geojsonPages;
        bytes = (await ctx.limit(() => fetchGeojsonPages(spec.url!, paging, policy))).bytes;
      } else {
        const { r, first } = await fetchShared(spec.url!, known ? { etag: known.etag, lastModified: known.lastModified } : {}, spec.file);
        if (r.kind === "not-modified") {
          anySuccess = true;
          const state = await keepPrevious(spec, "not-modified");
          if (!state) throw new Error("304 Not Modified but no previous copy");
          return { ...base, confirmed: true, state: { ...state, fetchedAt: nowIso } };
        }
        bytes = r.bytes;
        meta = r;
        if (!first) sharedDownload = true;
      }
      anySuccess = true;
      const downloadedBytes = sharedDownload ? 0 : bytes.length;
      if (spec.unzip) bytes = unzipMember(bytes, spec.unzip, policy.maxBytes);
      if (spec.gunzipLines) bytes = await gunzipKeptLines(bytes, spec.gunzipLines.header, spec.gunzipLines.keep);
      if (spec.derive) bytes = await spec.derive(bytes, spec.file);
      if (spec.transform) bytes = new TextEncoder().encode(spec.transform(decodeText(bytes), spec.file));
      let checked = checkContent(bytes, spec.check, spec.file, { contentType: meta.contentType, maxMalformedShare: ctx.settings.maxMalformedShare });
      let note: string | undefined;
      if (spec.merge && p) {
        const merged = mergeText(readFileSync(p.path, "utf8"), checked.text!, spec.merge, spec.file, spec.check.skipRows);
        note = merged.note;
        bytes = new TextEncoder().encode(merged.text);
        checked = checkContent(bytes, spec.check, spec.file, { maxMalformedShare: ctx.settings.maxMalformedShare });
      }
      const previousRows = known ? known.rows : p ? describeCopy(p.path, spec, "data-dir").rows : undefined;
      const drop = rowDropReason(previousRows, checked.rows, ctx.settings.maxRowDrop);
      if (drop) throw new ContentError(spec.file, drop);
      const sha256 = sha256Bytes(bytes);
      const changed = sha256 !== (known?.sha256 ?? (p && !p.fromCache ? sha256Bytes(readFileSync(p.path)) : undefined));
      if (!changed && p) await builder.carry(spec.file, p.path, sha256);
      else builder.write(spec.file, bytes, sha256);
      if (spec.check.format === "netcdf") {
        // Binary grids: the staged copy must open with a monthly time axis, whose last month is its dataAsOf.
        try {
          checked = { ...checked, dataAsOf: await netcdfDataAsOf(join(builder.dir, spec.file)) };
        } catch (err) {
          builder.remove(spec.file);
          throw new ContentError(spec.file, `not a readable NetCDF grid: ${(err as Error).message.replace(builder.dir + "/", "")}`);
        }
      }
      const state: FileState = {
        url: spec.url,
        etag: meta.etag,
        lastModified: meta.lastModified,
        sha256,
        bytes: bytes.length,
        rows: checked.rows,
        malformedRows: checked.malformed.length,
        malformedAt: malformedList(checked.malformed),
        dataAsOf: checked.dataAsOf,
        fetchedAt: nowIso,
        from: "download",
      };
      if (checked.malformed.length > 0) log.warn({ source: entry.name, file: spec.file, malformedRows: checked.malformed.length, first: state.malformedAt[0] }, "malformed rows skipped");
      if (note && changed) log.info({ source: entry.name, file: spec.file, note }, "merged with the previous copy");
      return { ...base, changed, confirmed: true, downloadedBytes, state };
    } catch (err) {
      // An ending product's file, or one not published yet, that is gone or empty leaves the version: the builders
      // run on the other files. Each is worded for what it is.
      const gone = err instanceof FetchFailure && !err.network && /^attempt \d+: HTTP (404|410)\b/.test(err.errors.at(-1) ?? "");
      const empty = err instanceof ContentError && /^(no data rows|\d+ rows, fewer than)/.test(err.reason);
      if ((spec.ending || spec.notYetPublished) && (gone || empty)) {
        anySuccess = true;
        const detail = (err as Error).message.replace(`${spec.file}: `, "");
        // A new version without it, when the current one holds it.
        const changed = prev?.files[spec.file] !== undefined;
        if (spec.ending) {
          const ended = `${spec.file} ${gone ? "is gone" : "has no rows"} (${detail}): ${spec.ending}; left out, the source runs on its other files`;
          log.warn({ source: entry.name, file: spec.file, url: spec.url, ended }, "an ending product's file is gone or empty: left out");
          return { ...base, changed, ended };
        }
        const unpublished = `${spec.file} is not published yet (${gone ? "" : "no rows: "}${detail}): ${spec.notYetPublished}; left out until it is, the source runs on its other files`;
        log.info({ source: entry.name, file: spec.file, url: spec.url, unpublished }, "a file not published yet: left out");
        return { ...base, changed, unpublished };
      }
      const network = err instanceof FetchFailure && err.network;
      // Every reason names its file (a content error already does).
      const error = err instanceof ContentError ? err.message : `${spec.file}: ${(err as Error).message}`;
      if (network && !anySuccess) unreachable ??= (err as FetchFailure).errors.at(-1);
      log.warn({ source: entry.name, file: spec.file, url: spec.url, reason: error }, "download refused or failed; previous copy kept");
      return { ...base, state: await keepPrevious(spec, "kept", error), error, network };
    }
  };

  // The first file alone: when the origin is unreachable, the others are not tried.
  const outcomes: FileOutcome[] = [];
  const fetched = specs.filter((s) => s.url);
  const firstUrl = fetched[0];
  if (firstUrl) outcomes.push(await processFile(firstUrl));
  outcomes.push(...(await Promise.all(specs.filter((s) => s !== firstUrl).map(processFile))));

  const replaced = new Set(outcomes.filter((o) => o.changed && o.spec.replaces).map((o) => o.spec.replaces!));
  for (const f of replaced) builder.remove(f);

  const failed = outcomes.filter((o) => o.error);
  const ended = outcomes.filter((o) => o.ended).map((o) => o.ended!);
  const unpublished = outcomes.filter((o) => o.unpublished).map((o) => o.unpublished!);
  const downloadFailures = failed.filter((o) => o.spec.url);
  const changed = outcomes.filter((o) => o.changed).length;
  const unchanged = outcomes.filter((o) => o.confirmed && !o.changed).length;
  const allUnreachable = fetched.length > 0 && downloadFailures.length === fetched.length && downloadFailures.every((o) => o.network);

  let version = currentDir ? currentRawVersion(ctx.artifactsDir, entry.name) : undefined;
  const commit = changed > 0 || (!currentDir && unchanged > 0);
  if (commit) {
    version = builder.commit(ctx.now);
    pruneRawVersions(ctx.artifactsDir, entry.name, ctx.settings.keepVersions);
  } else {
    builder.discard();
  }
  const outcome: RefreshOutcome =
    downloadFailures.length === 0 && failed.length === 0 ? (changed > 0 ? "updated" : "unchanged")
    : downloadFailures.length === fetched.length && changed === 0 && unchanged === 0 ? "failed"
    : "partial";
  const reason = failed.length
    ? `${failed.length} of ${specs.length} file(s) failed, previous copies kept: ${failed.slice(0, 3).map((o) => o.error).join("; ")}${failed.length > 3 ? "; …" : ""}`
    : undefined;

  const files: Record<string, FileState> = {};
  for (const o of outcomes) {
    if (!o.state || replaced.has(o.spec.file)) continue;
    // Recorded so the inputs tree links discovered files too (input-overlay.ts), which resources() alone does not list.
    files[o.spec.file] = { ...o.state, linkAs: o.spec.adapterReadsLive ? o.spec.dataDirFile : undefined };
  }
  let dataAsOf: string | null = null;
  for (const s of Object.values(files)) if (s.dataAsOf && (dataAsOf === null || s.dataAsOf > dataAsOf)) dataAsOf = s.dataAsOf;
  const confirmedAny = outcomes.some((o) => o.confirmed);
  const state: SourceStateFile = {
    source: entry.name,
    version,
    fetchedAt: confirmedAny ? nowIso : prev?.fetchedAt,
    checkedAt: nowIso,
    lastResult: outcome,
    reason,
    unreachable: allUnreachable || undefined,
    ...(ended.length ? { ended } : {}),
    ...(unpublished.length ? { unpublished } : {}),
    files: version ? files : (prev?.files ?? {}),
    dataAsOf: version ? dataAsOf : (prev?.dataAsOf ?? null),
  };
  writeSourceState(ctx.artifactsDir, entry.name, state);
  return {
    source: entry.name,
    outcome,
    reason,
    version: state.version,
    files: specs.length,
    changed,
    unchanged,
    failed: failed.length,
    bytes: outcomes.reduce((n, o) => n + o.downloadedBytes, 0),
    dataAsOf: state.dataAsOf,
    unreachable: allUnreachable || undefined,
    ...(ended.length ? { ended } : {}),
    ...(unpublished.length ? { unpublished } : {}),
    durationMs: Date.now() - start,
  };
}
