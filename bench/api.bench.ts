// API benchmarks (issue 3). In process: nearest-cell lookup + response assembly (service.drought) and a batch of
// 100 (p50/p99). Over HTTP on loopback (autocannon): GET drought, POST score and POST batch-100, each beside the
// trivial authenticated GET /api/ping of the same server in the same run, as ratios. Start-up time and memory
// with the Thailand artifacts and with a synthetic 1,000,000-cell artifact, and batch-100 over HTTP on that grid
// against the Thai one. The server runs compiled (dist/, as `npm start`).
// Run: npx tsx bench/api.bench.ts [--seconds S]   (needs published artifacts: make artifacts)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { openDroughtService } from "../server/services/drought-service.ts";
import { readManifest } from "../formats/manifest.ts";
import { startServer, type Started } from "./bench-server.ts";
import { bareExpress, load, median, syntheticMillion, thaiPoints } from "./http-load.ts";
import { rng } from "./random.ts";

const argSeconds = process.argv.indexOf("--seconds");
const SECONDS = argSeconds > 0 ? Number(process.argv[argSeconds + 1]) : 8;
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};


async function inProcess() {
  const { service, store } = await openDroughtService(ARTIFACTS, { pollMs: 3_600_000 });
  const pts = thaiPoints(10_000);
  for (const p of pts) service.drought(p.lat, p.lng); // warm-up
  const single: number[] = [];
  for (let rep = 0; rep < 20; rep++) {
    for (const p of pts) {
      const t0 = process.hrtime.bigint();
      service.drought(p.lat, p.lng);
      single.push(Number(process.hrtime.bigint() - t0));
    }
  }
  const batch: number[] = [];
  for (let rep = 0; rep < 2000; rep++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) {
      const p = pts[(rep * 100 + i) % pts.length];
      service.batchItem(undefined, p.lat, p.lng);
    }
    batch.push(Number(process.hrtime.bigint() - t0));
  }
  store.stop();
  return {
    lookupP50us: quantile(single, 0.5) / 1000,
    lookupP99us: quantile(single, 0.99) / 1000,
    batch100P50us: quantile(batch, 0.5) / 1000,
    batch100P99us: quantile(batch, 0.99) / 1000,
  };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

async function http() {
  const s = await startServer(ARTIFACTS);
  const batchBody = JSON.stringify({ riskType: "drought", locations: thaiPoints(100, 7).map((p, i) => ({ id: String(i), ...p })) });
  const out: Record<string, number> = {};
  // Alternate the trivial route and each real route, so both see the same machine state.
  const pairs: [string, Parameters<typeof load>[1]][] = [
    ["drought", { path: "/api/risk-map/drought?lat=15.2&lng=102.1" }],
    ["score", { path: "/api/risk-map/score", method: "POST", body: JSON.stringify({ lat: 15.2, lng: 102.1, riskType: "drought" }) }],
    ["batch100", { path: "/api/risk-map/batch", method: "POST", body: batchBody }],
  ];
  await load(s, { path: "/api/ping" }, SECONDS); // warm-up
  for (const [name, req] of pairs) {
    const ping = await load(s, { path: "/api/ping" }, SECONDS);
    const real = await load(s, req, SECONDS);
    out[`${name}Rps`] = real;
    out[`${name}PingRps`] = ping;
    out[`${name}Ratio`] = real / ping;
    process.stderr.write(`${name}: ${real.toFixed(0)} req/s vs ping ${ping.toFixed(0)} req/s (${((100 * real) / ping).toFixed(0)} %)\n`);
  }
  // Goal 1: batch-100 asking for compression (brotli quality 2, in line) against the same without.
  const plain = pairs[2][1];
  const zipped = { ...plain, headers: { "accept-encoding": "gzip, br" } };
  const rounds: Record<"plain" | "zipped", number[]> = { plain: [], zipped: [] };
  for (let round = 0; round < 2; round++) {
    rounds.plain.push(await load(s, plain, SECONDS));
    rounds.zipped.push(await load(s, zipped, SECONDS));
  }
  out.batch100PlainRps = median(rounds.plain);
  out.batch100CompressedRps = median(rounds.zipped);
  process.stderr.write(`batch-100 compressed: ${out.batch100CompressedRps.toFixed(0)} vs ${out.batch100PlainRps.toFixed(0)} req/s\n`);
  await s.stop();
  return out;
}

