// `make nightly` refresh: download NOAA's per-station GHCN-Daily CSV for every station of the index, validate it
// with the parser, and atomically replace the station file. Offline, the data directory stays as it is.
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { log } from "../../../lib/log.ts";
import { InputError, parseGhcndCsv } from "./parse.ts";
import { GHCND_SUBDIR, readStationIndex } from "./stations.ts";

export const NOAA_ACCESS_URL = "https://www.ncei.noaa.gov/data/global-historical-climatology-network-daily/access";

export interface RefreshOptions {
  /** DATA_DIR (the station folder is DATA_DIR/climate/ghcnd-thailand). */
  dataDir: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Extra attempts after the first, for network errors, timeouts, 429 and 5xx. */
  retries?: number;
  /** First backoff delay; doubles on each retry. */
  backoffMs?: number;
  fetchImpl?: typeof fetch;
}

export interface RefreshFailure {
  station: string;
  reason: string;
}

export interface RefreshReport {
  status: "updated" | "unchanged" | "partial" | "offline";
  offline: boolean;
  updated: string[];
  unchanged: string[];
  failed: RefreshFailure[];
  message: string;
}

/** Failures that mean "no network" rather than "this station is bad". */
class NetworkError extends Error {}

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fetchText(url: string, o: Required<Omit<RefreshOptions, "dataDir" | "baseUrl">>): Promise<string> {
  let lastError: Error = new NetworkError("no attempt made");
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0) await sleep(o.backoffMs * 2 ** (attempt - 1));
    try {
      const res = await o.fetchImpl(url, { signal: AbortSignal.timeout(o.timeoutMs) });
      if (res.ok) return await res.text();
      await res.body?.cancel();
      lastError = new HttpError(res.status);
      if (res.status !== 429 && res.status < 500) throw lastError; // 404 and other client errors: retrying won't help
    } catch (e) {
      if (e instanceof HttpError) throw e;
      const err = e as Error;
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      lastError = new NetworkError(err.name === "TimeoutError" ? `timeout after ${o.timeoutMs} ms` : `${err.message}${cause ? ` (${cause})` : ""}`);
    }
  }
  throw lastError;
}

export async function refreshGhcnd(opts: RefreshOptions): Promise<RefreshReport> {
  const dir = join(opts.dataDir, GHCND_SUBDIR);
  const baseUrl = (opts.baseUrl ?? NOAA_ACCESS_URL).replace(/\/$/, "");
  const o = {
    timeoutMs: opts.timeoutMs ?? 30_000,
    retries: opts.retries ?? 3,
    backoffMs: opts.backoffMs ?? 1_000,
    fetchImpl: opts.fetchImpl ?? fetch,
  };
  const index = await readStationIndex(dir);
  const report: RefreshReport = { status: "unchanged", offline: false, updated: [], unchanged: [], failed: [], message: "" };

  for (const entry of index) {
    const url = `${baseUrl}/${entry.id}.csv`;
    let text: string;
    try {
      text = await fetchText(url, o);
    } catch (e) {
      if (e instanceof NetworkError && report.updated.length === 0 && report.unchanged.length === 0) {
        // The first station already fails at the network level after all retries: treat as offline, stop early.
        report.offline = true;
        report.status = "offline";
        report.failed.push({ station: entry.id, reason: e.message });
        report.message = `GHCN-Daily refresh: NOAA unreachable (${e.message}); data directory ${dir} left as it is`;
        log.warn({ dir, url, reason: e.message }, report.message);
        return report;
      }
      report.failed.push({ station: entry.id, reason: (e as Error).message });
      continue;
    }
    // Same directory as the target, so the rename is atomic on one file system.
    const target = entry.path;
    const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      await writeFile(tmp, text);
      const parsed = parseGhcndCsv(text, url);
      if (parsed.station !== entry.id) throw new InputError(url, 2, `STATION ${parsed.station}, expected ${entry.id}`);
      const old = await readFile(target, "utf8").catch(() => undefined);
      if (old === text) {
        await rm(tmp);
        report.unchanged.push(entry.id);
        continue;
      }
      await rename(tmp, target);
      report.updated.push(entry.id);
    } catch (e) {
      await rm(tmp, { force: true });
      report.failed.push({ station: entry.id, reason: (e as Error).message });
    }
  }
  report.status = report.failed.length > 0 ? "partial" : report.updated.length > 0 ? "updated" : "unchanged";
  report.message = `GHCN-Daily refresh: ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.failed.length} failed`;
  if (report.failed.length > 0) log.warn({ failed: report.failed }, report.message);
  else log.info(report.message);
  return report;
}
