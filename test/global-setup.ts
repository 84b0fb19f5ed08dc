// Builds the drought artifacts and the feed snapshots from the real data mirror once per test run (incremental: an
// unchanged build publishes nothing) into test-output/artifacts, and hands the directory to the tests that serve
// real data.
// Every temporary directory of the run (os.tmpdir() in the tests, the servers and the browsers they start) lies in
// one directory of its own, removed when the run ends: a run made some 340 MB of them, left behind in /tmp.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { dataDir, PROJECT_ROOT } from "../lib/config.ts";
import { buildDrought } from "../pipeline/build.ts";
import { buildSettingsFromEnv } from "../pipeline/build-settings.ts";
import { buildSnapshots, SNAPSHOT_BUILDERS } from "../pipeline/snapshots/build-snapshots.ts";
import { SUITE_TILE_SETTINGS } from "./suite-tiles.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The default build (the regional grid) with its tiles, exports and feed snapshots. */
    artifactsDir: string;
    /** The GHCN-Daily station grid of Thailand (GRID_SOURCE=stations), without tiles and exports. */
    stationArtifactsDir: string;
  }
}

/** Builds `names` in a child process (test/build-snapshots-child.ts); rejects with its errors when it fails. */
function besideDrought(artifactsDir: string, stationArtifactsDir: string, names: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "test", "build-snapshots-child.ts"), artifactsDir, stationArtifactsDir, ...names], { cwd: PROJECT_ROOT, stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (d) => (errors += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`feed snapshots beside the drought build: exit ${code}\n${errors.split("\n").filter((l) => !l.startsWith("{")).join("\n")}`))));
  });
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Set before the test workers start, which inherit it (os.tmpdir() reads TMPDIR on every call).
  const runTmp = mkdtempSync(join(tmpdir(), "climate-risk-tests-"));
  process.env.TMPDIR = runTmp;
  // The pipeline runs of the suite (child processes included) share what checking the mirror's files told: each run
  // with an artifacts directory of its own would otherwise check every file again (pipeline/sources/state.ts).
  process.env.SOURCE_FACTS_FILE = resolve(PROJECT_ROOT, "test-output", "source-file-facts.json");
  const artifactsDir = resolve(PROJECT_ROOT, "test-output", "artifacts");
  // The feed snapshots that do not read the drought artifacts, then the station grid (GRID_SOURCE=stations, for the
  // tests of what only it has: stations, leave-one-out confidence), build in a process of their own beside the
  // regional drought build, so that both cores work; flood's climate term reads the grid, so it builds after it, below.
  const stationArtifactsDir = resolve(PROJECT_ROOT, "test-output", "station-artifacts");
  const beside = besideDrought(artifactsDir, stationArtifactsDir, SNAPSHOT_BUILDERS.map((b) => b.name).filter((name) => name !== "flood"));
  beside.catch(() => undefined); // awaited below; not unhandled while the drought build runs
  // Fewer tile months and zooms than a production build (test/suite-tiles.ts).
  await buildDrought({ dataDir: dataDir(), artifactsDir, settings: buildSettingsFromEnv({ ...SUITE_TILE_SETTINGS }) });
  await beside;
  // The feed snapshots, once for the run (unchanged inputs and code: nothing rebuilt; here only flood); the end-to-end
  // servers and the feed tests take private copies (test/e2e/real-server.ts privateArtifacts, privateSnapshots)
  // instead of each building its own.
  const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir, droughtArtifactsDir: artifactsDir, env: {} });
  for (const [name, b] of Object.entries(built)) if (b.status !== "published" && b.status !== "unchanged") throw new Error(`${name} snapshot: ${JSON.stringify(b)}`);
  project.provide("artifactsDir", artifactsDir);
  project.provide("stationArtifactsDir", stationArtifactsDir);
  return () => rmSync(runTmp, { recursive: true, force: true });
}
