// Two replicas behind nginx (docs/deploy.md): two real servers on loopback share one ARTIFACTS_DIR, one key file and
// one Redis (REDIS_URL), with Debian's nginx in front running deploy/nginx/climate-risk.conf (ports replaced) as the
// current user from a temporary prefix. A steady load through nginx while a new version is published: no request
// fails, both replicas answer, both take up the new version; a plan's budget is shared across the replicas.
// Needs nginx (apt-get install -y nginx-light; .ci/install-test-deps.sh installs it): without it the test fails.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { eventually, exitCode, freePort, startRedis } from "../server/processes.ts";
import { privateArtifacts, publishCopy, startRealServer, writeE2eKeys, type RealServer } from "./real-server.ts";

const NGINX = existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
const POINT = "/api/risk-map/drought?lat=15.2&lng=104.8";
const SMALL_PLAN = 12;

let replicas: RealServer[] = [];
let redis: ChildProcess;
let nginx: ChildProcess;
let nginxDir: string;
let base: string;
let keys: ReturnType<typeof writeE2eKeys>;
let first: string;
let artifactsDir: string;

/** The guide's nginx file with the replicas' and nginx's ports, inside an http {} of a private prefix. */
function nginxConf(dir: string, listen: number, upstreams: number[]): string {
  const site = readFileSync(join(PROJECT_ROOT, "deploy", "nginx", "climate-risk.conf"), "utf8")
    .replace("127.0.0.1:8081", `127.0.0.1:${upstreams[0]}`)
    .replace("127.0.0.1:8082", `127.0.0.1:${upstreams[1]}`)
    .replace("listen 8080;", `listen 127.0.0.1:${listen};`);
  if (site.includes(":808")) throw new Error("deploy/nginx/climate-risk.conf: a port was not replaced");
  for (const d of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, d));
  return `# written by test/e2e/nginx-replicas.test.ts
daemon off;
master_process on;
worker_processes 1;
user ${userInfo().username};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  log_format replicas '$status $upstream_addr $upstream_status $upstream_http_x_data_version $request_uri';
  access_log ${dir}/access.log replicas;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

async function startNginx(upstreams: number[]): Promise<void> {
  nginxDir = mkdtempSync(join(tmpdir(), "nginx-"));
  const port = await freePort();
  writeFileSync(join(nginxDir, "nginx.conf"), nginxConf(nginxDir, port, upstreams));
  nginx = spawn(NGINX, ["-p", nginxDir, "-c", join(nginxDir, "nginx.conf"), "-e", join(nginxDir, "error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  nginx.stderr!.on("data", (d) => (stderr += d));
  const spawned = new Promise<never>((_, reject) =>
    nginx.once("error", (err) =>
      reject((err as NodeJS.ErrnoException).code === "ENOENT" ? new Error("nginx is not installed; install it with: apt-get update && apt-get install -y nginx-light") : err),
    ),
  );
  base = `http://127.0.0.1:${port}`;
  const up = eventually(async () => {
    if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${stderr}`);
    return fetch(`${base}/healthz`).then((r) => r.ok, () => false);
  }, "nginx answering /healthz", 10_000);
  await Promise.race([up, spawned]);
}

/** The access log's lines: status, upstream address, upstream status, X-Data-Version, URI. */
function accessLog(): { status: string; upstream: string; version: string; uri: string }[] {
  const text = existsSync(join(nginxDir, "access.log")) ? readFileSync(join(nginxDir, "access.log"), "utf8") : "";
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [status, upstream, , version, uri] = l.split(" ");
      return { status, upstream, version, uri };
    });
}

/**
 * The access log once it holds at least `n` lines (of `uri` when given): nginx writes a request's line after it has
 * answered, so a client can hold the last answer before its line is there.
 */
async function accessLogHolding(n: number, uri?: string): Promise<ReturnType<typeof accessLog>> {
  const lines = () => accessLog().filter((l) => uri === undefined || l.uri === uri);
  await eventually(() => lines().length >= n, `nginx's access log holds ${n} lines${uri ? ` of ${uri}` : ""}`, 5_000);
  return lines();
}

async function get(path: string, key = keys.key): Promise<Response> {
  return fetch(base + path, { headers: { "x-api-key": key } });
}

beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  first = art.version;
  artifactsDir = art.dir;
  const redisPort = await freePort();
  redis = await startRedis(redisPort);
  keys = writeE2eKeys([{ id: "key_small", plan: "small" }]);
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    RATE_LIMITS: JSON.stringify({ enterprise: { points: 1_000_000, duration: 60 }, small: { points: SMALL_PLAN, duration: 300 } }),
  };
  replicas = await Promise.all([startRealServer(artifactsDir, env, keys), startRealServer(artifactsDir, env, keys)]);
  await startNginx(replicas.map((r) => Number(new URL(r.base).port)));
}, 120_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    nginx.kill("SIGQUIT");
    await exitCode(nginx);
  }
  const codes = await Promise.all(replicas.map((r) => r.stop()));
  redis?.kill("SIGTERM");
  expect(codes).toEqual(replicas.map(() => 0));
});

