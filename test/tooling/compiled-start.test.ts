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
      // The suite's shared file facts (test/global-setup.ts): the status of every source is published without checking
      // the mirror's files again (22 s of this night's 38 s, measured alone).
      `SOURCE_FACTS_FILE=${process.env.SOURCE_FACTS_FILE}`,
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

// docs/deploy.md followed as far as a machine without a running systemd allows (issue 35): the units pass
// `systemd-analyze verify`; the replica template's own ExecStart, run for two instances beside a server.env that sets
// a HEALTH_PORT of its own, starts two replicas that each answer on their own health port (a shared one made the
// second exit with EADDRINUSE); the alert unit's script reaches the journal's logger and a webhook with no mail
// server. In this file: the replicas run the dist/ compiled above.
describe("docs/deploy.md on this machine", () => {
  const UNITS = join(PROJECT_ROOT, "deploy", "systemd");

  it("the units pass systemd-analyze verify, instances included", () => {
    const dir = mkdtempSync(join(tmpdir(), "units-"));
    const names: string[] = [];
    for (const [file, instance] of [["climate-risk@.service", "climate-risk@8081.service"], ["climate-risk@.service", "climate-risk@8082.service"], ["climate-risk-alert@.service", "climate-risk-alert@climate-risk-nightly.service.service"], ["climate-risk-nightly.service", "climate-risk-nightly.service"], ["climate-risk-nightly.timer", "climate-risk-nightly.timer"]]) {
      writeFileSync(join(dir, instance), readFileSync(join(UNITS, file)));
      names.push(join(dir, instance));
    }
    // The alert template is also loaded by name for OnFailure=.
    writeFileSync(join(dir, "climate-risk-alert@.service"), readFileSync(join(UNITS, "climate-risk-alert@.service")));
    const r = spawnSync("systemd-analyze", ["verify", ...names], { cwd: dir, encoding: "utf8" });
    expect([r.status, r.stderr.trim()]).toEqual([0, ""]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("two replicas from the template unit's ExecStart, with HEALTH_PORT in server.env, both serve and answer on their own health port", async () => {
    const unit = readFileSync(join(UNITS, "climate-risk@.service"), "utf8");
    const execStart = unit.split("\n").find((l) => l.startsWith("ExecStart="))!.slice("ExecStart=".length);
    // systemd's own expansion: %i the instance, $$ a dollar; the node binary of this run for /usr/bin/node.
    const shell = /^\/bin\/sh -c '(.*)'$/.exec(execStart)![1];
    const keyDir = mkdtempSync(join(tmpdir(), "replica-keys-"));
    const key = generateKey();
    writeKeyFile(join(keyDir, "keys.json"), { keys: [{ id: "key_r", hash: hashKey(key), plan: "enterprise", status: "active", createdAt: "2026-01-01T00:00:00.000Z" }] });
    const base = 20000 + Math.floor(Math.random() * 8000);
    const serverEnv = { ARTIFACTS_DIR: privateArtifacts(inject("artifactsDir")).dir, API_KEYS_FILE: join(keyDir, "keys.json"), HOST: "127.0.0.1", LOG_LEVEL: "warn", HEALTH_PORT: String(base + 5000) };
    const replicas = [base, base + 1].map((port) =>
      spawn("/bin/sh", ["-c", shell.replaceAll("%i", String(port)).replaceAll("$$", "$").replace("/usr/bin/node", process.execPath)], {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH!, TMPDIR: process.env.TMPDIR ?? "/tmp", ...serverEnv },
        stdio: "ignore",
      }),
    );
    onTestFinished(() => replicas.forEach((p) => p.kill("SIGTERM")));
    const answers = async (url: string) => fetch(url).then((r) => r.status, () => 0);
    const deadline = Date.now() + 60_000;
    for (const [i, port] of [base, base + 1].entries()) {
      while ((await answers(`http://127.0.0.1:${port}/readyz`)) !== 200) {
        if (replicas[i].exitCode !== null) throw new Error(`replica ${port} exited ${replicas[i].exitCode}`);
        if (Date.now() > deadline) throw new Error(`replica ${port} not ready`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // Its health listener is PORT + 1000, whatever server.env says.
      expect(await answers(`http://127.0.0.1:${port + 1000}/healthz`)).toBe(200);
    }
    expect(await answers(`http://127.0.0.1:${base + 5000}/healthz`)).toBe(0);
    expect(replicas.map((p) => p.exitCode)).toEqual([null, null]);
    rmSync(keyDir, { recursive: true, force: true });
  }, 90_000);

  it("the alert script writes the failed unit's journal lines to the journal's logger and posts them to the webhook, never printing its URL", async () => {
    const work = mkdtempSync(join(tmpdir(), "alert-"));
    const bin = join(work, "bin");
    mkdirSync(bin);
    // journalctl and logger as the host has them, recorded: no journal runs here.
    writeFileSync(join(bin, "journalctl"), `#!/bin/sh\necho "args: $*"\necho '{"exitCode":1,"result":"failures","failed":["source ghcnm failed: HTTP 404"]}'\n`, { mode: 0o755 });
    writeFileSync(join(bin, "logger"), `#!/bin/sh\n{ echo "logger $*"; cat; } >> ${join(work, "journal")}\n`, { mode: 0o755 });
    const posts: { url: string; body: string }[] = [];
    let status = 200;
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        posts.push({ url: req.url!, body });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    onTestFinished(() => new Promise<void>((r) => hook.close(() => r())));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/s3cret-token`;
    // Asynchronously: the webhook answers from this process's event loop.
    const run = () =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const p = spawn("/bin/sh", [join(PROJECT_ROOT, "scripts", "alert.sh"), "climate-risk-nightly.service"], { env: { PATH: `${bin}:${process.env.PATH}`, ALERT_WEBHOOK_URL: url } });
        let stdout = "";
        let stderr = "";
        p.stdout.on("data", (d) => (stdout += d));
        p.stderr.on("data", (d) => (stderr += d));
        p.on("close", (status) => resolve({ status, stdout, stderr }));
      });
    const first = await run();
    expect([first.status, first.stdout, first.stderr]).toEqual([0, "", ""]);
    const text = 'climate-risk: climate-risk-nightly.service failed\nargs: -u climate-risk-nightly.service -n 40 --no-pager\n{"exitCode":1,"result":"failures","failed":["source ghcnm failed: HTTP 404"]}';
    expect(posts).toEqual([{ url: "/hooks/s3cret-token", body: JSON.stringify({ text }) }]);
    expect(readFileSync(join(work, "journal"), "utf8")).toBe(`logger -t climate-risk-alert -p user.err\n${text}\n`);
    // A webhook that fails: still exit 0 (the journal has the alert), the failure in the journal, the URL nowhere.
    status = 500;
    expect((await run()).status).toBe(0);
    const journal = readFileSync(join(work, "journal"), "utf8");
    expect(journal).toContain("webhook: HTTP 500");
    expect(journal).not.toContain("s3cret");
    rmSync(work, { recursive: true, force: true });
  });
});
