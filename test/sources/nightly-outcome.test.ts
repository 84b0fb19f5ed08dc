// The nightly's exit code and summary from refresh outcomes, builds and source states (pipeline/sources/nightly-outcome.ts),
// and the command line's exit codes and stdout through a real process (pipeline/cli.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nightlyOutcome, outcomeText, type BuildResult } from "../../pipeline/sources/nightly-outcome.ts";
import { withHistory } from "../../pipeline/sources/raw-cache.ts";
import type { SourceRefreshResult } from "../../pipeline/sources/refresh-source.ts";
import type { SourceReport } from "../../pipeline/sources/state.ts";
import { PROJECT_ROOT } from "../../lib/config.ts";

const result = (source: string, outcome: SourceRefreshResult["outcome"], reason?: string): SourceRefreshResult => ({ source, outcome, reason, files: 1, changed: 0, unchanged: 0, failed: 0, bytes: 0, dataAsOf: null, durationMs: 1 });
const report = (name: string, status: SourceReport["status"], reason = "r") => ({ name, status, reason }) as SourceReport;
const builds: BuildResult[] = [
  { name: "drought", status: "unchanged", detail: "v1 (grid from stations)" },
  { name: "flood", status: "unchanged" },
];

describe("nightly outcome", () => {
  it("0 when every source is current or unchanged; frozen upstreams are named but do not fail the run", () => {
    const o = nightlyOutcome([result("a", "updated"), result("b", "unchanged")], builds, [report("a", "fresh"), report("b", "frozen", "data end 2024-08-14")]);
    expect([o.exitCode, o.result, o.failed, o.frozen]).toEqual([0, "ok", [], ["source b: data end 2024-08-14"]]);
    expect(o.published).toEqual(["drought unchanged v1 (grid from stations)", "flood unchanged"]);
    expect(outcomeText(o)).toContain("frozen upstreams (1):\n  source b: data end 2024-08-14\nexit 0: ok");
  });

  it("an ended product and a file not published yet are each worded as what they are, and neither fails the run", () => {
    const o = nightlyOutcome(
      [
        { ...result("firms_global", "updated"), ended: ["MODIS_C6_1_Global.csv is gone (attempt 1: HTTP 404): MODIS is ending; left out"] },
        { ...result("firms_country", "updated"), unpublished: ["modis_2025_Greece.csv is not published yet (attempt 1: HTTP 404): FIRMS publishes late; left out until it is"] },
      ],
      builds,
      [],
    );
    expect([o.exitCode, o.failed]).toEqual([0, []]);
    expect(o.ended).toEqual(["source firms_global: MODIS_C6_1_Global.csv is gone (attempt 1: HTTP 404): MODIS is ending; left out"]);
    expect(o.unpublished).toEqual(["source firms_country: modis_2025_Greece.csv is not published yet (attempt 1: HTTP 404): FIRMS publishes late; left out until it is"]);
    const text = outcomeText(o);
    expect(text).toContain("ended products left out (1):\n  source firms_global: MODIS_C6_1_Global.csv is gone");
    expect(text).toContain("not published yet, left out (1):\n  source firms_country: modis_2025_Greece.csv is not published yet");
    expect(text.split("\n").find((l) => l.startsWith("ended products"))).toBe("ended products left out (1):");
  });

  it("SOURCES_OFFLINE=1 (every source skipped): 0", () => {
    expect(nightlyOutcome([result("a", "skipped", "SOURCES_OFFLINE=1")], builds, [report("a", "offline")]).exitCode).toBe(0);
  });

  it("1 when a source failed or came in part and the rest was refreshed; each failure named with its reason", () => {
    const o = nightlyOutcome([result("a", "updated"), result("b", "failed", "HTTP 503"), result("c", "partial", "1 of 3 files failed")], builds, []);
    expect([o.exitCode, o.failed]).toEqual([1, ["source b failed: HTTP 503", "source c partial: 1 of 3 files failed"]]);
  });

  it("1 when a build is refused and another publishes", () => {
    const o = nightlyOutcome([result("a", "unchanged")], [{ name: "drought", status: "published" }, { name: "flood", status: "refused", detail: "rows fell" }], []);
    expect([o.exitCode, o.failed]).toEqual([1, ["flood refused: rows fell"]]);
  });

  it("2 when every source tried failed and no build published a new version (no network), or every build failed", () => {
    expect(nightlyOutcome([result("a", "failed", "fetch failed"), result("b", "failed", "fetch failed"), result("c", "skipped")], builds, []).exitCode).toBe(2);
    expect(nightlyOutcome([result("a", "updated")], [{ name: "drought", status: "failed" }, { name: "flood", status: "refused" }], []).exitCode).toBe(2);
    // Every source failed, but a build still published something new from the previous copies: 1.
    expect(nightlyOutcome([result("a", "failed")], [{ name: "drought", status: "published" }], []).exitCode).toBe(1);
  });
});

