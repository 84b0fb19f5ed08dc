// The compiled server (dist/, as `npm start` runs it) over an artifacts directory, with one key of an unlimited
// "bench" plan; resolves once /readyz answers 200. Shared by the benches that load a real server over loopback.
import { freePort } from "../test/server/processes.ts";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/config.ts";
import { generateKey, hashKey, writeKeyFile } from "../server/auth/key-store.ts";

export interface Started {
  base: string;
  key: string;
  pid: number;
  readyMs: number;
  /** What the server printed on stdout so far (with `captureStdout`; e.g. --trace-gc-nvp lines). */
  stdout(): string;
  stop(): Promise<void>;
}

/** How a bench runs a process of node: pinned to `cpu` (taskset -c), under `wrap` (a command and its arguments before node's, e.g. valgrind's). */
export interface NodeCommand {
  cpu?: string;
  wrap?: string[];
}

/** The program and arguments that run node with `argv` as `opts` says. */
export function nodeCommand(argv: string[], opts: NodeCommand): [string, string[]] {
  const inner = [...(opts.wrap ?? []), process.execPath, ...argv];
  if (opts.cpu !== undefined) return ["taskset", ["-c", opts.cpu, ...inner]];
  return [inner[0], inner.slice(1)];
}

/**
 * Starts the server; `opts.cpu` pins it to those cores (taskset -c, e.g. "0") so a load generator pinned elsewhere
 * (pinSelf) does not take its CPU; `opts.wrap` runs it under another program (valgrind: bench/http-instructions.bench.ts).
 */
export async function startServer(artifacts: string, env: Record<string, string> = {}, opts: NodeCommand & { captureStdout?: boolean } = {}): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), "bench-keys-"));
  const key = generateKey();
  writeKeyFile(join(dir, "keys.json"), { keys: [{ id: "key_bench", hash: hashKey(key), plan: "bench", status: "active", createdAt: new Date().toISOString() }] });
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  const t0 = performance.now();
  // The compiled server, as `npm start` runs it in production (main() builds it first when stale).
  // BENCH_SERVER_NODE_ARGS adds node flags to the server only (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const argv = [...nodeArgs, join(PROJECT_ROOT, "dist/server/main.js")];
  const [program, args] = nodeCommand(argv, opts);
  const proc = spawn(program, args, {
    env: {
      ...process.env,
      ARTIFACTS_DIR: artifacts,
      API_KEYS_FILE: join(dir, "keys.json"),
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      RATE_LIMITS: JSON.stringify({ bench: { points: 1e9, duration: 60 } }),
      ...env,
    },
    stdio: ["ignore", opts.captureStdout ? "pipe" : "inherit", "inherit"],
  });
  let printed = "";
  proc.stdout?.on("data", (d: Buffer) => (printed += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  let exited: number | null | undefined;
  proc.once("exit", (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (code ${exited}) before it was ready`);
    try {
      if ((await fetch(base + "/readyz")).status === 200) break;
    } catch {
      // starting
    }
    // Under valgrind the start takes minutes.
    if (performance.now() - t0 > (opts.wrap ? 900_000 : 120_000)) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyMs = performance.now() - t0;
  return {
    base,
    key,
    pid: proc.pid!,
    readyMs,
    stdout: () => printed,
    stop: () => new Promise((res) => (proc.once("exit", () => res()), proc.kill("SIGTERM"))),
  };
}

/** Pins this process (every thread) to `cpu` (taskset -pc), e.g. the load generator to the core the server is not on. */
export function pinSelf(cpu: string): void {
  const r = spawnSync("taskset", ["-a", "-p", "-c", cpu, String(process.pid)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`taskset failed: ${r.stderr}`);
}
