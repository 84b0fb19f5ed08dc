// The Copernicus Climate Data Store (CDS) job flow, for ERA5 monthly means: submit a request to a dataset's
// process (POST {base}/retrieve/v1/processes/{dataset}/execution with {"inputs": …}), poll the job
// (GET {base}/retrieve/v1/jobs/{id}) until it is successful or failed, read its results (…/results → asset.value.href)
// and download the file. The key goes in the PRIVATE-TOKEN header and never into a URL or a log line. Job statuses
// as the CDS's own client reads them (ecmwf-datastores-client, processing.py Remote.results_ready): accepted and
// running wait, successful is done, failed has its reason in …/results, dismissed and deleted (and any status not
// known) end the wait.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

export const CDS_BASE_URL = "https://cds.climate.copernicus.eu/api";
/** The ERA5 download in the raw cache, and where the builders find it in the inputs tree. */
export const ERA5_FILE = "era5-land-monthly.nc";
export const ERA5_DATA_DIR_FILE = "climate/era5/era5-land-monthly.nc";

const ALL_MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

/**
 * ERA5-Land monthly averaged reanalysis: total precipitation (m per day, mean of daily totals) and 2 m temperature,
 * for every listed month of every listed year (the CDS takes the product of the two lists).
 */
export function era5LandMonthlyRequest(years: readonly number[], bbox: [west: number, south: number, east: number, north: number], months: readonly number[] = ALL_MONTHS) {
  const [w, s, e, n] = bbox;
  return {
    product_type: ["monthly_averaged_reanalysis"],
    variable: ["total_precipitation", "2m_temperature"],
    year: years.map(String),
    month: months.map((m) => String(m).padStart(2, "0")),
    time: ["00:00"],
    // CDS areas are north, west, south, east.
    area: [n, w, s, e],
    data_format: "netcdf",
    download_format: "unarchived",
  };
}

/** ERA5-Land monthly means appear about 2–3 months after the month: the newest month asked for is 3 months back. */
export const ERA5_LAG_MONTHS = 3;

/** The drought region — Thailand, Vietnam, Malaysia with Sabah and Sarawak — with a margin: west, south, east, north. */
export const DROUGHT_REGION_BOX: [west: number, south: number, east: number, north: number] = [97, 0.5, 120, 24];

/** ERA5-Land's grid step, degrees. */
const ERA5_LAND_STEP = 0.1;

/**
 * The most values (grid points × fields) one request asks for: what the single request over Thailand's box for
 * 1991–2025 asked (87 × 152 points × 2 variables × 12 months × 35 years ≈ 11.1 million). The CDS publishes no
 * formula for its cost limit on NetCDF answers (it refuses a request over it: "cost limits exceeded"), so no
 * request for the larger region is made larger than that one.
 */
export const CDS_MAX_VALUES_PER_REQUEST = 11_200_000;

/** Whole years one request may hold for a box: its 0.1° points × 2 variables × 12 months within the bound above. */
export function yearsPerRequest(bbox: [number, number, number, number], maxValues = CDS_MAX_VALUES_PER_REQUEST): number {
  const [w, s, e, n] = bbox;
  const points = (Math.round((e - w) / ERA5_LAND_STEP) + 1) * (Math.round((n - s) / ERA5_LAND_STEP) + 1);
  return Math.max(1, Math.floor(maxValues / (points * 2 * 12)));
}

/**
 * The months from January of `fromYear` to the month `lagMonths` before `now`, as CDS requests: the whole years, at
 * most `maxYears` a request, and one for the months of the last year when it is not whole (the CDS crosses years
 * with months, so one request would ask for months that do not exist yet).
 */
export function era5Requests(now: Date, fromYear: number, lagMonths = ERA5_LAG_MONTHS, maxYears = Infinity): { years: number[]; months: number[] }[] {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - lagMonths, 1));
  const lastYear = last.getUTCFullYear();
  const lastMonth = last.getUTCMonth() + 1;
  const wholeTo = lastMonth === 12 ? lastYear : lastYear - 1;
  const out: { years: number[]; months: number[] }[] = [];
  for (let y = fromYear; y <= wholeTo; y += maxYears) {
    out.push({ years: Array.from({ length: Math.min(maxYears, wholeTo - y + 1) }, (_, i) => y + i), months: ALL_MONTHS });
  }
  if (lastMonth !== 12 && lastYear >= fromYear) out.push({ years: [lastYear], months: ALL_MONTHS.slice(0, lastMonth) });
  return out;
}

export interface CdsOptions {
  baseUrl?: string;
  key: string;
  dataset: string;
  request: Record<string, unknown>;
  /** Where the downloaded file goes (written aside, then renamed). */
  output: string;
  pollMs?: number;
  /** Give up on a job that has not finished after this long. */
  maxWaitMs?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
  onStatus?: (status: string) => void;
}

