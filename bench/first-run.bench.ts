// First run (issue 25, goal 4): wall time of `make serve` on a fresh clone — npm ci, the compile, the drought build,
// the key — to a listening server that answers a drought request, on a terminal (a pty through util-linux `script`,
// so the output is what a person sees). Also the longest stretch without output before listening, and the time
// until what make serve builds after the server starts (the drought version's tiles and exports, the feed
// snapshots) is all published.
// Each run clones the project afresh into a temporary directory (DATA_DIR: the raw-data mirror), kills the server
// and its parents by pid, and removes the clone. Medians of RUNS (default 3).
// Run: npx tsx bench/first-run.bench.ts [--runs N] [--ref REF] [--source DIR] [--keep-log DIR]
//   --ref: the commit to clone (default HEAD of the source); --source: the repository (default this one).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataDir, PROJECT_ROOT } from "../lib/config.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const RUNS = Number(arg("runs", "3"));
const SOURCE = arg("source", PROJECT_ROOT);
const REF = arg("ref", "HEAD");
const KEEP_LOG = arg("keep-log", "");
/** Give up on a run after this long (the first run took ~240 s before issue 25). */
const TIMEOUT_MS = 15 * 60_000;

const median = (xs: number[]) => {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : NaN;
};
/** Terminal control sequences (colour, erase line), removed from what the pty printed. */
const ANSI = new RegExp(String.fromCharCode(27) + "\\[[0-9;]*[A-Za-z]", "g");

interface Run {
  /** Seconds from `make serve` to the "listening" line. */
  listen: number;
  /** … to the first 200 of GET /api/risk-map/drought. */
  answer: number;
  /** Seconds spent in npm ci (its line to the next step's first line). */
  npmCi: number;
  /** Longest stretch without any output before listening (progress redraws count as output). */
  silence: number;
  /** Where the silence ended: the line printed after it. */
  silenceBefore: string;
  /** Seconds until the current drought version holds its tiles and exports (NaN: not within the wait). */
  tilesComplete: number;
  /** Seconds until that and every feed snapshot and the sources status are published (NaN: not within the wait). */
  allPublished: number;
}

