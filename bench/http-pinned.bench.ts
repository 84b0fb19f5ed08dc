// The per-request path measured the pinned way (issue 25): the server on core 0 (taskset), this process — the load
// generator, autocannon — on core 1, so the generator does not take the server's CPU. Side by side in one run:
//   GET drought against a bare Express route sending the same bytes (also on core 0), goal ≥ 0.8; against that route
//   listening as our server does (its request and response classes, server/http/express-messages.ts), what our
//   route's own work costs; and the floor — that route doing only the per-request work every authenticated answer
//   must do (http-load.ts floorExpress) — against it: the most any route of ours could reach;
//   POST batch-100 against GET /api/ping of the same server, goal ≥ 0.35 (issue 38, set when ping cost ~145 µs: the compute floor, ping + parse + 100 lookups + stringify, was then about 0.45);
//   POST batch-100 on a synthetic 1,000,000-cell grid against the published grid (the regional grid by default; the same 100 inland Thai points), goal ≥ 0.8.
// Then where a request's time goes: the server under --cpu-prof for GET drought and for POST batch-100, each CPU
// sample given to the innermost named stage on its stack (the middleware in server/app.ts, validation, the
// service, serialisation), divided by the requests answered. The profiler slows the server (~20 %): the shares are
// the figure to read, the microseconds are upper bounds.
// Run: npx tsx bench/http-pinned.bench.ts [--seconds S] [--pairs N]   (needs published artifacts: make artifacts; 2+
// cores; about 12 minutes with the defaults, 4 s and 3 pairs)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { pinSelf, startServer, type Started } from "./bench-server.ts";
import { bareExpress, floorExpress, load, median, syntheticMillion, thaiPoints, type LoadRequest } from "./http-load.ts";
import { rng } from "./random.ts";

const argSeconds = process.argv.indexOf("--seconds");
const SECONDS = argSeconds > 0 ? Number(process.argv[argSeconds + 1]) : 4;
const ROUNDS = 3;
/**
 * Fresh server processes per comparison: two processes of the same build differ by up to ±5 % in req/s for as long as
 * they live (measured here 2026-11-29: identical builds side by side, 1.06 and 1.02 over ten paired rounds each), so
 * one process pair's rounds agree with each other but not with the next pair's. The ratio is the median of PAIRS pairs.
 */
const argPairs = process.argv.indexOf("--pairs");
const PAIRS = argPairs > 0 ? Number(process.argv[argPairs + 1]) : 3;
if (!(SECONDS > 0) || !Number.isInteger(PAIRS) || PAIRS < 1) throw new Error("--seconds must be positive and --pairs a positive integer");
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();
const SERVER_CPU = "0";
const LOAD_CPU = "1";

const DROUGHT: LoadRequest = { path: "/api/risk-map/drought?lat=15.2&lng=102.1" };
const PING: LoadRequest = { path: "/api/ping" };
const batchOf = (locations: { lat: number; lng: number }[]): LoadRequest => ({
  path: "/api/risk-map/batch",
  method: "POST",
  body: JSON.stringify({ riskType: "drought", locations: locations.map((p, i) => ({ id: String(i), ...p })) }),
});
const BATCH = batchOf(thaiPoints(100, 7));

/**
 * Warm-up runs of each side before the measured rounds: a fresh server of ours answered at half to two thirds of its
 * rate for its first 3–10 s under load before the prototype change, at ~88 % in its first 4 s after it
 * (bench/gc-heap.bench.ts, 2026-11-29 05:38 and 09:08); a bare route for ~1 s.
 */
const WARMUPS = 2;

/** Alternates a and b ROUNDS times after WARMUPS each (both see the same machine state); medians and their ratio. */
async function paired(a: () => Promise<number>, b: () => Promise<number>) {
  for (let w = 0; w < WARMUPS; w++) {
    await a();
    await b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    as.push(await a());
    bs.push(await b());
  }
  return { a: median(as), b: median(bs), ratio: median(as) / median(bs) };
}

