// HEALTH_PORT (server/health/): GET /healthz on a listener off the API's event loop, answered from the main loop's
// heartbeat. It answers while the main loop is blocked, says 503 "event loop stalled" once the block passes the
// limit, and with WORKERS=2 the primary answers for both workers. The API port's /healthz stays as it was.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { healthAnswer } from "../../server/health/health-server.ts";
import { healthFromEnv, startHealthThread } from "../../server/health/health-thread.ts";
import { privateArtifacts, startRealServer } from "../e2e/real-server.ts";
import { collectOutput, eventually, freePort, waitForLine } from "./processes.ts";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

interface HealthBody {
  success: boolean;
  data: { status: string; heartbeatAgeMs: number; serving: number };
  error: { code: string; message: string; details: { reason?: string; heartbeatAgeMs: number; stallMs?: number } };
}

async function health(port: number, init: RequestInit = {}): Promise<{ status: number; body: HealthBody; headers: Headers }> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { ...init, signal: AbortSignal.timeout(5_000) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as HealthBody, headers: res.headers };
}

describe("the answer", () => {
  it("200 with the heartbeat's age within the limit; 503 past it or with no process serving", () => {
    expect(healthAnswer({ heartbeatAgeMs: 12.4, serving: 1 }, 5000)).toEqual({ status: 200, body: { success: true, data: { status: "ok", heartbeatAgeMs: 12, serving: 1 } } });
    expect(healthAnswer({ heartbeatAgeMs: 5000, serving: 2 }, 5000).status).toBe(200);
    expect(healthAnswer({ heartbeatAgeMs: 5001, serving: 2 }, 5000)).toEqual({
      status: 503,
      body: {
        success: false,
        error: { code: "SERVICE_UNAVAILABLE", message: "Not alive: the serving event loop has not run for 5001 ms", details: { reason: "event loop stalled", heartbeatAgeMs: 5001, stallMs: 5000 } },
      },
    });
    expect(healthAnswer({ heartbeatAgeMs: 0, serving: 0 }, 5000).body).toMatchObject({ error: { details: { reason: "no workers" } } });
  });

  it("HEALTH_PORT unset means no listener; a bad port or limit stops the start", () => {
    expect(healthFromEnv({}).port).toBeUndefined();
    expect(healthFromEnv({ HEALTH_PORT: "" }).port).toBeUndefined();
    expect(healthFromEnv({ HEALTH_PORT: "9091", HOST: "127.0.0.1" })).toEqual({ port: 9091, host: "127.0.0.1", stallMs: 5000 });
    expect(() => healthFromEnv({ HEALTH_PORT: "70000" })).toThrow("HEALTH_PORT must be a port number");
    expect(() => healthFromEnv({ HEALTH_PORT: "x" })).toThrow("HEALTH_PORT must be a non-negative integer");
    expect(() => healthFromEnv({ HEALTH_PORT: "9091", HEALTH_STALL_MS: "0" })).toThrow("HEALTH_STALL_MS must be at least 1");
  });
});

describe("a main loop blocked for 2 s", () => {
  it("the health thread keeps answering: 503 event loop stalled during the block, 200 after it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "health-stall-"));
    const script = join(dir, "stall.mts");
    writeFileSync(
      script,
      `import { startHealthThread } from ${JSON.stringify(join(PROJECT_ROOT, "server", "health", "health-thread.ts"))};
const h = await startHealthThread({ port: 0, host: "127.0.0.1", stallMs: 300 });
console.log("PORT " + h.port);
process.stdin.once("data", () => {
  const until = Date.now() + 2000;
  while (Date.now() < until) {} // the main loop blocked, as by a long synchronous request
  console.log("UNBLOCKED");
});
setInterval(() => {}, 1000);
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: PROJECT_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    children.push(child);
    const port = Number((await waitForLine(child, /PORT (\d+)/, "the health port"))[1]);
    expect(await health(port)).toMatchObject({ status: 200, body: { data: { status: "ok", serving: 1 } } });
    child.stdin!.write("block\n");
    await new Promise((r) => setTimeout(r, 800));
    const t0 = performance.now();
    const during = await health(port);
    const ms = performance.now() - t0;
    expect(during.status).toBe(503);
    expect(during.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { reason: "event loop stalled", stallMs: 300 } });
    expect(during.body.error.details.heartbeatAgeMs).toBeGreaterThan(300);
    // Answered by the thread while the main loop was still blocked (the block ends 1.2 s later).
    expect(ms).toBeLessThan(1000);
    await waitForLine(child, /UNBLOCKED/, "the end of the block");
    await eventually(async () => (await health(port)).status === 200, "200 again after the block");
  });
});

describe("a health thread that fails after it started", () => {
  it("goes to the failure callback; nothing is thrown into the API's loop", async () => {
    const failures: Error[] = [];
    const failing = {
      eval: true,
      entry: `const { parentPort } = require("node:worker_threads");
parentPort.postMessage({ port: 1 });
setTimeout(() => { throw new Error("health thread broke"); }, 1000);`,
    };
    // 1 s after it said it listens, not 50 ms: the worker's 'error' and its message reach the main loop by different
    // ways, and with both cores busy (a fresh-clone CI run) the error came first, a failure of the start instead.
    const thread = await startHealthThread({ port: 0, host: "127.0.0.1", stallMs: 300 }, (err) => failures.push(err), failing);
    expect(thread.port).toBe(1);
    await eventually(() => failures.length === 1, "the failure reported");
    expect(failures[0].message).toBe("health thread broke");
  });
});

describe("the real server with HEALTH_PORT", () => {
  it("one process: the thread answers GET and HEAD /healthz, 404 elsewhere, 405 for other methods; the API port's /healthz unchanged", async () => {
    const port = await freePort();
    const server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir, { HEALTH_PORT: String(port) });
    try {
      const ok = await health(port);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ success: true, data: { status: "ok", serving: 1 } });
      expect(ok.body.data.heartbeatAgeMs).toBeLessThan(5000);
      expect(ok.headers.get("cache-control")).toBe("no-store");
      const head = await fetch(`http://127.0.0.1:${port}/healthz`, { method: "HEAD" });
      expect([head.status, await head.text()]).toEqual([200, ""]);
      const post = await health(port, { method: "POST" });
      expect([post.status, post.body.error.code, post.headers.get("allow")]).toEqual([405, "METHOD_NOT_ALLOWED", "GET, HEAD"]);
      const other = await fetch(`http://127.0.0.1:${port}/api/ping`);
      expect([other.status, (await other.json()).error.code]).toEqual([404, "NOT_FOUND"]);
      const api = await fetch(`${server.base}/healthz`);
      expect([api.status, await api.json()]).toEqual([200, { success: true, data: { status: "ok" } }]);
    } finally {
      await server.stop();
    }
  });

  it("WORKERS=2: the primary answers for both workers from their heartbeats", async () => {
    const [apiPort, healthPort] = [await freePort(), await freePort()];
    const dir = mkdtempSync(join(tmpdir(), "health-cluster-"));
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WORKERS: "2", PORT: String(apiPort), HEALTH_PORT: String(healthPort), HOST: "127.0.0.1", ARTIFACTS_DIR: dir, API_KEYS_FILE: join(dir, "keys.json"), LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const output = collectOutput(child);
    await eventually(
      async () => {
        try {
          const h = await health(healthPort);
          return h.status === 200 && h.body.data.serving === 2;
        } catch {
          return false;
        }
      },
      "both workers beating",
      60_000,
    );
    expect(output.stdout()).toContain("health listener (GET /healthz) in the primary");
    child.kill("SIGTERM");
  });
});