describe("refresh history in the source state", () => {
  const base = { source: "s", files: {}, dataAsOf: "2026-01-31", checkedAt: "2026-02-01T00:00:00Z", lastResult: "updated" as const };
  it("counts failures in a row and in all, keeps the last success, and when the data as-of last moved", () => {
    const a = withHistory(undefined, base);
    expect([a.lastSuccessAt, a.consecutiveFailures, a.failuresTotal, a.dataAsOfSince]).toEqual(["2026-02-01T00:00:00Z", 0, 0, "2026-02-01T00:00:00Z"]);
    const b = withHistory(a, { ...a, checkedAt: "2026-02-02T00:00:00Z", lastResult: "failed" });
    const c = withHistory(b, { ...b, checkedAt: "2026-02-03T00:00:00Z", lastResult: "failed" });
    expect([c.lastSuccessAt, c.consecutiveFailures, c.failuresTotal, c.dataAsOfSince]).toEqual(["2026-02-01T00:00:00Z", 2, 2, "2026-02-01T00:00:00Z"]);
    const d = withHistory(c, { ...c, checkedAt: "2026-02-04T00:00:00Z", lastResult: "unchanged" });
    expect([d.lastSuccessAt, d.consecutiveFailures, d.failuresTotal, d.dataAsOfSince]).toEqual(["2026-02-04T00:00:00Z", 0, 2, "2026-02-01T00:00:00Z"]);
    const e = withHistory(d, { ...d, checkedAt: "2026-03-01T00:00:00Z", lastResult: "updated", dataAsOf: "2026-02-28" });
    expect(e.dataAsOfSince).toBe("2026-03-01T00:00:00Z");
  });
});

describe("the command line", () => {
  const artifacts = mkdtempSync(join(tmpdir(), "cli-exit-"));
  afterAll(() => rmSync(artifacts, { recursive: true, force: true }));

  function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "pipeline", "cli.ts"), ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ARTIFACTS_DIR: artifacts, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  it("refresh with every origin unreachable: exit 2, one JSON document on stdout naming the failure, logs on stderr", async () => {
    const r = await cli(["refresh", "gistemp"], { SOURCE_URL_GISTEMP: "http://127.0.0.1:9/monthly.csv", SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "1", SOURCES_TIMEOUT_MS: "2000", SOURCES_OFFLINE: "" });
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ exitCode: 2, result: "nothing published", refresh: { failed: 1 } });
    expect(doc.failed).toEqual([expect.stringMatching(/^source gistemp failed: /)]);
    expect(doc.sources.find((s: { name: string }) => s.name === "gistemp")).toMatchObject({ outcome: "failed" });
    // Logs are JSON lines on stderr, never on stdout.
    expect(r.stderr.trim().split("\n").every((l) => JSON.parse(l).service === "climate-risk")).toBe(true);
    expect(r.stdout.trim().split("\n")).toHaveLength(1);
  }, 120_000);

  it("refresh with SOURCES_OFFLINE=1: exit 0, every source offline", async () => {
    const r = await cli(["refresh"], { SOURCES_OFFLINE: "1" });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.exitCode).toBe(0);
    expect(doc.sources.length).toBeGreaterThan(20);
    expect(doc.sources.every((s: { outcome: string; status: string }) => s.outcome === "skipped" && s.status === "offline")).toBe(true);
  }, 180_000);

  it("sources --json reaches a pipe whole (no per-file detail without --verbose)", async () => {
    const r = await cli(["sources", "--json"], { SOURCES_OFFLINE: "1" });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { name: string; files?: unknown }[];
    expect(doc.length).toBeGreaterThan(20);
    expect(doc.every((s) => s.files === undefined)).toBe(true);
    const verbose = await cli(["sources", "--json", "--verbose"], { SOURCES_OFFLINE: "1" });
    const full = JSON.parse(verbose.stdout) as { files: unknown[] }[];
    expect(verbose.stdout.length).toBeGreaterThan(128 * 1024); // more than a pipe buffer: it used to be cut at 64–128 KiB
    expect(full.every((s) => Array.isArray(s.files))).toBe(true);
  }, 180_000);
});
