// `npm ci` must accept package-lock.json as committed (the Makefile has no `npm install` fallback). Checked with
// `npm ci --dry-run --offline` in a copy of the project's package files: no download, no node_modules touched.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function npmCiDryRun(editLock?: (lock: { packages: Record<string, unknown> }) => void) {
  const dir = mkdtempSync(join(tmpdir(), "lockfile-"));
  dirs.push(dir);
  copyFileSync(join(PROJECT_ROOT, "package.json"), join(dir, "package.json"));
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8"));
  editLock?.(lock);
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(lock, null, 2));
  const r = spawnSync("npm", ["ci", "--dry-run", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

describe("package-lock.json", () => {
  it("npm ci accepts it", () => {
    const r = npmCiDryRun();
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("the check catches a lock that lacks another platform's optional binary", () => {
    const r = npmCiDryRun((lock) => {
      delete lock.packages["node_modules/@rollup/rollup-darwin-arm64"];
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("Missing: @rollup/rollup-darwin-arm64@");
  });
});
