// scripts/modules-complete.mjs decides whether make's `npm ci --omit=dev` may keep node_modules: only when npm's
// hidden lock file lists every non-optional package of package-lock.json and is newer than package.json and the lock.
// Before it, `make build` (called by `make bench`) reinstalled without the dev tools under a running test suite.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

const SCRIPT = join(PROJECT_ROOT, "scripts", "modules-complete.mjs");
const LOCK = {
  packages: {
    "": { name: "x" },
    "node_modules/express": { version: "5.0.0" },
    "node_modules/vitest": { version: "3.0.0", dev: true },
    "node_modules/fsevents": { version: "2.0.0", optional: true },
  },
};

function project(installed: string[], hiddenAgeSeconds = -10): string {
  const dir = mkdtempSync(join(tmpdir(), "modules-complete-"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(LOCK));
  mkdirSync(join(dir, "node_modules"));
  const hidden = join(dir, "node_modules", ".package-lock.json");
  writeFileSync(hidden, JSON.stringify({ packages: Object.fromEntries(installed.map((p) => [p, {}])) }));
  const t = Date.now() / 1000 - hiddenAgeSeconds;
  utimesSync(hidden, t, t);
  return dir;
}

const complete = (dir: string) => spawnSync(process.execPath, [SCRIPT], { cwd: dir }).status;

describe("scripts/modules-complete.mjs", () => {
  it("keeps a full install current with the lock (optional packages may be absent)", () => {
    expect(complete(project(["node_modules/express", "node_modules/vitest"]))).toBe(0);
  });
  it("does not keep an install without the dev packages", () => {
    expect(complete(project(["node_modules/express"]))).toBe(1);
  });
  it("does not keep an install older than the lock", () => {
    expect(complete(project(["node_modules/express", "node_modules/vitest"], 3600))).toBe(1);
  });
  it("does not keep a tree without npm's hidden lock file", () => {
    const dir = mkdtempSync(join(tmpdir(), "modules-complete-"));
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(join(dir, "package-lock.json"), JSON.stringify(LOCK));
    expect(complete(dir)).toBe(1);
  });
});