async function text(s: Started, req: LoadRequest): Promise<string> {
  const res = await fetch(s.base + req.path, { method: req.method ?? "GET", headers: { "x-api-key": s.key, "content-type": "application/json" }, body: req.body });
  if (res.status !== 200) throw new Error(`${req.path}: ${res.status}`);
  return res.text();
}

/** One fresh process pair's comparisons (see PAIRS). */
async function droughtVsBareOnce() {
  const s = await startServer(ARTIFACTS, {}, { cpu: SERVER_CPU });
  const body = await text(s, DROUGHT);
  const bodies = { "/api/risk-map/drought": { method: "get" as const, body, type: "application/json" } };
  const bare = await bareExpress(bodies, { cpu: SERVER_CPU });
  const r = await paired(
    () => load(s, DROUGHT, SECONDS),
    () => load({ base: bare.base, key: s.key }, DROUGHT, SECONDS),
  );
  await bare.stop();
  // What our route's own work costs: against the bare route listening as our server does (express-messages.ts).
  const same = await bareExpress(bodies, { cpu: SERVER_CPU, sameMessages: true });
  const rs = await paired(
    () => load(s, DROUGHT, SECONDS),
    () => load({ base: same.base, key: s.key }, DROUGHT, SECONDS),
  );
  // The ceiling of that: the same bare route doing only what every authenticated answer must (floorExpress).
  const floor = await floorExpress(DROUGHT.path.split("?")[0], body, s.key, { cpu: SERVER_CPU });
  const f = await paired(
    () => load({ base: floor.base, key: s.key }, DROUGHT, SECONDS),
    () => load({ base: same.base, key: s.key }, DROUGHT, SECONDS),
  );
  await floor.stop();
  await same.stop();
  const batch = await paired(
    () => load(s, BATCH, SECONDS),
    () => load(s, PING, SECONDS),
  );
  await s.stop();
  return {
    drought: r.a, bare: r.b, droughtVsBare: r.ratio,
    droughtSame: rs.a, bareSame: rs.b, droughtVsBareSame: rs.ratio,
    floor: f.a, floorBare: f.b, floorVsBare: f.ratio,
    batch: batch.a, ping: batch.b, batchVsPing: batch.ratio,
  };
}

type PairResult = Awaited<ReturnType<typeof droughtVsBareOnce>>;

/** PAIRS fresh process pairs; each figure the median over the pairs, and each pair's ratios kept. */
async function droughtVsBare() {
  const pairs: PairResult[] = [];
  for (let i = 0; i < PAIRS; i++) {
    pairs.push(await droughtVsBareOnce());
    const p = pairs[i];
    process.stderr.write(`pair ${i + 1}/${PAIRS}: GET drought/bare ${p.droughtVsBare.toFixed(2)}, drought/bare built as ours ${p.droughtVsBareSame.toFixed(2)}, floor/that ${p.floorVsBare.toFixed(2)}, batch/ping ${p.batchVsPing.toFixed(2)}\n`);
  }
  const mid = (k: keyof PairResult) => median(pairs.map((p) => p[k]));
  const each = (k: keyof PairResult) => pairs.map((p) => p[k].toFixed(2)).join(", ");
  const keys = Object.keys(pairs[0]) as (keyof PairResult)[];
  return { ...(Object.fromEntries(keys.map((k) => [k, mid(k)])) as PairResult), pairs: Object.fromEntries(keys.map((k) => [k, each(k)])) as Record<keyof PairResult, string> };
}

async function millionVsThai() {
  const r = rng(9);
  const req = batchOf(Array.from({ length: 100 }, () => ({ lat: 14.6 + r() * 1.3, lng: 99.5 + r() * 3.3 })));
  const million = await syntheticMillion(ARTIFACTS);
  const thai = await startServer(ARTIFACTS, {}, { cpu: SERVER_CPU });
  const big = await startServer(million, {}, { cpu: SERVER_CPU });
  for (const s of [thai, big]) {
    const found = (await text(s, req)).split('"found":true').length - 1;
    if (found !== 100) throw new Error(`batch on ${s === thai ? "the published grid" : "the 1M grid"}: ${found} of 100 found`);
  }
  const out = await paired(
    () => load(big, req, SECONDS),
    () => load(thai, req, SECONDS),
  );
  await thai.stop();
  await big.stop();
  rmSync(million, { recursive: true, force: true });
  return { million: out.a, thai: out.b, ratio: out.ratio };
}

