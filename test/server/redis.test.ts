// Two server processes with REDIS_URL share one rate-limit budget per key. Needs a real `redis-server`
// (apt-get install -y redis-server); without it this test fails, it is never skipped.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { get } from "./helpers.ts";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves with the first stdout match of `pattern`; rejects on exit, spawn error or timeout. */
function waitForLine(child: ChildProcess, pattern: RegExp, what: string, ms = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`${what}: no "${pattern}" within ${ms} ms; stdout: ${seen} stderr: ${stderr}`)), ms);
    child.stderr?.on("data", (c) => (stderr += c));
    child.stdout?.on("data", (c) => {
      seen += c;
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(
        (err as NodeJS.ErrnoException).code === "ENOENT"
          ? new Error(`${what}: redis-server is not installed; install it with: apt-get update && apt-get install -y redis-server`)
          : err,
      );
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before "${pattern}"; stderr: ${stderr}`));
    });
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));
}

describe("rate limit shared through Redis", () => {
  let dir: string;
  let redis: ChildProcess | undefined;
  const servers: ChildProcess[] = [];
  const ports: number[] = [];
  const key = generateKey();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "redis-test-"));
    const keyFile = join(dir, "keys.json");
    writeKeyFile(keyFile, { keys: [{ id: "key_shared", hash: hashKey(key), plan: "free", status: "active", createdAt: "2025-01-01T00:00:00Z" }] });
    const redisPort = await freePort();
    redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
    await waitForLine(redis, /Ready to accept connections/, "redis-server");
    const env = {
      ...process.env,
      API_KEYS_FILE: keyFile,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      RATE_LIMITS: '{"free":{"points":5,"duration":60}}',
    };
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, ["--import", "tsx", "test/server/fixtures/serve-fake.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
      servers.push(child);
    }
    const lines = await Promise.all(servers.map((c, i) => waitForLine(c, /LISTENING (\d+)/, `server ${i}`)));
    ports.push(...lines.map((m) => Number(m[1])));
  });

  afterAll(async () => {
    for (const c of servers) if (c.exitCode === null) c.kill("SIGKILL");
    redis?.kill("SIGTERM");
    if (redis) await exitCode(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it("two processes draw from one budget of 5; both refuse the 6th and 7th request", async () => {
    const [a, b] = ports.map((p) => `http://127.0.0.1:${p}`);
    const order = [a, b, a, b, a];
    const remaining: string[] = [];
    for (const base of order) {
      const res = await get(base, "/api/ping", key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      remaining.push(res.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    for (const base of [b, a]) {
      const res = await get(base, "/api/ping", key);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await res.json()).error.code).toBe("RATE_LIMIT_EXCEEDED");
    }
  });

  it("SIGTERM shuts a server process down cleanly (exit 0)", async () => {
    for (const c of servers) c.kill("SIGTERM");
    expect(await Promise.all(servers.map(exitCode))).toEqual([0, 0]);
  });
});
