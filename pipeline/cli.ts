// `npm run pipeline -- <command>`: build (artifacts), refresh (inputs), indices (researchers' CSV tool), score
// (bulk scoring of a points CSV; also `npm run score`).
// Results go to stdout: on a terminal as short lines for a person, otherwise as before (JSON for snapshots).
import { artifactsDir, dataDir } from "../lib/config.ts";
import { log } from "../lib/log.ts";
import { buildSettingsFromEnv } from "./build-settings.ts";

const USAGE = `usage: npm run pipeline -- <command>
  build [--force]      build the drought artifacts from DATA_DIR and publish them into ARTIFACTS_DIR
  snapshots [--force] [NAME…]
                       build and publish the feed snapshots (all, or the named ones) whose inputs or code changed
  refresh              refresh raw inputs from their public sources (offline: keeps DATA_DIR as it is)
  score --input points.csv --output scored.csv [--month YYYY-MM]
                       score every point of a CSV (id, lat, lng[, month]) against the published drought grid
  indices --input FILE.csv --index spei|spi --scale K [--lat DEG] [--ref-start YYYY-MM --ref-end YYYY-MM] [--output FILE.csv]`;

const tty = process.stdout.isTTY === true;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "build": {
      const { buildDrought } = await import("./build.ts");
      const result = await buildDrought({
        dataDir: dataDir(),
        artifactsDir: artifactsDir(),
        settings: buildSettingsFromEnv(),
        force: rest.includes("--force"),
      });
      process.stdout.write(tty ? `drought artifacts: ${result.status} ${result.version}\n` : `${result.status}: ${result.version}\n`);
      return 0;
    }
    case "snapshots": {
      const { buildSnapshots } = await import("./snapshots/build-snapshots.ts");
      const names = rest.filter((a) => a !== "--force");
      const results = await buildSnapshots({ dataDir: dataDir(), artifactsDir: artifactsDir(), only: names.length ? names : undefined, force: rest.includes("--force") });
      if (!tty) process.stdout.write(JSON.stringify(results, null, 2) + "\n");
      else {
        // The log lines above name each snapshot and what happened to it; this is the count.
        const count = (st: string) => Object.values(results).filter((r) => r.status === st).length;
        process.stdout.write(`snapshots: ${count("published")} published, ${count("unchanged")} unchanged, ${count("failed")} failed, ${count("refused")} refused\n`);
      }
      return Object.values(results).some((r) => r.status === "failed" || r.status === "refused") ? 1 : 0;
    }
    case "refresh": {
      const { refreshAll } = await import("./refresh.ts");
      const report = await refreshAll({ dataDir: dataDir() });
      process.stdout.write(JSON.stringify(report, null, 2) + "\n");
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    log.error({ err: err.message }, "pipeline failed");
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(1);
  },
);