/** Every descendant pid of `pid` (children first found by /proc ppid), deepest last. */
function descendants(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(d)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of byParent.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function killTree(pid: number): void {
  for (const p of [...descendants(pid).reverse(), pid]) {
    try {
      process.kill(p, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

/** True when the current drought version is complete: tiles-index.json and no `deferred` in its manifest. */
function tilesCompleteIn(clone: string): boolean {
  try {
    const dir = realpathSync(join(clone, "artifacts", "current"));
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { deferred?: string[] };
    return manifest.deferred === undefined && existsSync(join(dir, "tiles-index.json"));
  } catch {
    return false;
  }
}

const SNAPSHOTS = ["flood", "wildfire", "heatwave", "storm", "sea_level_rise", "ports", "outbreaks", "sources"];

/** True when every snapshot `make serve` builds has a published version. */
function snapshotsIn(clone: string): boolean {
  return SNAPSHOTS.every((name) => existsSync(join(clone, "artifacts", "snapshots", name, "current", "manifest.json")));
}

async function oneRun(n: number): Promise<Run> {
  const clone = mkdtempSync(join(tmpdir(), "first-run-"));
  const git = spawnSync("git", ["clone", "-q", SOURCE, clone], { encoding: "utf8" });
  if (git.status !== 0) throw new Error(`git clone: ${git.stderr}`);
  spawnSync("git", ["-C", clone, "checkout", "-q", REF === "HEAD" ? spawnSync("git", ["-C", SOURCE, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim() : REF], { stdio: "inherit" });
  const port = 20000 + Math.floor(Math.random() * 20000);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir(), PORT: String(port), HOST: "127.0.0.1", TERM: "xterm" };
  for (const k of ["ARTIFACTS_DIR", "API_KEYS_FILE", "LOG_FORMAT", "LOG_LEVEL", "DEV_KEY_FILE", "NODE_ENV", "INIT_CWD", "npm_config_prefix"]) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith("npm_")) delete env[k];
  const t0 = performance.now();
  const proc = spawn("script", ["-qfec", "make serve", "/dev/null"], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: { t: number; text: string }[] = [];
  let lastOutput = t0;
  let silence = 0;
  let silenceBefore = "";
  let listenAt = NaN;
  let partial = "";
  const onData = (chunk: Buffer) => {
    const now = performance.now();
    const text = chunk.toString("utf8");
    if (Number.isNaN(listenAt) && now - lastOutput > silence) {
      silence = now - lastOutput;
      silenceBefore = text.replace(ANSI, "").split(/[\r\n]/).find((l) => l.trim()) ?? "";
    }
    lastOutput = now;
    partial += text;
    const parts = partial.split(/\r\n|\n|\r/);
    partial = parts.pop() ?? "";
    for (const p of parts) {
      const clean = p.replace(ANSI, "").trim();
      if (!clean) continue;
      lines.push({ t: (now - t0) / 1000, text: clean });
      if (Number.isNaN(listenAt) && /\blistening\b/.test(clean)) listenAt = now;
    }
  };
  proc.stdout.on("data", onData);
  proc.stderr.on("data", onData);
  try {
    while (Number.isNaN(listenAt)) {
      if (proc.exitCode !== null) throw new Error(`make serve exited ${proc.exitCode} before listening:\n${lines.slice(-20).map((l) => l.text).join("\n")}`);
      if (performance.now() - t0 > TIMEOUT_MS) throw new Error("make serve did not listen in time");
      await new Promise((r) => setTimeout(r, 20));
    }
    const key = readFileSync(join(clone, ".dev-key"), "utf8").trim();
    let answerAt = NaN;
    while (Number.isNaN(answerAt) && performance.now() - t0 < TIMEOUT_MS) {
      const status = await fetch(`http://127.0.0.1:${port}/api/risk-map/drought?lat=13.75&lng=100.5`, { headers: { "X-API-Key": key } }).then((r) => r.status, () => 0);
      if (status === 200) answerAt = performance.now();
      else await new Promise((r) => setTimeout(r, 20));
    }
    // What is built after listening: wait for the complete drought version and every snapshot, up to 10 min.
    let tilesAt = tilesCompleteIn(clone) ? listenAt : NaN;
    let allAt = !Number.isNaN(tilesAt) && snapshotsIn(clone) ? listenAt : NaN;
    const waitUntil = performance.now() + 10 * 60_000;
    while (Number.isNaN(allAt) && performance.now() < waitUntil) {
      await new Promise((r) => setTimeout(r, 200));
      if (Number.isNaN(tilesAt) && tilesCompleteIn(clone)) tilesAt = performance.now();
      if (!Number.isNaN(tilesAt) && snapshotsIn(clone)) allAt = performance.now();
    }
    const at = (re: RegExp) => lines.find((l) => re.test(l.text))?.t ?? NaN;
    const ciStart = at(/^npm ci:/);
    const ciEnd = lines.find((l) => l.t > ciStart && !/^npm ci:/.test(l.text) && !/^npm (warn|WARN)/.test(l.text))?.t ?? NaN;
    const run: Run = {
      listen: (listenAt - t0) / 1000,
      answer: (answerAt - t0) / 1000,
      npmCi: ciEnd - ciStart,
      silence: silence / 1000,
      silenceBefore,
      tilesComplete: (tilesAt - t0) / 1000,
      allPublished: (allAt - t0) / 1000,
    };
    if (KEEP_LOG) {
      mkdirSync(KEEP_LOG, { recursive: true });
      writeFileSync(join(KEEP_LOG, `first-run-${n}.log`), lines.map((l) => `${l.t.toFixed(1).padStart(7)}  ${l.text}`).join("\n") + "\n");
    }
    return run;
  } finally {
    killTree(proc.pid!);
    await new Promise((r) => (proc.exitCode !== null ? r(undefined) : proc.once("exit", r)));
    // A build the server started in the background may still be finishing: wait for it to go (killed above).
    await new Promise((r) => setTimeout(r, 500));
    rmSync(clone, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(dataDir())) throw new Error(`no data directory at ${dataDir()} (set DATA_DIR)`);
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun(i + 1);
    process.stderr.write(
      `run ${i + 1}: listening ${r.listen.toFixed(1)} s, drought answer ${r.answer.toFixed(1)} s, npm ci ${r.npmCi.toFixed(1)} s, longest silence ${r.silence.toFixed(1)} s (before "${r.silenceBefore.slice(0, 60)}"), tiles and exports ${r.tilesComplete.toFixed(1)} s, everything ${r.allPublished.toFixed(1)} s\n`,
    );
    runs.push(r);
  }
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "—");
  const row = (label: string, pick: (r: Run) => number) => `| ${label} | ${f(median(runs.map(pick)))} s | ${runs.map((r) => f(pick(r))).join(", ")} |`;
  console.log(
    [
      `Fresh clone of ${REF === "HEAD" ? "HEAD" : REF}, \`make serve\` on a pty (DATA_DIR the mirror), ${runs.length} runs; medians and each run.`,
      "",
      "| measure | median | runs |",
      "|---|---|---|",
      row("`make serve` to listening (goal ≤ 60 s)", (r) => r.listen),
      row("to the first drought answer (200)", (r) => r.answer),
      row("of which npm ci", (r) => r.npmCi),
      row("longest stretch without output before listening (goal ≤ 5 s)", (r) => r.silence),
      row("until the drought version with its tiles and exports is published", (r) => r.tilesComplete),
      row("until that and every feed snapshot are published", (r) => r.allPublished),
    ].join("\n"),
  );
}

await main();
