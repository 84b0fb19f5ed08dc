// Builds the drought artifacts and the feed snapshots from the real data mirror once per test run (incremental: an
// unchanged build publishes nothing) into test-output/artifacts, and hands the directory to the tests that serve
// real data.
// Every temporary directory of the run (os.tmpdir() in the tests, the servers and the browsers they start) lies in
// one directory of its own, removed when the run ends: a run made some 340 MB of them, left behind in /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { dataDir, PROJECT_ROOT } from "../lib/config.ts";
import { buildDrought } from "../pipeline/build.ts";
import { buildSettingsFromEnv } from "../pipeline/build-settings.ts";
import { buildSnapshots } from "../pipeline/snapshots/build-snapshots.ts";

declare module "vitest" {
  export interface ProvidedContext {
    artifactsDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Set before the test workers start, which inherit it (os.tmpdir() reads TMPDIR on every call).
  const runTmp = mkdtempSync(join(tmpdir(), "climate-risk-tests-"));
  process.env.TMPDIR = runTmp;
  // The pipeline runs of the suite (child processes included) share what checking the mirror's files told: each run
  // with an artifacts directory of its own would otherwise check every file again (pipeline/sources/state.ts).
  process.env.SOURCE_FACTS_FILE = resolve(PROJECT_ROOT, "test-output", "source-file-facts.json");
  const artifactsDir = resolve(PROJECT_ROOT, "test-output", "artifacts");
  // Fewer tile months and zooms than a production build: the suite needs the tiles, not all of them.
  await buildDrought({ dataDir: dataDir(), artifactsDir, settings: buildSettingsFromEnv({ TILE_MONTHS: "2", TILE_MAX_ZOOM: "8" }) });
  // The feed snapshots, once for the run (unchanged inputs and code: nothing rebuilt); the servers of the end-to-end
  // tests take private copies (test/e2e/real-server.ts privateArtifacts) instead of each building its own.
  const built = await buildSnapshots({ dataDir: dataDir(), artifactsDir, droughtArtifactsDir: artifactsDir, env: {} });
  for (const [name, b] of Object.entries(built)) if (b.status !== "published" && b.status !== "unchanged") throw new Error(`${name} snapshot: ${JSON.stringify(b)}`);
  project.provide("artifactsDir", artifactsDir);
  return () => rmSync(runTmp, { recursive: true, force: true });
}
