// Progress of a refresh: on a terminal one line per source as it finishes (status, files, bytes, time, data
// as-of); otherwise one JSON log line per source, for cron and CI logs.
import { log } from "../../lib/log.ts";
import type { SourceRefreshResult } from "./refresh-source.ts";

export interface ProgressReporter {
  start(total: number): void;
  source(result: SourceRefreshResult): void;
}

const MARK: Record<SourceRefreshResult["outcome"], string> = { updated: "✓", unchanged: "=", partial: "!", failed: "✗", skipped: "-" };

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/** One terminal line for a finished source. */
export function progressLine(r: SourceRefreshResult, done: number, total: number): string {
  const counts = r.outcome === "skipped" ? "" : ` ${r.files} file(s): ${r.changed} changed, ${r.unchanged} unchanged${r.failed ? `, ${r.failed} failed` : ""};`;
  const asOf = r.dataAsOf ? ` data to ${r.dataAsOf};` : "";
  const size = r.bytes ? ` ${formatBytes(r.bytes)};` : "";
  const reason = r.reason ? ` — ${r.reason.length > 160 ? `${r.reason.slice(0, 157)}…` : r.reason}` : "";
  return `[${String(done).padStart(String(total).length)}/${total}] ${MARK[r.outcome]} ${r.source.padEnd(18)} ${r.outcome.padEnd(9)}${counts}${size}${asOf} ${(r.durationMs / 1000).toFixed(1)} s${reason}`;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  let total = 0;
  let done = 0;
  const tty = Boolean(stream.isTTY);
  return {
    start(n) {
      total = n;
      if (tty) stream.write(`refreshing ${n} source(s)…\n`);
    },
    source(r) {
      done++;
      if (tty) stream.write(progressLine(r, done, total) + "\n");
      else log.info({ source: r.source, outcome: r.outcome, files: r.files, changed: r.changed, unchanged: r.unchanged, failed: r.failed, bytes: r.bytes, dataAsOf: r.dataAsOf, version: r.version, reason: r.reason, durationMs: r.durationMs }, `source ${r.source}: ${r.outcome}`);
    },
  };
}
