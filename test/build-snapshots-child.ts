// Builds the named feed snapshots from the data directory into an artifacts directory, then the station grid (GRID_SOURCE=stations,
// tiles and exports deferred) into its own, in a process of its own: the global setup (test/global-setup.ts) runs it
// beside the regional drought build, so that both cores work.
// Usage: node --import tsx test/build-snapshots-child.ts <artifactsDir> <stationArtifactsDir> <snapshot>...
import { dataDir } from "../lib/config.ts";
import { buildDrought } from "../pipeline/build.ts";
import { buildSettingsFromEnv } from "../pipeline/build-settings.ts";
import { buildSnapshots } from "../pipeline/snapshots/build-snapshots.ts";

const [artifactsDir, stationArtifactsDir, ...only] = process.argv.slice(2);
const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir, droughtArtifactsDir: artifactsDir, env: {}, only });
const failed = Object.entries(built).filter(([, b]) => b.status !== "published" && b.status !== "unchanged");
if (failed.length > 0) {
  process.stderr.write(`${failed.map(([name, b]) => `${name} snapshot: ${JSON.stringify(b)}`).join("\n")}\n`);
  process.exit(1);
}
// The station grid, for the tests of what only it has (stations, leave-one-out confidence); ~10 s.
await buildDrought({ dataDir: dataDir(), artifactsDir: stationArtifactsDir, settings: buildSettingsFromEnv({ GRID_SOURCE: "stations" }), defer: true });
