// Where GET drought's gap to a bare Express route goes (issue 38): garbage collection, and how it grows with the live
// heap of the process. Each row runs one server pinned to core 0 under --trace-gc-nvp while autocannon (core 1) loads
// it; from the GC lines of the measured window: scavenges, their mean pause, the bytes they promote, and all GC pause
// per request. Rows: a bare Express route (fixed bytes) alone and with 20 and 60 MB of live small objects; our server
// on drought-only artifacts (a small heap) and on the published artifacts (every snapshot loaded), GET drought in the
// first seconds after start and once warmed up.
// Run: npx tsx bench/gc-heap.bench.ts [--seconds S]   (needs published artifacts: make artifacts; 2+ cores)
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, join } from "node:path";
import autocannon from "autocannon";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { pinSelf, startServer } from "./bench-server.ts";
import { freePort } from "../test/server/processes.ts";

const argSeconds = process.argv.indexOf("--seconds");
const SECONDS = argSeconds > 0 ? Number(process.argv[argSeconds + 1]) : 4;
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();
const DROUGHT = "/api/risk-map/drought?lat=15.2&lng=102.1";

interface Row {
  what: string;
  rps: number;
  scavenges: number;
  scavengeMs: number;
  promotedKbPerRequest: number;
  gcUsPerRequest: number;
  heapMb: number;
}

/** The GC lines printed after `from` (one per collection: "gc=s" a scavenge, others mark-compacts). */
function gcStats(text: string, requests: number) {
  const lines = text.split("\n").filter((l) => / gc=\w+ /.test(l));
  const num = (l: string, key: string) => Number(new RegExp(`\\b${key}=([\\d.]+)`).exec(l)?.[1] ?? 0);
  const scavenges = lines.filter((l) => l.includes(" gc=s "));
  const pause = lines.reduce((t, l) => t + num(l, "pause"), 0);
  return {
    scavenges: scavenges.length,
    scavengeMs: scavenges.length ? scavenges.reduce((t, l) => t + num(l, "pause"), 0) / scavenges.length : 0,
    promotedKbPerRequest: scavenges.reduce((t, l) => t + num(l, "promoted"), 0) / 1024 / requests,
    gcUsPerRequest: (pause * 1000) / requests,
    heapMb: lines.length ? Math.max(...lines.map((l) => num(l, "total_size_before"))) / 1e6 : 0,
  };
}

/** Loads `url` `warmUps` times, then once measured, and reads the GC lines the measured run produced. */
async function measure(what: string, url: string, key: string, output: () => string, warmUps = 1): Promise<Row> {
  const headers = { "x-api-key": key };
  for (let i = 0; i < warmUps; i++) await autocannon({ url, headers, connections: 32, duration: SECONDS });
  const mark = output().length;
  const r = await autocannon({ url, headers, connections: 32, duration: SECONDS });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${what}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { what, rps: r.requests.average, ...gcStats(output().slice(mark), r.requests.total) };
}

