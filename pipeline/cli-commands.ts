// The pipeline's commands (entry: pipeline/cli.ts): build (artifacts), refresh (inputs), nightly, sources, indices
// (researchers' CSV tool), score (bulk scoring of a points CSV; also `npm run score`).
// Results go to stdout — on a terminal as short lines for a person, otherwise one JSON document — and logs to stderr.
import { artifactsDir, dataDir } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { buildSettingsFromEnv } from "./build-settings.ts";
import { effectiveDataDir } from "./sources/input-overlay.ts";
import { useProxyFromEnv } from "./sources/proxy.ts";

const USAGE = `usage: npm run pipeline -- <command>
  build [--force] [--defer]
                       build the drought artifacts from DATA_DIR and publish them into ARTIFACTS_DIR; --defer publishes
                       them without the map tiles and exports (make serve's first run: the server renders tiles on
                       request), and the next build without it adds them in a new version of the same data
  snapshots [--force] [NAME…]
                       build and publish the feed snapshots (all, or the named ones) whose inputs or code changed
  refresh [NAME…]      fetch every source (or the named ones) from its public origin into the raw cache under
                       ARTIFACTS_DIR/raw/ (SOURCES_OFFLINE=1: nothing is fetched), then publish the sources status
  nightly [--verbose]  refresh → rebuild what changed → publish, with a summary (make nightly). Exit 0: every
                       source current or unchanged (or SOURCES_OFFLINE=1), 1: something failed and the rest was
                       published, 2: nothing could be published. Off a terminal: one JSON document on stdout
  sources [--json] [--verbose]
                       every input source: origin, licence, cadence, the copy in use, data as-of, status
  score --input points.csv --output scored.csv [--month YYYY-MM]
                       score every point of a CSV (id, lat, lng[, month]) against the published drought grid
  indices --input FILE.csv --index spei|spi --scale K [--lat DEG] [--ref-start YYYY-MM --ref-end YYYY-MM] [--output FILE.csv]`;

const tty = process.stdout.isTTY === true;