describe("two replicas behind nginx", () => {
  it("a hot swap under steady load through nginx: no request fails, both replicas answer, both take up the new version", async () => {
    const second = `${first}-nginx`;
    let ok = 0;
    const failures: string[] = [];
    let done = false;
    const worker = async () => {
      while (!done) {
        try {
          const res = await get(POINT);
          const body = (await res.json()) as { success?: boolean };
          if (res.status === 200 && body.success) ok++;
          else failures.push(`HTTP ${res.status}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((r) => setTimeout(r, 500));
    publishCopy(artifactsDir, first, second);
    // Each replica on its own (not through nginx): until both answer with the new version.
    await eventually(
      async () => (await Promise.all(replicas.map(async (r) => (await (await fetch(`${r.base}/readyz`)).json()).data.dataVersion))).every((v) => v === second),
      "both replicas on the new version",
      15_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    done = true;
    await load;

    expect(failures).toEqual([]);
    expect(ok).toBeGreaterThan(100);
    const lines = await accessLogHolding(ok, POINT);
    expect(lines.length).toBe(ok);
    expect(lines.every((l) => l.status === "200")).toBe(true);
    // No request needed a second replica (a comma in $upstream_addr would say so).
    expect(lines.filter((l) => l.upstream.includes(","))).toEqual([]);
    const upstreams = replicas.map((r) => r.base.replace("http://", ""));
    for (const u of upstreams) {
      const mine = lines.filter((l) => l.upstream === u);
      expect(mine.length, `requests answered by ${u}`).toBeGreaterThan(ok / 4);
      expect(new Set(mine.map((l) => l.version)), `versions served by ${u}`).toEqual(new Set([first, second]));
    }

    // Afterwards every answer through nginx is the new version, from both replicas.
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await get(POINT);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-data-version")).toBe(second);
      await res.arrayBuffer();
    }
    for (const l of (await accessLogHolding(ok + 20, POINT)).slice(-20)) seen.add(l.upstream);
    expect([...seen].sort()).toEqual([...upstreams].sort());
  });

  it("one plan budget over both replicas (REDIS_URL): the small plan's requests through nginx stop at its limit", async () => {
    const before = accessLog().length; // the test before waited for its lines
    const statuses: number[] = [];
    for (let i = 0; i < SMALL_PLAN + 4; i++) {
      const res = await get(POINT, keys.extra.key_small);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(SMALL_PLAN);
    expect(statuses.slice(SMALL_PLAN)).toEqual([429, 429, 429, 429]);
    // Round robin: both replicas counted against the same budget.
    expect(new Set((await accessLogHolding(before + SMALL_PLAN + 4)).slice(before).map((l) => l.upstream)).size).toBe(2);
  });

  it("a bulk request of 2.3 MB passes through nginx whole, as the replica answers it (not nginx's 1 MB body limit)", async () => {
    // 100,000 points over Thailand's box, some at sea or abroad (their rows say why).
    let seed = 7;
    const r = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const rows = Array.from({ length: 100_000 }, (_, i) => `p${i},${(5.6 + r() * 14.8).toFixed(4)},${(97.4 + r() * 8.2).toFixed(4)}`);
    const body = `id,lat,lng\n${rows.join("\n")}\n`;
    expect(body.length).toBeGreaterThan(2_000_000);
    const send = (to: string) => fetch(`${to}/api/risk-map/bulk`, { method: "POST", headers: { "x-api-key": keys.key, "content-type": "text/csv", accept: "text/csv" }, body });
    const through = await send(base);
    const text = await through.text();
    expect(through.status, text.slice(0, 300)).toBe(200);
    expect(through.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(100_001);
    expect(lines[1].startsWith("p0,")).toBe(true);
    expect(lines.at(-1)!.startsWith("p99999,")).toBe(true);
    // The same bytes as the replica's own answer.
    const direct = await send(replicas[0].base);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toBe(text);
  }, 60_000);

  it("the probes answer through nginx", async () => {
    const [ready, live] = await Promise.all([fetch(`${base}/readyz`), fetch(`${base}/healthz`)]);
    expect(ready.status).toBe(200);
    expect(live.status).toBe(200);
  });
});
