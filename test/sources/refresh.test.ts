// The refresh of a source against a local server that replays the real mirror's GISTEMP rows in NASA's layout at an
// origin-shaped path (SOURCE_URL_GISTEMP): a download, 304 with validators, 500 then 200, an HTML error page, a
// truncated body, a timeout, a file 40 % shorter than the previous one, one malformed row. Whatever fails keeps the
// previous copy.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { publishSourceStatus } from "../../pipeline/sources/publish-status.ts";
import { currentRawDir, readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { sourceStates } from "../../pipeline/sources/state.ts";
import { readSourceStatus, SOURCE_STATUS_FILE } from "../../formats/source-status.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { GISTEMP_TABLE_FILE } from "../../pipeline/feeds/temperature.ts";
import { gistempTable } from "./origin-replay.ts";

const MIRROR_FILE = "feeds/temperature/global-monthly-gistemp-gcag.csv";
/** What NASA's origin answers (test/sources/origin-replay.ts: its layout, the mirror's values). */
const mirror = gistempTable(readFileSync(join(dataDir(), MIRROR_FILE), "utf8"));
const FILE = "GLB.Ts+dSST.csv";
const artifactsDir = mkdtempSync(join(tmpdir(), "sources-refresh-"));
/** The suite's shared file facts (test/global-setup.ts), so the mirror's files are not checked again here. */
const shared = { SOURCE_FACTS_FILE: process.env.SOURCE_FACTS_FILE };

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;
let queue: Behaviour[] = [];
const seen: { ifNoneMatch?: string }[] = [];
let server: Server;
let base = "";

const ok = (body: string, headers: Record<string, string> = {}): Behaviour => (req, res) => {
  res.writeHead(200, { "content-type": "text/csv", "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ ifNoneMatch: req.headers["if-none-match"] as string | undefined });
    const next = queue.shift();
    if (!next) {
      res.writeHead(599);
      res.end("no behaviour queued");
      return;
    }
    next(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const silent = { start() {}, source() {} };

async function refresh(behaviours: Behaviour[]) {
  queue = behaviours;
  seen.length = 0;
  const env = { SOURCE_URL_GISTEMP: `${base}/gistemp/tabledata_v4/GLB.Ts+dSST.csv`, SOURCES_TIMEOUT_MS: "400", SOURCES_RETRIES: "1", SOURCES_BACKOFF_MS: "5" };
  const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["gistemp"], progress: silent });
  return r;
}

const cached = () => readFileSync(join(currentRawDir(artifactsDir, "gistemp")!, FILE), "utf8");
/** Title and header lines above the years. */
const HEAD = 2;

describe("source refresh against a replay server", () => {
  it("downloads the file into the raw cache with its validators and data as-of", async () => {
    const r = await refresh([ok(mirror, { etag: '"v1"', "last-modified": "Tue, 10 Nov 2026 00:00:00 GMT" })]);
    // NASA's table joins the mirror's datahub copy (carried as it is) in the raw cache.
    expect(r).toMatchObject({ source: "gistemp", outcome: "updated", changed: 1, failed: 0 });
    expect(currentRawDir(artifactsDir, "gistemp")).toBeDefined();
    expect(cached()).toBe(mirror);
    const state = readSourceState(artifactsDir, "gistemp")!;
    const file = state.files[FILE];
    // 1880..2023: one row a year.
    expect(file).toMatchObject({ etag: '"v1"', lastModified: "Tue, 10 Nov 2026 00:00:00 GMT", rows: 144, malformedRows: 0, from: "download", dataAsOf: "2023-12-31" });
    expect(state.files["global-monthly-gistemp-gcag.csv"]).toMatchObject({ from: "carried", dataAsOf: "2023-12-31" });
    // End of the last month in the data.
    expect(state.dataAsOf).toBe("2023-12-31");
  });

  it("asks with If-None-Match; a 304 keeps the copy and its version", async () => {
    const before = currentRawDir(artifactsDir, "gistemp");
    const r = await refresh([(req, res) => {
      res.writeHead(304);
      res.end();
    }]);
    expect(seen[0].ifNoneMatch).toBe('"v1"');
    expect(r).toMatchObject({ outcome: "unchanged", changed: 0, unchanged: 1 });
    expect(currentRawDir(artifactsDir, "gistemp")).toBe(before);
  });

  it("retries a 500 and takes the 200", async () => {
    const r = await refresh([
      (_req, res) => {
        res.writeHead(500);
        res.end("oops");
      },
      ok(mirror, { etag: '"v1"' }),
    ]);
    expect(seen).toHaveLength(2);
    expect(r.outcome).not.toBe("failed");
    expect(cached()).toBe(mirror);
  });

  it("refuses an HTML error page, a truncated body and a timeout; the previous copy stays", async () => {
    const html = await refresh([ok("<!DOCTYPE html><html><body>Service unavailable</body></html>", { "content-type": "text/html" })]);
    expect(html.outcome).toBe("failed");
    expect(html.reason).toMatch(/HTML/i);
    const truncated = await refresh(
      [0, 1].map(() => (_req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "text/csv", "content-length": String(Buffer.byteLength(mirror)) });
        res.write(mirror.slice(0, 1000));
        setTimeout(() => res.destroy(), 20);
      }),
    );
    expect(truncated.outcome).toBe("failed");
    expect(truncated.reason).toMatch(/truncated/);
    const slow = await refresh([0, 1].map(() => () => {}));
    expect(slow.outcome).toBe("failed");
    expect(slow.reason).toMatch(/timeout after 400 ms/);
    expect(cached()).toBe(mirror);
  });

  it("refuses a file 40 % shorter than the previous one", async () => {
    const lines = mirror.trim().split("\n");
    const short = lines.slice(0, HEAD + Math.floor((lines.length - HEAD) * 0.6)).join("\n") + "\n";
    const r = await refresh([ok(short)]);
    expect(r.outcome).toBe("failed");
    expect(r.reason).toMatch(/rows fell from 144 to 86/);
    expect(cached()).toBe(mirror);
  });

  it("counts a malformed row with its file and line, and keeps the others", async () => {
    const lines = mirror.trim().split("\n");
    lines.splice(11, 0, "2001,0.5,extra,field");
    const r = await refresh([ok(lines.join("\n") + "\n")]);
    expect(r.outcome).toBe("updated");
    const file = readSourceState(artifactsDir, "gistemp")!.files[FILE];
    expect(file.malformedRows).toBe(1);
    expect(file.malformedAt[0]).toMatch(/GLB\.Ts\+dSST\.csv:12: /);
  });

  it("builders read the download through the inputs overlay; the status names its age", async () => {
    const { dir } = await writeInputOverlay(dataDir(), artifactsDir, {});
    expect(effectiveDataDir(dataDir(), artifactsDir)).toBe(dir);
    expect(realpathSync(join(dir, GISTEMP_TABLE_FILE))).toBe(realpathSync(join(currentRawDir(artifactsDir, "gistemp")!, FILE)));
    // Files without a download are the data directory's.
    expect(realpathSync(join(dir, "feeds/psmsl/filelist.txt"))).toBe(realpathSync(join(dataDir(), "feeds/psmsl/filelist.txt")));
    expect(effectiveDataDir("/elsewhere", artifactsDir)).toBe("/elsewhere");

    // The origin answered at the last attempt (just now) with data that end in 2023-12: frozen, not merely stale.
    const state = readSourceState(artifactsDir, "gistemp")!;
    const now = new Date(Date.parse(state.checkedAt) + 86_400_000);
    const reports = await sourceStates({ dataDir: dataDir(), artifactsDir, env: shared, now });
    const gistemp = reports.find((s) => s.name === "gistemp")!;
    expect(gistemp).toMatchObject({ from: "cache", status: "frozen" });
    expect(gistemp.reason).toMatch(/^the origin answers \(asked \d{4}-\d{2}-\d{2}\) but its data end 2023-12-31, \d+ days ago: not advanced for more than 3 × the monthly cadence; the same data as-of since /);
    // Nobody asked the origin for more than a cadence: stale (the nightly stopped), not frozen.
    const later = new Date(Date.parse(state.checkedAt) + 40 * 86_400_000);
    const stale = (await sourceStates({ dataDir: dataDir(), artifactsDir, env: shared, now: later })).find((s) => s.name === "gistemp")!;
    expect(stale.status).toBe("stale");
    expect(stale.reason).toMatch(/days old, more than 3 × the monthly cadence/);
    await publishSourceStatus({ dataDir: dataDir(), artifactsDir, env: { ...shared, SOURCES_OFFLINE: "1" }, now });
    const status = readSourceStatus(readFileSync(join(snapshotRoot(artifactsDir, "sources"), "current", SOURCE_STATUS_FILE), "utf8"));
    expect(status.offline).toBe(true);
    expect(status.sources.find((s) => s.name === "gistemp")).toMatchObject({ from: "cache", status: "frozen", usedBy: ["heatwave"] });
    // The refresh history travels with the status (for /metrics): the failures of the tests above, the last success.
    const g = status.sources.find((s) => s.name === "gistemp")!;
    expect(g.failuresTotal).toBe(state.failuresTotal);
    expect(g.failuresTotal).toBeGreaterThanOrEqual(3);
    expect([g.lastAttemptAt, g.lastOutcome, g.consecutiveFailures]).toEqual([state.checkedAt, state.lastResult, state.consecutiveFailures]);
    expect(g.lastSuccessAt).toBe(state.lastSuccessAt);
    expect(status.sources.find((s) => s.name === "psmsl")).toMatchObject({ from: "data-dir", status: "offline", reason: expect.stringContaining("SOURCES_OFFLINE=1") });
    expect(existsSync(join(artifactsDir, "raw", "gistemp", "state.json"))).toBe(true);
  });
});
