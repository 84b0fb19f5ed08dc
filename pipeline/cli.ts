// `npm run pipeline -- <command>`: build (artifacts), refresh (inputs), indices (researchers' CSV tool), score
// (bulk scoring of a points CSV; also `npm run score`).
// Results go to stdout: on a terminal as short lines for a person, otherwise as before (JSON for snapshots).
import { artifactsDir, dataDir } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { buildSettingsFromEnv } from "./build-settings.ts";
import { effectiveDataDir } from "./sources/input-overlay.ts";
import { useProxyFromEnv } from "./sources/proxy.ts";

const USAGE = `usage: npm run pipeline -- <command>
  build [--force]      build the drought artifacts from DATA_DIR and publish them into ARTIFACTS_DIR
  snapshots [--force] [NAME…]
                       build and publish the feed snapshots (all, or the named ones) whose inputs or code changed
  refresh [NAME…]      fetch every source (or the named ones) from its public origin into the raw cache under
                       ARTIFACTS_DIR/raw/ (SOURCES_OFFLINE=1: nothing is fetched), then publish the sources status
  nightly              refresh → rebuild what changed → publish, with a summary table (make nightly)
  sources [--json]     every input source: origin, licence, cadence, the copy in use, data as-of, status
  score --input points.csv --output scored.csv [--month YYYY-MM]
                       score every point of a CSV (id, lat, lng[, month]) against the published drought grid
  indices --input FILE.csv --index spei|spi --scale K [--lat DEG] [--ref-start YYYY-MM --ref-end YYYY-MM] [--output FILE.csv]`;

const tty = process.stdout.isTTY === true;

/** What the builders read: the refreshed inputs (ARTIFACTS_DIR/inputs/) when a refresh made them, else DATA_DIR. */
function inputsDir(): string {
  return effectiveDataDir(dataDir(), artifactsDir());
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "build": {
      const { buildDrought } = await import("./build.ts");
      const result = await buildDrought({
        dataDir: inputsDir(),
        artifactsDir: artifactsDir(),
        settings: buildSettingsFromEnv(),
        force: rest.includes("--force"),
      });
      process.stdout.write(tty ? `drought artifacts: ${result.status} ${result.version} (grid from ${result.gridSource})\n` : `${result.status}: ${result.version}\n`);
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
      // snapshot. Exit 1 only when every source that was tried failed.
      const { refreshSources } = await import("./refresh.ts");
      const { publishSourceStatus } = await import("./sources/publish-status.ts");
      const { nightlySummary } = await import("./sources/status-table.ts");
      const results = await refreshSources({ dataDir: dataDir(), artifactsDir: artifactsDir(), only: rest.length ? rest : undefined });
      const { writeInputOverlay } = await import("./sources/input-overlay.ts");
      const overlay = await writeInputOverlay(dataDir(), artifactsDir());
      log.info({ dir: overlay.dir, fromDownloads: overlay.fromCache }, "inputs for the builders");
      const reports = await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      const summary = nightlySummary(results, reports);
      process.stdout.write(tty ? summary : JSON.stringify({ results, sources: reports.map(({ files: _files, ...r }) => r) }, null, 2) + "\n");
      const tried = results.filter((r) => r.outcome !== "skipped");
      return tried.length > 0 && tried.every((r) => r.outcome === "failed") ? 1 : 0;
    }
    case "nightly": {
      // Refresh every source → rebuild what changed → publish; a summary table at the end. Exit 1 only when nothing
      // could be published at all (a source that fails keeps its previous copy and snapshot).
      const { refreshSources } = await import("./refresh.ts");
      const { writeInputOverlay } = await import("./sources/input-overlay.ts");
      const { publishSourceStatus } = await import("./sources/publish-status.ts");
      const { nightlySummary } = await import("./sources/status-table.ts");
      const { buildDrought } = await import("./build.ts");
      const { buildSnapshots } = await import("./snapshots/build-snapshots.ts");
      const results = await refreshSources({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      await writeInputOverlay(dataDir(), artifactsDir());
      const published: string[] = [];
      const failed: string[] = [];
      try {
        const r = await buildDrought({ dataDir: inputsDir(), artifactsDir: artifactsDir(), settings: buildSettingsFromEnv() });
        published.push(`drought ${r.status} ${r.version} (grid from ${r.gridSource})`);
      } catch (err) {
        log.error({ err: (err as Error).message }, "drought build failed; the previous version keeps serving");
        failed.push(`drought: ${(err as Error).message}`);
      }
      const snaps = await buildSnapshots({ dataDir: inputsDir(), artifactsDir: artifactsDir() });
      for (const [name, r] of Object.entries(snaps)) {
        if (r.status === "published" || r.status === "unchanged") published.push(`${name} ${r.status}`);
        else failed.push(`${name} ${r.status}${r.error ? `: ${r.error}` : ""}`);
      }
      const reports = await publishSourceStatus({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      const summary = nightlySummary(results, reports) + `\npublished: ${published.join(", ") || "nothing"}\n${failed.length ? `failed: ${failed.join("; ")}\n` : ""}`;
      process.stdout.write(tty ? summary : JSON.stringify({ results, published, failed, sources: reports.map(({ files: _files, ...r }) => r) }, null, 2) + "\n");
      return published.length === 0 ? 1 : 0;
    }
    case "sources": {
      const { sourceStates } = await import("./sources/state.ts");
      const { sourcesTable } = await import("./sources/status-table.ts");
      const reports = await sourceStates({ dataDir: dataDir(), artifactsDir: artifactsDir() });
      process.stdout.write(rest.includes("--json") ? JSON.stringify(reports, null, 2) + "\n" : sourcesTable(reports));
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
        const artifacts = await openPublishedGrid(artifactsDir(), log);
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

// HTTPS_PROXY / HTTP_PROXY / NO_PROXY for every download of the pipeline (Node's fetch alone ignores them).
useProxyFromEnv();
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    log.error({ err: err.message }, "pipeline failed");
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(1);
  },
);
