// Start-up (issue 12, goal 4): time from spawning the server to /readyz answering 200, and its resident memory
// then, for the compiled start (node dist/server/main.js, `npm start`) against the tsx one, side by side; on the
// Thai drought artifacts alone (a private copy of the current version) and on a synthetic 1,000,000-cell grid
// (npm run -s bench:grid). Medians of 5. Run: npx tsx bench/startup.bench.ts (after `npm run build`).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { artifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { generateKey, hashKey, writeKeyFile } from "../server/auth/key-store.ts";

const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const work = mkdtempSync(join(tmpdir(), "bench-startup-"));

function droughtOnly(): string {
  const src = realpathSync(join(process.env.ARTIFACTS_DIR ?? artifactsDir(), "current"));
  const dir = join(work, "thai");
  mkdirSync(join(dir, "versions"), { recursive: true });
  cpSync(src, join(dir, "versions", basename(src)), { recursive: true });
  symlinkSync(join("versions", basename(src)), join(dir, "current"));
  return dir;
}

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
  } catch {
    return NaN;
  }
}

async function startOnce(cmd: string[], artifacts: string, keys: string): Promise<{ ms: number; rssMb: number }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t0 = performance.now();
  const proc = spawn(cmd[0], cmd.slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ARTIFACTS_DIR: artifacts, API_KEYS_FILE: keys, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", WORKERS: "1" },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${cmd.join(" ")} exited ${proc.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - t0;
    // tsx runs the server in a child process: measure the deepest one.
    const pids = spawnSync("pgrep", ["-P", String(proc.pid)], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);
    return { ms, rssMb: rssKb(pids.length ? pids.at(-1)! : proc.pid!) / 1024 };
  } finally {
    proc.kill("SIGTERM");
    await new Promise((r) => proc.once("exit", r));
  }
}

async function main() {
  if (!existsSync(join(PROJECT_ROOT, "dist", "server", "main.js"))) throw new Error("run `npm run build` first");
  const keys = join(work, "keys.json");
  writeKeyFile(keys, { keys: [{ id: "key_b", hash: hashKey(generateKey()), plan: "enterprise", status: "active", createdAt: "2026-01-01T00:00:00.000Z" }] });
  const thai = droughtOnly();
  const big = join(work, "big");
  const gen = spawnSync(process.execPath, ["--import", "tsx", "bench/synthetic-grid.ts", "--cells", "1000000", "--out", big, "--from", thai], { cwd: PROJECT_ROOT, encoding: "utf8" });
  if (gen.status !== 0) throw new Error(gen.stderr);
  const compiled = [process.execPath, join(PROJECT_ROOT, "dist", "server", "main.js")];
  const tsx = [join(PROJECT_ROOT, "node_modules", ".bin", "tsx"), join(PROJECT_ROOT, "server", "main.ts")];
  const rows: string[] = [];
  const results: Record<string, unknown> = {};
  for (const [label, dir] of [["Thai drought artifacts", thai], ["1,000,000-cell grid", big]] as const) {
    const by: Record<string, { ms: number; rssMb: number }> = {};
    for (const [name, cmd] of [["compiled", compiled], ["tsx", tsx]] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await startOnce(cmd, dir, keys));
      by[name] = { ms: median(runs.map((r) => r.ms)), rssMb: median(runs.map((r) => r.rssMb)) };
      process.stderr.write(`${label} ${name}: ${by[name].ms.toFixed(0)} ms, ${by[name].rssMb.toFixed(0)} MB\n`);
    }
    results[label] = by;
    rows.push(`| ${label}, \`npm start\` (compiled) | ready ${by.compiled.ms.toFixed(0)} ms, RSS ${by.compiled.rssMb.toFixed(0)} MB | tsx: ready ${by.tsx.ms.toFixed(0)} ms (${(by.tsx.ms / by.compiled.ms).toFixed(2)}× slower), RSS ${by.tsx.rssMb.toFixed(0)} MB |`);
  }
  mkdirSync(join(PROJECT_ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, "bench", "results", "startup.json"), JSON.stringify(results, null, 2) + "\n");
  rmSync(work, { recursive: true, force: true });
  process.stdout.write(["| start-up (median of 5) | compiled | side by side |", "|---|---|---|", ...rows, "", "Goals: Thai ready ≤ 500 ms and RSS ≤ 120 MB; 1M-cell ready ≤ 1 s."].join("\n") + "\n");
}

main().catch((err) => {
  rmSync(work, { recursive: true, force: true });
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
