// Admission control under a burst (issue 24): 1,000 simultaneous batch-100 POSTs at the compiled server on
// loopback, each on its own connection, while two probers in worker threads (their own event loops, so the burst's
// client work does not delay them) send GET /healthz every 5 ms, answered or not (open loop): one to the API port,
// one to the health listener (HEALTH_PORT, server/health/: a thread of its own answering from the main loop's
// heartbeat). The server is pinned to core 0, the load generator and probers to core 1. Reports /healthz latency
// p50/p99/max on both during the burst and how the batches were answered (200 / 503), with the default admission
// limits and with admission effectively off (limits of 1,000,000), side by side in the same run.
// Run: npx tsx bench/admission.bench.ts   (needs published artifacts: make artifacts; ARTIFACTS_DIR to choose)
import { spawn, spawnSync } from "node:child_process";
import { request, Agent } from "node:http";
import { Worker } from "node:worker_threads";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { DEFAULT_ADMISSION } from "../server/http/admission.ts";
import { pinSelf, startServer, type Started } from "./bench-server.ts";
import { freePort } from "../test/server/processes.ts";
import { rng } from "./random.ts";

const BURST = 1000;
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * GET /healthz every PROBE_EVERY_MS whether or not the previous one was answered (open loop: a stall delays every
 * probe due during it, not just one), until told to stop; posts back the latencies (ms).
 */
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true });
const ms = [];
const pending = new Set();
const probe = () => {
  const t0 = performance.now();
  const p = new Promise((resolve) => {
    http.get(workerData.url, { agent }, (res) => { res.resume(); res.on("end", () => resolve(performance.now() - t0)); })
      .on("error", () => resolve(NaN));
  }).then((t) => { ms.push(t); pending.delete(p); });
  pending.add(p);
};
const timer = setInterval(probe, workerData.everyMs);
parentPort.on("message", async () => {
  clearInterval(timer);
  await Promise.all(pending);
  agent.destroy();
  parentPort.postMessage({ ms });
});
parentPort.postMessage({ ready: true });
`;
const PROBE_EVERY_MS = 5;

function batchBody(): string {
  const r = rng(24);
  return JSON.stringify({ riskType: "drought", locations: Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, lat: 14.6 + r() * 2.6, lng: 99.5 + r() * 3.3 })) });
}

function post(s: Started, body: string, agent: Agent): Promise<number> {
  const url = new URL(s.base + "/api/risk-map/batch");
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "X-API-Key": s.key } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

function summarize(all: number[]) {
  const ms = all.filter((x) => Number.isFinite(x));
  return { probes: ms.length, failed: all.length - ms.length, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), max: Math.max(...ms) };
}

async function startProber(url: string): Promise<Worker> {
  const prober = new Worker(PROBER, { eval: true, workerData: { url, everyMs: PROBE_EVERY_MS } });
  await new Promise((r) => prober.once("message", r));
  return prober;
}

async function stopProber(prober: Worker): Promise<number[]> {
  prober.postMessage("stop");
  const { ms } = await new Promise<{ ms: number[] }>((r) => prober.once("message", r));
  await prober.terminate();
  return ms;
}

/**
 * The floor: a bare node:http server on the same core answering /healthz 200 and every other request 503 at once,
 * its body unread. What no work in the handlers can beat: accepting, parsing and answering 1,000 connections.
 */
const BARE_SERVER = `
const http = require("node:http");
const body = JSON.stringify({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: "busy", details: {} } });
http.createServer((req, res) => {
  if (req.url === "/healthz") return res.end('{"success":true,"data":{"status":"ok"}}');
  res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
  res.end(body);
}).listen({ port: Number(process.env.PORT), host: "127.0.0.1", backlog: 4096 }, () => console.log("listening"));`;

async function startBareFloor(): Promise<Started> {
  const port = await freePort();
  const proc = spawn("taskset", ["-c", SERVER_CPU, process.execPath, "-e", BARE_SERVER], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => proc.stdout.once("data", () => resolve()));
  return { base: `http://127.0.0.1:${port}`, key: "", pid: proc.pid!, readyMs: 0, stdout: () => "", stop: () => new Promise<void>((res) => (proc.once("exit", () => res()), proc.kill("SIGTERM"))) };
}

async function burst(label: string, env: Record<string, string> | "bare node:http") {
  const healthPort = await freePort();
  const bare = env === "bare node:http";
  const s = bare ? await startBareFloor() : await startServer(ARTIFACTS, { ...env, HEALTH_PORT: String(healthPort) }, { cpu: SERVER_CPU });
  const body = batchBody();
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  await Promise.all(Array.from({ length: 20 }, () => post(s, body, agent))); // warm-up
  const onApi = await startProber(s.base + "/healthz");
  const onHealth = bare ? undefined : await startProber(`http://127.0.0.1:${healthPort}/healthz`);
  const t0 = performance.now();
  const statuses = await Promise.all(Array.from({ length: BURST }, () => post(s, body, agent)));
  const burstMs = performance.now() - t0;
  const api = summarize(await stopProber(onApi));
  const health = onHealth === undefined ? undefined : summarize(await stopProber(onHealth));
  await s.stop();
  const count = (st: number) => statuses.filter((x) => x === st).length;
  return {
    label,
    burstMs,
    ok: count(200),
    refused: count(503),
    other: BURST - count(200) - count(503),
    api,
    health,
  };
}

const SERVER_CPU = "0";
const CLIENT_CPU = "1";

async function main() {
  pinSelf(CLIENT_CPU);
  const built = spawnSync("make", ["-s", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("make build failed");
  const d = DEFAULT_ADMISSION;
  const rows = [
    await burst(`admission on (concurrency ${d.concurrency}, queue ${d.queue}; the defaults)`, {}),
    await burst("admission off (limits 1,000,000)", { ADMISSION_CONCURRENCY: "1000000", ADMISSION_QUEUE: "1000000" }),
    await burst("floor: bare node:http answering 503 at once, same core", "bare node:http"),
  ];
  const f = (x: number) => x.toFixed(1);
  console.log(
    `${BURST} simultaneous batch-100 POSTs (one connection each) at the compiled server, one process pinned to core ${SERVER_CPU}; the load generator and the probers on core ${CLIENT_CPU}. ` +
      `GET /healthz every ${PROBE_EVERY_MS} ms (open loop) from two worker threads during the burst: on the API port, and on the health listener (HEALTH_PORT, its own thread). Goal: p99 ≤ 100 ms.\n`,
  );
  console.log("| admission | health port p50 ms | health port p99 ms | health port max ms | API port p50 ms | API port p99 ms | API port max ms | probes (each) | batches 200 | batches 503 | other | burst s |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const count = (x: { probes: number; failed: number } | undefined) => (x === undefined ? "–" : `${x.probes}${x.failed ? ` (${x.failed} failed)` : ""}`);
    const probes = `${count(r.health)} / ${count(r.api)}`;
    const h = r.health === undefined ? "– | – | –" : `**${f(r.health.p50)}** | **${f(r.health.p99)}** | ${f(r.health.max)}`;
    console.log(`| ${r.label} | ${h} | ${f(r.api.p50)} | ${f(r.api.p99)} | ${f(r.api.max)} | ${probes} | ${r.ok} | ${r.refused} | ${r.other} | ${(r.burstMs / 1000).toFixed(2)} |`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