/** A bare Express route sending `body`, with `liveMb` MB of small live objects (~100 B each) held for the run. */
async function bareRow(body: string, liveMb: number): Promise<Row> {
  const port = await freePort();
  const script = `import express from "express";
globalThis.kept = Array.from({ length: ${liveMb * 10_000} }, (_, i) => ({ a: i, b: "s" + i, c: [i] }));
const app = express(); app.disable("x-powered-by"); app.set("etag", false);
app.get("/api/risk-map/drought", (req, res) => { res.type("application/json").send(${JSON.stringify(body)}); });
app.listen(${port}, "127.0.0.1");`;
  const proc = spawn("taskset", ["-c", "0", process.execPath, "--trace-gc-nvp", "--input-type=module", "-e", script], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the bare route exited ${proc.exitCode}`);
    if (await fetch(base + DROUGHT).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await measure(`bare Express route${liveMb ? `, ${liveMb} MB of live objects` : ""}`, base + DROUGHT, "", () => out);
  } finally {
    await new Promise<void>((res) => (proc.once("exit", () => res()), proc.kill("SIGTERM")));
  }
}

/** An artifacts directory holding only the published drought version (no feed, outbreak or port snapshots). */
function droughtOnly(artifacts: string): string {
  const dir = mkdtempSync(join(tmpdir(), "bench-drought-only-"));
  const version = realpathSync(join(artifacts, "current"));
  mkdirSync(join(dir, "versions"));
  symlinkSync(version, join(dir, "versions", basename(version)));
  symlinkSync(join("versions", basename(version)), join(dir, "current"));
  if (readlinkSync(join(dir, "current")) !== join("versions", basename(version))) throw new Error("current link");
  return dir;
}

/** Our server's GET drought: the first run after start (no warm-up), then after `warmUps` more runs. */
async function ourRows(label: string, artifacts: string, warmUps: number): Promise<Row[]> {
  const previous = process.env.BENCH_SERVER_NODE_ARGS;
  process.env.BENCH_SERVER_NODE_ARGS = `${previous ?? ""} --trace-gc-nvp`;
  const s = await startServer(artifacts, {}, { cpu: "0", captureStdout: true });
  if (previous === undefined) delete process.env.BENCH_SERVER_NODE_ARGS;
  else process.env.BENCH_SERVER_NODE_ARGS = previous;
  try {
    const first = await measure(`our server, ${label}: GET drought, the first ${SECONDS} s after start`, s.base + DROUGHT, s.key, s.stdout, 0);
    const warm = await measure(`our server, ${label}: GET drought after ${warmUps} runs of ${SECONDS} s`, s.base + DROUGHT, s.key, s.stdout, warmUps);
    return [first, warm];
  } finally {
    await s.stop();
  }
}

async function main() {
  if (availableParallelism() < 2) throw new Error("the GC bench needs two cores (server on one, load generator on the other)");
  const built = spawnSync("make", ["-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("make build failed");
  pinSelf("1");
  const probe = await startServer(ARTIFACTS, {}, {});
  const body = await (await fetch(probe.base + DROUGHT, { headers: { "x-api-key": probe.key } })).text();
  await probe.stop();
  const rows: Row[] = [];
  for (const mb of [0, 20, 60]) {
    process.stderr.write(`bare route, ${mb} MB live\n`);
    rows.push(await bareRow(body, mb));
  }
  const small = droughtOnly(ARTIFACTS);
  try {
    process.stderr.write("our server, drought-only artifacts\n");
    rows.push(...(await ourRows("drought-only artifacts", small, 2)));
  } finally {
    rmSync(small, { recursive: true, force: true });
  }
  process.stderr.write("our server, every snapshot\n");
  rows.push(...(await ourRows("every snapshot", ARTIFACTS, 2)));

  const f1 = (x: number) => x.toFixed(1);
  console.log(`Each server alone on core 0, autocannon (32 connections, ${SECONDS} s a run; the bare routes after one warm-up run) on core 1, under --trace-gc-nvp.\n`);
  console.log("| server and request | req/s | scavenges | mean scavenge pause ms | promoted KB/request | all GC pause µs/request | largest heap seen MB |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.what} | ${r.rps.toFixed(0)} | ${r.scavenges} | ${f1(r.scavengeMs)} | ${f1(r.promotedKbPerRequest)} | ${f1(r.gcUsPerRequest)} | ${r.heapMb.toFixed(0)} |`);
  console.log(
    "\nThe promoted column is what each request leaves in the old generation (the bare routes' requests are built as Node " +
      "builds them; ours with Express's prototypes in place, server/http/express-messages.ts). Our server collects the " +
      "garbage its start-up left before it listens (server/startup-heap.ts); compare its first seconds with its warmed " +
      "rows, and both with the bare route's: bench/RESULTS.md keeps the runs before and after.",
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
