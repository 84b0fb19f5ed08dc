// Bulk over HTTP (issue 38): points per second of POST /api/risk-map/batch with 100 points (autocannon, 32
// connections) against one POST /api/risk-map/bulk of 1,000,000 inland Thai points (CSV in, CSV out; and NDJSON in,
// NDJSON out), the same compiled server pinned to core 0, this process (the load generator and the bulk client) on
// core 1, in one run. The server's memory is read from /proc/<pid>/status every 20 ms: VmRSS before the request
// and its highest value during it. The bulk key's plan covers a million points (RATE_LIMITS: bulk 100,001 points a
// window would do; the bench's key has 1e9). Goal: bulk ≥ 3× batch-100's points per second, memory +300 MB at most.
// Run: npx tsx bench/bulk-http.bench.ts   (needs published artifacts, ARTIFACTS_DIR or ./artifacts; compiles dist/)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { availableParallelism } from "node:os";
import { artifactsDir as defaultArtifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { pinSelf, startServer, type Started } from "./bench-server.ts";
import { load, median, thaiPoints } from "./http-load.ts";

const SECONDS = 6;
const ROUNDS = 3;
const ROWS = 1_000_000;
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? defaultArtifactsDir();

const rssKb = (pid: number, field = "VmRSS") => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

/** The body of a million rows, built once (about 27 MB). */
function bodyOf(format: "csv" | "ndjson"): Buffer {
  const ps = thaiPoints(ROWS, 11);
  const lines = ps.map((p, i) => (format === "csv" ? `p${i},${p.lat.toFixed(5)},${p.lng.toFixed(5)}` : `{"id":"p${i}","lat":${p.lat.toFixed(5)},"lng":${p.lng.toFixed(5)}}`));
  return Buffer.from((format === "csv" ? "id,lat,lng\n" : "") + lines.join("\n") + "\n");
}

/** One bulk request: seconds, rows answered (lines, less the header or end record), bytes, and the server's RSS. */
async function bulkOnce(s: Started, format: "csv" | "ndjson", body: Buffer) {
  const before = rssKb(s.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(s.pid))), 20);
  const t0 = performance.now();
  const { lines, bytes, status } = await new Promise<{ lines: number; bytes: number; status: number }>((resolve, reject) => {
    const req = request(s.base + "/api/risk-map/bulk", {
      method: "POST",
      headers: { "x-api-key": s.key, "content-type": format === "csv" ? "text/csv" : "application/x-ndjson", accept: format === "csv" ? "text/csv" : "application/x-ndjson" },
    });
    req.on("response", (res) => {
      let n = 0;
      let b = 0;
      res.on("data", (c: Buffer) => {
        b += c.length;
        for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) n++;
      });
      res.on("end", () => resolve({ lines: n, bytes: b, status: res.statusCode ?? 0 }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(s.pid));
  if (status !== 200 || lines - 1 !== ROWS) throw new Error(`bulk ${format}: status ${status}, ${lines} lines`);
  return { seconds, pointsPerSecond: ROWS / seconds, bytes, beforeMb: before / 1024, peakMb: peak / 1024 };
}

async function main() {
  if (availableParallelism() < 2) throw new Error("the pinned bench needs two cores");
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
  pinSelf("1");
  const csv = bodyOf("csv");
  const ndjson = bodyOf("ndjson");
  const batchBody = JSON.stringify({ riskType: "drought", locations: thaiPoints(100, 7).map((p, i) => ({ id: String(i), ...p })) });
  const s = await startServer(ARTIFACTS, {}, { cpu: "0" });
  try {
    const batchRps: number[] = [];
    const runs: Record<"csv" | "ndjson", Awaited<ReturnType<typeof bulkOnce>>[]> = { csv: [], ndjson: [] };
    await load(s, { path: "/api/risk-map/batch", method: "POST", body: batchBody }, 2); // warm-up
    await bulkOnce(s, "csv", csv);
    for (let r = 0; r < ROUNDS; r++) {
      batchRps.push(await load(s, { path: "/api/risk-map/batch", method: "POST", body: batchBody }, SECONDS));
      runs.csv.push(await bulkOnce(s, "csv", csv));
      runs.ndjson.push(await bulkOnce(s, "ndjson", ndjson));
      process.stderr.write(`round ${r + 1}: batch ${batchRps.at(-1)!.toFixed(0)} req/s, bulk csv ${runs.csv.at(-1)!.seconds.toFixed(2)} s, ndjson ${runs.ndjson.at(-1)!.seconds.toFixed(2)} s\n`);
    }
    const batchPts = median(batchRps) * 100;
    const hwm = rssKb(s.pid, "VmHWM") / 1024;
    const row = (name: string, xs: Awaited<ReturnType<typeof bulkOnce>>[]) => {
      const pps = median(xs.map((x) => x.pointsPerSecond));
      const growth = Math.max(...xs.map((x) => x.peakMb - x.beforeMb));
      return `| ${name} | ${median(xs.map((x) => x.seconds)).toFixed(2)} | ${pps.toFixed(0)} | **${(pps / batchPts).toFixed(2)}×** | ${(median(xs.map((x) => x.bytes)) / 1e6).toFixed(1)} | ${Math.min(...xs.map((x) => x.beforeMb)).toFixed(0)} → ${Math.max(...xs.map((x) => x.peakMb)).toFixed(0)} | **+${growth.toFixed(0)}** |`;
    };
    console.log(`Server (compiled, one process) pinned to core 0; autocannon and the bulk client on core 1; ${ROUNDS} alternating rounds, medians. ${ROWS.toLocaleString("en")} inland Thai points (all found) in one request; batch-100: autocannon, 32 connections, ${SECONDS} s. Memory: the server's VmRSS sampled every 20 ms, before each request and its peak during it (largest growth of the rounds); VmHWM at the end ${hwm.toFixed(0)} MB. Goal: ≥ 3× batch-100's points/s, ≤ +300 MB.

| request | seconds | points/s | vs batch-100 | answer MB | server RSS MB before → peak | growth MB |
|---|---|---|---|---|---|---|
| POST /api/risk-map/batch, 100 points (${median(batchRps).toFixed(0)} req/s) | – | ${batchPts.toFixed(0)} | 1.00× | – | – | – |
${row("POST /api/risk-map/bulk, 1,000,000 rows CSV in, CSV out", runs.csv)}
${row("POST /api/risk-map/bulk, 1,000,000 rows NDJSON in, NDJSON out", runs.ndjson)}`);
  } finally {
    await s.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
