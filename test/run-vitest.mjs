/* global process, console */
// Runs the vitest suite (with --checks: first `tsc --noEmit` and `eslint .`) and ends with the plain summary line
// "N passed, N failed[, N skipped]" that CI reads. Whatever makes the run fail is counted and named on the lines
// before it: failed tests, test files that could not run, unhandled errors, a global setup that failed, a check
// that failed. The exit status is 1 exactly when the failed count is not 0.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
const tool = (path) => join(PROJECT, "node_modules", path);
const CHECKS = [
  { name: "tsc --noEmit", args: [tool("typescript/bin/tsc"), "--noEmit"] },
  { name: "eslint .", args: [tool("eslint/bin/eslint.js"), "."] },
];
const MAX_NAMED_TESTS = 20;
/** How many of the slowest files the last lines name; test-output/vitest-summary.json keeps them all. */
const SLOWEST_FILES_SHOWN = 15;

/** The summary lines from the checks' exit statuses, vitest's exit status and the reporter's summary (or null). */
export function summarize({ checks, vitestStatus, summary }) {
  const lines = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const c of checks) {
    if (c.status === 0) continue;
    failed++;
    lines.push(`failed: ${c.name} (exit ${c.status ?? "by signal"})`);
  }
  if (summary === null) {
    failed++;
    lines.push(`failed: vitest stopped before reporting (exit ${vitestStatus ?? "by signal"}); its error is printed above`);
  } else {
    passed = summary.passed;
    skipped = summary.skipped;
    failed += summary.failed + summary.failedFiles.length + summary.unhandledErrors.length;
    for (const t of summary.failedTests.slice(0, MAX_NAMED_TESTS)) lines.push(`failed: ${t}`);
    if (summary.failedTests.length > MAX_NAMED_TESTS) lines.push(`failed: … and ${summary.failedTests.length - MAX_NAMED_TESTS} more tests`);
    for (const f of summary.failedFiles) lines.push(`failed: ${f.file} did not run: ${f.error}`);
    for (const e of summary.unhandledErrors) lines.push(`failed: unhandled error (${e.type})${e.file ? ` in ${e.file}` : ""}: ${e.message}`);
    if (vitestStatus !== 0 && summary.failed + summary.failedFiles.length + summary.unhandledErrors.length === 0) {
      failed++;
      lines.push(
        summary.files === 0
          ? `failed: no test file ran (vitest exit ${vitestStatus}): global setup or configuration failed; its error is printed above`
          : `failed: vitest exited with status ${vitestStatus}; see its output above`,
      );
    }
  }
  lines.push(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  return { lines, failed };
}

/**
 * The checks one after another in a child process of their own, beside vitest: the global setup's drought build
 * keeps one core busy for a minute while the other would wait (on this 2-core machine, tsc and eslint one before
 * the suite cost about that minute). Their output is held and printed after vitest's, so the two do not interleave.
 */
function startChecks() {
  return new Promise((resolveAll) => {
    const results = [];
    const next = (i) => {
      if (i === CHECKS.length) return resolveAll(results);
      const c = CHECKS[i];
      const child = spawn(process.execPath, c.args, { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("error", (err) => (output += String(err)));
      child.on("close", (status) => {
        results.push({ name: c.name, status, output });
        next(i + 1);
      });
    };
    next(0);
  });
}

async function main(argv) {
  const withChecks = argv[0] === "--checks";
  const vitestArgs = withChecks ? argv.slice(1) : argv;
  const checksDone = withChecks ? startChecks() : Promise.resolve([]);
  const summaryFile = resolve("test-output", "vitest-summary.json");
  rmSync(summaryFile, { force: true }); // never report an earlier run's numbers
  const reporter = join(PROJECT, "test", "summary-reporter.mjs");
  const vitest = spawn(process.execPath, [tool("vitest/vitest.mjs"), "run", "--reporter=default", `--reporter=${reporter}`, ...vitestArgs], {
    stdio: "inherit",
    env: { ...process.env, VITEST_SUMMARY_FILE: summaryFile },
  });
  const vitestStatus = await new Promise((done) => {
    vitest.on("error", () => done(null));
    vitest.on("close", (status) => done(status));
  });
  const checks = await checksDone;
  for (const c of checks) if (c.output.trim()) console.log(`${c.name}:\n${c.output.trimEnd()}`);
  let summary = null;
  try {
    summary = JSON.parse(readFileSync(summaryFile, "utf8"));
  } catch {
    // vitest ended before its reporters ran
  }
  if (summary?.slowestFiles?.length) {
    console.log("slowest test files (seconds, tests and hooks):");
    for (const f of summary.slowestFiles.slice(0, SLOWEST_FILES_SHOWN)) console.log(`  ${f.seconds.toFixed(1).padStart(7)}  ${f.file}`);
  }
  const { lines, failed } = summarize({ checks, vitestStatus, summary });
  for (const line of lines) console.log(line);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
