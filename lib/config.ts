// Environment configuration shared by the pipeline and the server. Every setting has a documented default
// (README "Configuration"); nothing else reads process.env directly.
import { existsSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// lib/ sits in the project root, or in dist/ when the compiled build runs (npm run build): both mean the project.
const HERE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PROJECT_ROOT = basename(HERE_ROOT) === "dist" ? dirname(HERE_ROOT) : HERE_ROOT;

/** Raw inputs. Default: the raw-data mirror `../shared/data` beside the project, when it exists. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATA_DIR) return resolve(env.DATA_DIR);
  const mirror = resolve(PROJECT_ROOT, "..", "shared", "data");
  if (existsSync(mirror)) return mirror;
  throw new Error(`DATA_DIR is not set and the default data mirror ${mirror} does not exist`);
}

/** Published artifacts (versions/ and the `current` link). Default: ./artifacts in the project. */
export function artifactsDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.ARTIFACTS_DIR ?? resolve(PROJECT_ROOT, "artifacts"));
}

/** Reads a positive integer setting, with a default; a malformed value is an error, not a silent default. */
export function intSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}
