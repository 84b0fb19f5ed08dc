// The test runner's summary line (test/run-vitest.mjs) on small vitest projects written here: it must count and
// name what made the run fail, not only failed tests. The fixture projects sit under test-output/ so that their
// `import "vitest"` resolves to this project's copy.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

const RUNNER = join(PROJECT_ROOT, "test", "run-vitest.mjs");
const FILES: Record<string, string> = {
  "pass.test.mjs": `import { it, expect } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n`,
  "unhandled.test.mjs": `import { it, expect } from "vitest";\nit("leaves a rejection behind", () => { Promise.reject(new Error("nobody catches this")); expect(1).toBe(1); });\n`,
  "broken.test.mjs": `import { it } from "vitest";\nimport { missing } from "./does-not-exist.mjs";\nit("never runs", () => missing());\n`,
  "failing.test.mjs": `import { it, expect } from "vitest";\nit("is wrong", () => expect(1 + 1).toBe(3));\n`,
  "setup.mjs": `export default async function () { throw new Error("no data directory at /nowhere"); }\n`,
  "typed.ts": `export const n: number = "not a number";\n`,
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["*.ts"] }),
  "eslint.config.mjs": "export default [];\n",
};

mkdirSync(join(PROJECT_ROOT, "test-output"), { recursive: true });
const root = mkdtempSync(join(PROJECT_ROOT, "test-output", "runner-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the runner in a fresh fixture project holding the given files; returns its exit status and output lines. */
function runFixture(name: string, files: string[], config: Record<string, unknown>, args: string[] = []) {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const f of files) writeFileSync(join(dir, f), FILES[f]);
  writeFileSync(join(dir, "vitest.config.mjs"), `export default { test: ${JSON.stringify({ include: ["*.test.mjs"], ...config })} };\n`);
  const r = spawnSync(process.execPath, [RUNNER, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const lines = r.stdout.trimEnd().split("\n");
  return { status: r.status, last: lines.at(-1), failedLines: lines.filter((l) => l.startsWith("failed: ")) };
}

describe("run-vitest summary", () => {
  it("all tests pass: N passed, 0 failed, exit 0", () => {
    const r = runFixture("pass", ["pass.test.mjs"], {});
    expect(r.last).toBe("1 passed, 0 failed");
    expect(r.failedLines).toEqual([]);
    expect(r.status).toBe(0);
  });

  it("a file that cannot load, an unhandled rejection and a failed test are each counted and named", () => {
    const r = runFixture("mixed", ["pass.test.mjs", "unhandled.test.mjs", "broken.test.mjs", "failing.test.mjs"], {});
    expect(r.failedLines).toEqual([
      // With the first line of its error: CI keeps only the tail of the output.
      "failed: failing.test.mjs > is wrong — expected 2 to be 3 // Object.is equality",
      expect.stringMatching(/^failed: broken\.test\.mjs did not run: Cannot find module '\.\/does-not-exist\.mjs'/),
      "failed: unhandled error (Unhandled Rejection) in unhandled.test.mjs: nobody catches this",
    ]);
    expect(r.last).toBe("2 passed, 3 failed");
    expect(r.status).toBe(1);
  });

  it("a global setup that throws: no test ran, 0 passed, 1 failed", () => {
    const r = runFixture("setup", ["pass.test.mjs", "setup.mjs"], { globalSetup: ["./setup.mjs"] });
    expect(r.failedLines).toEqual([expect.stringMatching(/^failed: no test file ran \(vitest exit 1\): global setup or configuration failed/)]);
    expect(r.last).toBe("0 passed, 1 failed");
    expect(r.status).toBe(1);
  });

  it("--checks: a type error counts as a failure even when every test passes", () => {
    const r = runFixture("checks", ["pass.test.mjs", "typed.ts", "tsconfig.json", "eslint.config.mjs"], {}, ["--checks"]);
    expect(r.failedLines).toEqual(["failed: tsc --noEmit (exit 2)"]);
    expect(r.last).toBe("1 passed, 1 failed");
    expect(r.status).toBe(1);
  });
});
