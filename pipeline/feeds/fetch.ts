// Deprecated (docs/methods/sources.md): the source registry's refresh (SOURCE_URL_<NAME>, `make refresh`) fetches
// every input now; FEED_URL_<NAME> still works for a snapshot build, with a deprecation line.
// The fetch step: a feed is downloaded from its public URL when one is configured (env FEED_URL_<NAME>, e.g.
// FEED_URL_GDACS_GEOJSON=https://www.gdacs.org/gdacsapi/api/events/geteventlist/MAP), with a timeout per
// attempt and retries with backoff; when no URL is configured, or every attempt fails, the file of the data
// directory is used and the outcome says so. FEED_FETCH_TIMEOUT_MS (20000) and FEED_FETCH_RETRIES (2).
import { readFileSync } from "node:fs";
import { deprecated } from "../sources/settings.ts";

export interface FeedSource {
  /** Env suffix, e.g. "GDACS_GEOJSON" → FEED_URL_GDACS_GEOJSON. */
  name: string;
  /** Path of the copy in the data directory. */
  fallbackPath: string;
}

export interface FetchOutcome {
  text: string;
  from: "url" | "data-dir";
  url?: string;
  /** Why the URL was not used (attempt errors), when one was configured. */
  error?: string;
  attempts: number;
}

export interface FetchOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
}

async function fetchOnce(url: string, timeoutMs: number): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return await res.text();
}

export async function fetchFeed(src: FeedSource, opts: FetchOptions = {}): Promise<FetchOutcome> {
  const env = opts.env ?? process.env;
  const url = env[`FEED_URL_${src.name}`];
  if (url) deprecated(`FEED_URL_${src.name}`, "SOURCE_URL_<NAME> with `make refresh` (docs/methods/sources.md)");
  const timeoutMs = opts.timeoutMs ?? Number(env.FEED_FETCH_TIMEOUT_MS ?? 20_000);
  const retries = opts.retries ?? Number(env.FEED_FETCH_RETRIES ?? 2);
  const backoffMs = opts.backoffMs ?? 500;
  const errors: string[] = [];
  let attempts = 0;
  if (url) {
    for (let i = 0; i <= retries; i++) {
      attempts++;
      try {
        return { text: await fetchOnce(url, timeoutMs), from: "url", url, attempts };
      } catch (err) {
        errors.push(`attempt ${i + 1}: ${(err as Error).message}`);
        if (i < retries) await new Promise((r) => setTimeout(r, backoffMs * 2 ** i));
      }
    }
  }
  const text = readFileSync(src.fallbackPath, "utf8");
  return { text, from: "data-dir", attempts, ...(url ? { url, error: errors.join("; ") } : {}) };
}
