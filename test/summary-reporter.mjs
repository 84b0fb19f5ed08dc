/* global process */
// A vitest reporter that writes what run-vitest.mjs needs for its summary: counts, the failed tests (each with the
// first line of its error), the test files that failed without a failed test (could not load, a hook threw) and the
// unhandled errors, which vitest's JSON reporter leaves out. Written to the file named by VITEST_SUMMARY_FILE.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";

const firstLine = (text) => String(text ?? "").split("\n")[0].trim();

/**
 * The line of a failed test's error that says what failed: the assertion ("expected null to be 78"), which comes
 * last when the test gave expect() a message of many lines (a server's log, say); else the first line.
 */
export function errorLine(message) {
  const lines = String(message ?? "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const at = lines.findLastIndex((l) => /\bexpected\b/.test(l));
  if (at < 0) return lines[0] ?? "";
  // On the first line the test's own short message ("Buri Ram: expected …") says which case; further down, the part
  // before "expected" is the end of a long message, not the assertion.
  return at === 0 ? lines[0] : lines[at].slice(lines[at].search(/\bexpected\b/));
}

export default class SummaryReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules, unhandledErrors, reason) {
    const file = process.env.VITEST_SUMMARY_FILE;
    if (!file) return;
    const rel = (path) => (path ? relative(this.root ?? process.cwd(), path) : undefined);
    const summary = { reason, files: testModules.length, passed: 0, failed: 0, skipped: 0, failedTests: [], failedFiles: [], unhandledErrors: [] };
    summary.slowestFiles = [];
    for (const m of testModules) {
      summary.slowestFiles.push({ file: rel(m.moduleId), seconds: Math.round(m.diagnostic().duration) / 1000 });
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") summary.passed++;
        else if (state === "failed") {
          summary.failed++;
          failedHere++;
          // With its error's first line, cut short: CI keeps only the tail of the output, and this is in it.
          const error = errorLine(t.result().errors?.[0]?.message);
          summary.failedTests.push(`${rel(m.moduleId)} > ${t.fullName}${error ? ` — ${error.length > 400 ? `${error.slice(0, 400)}…` : error}` : ""}`);
        } else summary.skipped++;
      }
      if (m.state() === "failed" && failedHere === 0) {
        const error = m.errors()[0];
        summary.failedFiles.push({ file: rel(m.moduleId), error: firstLine(error?.message) || "failed without a failed test" });
      }
    }
    for (const e of unhandledErrors) {
      summary.unhandledErrors.push({ type: e.type ?? e.name ?? "Error", message: firstLine(e.message), file: rel(e.VITEST_TEST_PATH) });
    }
    // Every file, slowest first (their own time, setup and hooks included): run-vitest.mjs prints the head.
    summary.slowestFiles = summary.slowestFiles.sort((a, b) => b.seconds - a.seconds);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(summary, null, 2) + "\n");
  }
}
