// One HTTP download under the fetch rules: conditional GET (If-None-Match / If-Modified-Since), an idle timeout
// per attempt (no header or body byte for timeoutMs), bounded retries with exponential backoff for failures that
// can pass (network errors, timeouts, truncated bodies, 429, 5xx), a size limit checked against Content-Length
// and while reading, and a truncation check (bytes received vs Content-Length). Other client errors (404, 403…)
// fail at once. `{VAR}` placeholders in the URL are filled from the environment here and nowhere else, so logs and
// state only ever hold the template.
import { MAX_BACKOFF_MS, type SourceSettings } from "./settings.ts";

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchResult =
  | { kind: "body"; bytes: Uint8Array; etag?: string; lastModified?: string; contentType?: string; attempts: number }
  | { kind: "not-modified"; attempts: number };

export type FetchPolicy = Pick<SourceSettings, "timeoutMs" | "retries" | "backoffMs" | "maxBytes"> & {
  fetchImpl?: typeof fetch;
  env?: NodeJS.ProcessEnv;
};

/** Every attempt failed (or the first failure cannot pass). `errors` are "attempt N: reason". */
export class FetchFailure extends Error {
  constructor(
    readonly errors: string[],
    /** The last failure was the network (connection, DNS, timeout), not the server's answer. */
    readonly network: boolean,
  ) {
    super(errors.join("; "));
    this.name = "FetchFailure";
  }
  get attempts(): number {
    return this.errors.length;
  }
}

/** A failure of one attempt; `retry` says whether another attempt may succeed. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly network: boolean,
    readonly waitMs = 0,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fills `{NAME}` from env; a missing variable is an error naming it (never its value). */
export function fillUrl(template: string, env: NodeJS.ProcessEnv): string {
  return template.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    const v = env[name];
    if (!v) throw new Error(`${name} is not set`);
    return encodeURIComponent(v);
  });
}

/** Names of the `{VAR}` placeholders of a URL template. */
export function urlCredentials(template: string): string[] {
  return [...template.matchAll(/\{([A-Z][A-Z0-9_]*)\}/g)].map((m) => m[1]);
}

function retryAfterMs(header: string | null): number {
  if (!header) return 0;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(header);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : 0;
}

function networkReason(err: Error, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `timeout after ${timeoutMs} ms without data`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `${err.message}${cause?.code ? ` (${cause.code})` : cause?.message ? ` (${cause.message})` : ""}`;
}

async function attempt(url: string, policy: FetchPolicy, validators: Validators): Promise<FetchResult> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, policy.timeoutMs);
  };
  const headers: Record<string, string> = { "user-agent": "climate-risk-pipeline (source refresh)" };
  if (validators.etag) headers["if-none-match"] = validators.etag;
  if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
  arm();
  let received = 0;
  try {
    const res = await (policy.fetchImpl ?? fetch)(url, { signal: controller.signal, headers, redirect: "follow" });
    if (res.status === 304) {
      await res.body?.cancel();
      return { kind: "not-modified", attempts: 1 };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      const passing = res.status === 429 || res.status >= 500;
      throw new AttemptError(`HTTP ${res.status}`, passing, false, passing ? retryAfterMs(res.headers.get("retry-after")) : 0);
    }
    const length = res.headers.get("content-length");
    const declared = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared > policy.maxBytes) {
      await res.body?.cancel();
      throw new AttemptError(`larger than the size limit: ${declared} bytes declared, limit ${policy.maxBytes}`, false, false);
    }
    const chunks: Uint8Array[] = [];
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        arm();
        received += value.length;
        if (received > policy.maxBytes) {
          await reader.cancel();
          throw new AttemptError(`larger than the size limit: more than ${policy.maxBytes} bytes`, false, false);
        }
        chunks.push(value);
      }
    }
    // With a Content-Encoding, Content-Length counts the compressed bytes: nothing to compare.
    if (declared !== undefined && !res.headers.get("content-encoding") && received !== declared) {
      throw new AttemptError(`truncated: ${received} of ${declared} bytes`, true, true);
    }
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    return {
      kind: "body",
      bytes,
      etag: res.headers.get("etag") ?? undefined,
      lastModified: res.headers.get("last-modified") ?? undefined,
      contentType: res.headers.get("content-type") ?? undefined,
      attempts: 1,
    };
  } catch (e) {
    if (e instanceof AttemptError) throw e;
    const err = e as Error;
    // A body cut short by the server surfaces as a fetch error after some bytes arrived.
    if (received > 0 && !timedOut) throw new AttemptError(`truncated: connection closed after ${received} bytes (${networkReason(err, policy.timeoutMs, false)})`, true, true);
    throw new AttemptError(networkReason(err, policy.timeoutMs, timedOut), true, true);
  } finally {
    clearTimeout(timer);
  }
}

/** Downloads `urlTemplate` under the policy; throws FetchFailure with every attempt's reason. */
export async function fetchWithPolicy(urlTemplate: string, policy: FetchPolicy, validators: Validators = {}): Promise<FetchResult> {
  const url = fillUrl(urlTemplate, policy.env ?? process.env);
  const errors: string[] = [];
  let network = false;
  for (let i = 0; i <= policy.retries; i++) {
    try {
      const r = await attempt(url, policy, validators);
      return { ...r, attempts: i + 1 };
    } catch (e) {
      const err = e as AttemptError;
      errors.push(`attempt ${i + 1}: ${err.message}`);
      network = err.network;
      if (!err.retry || i === policy.retries) break;
      await sleep(Math.min(MAX_BACKOFF_MS, Math.max(policy.backoffMs * 2 ** i, err.waitMs)));
    }
  }
  throw new FetchFailure(errors, network);
}
