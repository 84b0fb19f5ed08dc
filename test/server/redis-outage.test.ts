// A Redis outage under a running server (real redis-server on loopback, stopped and restarted): the server logs
// one structured line per state change (down, back up) and no raw ioredis lines, exposes rate_limit_store_up
// 0/1 on /metrics, and keeps enforcing the plan per process from memory while Redis is down (docs/api.md).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKey, hashKey, writeKeyFile } from "../../server/auth/key-store.ts";
import { get } from "./helpers.ts";
import { collectOutput, eventually, exitCode, freePort, startRedis, waitForLine } from "./processes.ts";

interface LogLine {
  level: number;
  msg: string;
  store?: string;
  host?: string;
  port?: number;
  err?: string;
}

describe("rate-limit store outage", () => {
  let dir: string;
  let redis: ChildProcess | undefined;
  let server: ChildProcess;
  let output: ReturnType<typeof collectOutput>;
  let base: string;
  let redisPort: number;
  const key = generateKey();

  const storeLines = (): LogLine[] =>
    output
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine)
      .filter((l) => l.msg.startsWith("rate-limit store"));
  const gauge = async (): Promise<string | undefined> => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return /^rate_limit_store_up\{store="redis"\} (\d)$/m.exec(text)?.[1];
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "redis-outage-"));
    const keyFile = join(dir, "keys.json");
    writeKeyFile(keyFile, { keys: [{ id: "key_outage", hash: hashKey(key), plan: "free", status: "active", createdAt: "2025-01-01T00:00:00Z" }] });
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    const env = { ...process.env, LOG_LEVEL: "info", API_KEYS_FILE: keyFile, REDIS_URL: `redis://127.0.0.1:${redisPort}`, RATE_LIMITS: '{"free":{"points":5,"duration":60}}' };
    server = spawn(process.execPath, ["--import", "tsx", "test/server/fixtures/serve-fake.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    output = collectOutput(server);
    const port = Number((await waitForLine(server, /LISTENING (\d+)/, "server"))[1]);
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    if (server?.exitCode === null) server.kill("SIGKILL");
    if (redis?.exitCode === null) {
      redis.kill("SIGTERM");
      await exitCode(redis);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("while Redis is up: rate_limit_store_up 1 and the budget is counted in Redis", async () => {
    await eventually(async () => (await gauge()) === "1", "gauge 1");
    const res = await get(base, "/api/ping", key);
    expect([res.status, res.headers.get("ratelimit-remaining")]).toEqual([200, "4"]);
  });

  it("Redis stops: one structured 'down' line, gauge 0, the plan still enforced per process from memory", async () => {
    redis!.kill("SIGTERM");
    await exitCode(redis!);
    await eventually(() => storeLines().some((l) => l.msg.startsWith("rate-limit store down")), "down line");
    expect(await gauge()).toBe("0");
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(base, "/api/ping", key);
      expect(res.status).toBe(200);
      remaining.push(res.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const over = await get(base, "/api/ping", key);
    expect(over.status).toBe(429);
    expect((await over.json()).error.code).toBe("RATE_LIMIT_EXCEEDED");
    // ioredis keeps reconnecting (every ≤ 2 s); that is not a new state and is not logged again.
    await new Promise((r) => setTimeout(r, 2500));
    const down = storeLines().filter((l) => l.msg.startsWith("rate-limit store down"));
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ level: 40, store: "redis", host: "127.0.0.1", port: redisPort });
    expect(down[0].err).toMatch(/ECONNREFUSED|Connection is closed|connection/i);
  });

  it("Redis comes back: one 'back up' line, gauge 1, and no raw ioredis lines on stderr at any time", async () => {
    redis = await startRedis(redisPort);
    await eventually(() => storeLines().some((l) => l.msg.startsWith("rate-limit store back up")), "back-up line");
    expect(await gauge()).toBe("1");
    const res = await get(base, "/api/ping", key);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("5");
    expect(storeLines().map((l) => l.msg.split(":")[0])).toEqual(["rate-limit store connected", "rate-limit store down", "rate-limit store back up"]);
    expect(output.stderr()).not.toMatch(/ioredis/i);
  });
});
