// Publishes the `sources` snapshot (formats/source-status.md): the state of every source, after a refresh and
// after a snapshot build, so a server started on a fresh machine can say how fresh each answer's data are.
import { SOURCE_STATUS_FILE, SOURCES_SNAPSHOT, writeSourceStatus, type SourceStatusFile } from "../../formats/source-status.ts";
import { log } from "../../lib/log.ts";
import { publishSnapshot } from "../snapshots/publish-snapshot.ts";
import { sourceSettings } from "./settings.ts";
import { sourceStates, type SourceReport } from "./state.ts";
import { sourceStatusFile } from "./status-table.ts";

export async function publishSourceStatus(opts: {
  dataDir: string;
  artifactsDir: string;
  env?: NodeJS.ProcessEnv;
  now?: Date;
  /** The nightly that publishes this status (its exit code and failures, for /metrics). */
  lastNightly?: SourceStatusFile["lastNightly"];
  /** States already read (the nightly reads them once for its outcome). */
  reports?: SourceReport[];
}): Promise<SourceReport[]> {
  const env = opts.env ?? process.env;
  const now = opts.now ?? new Date();
  const reports = opts.reports ?? (await sourceStates({ dataDir: opts.dataDir, artifactsDir: opts.artifactsDir, env, now }));
  const file = { ...sourceStatusFile(reports, sourceSettings(env).offline, now), ...(opts.lastNightly ? { lastNightly: opts.lastNightly } : {}) };
  const count = (s: string) => reports.filter((r) => r.status === s).length;
  const summary = { generatedAt: file.generatedAt, sources: reports.length, fresh: count("fresh"), stale: count("stale"), frozen: count("frozen"), offline: count("offline"), failed: count("failed") };
  const asOf = reports.map((r) => r.dataAsOf).filter((d): d is string => d !== null).sort().at(-1);
  const { version } = await publishSnapshot({
    artifactsDir: opts.artifactsDir,
    name: SOURCES_SNAPSHOT,
    files: { [SOURCE_STATUS_FILE]: writeSourceStatus(file), "report.json": JSON.stringify(summary, null, 1) + "\n" },
    asOf: asOf ? `${asOf.slice(0, 10)}T00:00:00.000Z` : now.toISOString(),
    sources: reports.map((r) => r.name),
    inputs: {},
    qc: summary,
    report: "report.json",
    now,
  });
  log.info({ version, ...summary }, "sources status published");
  return reports;
}
