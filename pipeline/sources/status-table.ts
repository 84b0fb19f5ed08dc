// The readable forms of the sources' state: the `pipeline sources` table and the `make nightly` summary, and the
// `sources` snapshot (formats/source-status.ts) the server reads for /api/status and stale flags.
import { SOURCE_STATUS_FORMAT, type SourceStatusFile } from "../../formats/source-status.ts";
import type { SourceRefreshResult } from "./refresh-source.ts";
import type { SourceReport } from "./state.ts";
import { formatBytes } from "./progress.ts";

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

/** `npm run pipeline -- sources`: one line per source, then the sources whose origin has stopped. */
export function sourcesTable(reports: readonly SourceReport[]): string {
  const stopped = reports.filter((r) => r.upstream);
  const notes = stopped.map((r) => `\n${r.name}: upstream stopped: ${r.upstream!.stopped}\n  alternatives: ${r.upstream!.alternatives}\n`).join("");
  return table(
    ["source", "status", "data as of", "from", "cadence", "size", "licence / reason"],
    reports.map((r) => [
      r.name,
      r.status,
      r.dataAsOf ?? "-",
      r.from,
      r.cadence,
      r.bytes === null ? "-" : formatBytes(r.bytes),
      `${r.upstream ? "[upstream stopped] " : ""}${r.nonCommercial ? "[non-commercial] " : ""}${r.reason}`.slice(0, 110),
    ]),
  ) + notes;
}

/** The `make nightly` summary: what each source's refresh did and what its data reach. */
export function nightlySummary(results: readonly SourceRefreshResult[], reports: readonly SourceReport[]): string {
  const byName = new Map(reports.map((r) => [r.name, r]));
  return table(
    ["source", "refresh", "status", "data as of", "files", "change"],
    results.map((r) => {
      const s = byName.get(r.source);
      const change = r.outcome === "skipped" ? (r.reason ?? "") : `${r.changed} changed, ${r.unchanged} unchanged${r.failed ? `, ${r.failed} failed` : ""}${r.bytes ? `, ${formatBytes(r.bytes)}` : ""}`;
      return [r.source, r.outcome, s?.status ?? "-", s?.dataAsOf ?? r.dataAsOf ?? "-", String(r.files), change.slice(0, 90)];
    }),
  );
}

/** The snapshot the server reads: nothing secret (origins keep their {CREDENTIAL} placeholders). */
export function sourceStatusFile(reports: readonly SourceReport[], offline: boolean, now: Date): SourceStatusFile {
  return {
    format: SOURCE_STATUS_FORMAT,
    generatedAt: now.toISOString(),
    offline,
    sources: reports.map((r) => ({
      name: r.name,
      title: r.title,
      url: r.url,
      cadence: r.cadence,
      cadenceDays: r.cadenceDays,
      licence: r.licence,
      attribution: r.attribution,
      nonCommercial: r.nonCommercial,
      credential: r.credential,
      usedBy: [...r.usedBy],
      from: r.from,
      fetchedAt: r.fetchedAt,
      dataAsOf: r.dataAsOf === null ? null : r.dataAsOf.slice(0, 10),
      status: r.status,
      reason: r.reason,
      lastAttemptAt: r.lastAttemptAt,
      lastOutcome: r.lastOutcome as "updated" | "unchanged" | "partial" | "failed" | "skipped" | null,
      lastSuccessAt: r.lastSuccessAt,
      consecutiveFailures: r.consecutiveFailures,
      failuresTotal: r.failuresTotal,
    })),
  };
}