/** What the builders read: the refreshed inputs (ARTIFACTS_DIR/inputs/) when a refresh made them, else DATA_DIR. */
function inputsDir(): string {
  return effectiveDataDir(dataDir(), artifactsDir());
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "build": {
      const { buildDrought } = await import("./build.ts");
      const result = await buildDrought({
        dataDir: inputsDir(),
        artifactsDir: artifactsDir(),
        settings: buildSettingsFromEnv(),
        force: rest.includes("--force"),
        defer: rest.includes("--defer"),
      });
      const note = result.completed
        ? `, the tiles and exports of ${result.completed} added`
        : result.deferred
          ? `; ${result.deferred.join(" and ")} deferred: \`npm run pipeline -- build\` adds them`
          : "";
      process.stdout.write(tty ? `drought artifacts: ${result.status} ${result.version} (grid from ${result.gridSource})${note}\n` : `${result.status}: ${result.version}${note}\n`);
      return 0;
    }
    case "snapshots": {
      const { buildSnapshots } = await import("./snapshots/build-snapshots.ts");
      const names = rest.filter((a) => a !== "--force");
      const results = await buildSnapshots({ dataDir: inputsDir(), artifactsDir: artifactsDir(), only: names.length ? names : undefined, force: rest.includes("--force") });
      // The state of every source goes with the snapshots (offline too), for /api/status and stale flags.
      const { publishSourceStatus } = await import("./sources/publish-status.ts");
      await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      if (!tty) process.stdout.write(JSON.stringify(results, null, 2) + "\n");
      else {
        // The log lines above name each snapshot and what happened to it; this is the count.
        const count = (st: string) => Object.values(results).filter((r) => r.status === st).length;
        process.stdout.write(`snapshots: ${count("published")} published, ${count("unchanged")} unchanged, ${count("failed")} failed, ${count("refused")} refused\n`);
      }
      return Object.values(results).some((r) => r.status === "failed" || r.status === "refused") ? 1 : 0;
    }
    case "refresh": {
      // Every source of the registry into the raw cache (offline: nothing fetched, said so), then the sources
      // snapshot. Exit codes as the nightly's (pipeline/sources/nightly-outcome.ts), without builds.
      const { refreshSources } = await import("./refresh.ts");
      const { publishSourceStatus } = await import("./sources/publish-status.ts");
      const { nightlySummary } = await import("./sources/status-table.ts");
      const { nightlyOutcome, outcomeText } = await import("./sources/nightly-outcome.ts");
      const names = rest.filter((a) => a !== "--verbose");
      const results = await refreshSources({ dataDir: dataDir(), artifactsDir: artifactsDir(), only: names.length ? names : undefined });
      const { writeInputOverlay } = await import("./sources/input-overlay.ts");
      const overlay = await writeInputOverlay(dataDir(), artifactsDir());
      log.info({ dir: overlay.dir, fromDownloads: overlay.fromCache }, "inputs for the builders");
      const reports = await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      const outcome = nightlyOutcome(results, [], reports);
      process.stdout.write(tty ? nightlySummary(results, reports) + outcomeText(outcome) : JSON.stringify(runDocument(outcome, results, reports, rest.includes("--verbose"))) + "\n");
      return outcome.exitCode;
    }
    case "nightly": {
      // Refresh every source → rebuild what changed → publish; the outcome (exit code, failures, frozen upstreams)
      // goes into the sources status for /metrics and /api/status, and to stdout.
      const { refreshSources } = await import("./refresh.ts");
      const { writeInputOverlay } = await import("./sources/input-overlay.ts");
      const { publishSourceStatus } = await import("./sources/publish-status.ts");
      const { sourceStates } = await import("./sources/state.ts");
      const { nightlySummary } = await import("./sources/status-table.ts");
      const { nightlyOutcome, outcomeText } = await import("./sources/nightly-outcome.ts");
      const { buildDrought } = await import("./build.ts");
      const { buildSnapshots } = await import("./snapshots/build-snapshots.ts");
      const startedAt = new Date().toISOString();
      const results = await refreshSources({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      await writeInputOverlay(dataDir(), artifactsDir());
      const builds: import("./sources/nightly-outcome.ts").BuildResult[] = [];
      try {
        const r = await buildDrought({ dataDir: inputsDir(), artifactsDir: artifactsDir(), settings: buildSettingsFromEnv() });
        builds.push({ name: "drought", status: r.status === "published" ? "published" : "unchanged", detail: `${r.version} (grid from ${r.gridSource})` });
      } catch (err) {
        log.error({ err: (err as Error).message }, "drought build failed; the previous version keeps serving");
        builds.push({ name: "drought", status: "failed", detail: (err as Error).message });
      }
      const snaps = await buildSnapshots({ dataDir: inputsDir(), artifactsDir: artifactsDir() });
      for (const [name, r] of Object.entries(snaps)) builds.push({ name, status: r.status, ...(r.error ? { detail: r.error } : {}) });
      const reports = await sourceStates({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      const outcome = nightlyOutcome(results, builds, reports);
      const lastNightly = { startedAt, finishedAt: new Date().toISOString(), exitCode: outcome.exitCode, failed: outcome.failed, frozen: outcome.frozen };
      await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifactsDir(), lastNightly, reports });
      process.stdout.write(tty ? nightlySummary(results, reports) + outcomeText(outcome) : JSON.stringify(runDocument(outcome, results, reports, rest.includes("--verbose"))) + "\n");
      if (outcome.exitCode !== 0) log.error({ exitCode: outcome.exitCode, failed: outcome.failed }, `nightly: ${outcome.result}`);
      return outcome.exitCode;
    }
    case "sources": {
      const { sourceStates } = await import("./sources/state.ts");
      const { sourcesTable } = await import("./sources/status-table.ts");
      const reports = await sourceStates({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      // --json: one document, per-file detail only with --verbose (it is most of the bytes).
      const verbose = rest.includes("--verbose");
      process.stdout.write(rest.includes("--json") ? JSON.stringify(verbose ? reports : reports.map(({ files: _files, ...r }) => r), null, 2) + "\n" : sourcesTable(reports));
      return 0;
    }
    case "indices": {
      const { runIndicesCommand } = await import("./commands/indices.ts");
      return await runIndicesCommand(rest);
    }
    case "score": {
      const { openPublishedGrid, parseScoreArgs, scorePoints, ScoreUsageError } = await import("./commands/score-points.ts");
      try {
        const opts = parseScoreArgs(rest);
        const artifacts = await openPublishedGrid(artifactsDir());
        const result = await scorePoints(opts, artifacts, log);
        const rate = Math.round(result.rows / result.seconds);
        if (tty) process.stdout.write(`scored ${result.rows} points (${result.found} found, ${result.notFound} without data, ${result.invalid} invalid) for ${result.month} in ${result.seconds.toFixed(2)} s, ${rate} points/s → ${opts.output}\n`);
        else process.stdout.write(JSON.stringify({ ...result, pointsPerSecond: rate, output: opts.output }) + "\n");
        return 0;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (err instanceof ScoreUsageError || code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
          process.stderr.write(`score: ${(err as Error).message}\n`);
          return 2;
        }
        throw err;
      }
    }
    default:
      process.stderr.write(`${command ? `unknown command "${command}"\n` : ""}${USAGE}\n`);
      return 2;
  }
}

/**
 * The document a refresh or nightly prints off a terminal: the outcome, and one short line per source (per-file
 * refresh detail with --verbose).
 */
function runDocument(
  outcome: import("./sources/nightly-outcome.ts").NightlyOutcome,
  results: readonly import("./sources/refresh-source.ts").SourceRefreshResult[],
  reports: readonly import("./sources/state.ts").SourceReport[],
  verbose: boolean,
) {
  const byName = new Map(results.map((r) => [r.source, r]));
  return {
    ...outcome,
    sources: reports.map((r) => ({ name: r.name, outcome: byName.get(r.name)?.outcome ?? null, status: r.status, from: r.from, dataAsOf: r.dataAsOf, reason: r.reason })),
    ...(verbose ? { results } : {}),
  };
}

/** Writes `text` to stdout and resolves once it has been handed to the OS (a pipe drains before the process exits). */
function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

export async function runCli(argv: string[]): Promise<never> {
  // Every download of this process goes through HTTPS_PROXY/HTTP_PROXY unless NO_PROXY matches (proxy.ts).
  useProxyFromEnv();
  let code: number;
  try {
    code = await main(argv);
  } catch (err) {
    log.error({ err: (err as Error).message }, "pipeline failed");
    process.stderr.write(`error: ${(err as Error).message}\n`);
    code = 1;
  }
  // An empty write's callback runs after every earlier write has been flushed: `sources --json | jq` gets it whole.
  await writeOut("");
  process.exit(code);
}
