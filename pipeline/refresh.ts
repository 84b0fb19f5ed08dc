// The refresh step of `make nightly`: for each input with a configured public source, download, validate and
// atomically replace the file in DATA_DIR. Offline, nothing in DATA_DIR changes and the report says so.
// Sources: GHCN-Daily per-station files from NOAA (GHCND_BASE_URL; set REFRESH_SOURCES=none to skip).
import { log } from "../lib/log.ts";
import { refreshGhcnd, type RefreshReport } from "./inputs/ghcnd/refresh.ts";

export interface RefreshAllOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

export async function refreshAll(opts: RefreshAllOptions): Promise<Record<string, RefreshReport | "skipped">> {
  const env = opts.env ?? process.env;
  const enabled = (env.REFRESH_SOURCES ?? "ghcnd").split(",").map((s) => s.trim());
  const out: Record<string, RefreshReport | "skipped"> = {};
  if (enabled.includes("ghcnd")) {
    const report = await refreshGhcnd({
      dataDir: opts.dataDir,
      baseUrl: env.GHCND_BASE_URL || undefined,
      timeoutMs: env.REFRESH_TIMEOUT_MS ? Number(env.REFRESH_TIMEOUT_MS) : undefined,
    });
    log.info({ source: "ghcnd", status: report.status, updated: report.updated.length, failed: report.failed.length }, report.message);
    out.ghcnd = report;
  } else {
    out.ghcnd = "skipped";
  }
  return out;
}