export class CdsError extends Error {}

/** What the CDS's refusals mean for whoever runs the nightly (its own messages do not say what to do). */
function refusalHint(status: number): string {
  if (status === 401) return " — the CDS did not accept the key: CDSAPI_KEY must be the personal access token shown on your CDS profile page";
  if (status === 403) return " — accept the dataset's licence on its CDS page (Download tab, \"Terms of use\") while logged in as the token's owner";
  return "";
}

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: reported below with the status
  }
  if (!res.ok) {
    const detail = (body.detail ?? body.title ?? text.slice(0, 200)) as string;
    throw new CdsError(`${what}: HTTP ${res.status}${detail ? `: ${detail}` : ""}${refusalHint(res.status)}`);
  }
  return body;
}

/**
 * The old CDS (until September 2024) took "UID:KEY"; today's takes the personal access token alone and answers 401
 * to the pair. Such a key is refused here, before anything is sent.
 */
export function checkCdsKey(key: string): void {
  if (key.includes(":")) {
    throw new CdsError("CDSAPI_KEY looks like the old CDS's \"UID:KEY\" pair; today's CDS takes the personal access token alone (the part after the colon, as shown on your CDS profile page) and answers 401 to the pair");
  }
}

const WAITING = new Set(["accepted", "running", "queued"]);

/** Runs one job to its file; returns the number of bytes written. Throws CdsError with the CDS's reason. */
export async function retrieveFromCds(o: CdsOptions): Promise<{ jobId: string; bytes: number }> {
  const base = (o.baseUrl ?? CDS_BASE_URL).replace(/\/$/, "");
  const doFetch = o.fetchImpl ?? fetch;
  const timeout = o.timeoutMs ?? 60_000;
  const headers = { "PRIVATE-TOKEN": o.key, "Content-Type": "application/json", Accept: "application/json" };
  const call = (url: string, init: RequestInit = {}) => doFetch(url, { ...init, headers, signal: AbortSignal.timeout(timeout) });
  checkCdsKey(o.key);

  const submitted = await json(await call(`${base}/retrieve/v1/processes/${encodeURIComponent(o.dataset)}/execution`, { method: "POST", body: JSON.stringify({ inputs: o.request }) }), "submit");
  const jobId = String(submitted.jobID ?? "");
  if (!jobId) throw new CdsError("submit: no jobID in the answer");
  const deadline = Date.now() + (o.maxWaitMs ?? 6 * 3600_000);
  let status = String(submitted.status ?? "accepted");
  o.onStatus?.(status);
  while (status !== "successful") {
    if (status === "failed") {
      const res = await call(`${base}/retrieve/v1/jobs/${encodeURIComponent(jobId)}/results`);
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      throw new CdsError(`job ${jobId} failed: ${String(body.title ?? body.detail ?? "no reason given")}`);
    }
    if (!WAITING.has(status)) {
      throw new CdsError(`job ${jobId} ended with status "${status}"${status === "deleted" || status === "dismissed" ? " (removed at the CDS before it finished: by its owner, a CDS operator or the CDS's clean-up)" : ""}; nothing was downloaded`);
    }
    if (Date.now() > deadline) throw new CdsError(`job ${jobId} still ${status} after ${Math.round((o.maxWaitMs ?? 0) / 1000)} s`);
    await new Promise((r) => setTimeout(r, o.pollMs ?? 10_000));
    const job = await json(await call(`${base}/retrieve/v1/jobs/${encodeURIComponent(jobId)}`), `job ${jobId}`);
    const next = String(job.status ?? "");
    if (next !== status) o.onStatus?.(next);
    status = next;
  }
  const results = await json(await call(`${base}/retrieve/v1/jobs/${encodeURIComponent(jobId)}/results`), `results of job ${jobId}`);
  const href = ((results.asset as { value?: { href?: string } } | undefined)?.value?.href ?? "") as string;
  if (!href) throw new CdsError(`results of job ${jobId}: no asset href`);
  // The asset is a pre-signed download URL: no key with it.
  const file = await doFetch(new URL(href, base + "/").toString(), { signal: AbortSignal.timeout(timeout * 10) });
  if (!file.ok || !file.body) throw new CdsError(`download of job ${jobId}: HTTP ${file.status}`);
  const tmp = `${o.output}.part-${process.pid}`;
  try {
    await pipeline(Readable.fromWeb(file.body as WebReadableStream), createWriteStream(tmp));
    await rename(tmp, o.output);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  const { statSync } = await import("node:fs");
  return { jobId, bytes: statSync(o.output).size };
}
