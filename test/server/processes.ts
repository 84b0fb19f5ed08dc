// Child processes in multi-process tests: a free loopback port, waiting for a line of output, the exit code,
// and a real redis-server (apt-get install -y redis-server; without it the tests that need it fail, never skip).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export function freePort(): Promise<number> {
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
export function waitForLine(child: ChildProcess, pattern: RegExp, what: string, ms = 20_000): Promise<RegExpMatchArray> {
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

export function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));
}

/** Starts redis-server on 127.0.0.1:port without persistence and waits until it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  await waitForLine(redis, /Ready to accept connections/, "redis-server");
  return redis;
}

/** Collects a child's stdout and stderr as they come. */
export function collectOutput(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (err += c));
  return { stdout: () => out, stderr: () => err };
}

/** Polls `check` every 100 ms until it returns true or `ms` pass. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
