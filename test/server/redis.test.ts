// Two server processes with REDIS_URL share one rate-limit budget per key. Needs a real `redis-server`
// (apt-get install -y redis-server); without it this test fails, it is never skipped.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { get } from "./helpers.ts";
import { exitCode, freePort, startRedis, waitForLine } from "./processes.ts";

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
    redis = await startRedis(redisPort);
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