/** Goal 1: each route against a bare Express route sending the same bytes; goal 3: WORKERS=auto against one. */
async function againstBareAndWorkers() {
  const s = await startServer(ARTIFACTS);
  const batchBody = JSON.stringify({ riskType: "drought", locations: thaiPoints(100, 7).map((p, i) => ({ id: String(i), ...p })) });
  const h = { "x-api-key": s.key, "content-type": "application/json" };
  const drought = await (await fetch(`${s.base}/api/risk-map/drought?lat=15.2&lng=102.1`, { headers: h })).text();
  const score = await (await fetch(`${s.base}/api/risk-map/score`, { method: "POST", headers: h, body: JSON.stringify({ lat: 15.2, lng: 102.1, riskType: "drought" }) })).text();
  const batch = await (await fetch(`${s.base}/api/risk-map/batch`, { method: "POST", headers: h, body: batchBody })).text();
  const bare = await bareExpress({
    "/api/risk-map/drought": { method: "get", body: drought, type: "application/json" },
    "/api/risk-map/score": { method: "post", body: score, type: "application/json" },
    "/api/risk-map/batch": { method: "post", body: batch, type: "application/json" },
  });
  const asBare = (b: string): Started => ({ ...s, base: b });
  const out: Record<string, number> = {};
  const cases: [string, Parameters<typeof load>[1]][] = [
    ["drought", { path: "/api/risk-map/drought?lat=15.2&lng=102.1" }],
    ["score", { path: "/api/risk-map/score", method: "POST", body: JSON.stringify({ lat: 15.2, lng: 102.1, riskType: "drought" }) }],
    ["batch100", { path: "/api/risk-map/batch", method: "POST", body: batchBody }],
  ];
  await load(asBare(bare.base), cases[0][1], SECONDS); // warm-up
  for (const [name, req] of cases) {
    const base = await load(asBare(bare.base), req, SECONDS);
    const ours = await load(s, req, SECONDS);
    out[`${name}VsBare`] = ours / base;
    process.stderr.write(`${name}: ${ours.toFixed(0)} req/s vs bare Express ${base.toFixed(0)} req/s (${((100 * ours) / base).toFixed(0)} %)\n`);
  }
  await bare.stop();
  await s.stop();
  // Goal 3: one worker against WORKERS=auto (two on this machine), the load generator sharing the same two cores.
  const rps: Record<string, number[]> = { one: [], auto: [] };
  for (let round = 0; round < 2; round++) {
    for (const [label, workers] of [["one", "1"], ["auto", "auto"]] as const) {
      const w = await startServer(ARTIFACTS, { WORKERS: workers });
      await load(w, cases[0][1], SECONDS);
      rps[label].push(await load(w, cases[0][1], SECONDS));
      await w.stop();
    }
  }
  out.oneWorkerRps = median(rps.one);
  out.autoWorkersRps = median(rps.auto);
  process.stderr.write(`WORKERS: 1 → ${out.oneWorkerRps.toFixed(0)} req/s, auto → ${out.autoWorkersRps.toFixed(0)} req/s\n`);
  return out;
}

/**
 * Goal 2 over HTTP: batch-100 against the Thai grid and against the 1,000,000-cell grid, two servers loaded in turn,
 * the same 100 points (inland, inside both grids, all answered with a cell).
 */
async function millionOverHttp(million: string) {
  const r = rng(9);
  const locations = Array.from({ length: 100 }, (_, i) => ({ id: String(i), lat: 14.6 + r() * 1.3, lng: 99.5 + r() * 3.3 }));
  const req = { path: "/api/risk-map/batch", method: "POST" as const, body: JSON.stringify({ riskType: "drought", locations }) };
  const thai = await startServer(ARTIFACTS);
  const big = await startServer(million);
  for (const s of [thai, big]) {
    const answer = await (await fetch(s.base + req.path, { method: "POST", headers: { "x-api-key": s.key, "content-type": "application/json" }, body: req.body })).text();
    const found = answer.split('"found":true').length - 1;
    if (found !== 100) throw new Error(`batch on ${s === thai ? "the Thai grid" : "the 1M grid"}: ${found} of 100 found`);
    await load(s, req, SECONDS); // warm-up
  }
  const rounds: Record<"thai" | "million", number[]> = { thai: [], million: [] };
  for (let round = 0; round < 2; round++) {
    rounds.thai.push(await load(thai, req, SECONDS));
    rounds.million.push(await load(big, req, SECONDS));
  }
  await thai.stop();
  await big.stop();
  const out = { thaiRps: median(rounds.thai), millionRps: median(rounds.million) };
  process.stderr.write(`batch-100 over HTTP: Thai grid ${out.thaiRps.toFixed(0)} req/s, 1M grid ${out.millionRps.toFixed(0)} req/s\n`);
  return out;
}

