// The production start runs compiled JavaScript, and so does the nightly cron runs: `npm run build` emits dist/ (esbuild file by file, scripts/build.mjs;
// .ts imports rewritten to .js)
// and `node dist/server/main.js` serves the real artifacts — the map page's files and the data directory's
// defaults found from dist/ as from the sources.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { ALL_SNAPSHOTS, privateArtifacts } from "../e2e/real-server.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { SUITE_TILE_SETTINGS } from "../suite-tiles.ts";

describe("compiled production start", () => {
  it("npm run build emits dist/ and node dist/server/main.js answers", async () => {
    const build = spawnSync("npm", ["run", "-s", "build"], { cwd: PROJECT_ROOT, encoding: "utf8" });
    expect(build.status, build.stdout + build.stderr).toBe(0);
    expect(existsSync(join(PROJECT_ROOT, "dist", "server", "main.js"))).toBe(true);
    const keyDir = mkdtempSync(join(tmpdir(), "compiled-keys-"));
    const key = generateKey();
    writeKeyFile(join(keyDir, "keys.json"), { keys: [{ id: "key_c", hash: hashKey(key), plan: "enterprise", status: "active", createdAt: "2026-01-01T00:00:00.000Z" }] });
    const port = 20000 + Math.floor(Math.random() * 20000);
    const proc = spawn(process.execPath, [join(PROJECT_ROOT, "dist", "server", "main.js")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ARTIFACTS_DIR: privateArtifacts(inject("artifactsDir")).dir, API_KEYS_FILE: join(keyDir, "keys.json"), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const ok = await fetch(base + "/readyz").then((r) => r.status === 200, () => false);
        if (ok) break;
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`compiled server not ready (exit ${proc.exitCode})`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const d = await fetch(base + "/api/risk-map/drought?lat=13.75&lng=100.5", { headers: { "X-API-Key": key } });
      expect(d.status).toBe(200);
      expect(((await d.json()) as { data: { location: { gridId: string } } }).data.location.gridId).toMatch(/^SEA100-\d+$/);
      const page = await fetch(base + "/");
      expect([page.status, (await page.text()).includes("<html")]).toEqual([200, true]);
    } finally {
      proc.kill("SIGTERM");
    }
  }, 90_000);
});

// In this file, after the compile above: scripts/nightly.sh runs the compiled pipeline, and a compile in another test
// file at the same time could rewrite dist/ under it.
describe("the nightly as cron runs it (docs/deploy.md §2.2, the cron line verbatim)", () => {
  it("a night with a failed source exits 1 to cron, mails the status and the summary, and nightly.json is one JSON document", async () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs", "deploy.md"), "utf8");
    const line = doc.split("\n").find((l) => l.startsWith("30 2 * * * "))!;
    // Minute, hour, day, month, weekday, user; the rest is the command cron hands to SHELL=/bin/sh.
    const command = line.split(/\s+/).slice(6).join(" ");
    const work = mkdtempSync(join(tmpdir(), "nightly-cron-"));
    mkdirSync(join(work, "log"));
    // The suite's build as the artifacts (unchanged inputs, settings and code: nothing to rebuild); one source whose
    // origin refuses (a port fetch will not open) and one served on loopback (a synthetic GISTEMP table): a night
    // that fails in part. Every source tried failing would be exit 2, "nothing published".
    const rows = Array.from({ length: 46 }, (_, i) => `${1980 + i},${Array.from({ length: 12 }, (_, m) => (0.2 + 0.02 * i + 0.01 * m).toFixed(2)).join(",")},0.50,0.50,0.40,0.50,0.60,0.50`);
    const table = `Land-Ocean: Global Means\nYear,Jan,Feb,Mar,Apr,May,Jun,Jul,Aug,Sep,Oct,Nov,Dec,J-D,D-N,DJF,MAM,JJA,SON\n${rows.join("\n")}\n`;
    const origin = createServer((_req, res) => res.writeHead(200, { "content-type": "text/csv" }).end(table));
    await new Promise<void>((r) => origin.listen(0, "127.0.0.1", r));
    onTestFinished(() => new Promise<void>((r) => origin.close(() => r())));
    const env = [
      `ARTIFACTS_DIR=${privateArtifacts(inject("artifactsDir"), ALL_SNAPSHOTS).dir}`,
      ...Object.entries(SUITE_TILE_SETTINGS).map(([k, v]) => `${k}=${v}`),
      "REFRESH_SOURCES=ghcnm,gistemp",
      "SOURCE_URL_GHCNM=http://127.0.0.1:9/ghcnm.tavg.latest.qcf.tar.gz",
      `SOURCE_URL_GISTEMP=http://127.0.0.1:${(origin.address() as AddressInfo).port}/GLB.Ts+dSST.csv`,
    ];
    writeFileSync(join(work, "pipeline.env"), env.join("\n") + "\n");
    const local = command.replaceAll("/opt/climate-risk", PROJECT_ROOT).replaceAll("/etc/climate-risk/pipeline.env", join(work, "pipeline.env")).replaceAll("/var/log/climate-risk", join(work, "log"));
    expect(local).not.toBe(command);
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const p = spawn("/bin/sh", ["-c", local], { env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? work, TMPDIR: process.env.TMPDIR ?? "/tmp" } });
      let stdout = "";
      let stderr = "";
      p.stdout.on("data", (d) => (stdout += d));
      p.stderr.on("data", (d) => (stderr += d));
      p.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(1);
    // What cron mails: the exit status, then the summary.
    const [first, ...rest] = run.stdout.split("\n");
    expect(first).toBe("climate-risk nightly exited 1");
    const mailed = JSON.parse(rest.join("\n"));
    expect(mailed).toMatchObject({ exitCode: 1, result: "failures" });
    expect(mailed.failed[0]).toMatch(/^source ghcnm failed: /);
    // The file jq reads is the same one document, and the logs went to their own file.
    expect(JSON.parse(readFileSync(join(work, "log", "nightly.json"), "utf8"))).toEqual(mailed);
    expect(readFileSync(join(work, "log", "nightly.log"), "utf8")).toMatch(/"level":/);
    rmSync(work, { recursive: true, force: true });
  }, 300_000);
});
