/* global process, console */
// Runs the vitest suite and ends with the plain summary line "N passed, N failed[, N skipped]" that CI reads.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";

mkdirSync("test-output", { recursive: true });
const out = "test-output/vitest.json";
const args = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync("npx", args, { stdio: "inherit" });
let summary;
try {
  const r = JSON.parse(readFileSync(out, "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  summary = `${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`;
} catch {
  summary = "0 passed, 1 failed";
}
console.log(summary);
process.exit(run.status === 0 ? 0 : 1);
