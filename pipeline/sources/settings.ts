// The refresh settings, each with a documented default (docs/methods/sources.md "Fetch rules"), read once from
// the environment. Old names (REFRESH_TIMEOUT_MS, GHCND_BASE_URL, FEED_URL_*) still work with a deprecation line.
import { intSetting } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";

export interface SourceSettings {
  /** No network at all: the raw cache and the data directory stay as they are. */
  offline: boolean;
  /** Per attempt: no header or body byte for this long aborts the attempt. */
  timeoutMs: number;
  /** Extra attempts after the first, for network errors, timeouts, truncated bodies, 429 and 5xx. */
  retries: number;
  /** First backoff; doubles each retry, capped at MAX_BACKOFF_MS (a Retry-After header raises it). */
  backoffMs: number;
  /** Largest body accepted per file, bytes (a source may set a larger limit of its own). */
  maxBytes: number;
  /** Downloads in flight at once, over all sources. */
  concurrency: number;
  /** A copy whose rows fell by more than this share against the previous copy is refused. */
  maxRowDrop: number;
  /** A file with more than this share of malformed rows is refused. */
  maxMalformedShare: number;
  /** Raw-cache versions kept per source (the current one is never removed). */
  keepVersions: number;
}

export const DEFAULTS: Omit<SourceSettings, "offline"> = {
  timeoutMs: 30_000,
  retries: 3,
  backoffMs: 1_000,
  maxBytes: 512 * 1024 * 1024,
  concurrency: 4,
  maxRowDrop: 0.2,
  maxMalformedShare: 0.5,
  keepVersions: 3,
};

export const MAX_BACKOFF_MS = 30_000;

const warned = new Set<string>();

/** Logs once per process that `old` is deprecated in favour of `replacement`. */
export function deprecated(old: string, replacement: string): void {
  if (warned.has(old)) return;
  warned.add(old);
  log.warn({ variable: old, replacement }, `${old} is deprecated: use ${replacement}`);
}

function share(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const v = Number(raw);
  if (!(v >= 0 && v <= 1)) throw new Error(`${name} must be a share between 0 and 1, got "${raw}"`);
  return v;
}

export function sourceSettings(env: NodeJS.ProcessEnv = process.env): SourceSettings {
  let timeoutName = "SOURCES_TIMEOUT_MS";
  if (env.SOURCES_TIMEOUT_MS === undefined && env.REFRESH_TIMEOUT_MS !== undefined) {
    deprecated("REFRESH_TIMEOUT_MS", "SOURCES_TIMEOUT_MS");
    timeoutName = "REFRESH_TIMEOUT_MS";
  }
  return {
    offline: env.SOURCES_OFFLINE === "1" || env.SOURCES_OFFLINE === "true",
    timeoutMs: Math.max(1, intSetting(env, timeoutName, DEFAULTS.timeoutMs)),
    retries: intSetting(env, "SOURCES_RETRIES", DEFAULTS.retries),
    backoffMs: intSetting(env, "SOURCES_BACKOFF_MS", DEFAULTS.backoffMs),
    maxBytes: Math.max(1, intSetting(env, "SOURCES_MAX_BYTES", DEFAULTS.maxBytes)),
    concurrency: Math.max(1, intSetting(env, "SOURCES_CONCURRENCY", DEFAULTS.concurrency)),
    maxRowDrop: share(env, "SOURCES_MAX_ROW_DROP", DEFAULTS.maxRowDrop),
    maxMalformedShare: DEFAULTS.maxMalformedShare,
    keepVersions: Math.max(1, intSetting(env, "SOURCES_KEEP_VERSIONS", DEFAULTS.keepVersions)),
  };
}

/** SOURCE_URL_<NAME> for a source name ("gdacs_events" → SOURCE_URL_GDACS_EVENTS). */
export function overrideVariable(name: string): string {
  return `SOURCE_URL_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}