/**
 * Named functions (`name` or `name@part of its file's path`) whose samples, callees' included, count as one stage;
 * innermost wins. Our own code's (dist/), or a package's where the path part names it (`@/node_modules/x/`).
 */
const STAGES: [stage: string, functions: string[]][] = [
  ["security headers", ["helmetMiddleware@/node_modules/helmet/"]],
  ["common headers, request hooks", ["commonHeadersLogMetrics"]],
  ["the two layers (entry, api), rest", ["entry", "api"]],
  ["routing gate", ["routingGate"]],
  ["auth (key hash)", ["authenticate"]],
  ["rate limit", ["consume"]],
  ["auth + rate limit, rest", ["authAndRateLimit"]],
  ["dispatch", ["dispatch", "runChain"]],
  ["logging and metrics (on finish)", ["logAndMeasure"]],
  ["body read and JSON parse", ["readJsonBody", "rawParser@/node_modules/body-parser/", "onData@/node_modules/raw-body/", "onEnd@/node_modules/raw-body/"]],
  ["validation (zod, or by hand for a batch)", ["parseOrThrow", "parseBatchBody"]],
  ["service (lookup, answer)", ["batchItem@/services/", "drought@/services/"]],
  ["handler, rest", ["batchAnswer", "drought@/routes/", "batch@/routes/"]],
  ["freshness flag", ["flag"]],
  ["ETag", ["etagOf"]],
  ["serialise and write", ["sendJson", "sendText"]],
];

interface CpuProfile {
  /** µs on the monotonic clock that process.hrtime reads (CLOCK_MONOTONIC on Linux), shared by every process. */
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Each stage's CPU per request over the samples taken from `fromUs` to `toUs` (the measured run, on hrtime's clock). */
function stageCosts(profile: CpuProfile, requests: number, fromUs: number, toUs: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<string, { stage: string; inFile?: string }[]>();
  for (const [stage, fns] of STAGES) {
    for (const f of fns) {
      const [name, inFile] = f.split("@");
      stageOf.set(name, [...(stageOf.get(name) ?? []), { stage, inFile }]);
    }
  }
  const ownCode = (url: string) => url.includes("/dist/");
  const inPackage = (inFile: string | undefined) => inFile?.startsWith("/node_modules/") === true;
  const stageFor = (fn: string, url: string) =>
    stageOf.get(fn)?.find((m) => (inPackage(m.inFile) ? url.includes(m.inFile!) : ownCode(url) && (m.inFile === undefined || url.includes(m.inFile))))?.stage;
  const totals = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const leaf = byId.get(profile.samples[i])!;
    const dt = profile.timeDeltas[i];
    at += dt;
    if (at < fromUs || at > toUs) continue;
    let stage: string | undefined;
    for (let id: number | undefined = leaf.id; id !== undefined && stage === undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      stage = stageFor(f.functionName, f.url);
    }
    if (leaf.callFrame.functionName === "(idle)") continue;
    busy += dt;
    const name = leaf.callFrame.functionName === "(garbage collector)" ? "garbage collection" : (stage ?? "Node and Express (HTTP parsing, sockets, router)");
    totals.set(name, (totals.get(name) ?? 0) + dt);
  }
  if (busy === 0) throw new Error("no CPU sample inside the measured run: the profile's clock is not hrtime's");
  return { perRequestUs: busy / requests, stages: [...totals].map(([stage, us]) => ({ stage, us: us / requests })).sort((a, b) => b.us - a.us) };
}

async function profiled(req: LoadRequest) {
  const dir = mkdtempSync(join(tmpdir(), "bench-prof-"));
  const previous = process.env.BENCH_SERVER_NODE_ARGS;
  process.env.BENCH_SERVER_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
  const s = await startServer(ARTIFACTS, {}, { cpu: SERVER_CPU });
  process.env.BENCH_SERVER_NODE_ARGS = previous;
  for (let w = 0; w < WARMUPS; w++) await load(s, req, SECONDS);
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const rps = await load(s, req, SECONDS);
  const toUs = Number(process.hrtime.bigint() / 1000n);
  await s.stop();
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error("the server wrote no CPU profile");
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
  rmSync(dir, { recursive: true, force: true });
  return { rps, ...stageCosts(profile, rps * SECONDS, fromUs, toUs) };
}

