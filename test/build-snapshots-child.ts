// Builds the named feed snapshots from the data directory into an artifacts directory, in a process of its own:
// the global setup (test/global-setup.ts) runs it beside the drought build, so that both cores work.
// Usage: node --import tsx test/build-snapshots-child.ts <artifactsDir> <snapshot>...
import { dataDir } from "../lib/config.ts";
import { buildSnapshots } from "../pipeline/snapshots/build-snapshots.ts";

const [artifactsDir, ...only] = process.argv.slice(2);
const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir, droughtArtifactsDir: artifactsDir, env: {}, only });
const failed = Object.entries(built).filter(([, b]) => b.status !== "published" && b.status !== "unchanged");
if (failed.length > 0) {
  process.stderr.write(`${failed.map(([name, b]) => `${name} snapshot: ${JSON.stringify(b)}`).join("\n")}\n`);
  process.exit(1);
}