async function startupAndMemory(label: string, artifacts: string) {
  const s = await startServer(artifacts);
  const idle = rssMb(s.pid);
  const pts = thaiPoints(2000, 11);
  for (const p of pts) await fetch(`${s.base}/api/risk-map/drought?lat=${p.lat.toFixed(4)}&lng=${p.lng.toFixed(4)}`, { headers: { "x-api-key": s.key } });
  const afterQueries = rssMb(s.pid);
  await s.stop();
  process.stderr.write(`${label}: ready in ${s.readyMs.toFixed(0)} ms, RSS ${idle.toFixed(0)} MB idle, ${afterQueries.toFixed(0)} MB after 2000 queries\n`);
  return { readyMs: s.readyMs, rssIdleMb: idle, rssAfter2000QueriesMb: afterQueries };
}

async function main() {
  const built = spawnSync("make", ["-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("make build failed");
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, seconds: SECONDS };
  results.inProcess = await inProcess();
  process.stderr.write(`in process: ${JSON.stringify(results.inProcess)}\n`);
  results.http = await http();
  results.bareAndWorkers = await againstBareAndWorkers();
  results.startupThailand = await startupAndMemory("Thailand artifacts", ARTIFACTS);
  const million = await syntheticMillion(ARTIFACTS);
  const gridBytes = readManifest(join(million, "current")).artifacts["drought-grid.bin"].bytes;
  results.startupMillion = { ...(await startupAndMemory("synthetic 1,000,000 cells", million)), gridBytes };
  results.millionOverHttp = await millionOverHttp(million);
  rmSync(million, { recursive: true, force: true });
  mkdirSync(join(PROJECT_ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, "bench/results/api.json"), JSON.stringify(results, null, 2) + "\n");
  const p = results.inProcess as Record<string, number>;
  const h = results.http as Record<string, number>;
  const t = results.startupThailand as Record<string, number>;
  const mm = results.startupMillion as Record<string, number>;
  const bw = results.bareAndWorkers as Record<string, number>;
  const mh = results.millionOverHttp as Record<string, number>;
  console.log(`| API metric | value |
|---|---|
| nearest-cell lookup + response assembly, in process | p50 ${p.lookupP50us.toFixed(2)} µs, p99 ${p.lookupP99us.toFixed(2)} µs |
| batch of 100, in process | p50 ${p.batch100P50us.toFixed(1)} µs, p99 ${p.batch100P99us.toFixed(1)} µs |
| GET /api/risk-map/drought vs GET /api/ping (same server, same run) | ${h.droughtRps.toFixed(0)} vs ${h.droughtPingRps.toFixed(0)} req/s = ${(100 * h.droughtRatio).toFixed(0)} % |
| POST /api/risk-map/score vs ping | ${h.scoreRps.toFixed(0)} vs ${h.scorePingRps.toFixed(0)} req/s = ${(100 * h.scoreRatio).toFixed(0)} % |
| POST /api/risk-map/batch (100 locations) vs ping | ${h.batch100Rps.toFixed(0)} vs ${h.batch100PingRps.toFixed(0)} req/s = ${(100 * h.batch100Ratio).toFixed(0)} % |
| POST batch-100 with \`Accept-Encoding: gzip, br\` (brotli quality 2, in line) vs without, same server | ${h.batch100CompressedRps.toFixed(0)} vs ${h.batch100PlainRps.toFixed(0)} req/s = ${((100 * h.batch100CompressedRps) / h.batch100PlainRps).toFixed(0)} % |
| GET drought / POST score / POST batch-100 vs a bare Express route sending the same bytes (separate process) | ${(100 * bw.droughtVsBare).toFixed(0)} % / ${(100 * bw.scoreVsBare).toFixed(0)} % / ${(100 * bw.batch100VsBare).toFixed(0)} % |
| WORKERS=auto vs WORKERS=1, GET drought (autocannon on the same 2 cores) | ${bw.autoWorkersRps.toFixed(0)} vs ${bw.oneWorkerRps.toFixed(0)} req/s = ${(bw.autoWorkersRps / bw.oneWorkerRps).toFixed(2)}× |
| start-up to ready, Thailand artifacts | ${t.readyMs.toFixed(0)} ms, RSS ${t.rssIdleMb.toFixed(0)} MB (${t.rssAfter2000QueriesMb.toFixed(0)} MB after 2,000 queries) |
| start-up to ready, synthetic 1,000,000 cells (${(mm.gridBytes / 1e6).toFixed(0)} MB grid) | ${mm.readyMs.toFixed(0)} ms, RSS ${mm.rssIdleMb.toFixed(0)} MB (${mm.rssAfter2000QueriesMb.toFixed(0)} MB after 2,000 queries) |
| POST batch-100 over HTTP, synthetic 1,000,000-cell grid vs Thai grid (two servers in turn, the same 100 inland points) | ${mh.millionRps.toFixed(0)} vs ${mh.thaiRps.toFixed(0)} req/s = ${((100 * mh.millionRps) / mh.thaiRps).toFixed(0)} % |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