async function main() {
  if (availableParallelism() < 2) throw new Error("the pinned bench needs two cores (server on one, load generator on the other)");
  const built = spawnSync("make", ["-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("make build failed");
  pinSelf(LOAD_CPU);
  const a = await droughtVsBare();
  process.stderr.write(`GET drought ${a.drought.toFixed(0)} vs bare ${a.bare.toFixed(0)}; ${a.droughtSame.toFixed(0)} vs bare built as ours ${a.bareSame.toFixed(0)}; floor ${a.floor.toFixed(0)} vs that ${a.floorBare.toFixed(0)}; batch ${a.batch.toFixed(0)} vs ping ${a.ping.toFixed(0)}\n`);
  const m = await millionVsThai();
  process.stderr.write(`batch 1M ${m.million.toFixed(0)} vs Thai ${m.thai.toFixed(0)}\n`);
  const pd = await profiled(DROUGHT);
  const pb = await profiled(BATCH);
  const f0 = (x: number) => x.toFixed(0);
  const pct = (x: number) => `**${x.toFixed(2)}**`;
  console.log(`Server pinned to core ${SERVER_CPU}, autocannon (32 connections, ${SECONDS} s a run) to core ${LOAD_CPU}; in each of ${PAIRS} fresh process pairs, medians of ${ROUNDS} alternating rounds after ${WARMUPS} warm-up runs each; the figures
below are the medians over the pairs, each column on its own (so ours / baseline need not equal the ratio, which is the
median of the pairs' ratios, each pair's in brackets); the 1M-grid row is one pair's.

| pair (same run) | ours req/s | baseline req/s | ratio | goal |
|---|---|---|---|---|
| GET /api/risk-map/drought vs a bare Express route sending the same bytes | ${f0(a.drought)} | ${f0(a.bare)} | ${pct(a.droughtVsBare)} (${a.pairs.droughtVsBare}) | ≥ 0.8 |
| GET /api/risk-map/drought vs that bare route listening as our server does (server/http/express-messages.ts) | ${f0(a.droughtSame)} | ${f0(a.bareSame)} | ${pct(a.droughtVsBareSame)} (${a.pairs.droughtVsBareSame}) | what our route's own work costs |
| the floor (that route doing only the work every authenticated answer must: key hash, headers, ETag, metrics) vs that route | ${f0(a.floor)} | ${f0(a.floorBare)} | ${pct(a.floorVsBare)} (${a.pairs.floorVsBare}) | the ceiling of the row above |
| POST /api/risk-map/batch (100 points) vs GET /api/ping | ${f0(a.batch)} | ${f0(a.ping)} | ${pct(a.batchVsPing)} (${a.pairs.batchVsPing}) | ≥ 0.35 |
| POST batch-100, synthetic 1,000,000-cell grid vs the published grid (the regional 1° grid; same 100 inland Thai points) | ${f0(m.million)} | ${f0(m.thai)} | ${pct(m.ratio)} | ≥ 0.8 |

Where a request's CPU time goes (a fresh server under --cpu-prof, which slows it, after ${WARMUPS} warm-up runs; the measured run only; each sample to the innermost named stage):

| stage | GET drought µs/request | POST batch-100 µs/request |
|---|---|---|
${[...new Set([...pd.stages, ...pb.stages].map((x) => x.stage))]
  .map((stage) => `| ${stage} | ${(pd.stages.find((x) => x.stage === stage)?.us ?? 0).toFixed(1)} | ${(pb.stages.find((x) => x.stage === stage)?.us ?? 0).toFixed(1)} |`)
  .join("\n")}
| **busy per request (profiled: ${f0(pd.rps)} and ${f0(pb.rps)} req/s)** | **${pd.perRequestUs.toFixed(0)}** | **${pb.perRequestUs.toFixed(0)}** |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
