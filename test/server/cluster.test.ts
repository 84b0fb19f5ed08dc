// The cluster primary (server/main.ts with WORKERS > 1, server/cluster.ts): a worker that cannot bind makes the
// whole server exit with a clear message and a non-zero status instead of respawning forever; other crashes are
// respawned after an exponential, capped delay.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { EXIT_CANNOT_LISTEN, RESPAWN_BASE_MS, RESPAWN_CAP_MS, respawnDelayMs } from "../../server/cluster.ts";
import { collectOutput, eventually, exitCode, freePort } from "./processes.ts";

describe("WORKERS=2 on a port that is already taken", () => {
  let taken: Server;
  let port: number;

  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    port = (taken.address() as { port: number }).port;
  });

  afterAll(() => taken.close());

  it("exits non-zero within seconds, saying which address cannot be bound and why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cluster-"));
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WORKERS: "2", PORT: String(port), HOST: "127.0.0.1", ARTIFACTS_DIR: dir, API_KEYS_FILE: join(dir, "keys.json"), LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(child);
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(null);
      }, 120_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, output.stdout() + output.stderr()).toBe(EXIT_CANNOT_LISTEN);
    const lines = output
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg: string; pid: number; time: number });
    const fatal = lines.filter((l) => l.msg.startsWith("cannot listen"));
    // Each worker logs its own failure and the primary logs the decision to stop; the second worker's line can reach
    // the pipe after the primary's, so look for the primary's line rather than the last one.
    const stopLine = `cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE); stopping`;
    expect(fatal.filter((l) => l.msg === stopLine)).toHaveLength(1);
    expect(fatal.every((l) => l.msg.startsWith(`cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)`))).toBe(true);
    // No worker was respawned for a failure that would only repeat.
    expect(lines.filter((l) => l.msg.startsWith("worker died"))).toEqual([]);
    // "Within seconds" of the failure, measured from the first worker's failure to the primary's decision: starting
    // three processes under tsx takes what the machine's load makes it (8 s quiet, over 20 s on a busy 2-core host).
    const stopAt = fatal.find((l) => l.msg === stopLine)!.time;
    expect(stopAt - Math.min(...fatal.map((l) => l.time))).toBeLessThan(5_000);
  }, 150_000);
});

describe("one process on a port that is already taken", () => {
  it("exits with the same status and message (no workers)", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const dir = mkdtempSync(join(tmpdir(), "cluster-"));
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WORKERS: "1", PORT: String(port), HOST: "127.0.0.1", ARTIFACTS_DIR: dir, API_KEYS_FILE: join(dir, "keys.json"), LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(child);
    expect(await exitCode(child)).toBe(EXIT_CANNOT_LISTEN);
    taken.close();
    expect(output.stdout()).toContain(`"msg":"cannot listen on 127.0.0.1:${port}: the address is already in use (EADDRINUSE)"`);
  });
});

describe("WORKERS=2, a worker killed", () => {
  it("is respawned after 0.5 s (first crash in a row); SIGTERM then stops the primary and its workers with status 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cluster-"));
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "server", "main.ts")], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WORKERS: "2", PORT: String(port), HOST: "127.0.0.1", ARTIFACTS_DIR: dir, API_KEYS_FILE: join(dir, "keys.json"), LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = collectOutput(child);
    const workers = () => execFileSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).trim().split("\n").map(Number);
    await eventually(async () => (output.stdout().match(/"msg":"listening"/g) ?? []).length === 2, "two workers listening");
    const [first] = workers();
    process.kill(first, "SIGKILL");
    await eventually(() => output.stdout().includes('"msg":"worker died, starting another after a delay"'), "worker died line");
    const died = output.stdout().split("\n").find((l) => l.includes("worker died"))!;
    expect(JSON.parse(died)).toMatchObject({ pid: first, signal: "SIGKILL", crashesInARow: 1, delayMs: 500 });
    await eventually(async () => (output.stdout().match(/"msg":"listening"/g) ?? []).length === 3, "a third worker listening");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
  });
});

describe("respawn delay after other crashes", () => {
  it("doubles from 0.5 s with each crash in a row, capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(respawnDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect([RESPAWN_BASE_MS, RESPAWN_CAP_MS]).toEqual([500, 30000]);
  });
});
