// Micro benchmark of POST /api/supply-chain/query's service call, in process (no HTTP): builds the ports snapshot
// from DATA_DIR into a temp ARTIFACTS_DIR, opens it, and times queries of every type for ports on every continent,
// by code, by an alias code and by coordinate, and a strait by its id and by coordinates. Target (issue 10): p50 ≤ 50 µs per query.
// Run: npx tsx bench/supply-chain.bench.ts   (prints a markdown table of the median and p99 µs per query)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { dataDir } from "../lib/config.ts";
import { buildPortsSnapshot } from "../pipeline/snapshots/ports.ts";
import { openSupplyChainService } from "../server/services/supply-chain-service.ts";
import type { SupplyChainBody } from "../server/schemas-supply-chain.ts";

const TARGET_P50_US = 50;
const RUNS = 2000;

const dir = mkdtempSync(join(tmpdir(), "sc-bench-"));
await buildPortsSnapshot({ dataDir: dataDir(), artifactsDir: dir });
const { service, store } = await openSupplyChainService(dir, pino({ level: "silent" }));
store.stop();

const cases: [continent: string, q: SupplyChainBody][] = [
  ["Asia", { portCode: "THLCH", queryType: "congestion" }],
  ["Asia", { portCode: "MYPKG", queryType: "cargo_delay" }],
  ["Asia", { portCode: "SGSIN", queryType: "vessel_count" }],
  ["Asia", { portCode: "CNSHA", queryType: "trade_risk" }],
  ["Asia", { lat: 1.29, lng: 103.85, queryType: "congestion" }],
  ["Europe", { portCode: "NLRTM", queryType: "congestion" }],
  ["Europe", { portCode: "DEHAM", queryType: "vessel_count" }],
  ["Europe", { lat: 51.45, lng: 6.74, queryType: "cargo_delay" }],
  ["Africa", { portCode: "ZADUR", queryType: "trade_risk" }],
  ["Africa", { portCode: "NGLOS", queryType: "cargo_delay" }],
  ["North America", { portCode: "USLAX", queryType: "vessel_count" }],
  ["North America", { lat: 40.68, lng: -74.04, queryType: "congestion" }],
  ["South America", { portCode: "BRSSZ", queryType: "trade_risk" }],
  ["Oceania", { portCode: "AUMEL", queryType: "congestion" }],
  ["Oceania", { lat: -33.86, lng: 151.2, queryType: "vessel_count" }],
  ["Strait", { chokepoint: "chokepoint4", queryType: "trade_risk" }],
  ["Strait", { lat: 12.65, lng: 43.4, queryType: "vessel_count" }],
];

function time(q: SupplyChainBody, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    service.query(q);
    out.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  return out.sort((a, b) => a - b);
}

for (const [, q] of cases) time(q, 300); // warm up
const all: number[] = [];
const rows: string[] = [];
for (const [continent, q] of cases) {
  const t = time(q, RUNS);
  for (const v of t) all.push(v);
  const a = service.query(q);
  const answered = a.port ? `${a.port.code ?? "(no code)"} ${a.port.name}` : `${a.chokepoint.id} ${a.chokepoint.name}`;
  const asked = q.portCode ?? q.chokepoint ?? `${q.lat}, ${q.lng}`;
  rows.push(`| ${continent} | ${asked} → ${answered} | ${q.queryType} | ${t[RUNS / 2].toFixed(1)} | ${t[Math.floor(RUNS * 0.99)].toFixed(1)} |`);
}
all.sort((a, b) => a - b);
const p50 = all[Math.floor(all.length / 2)];
console.log("| continent | query → port | queryType | median µs | p99 µs |");
console.log("|---|---|---|---:|---:|");
for (const r of rows) console.log(r);
console.log(`| all | ${cases.length} queries × ${RUNS} | | ${p50.toFixed(1)} | ${all[Math.floor(all.length * 0.99)].toFixed(1)} |`);
console.log(`\nTarget p50 ≤ ${TARGET_P50_US} µs per query: ${p50 <= TARGET_P50_US ? "met" : "NOT met"} (${p50.toFixed(1)} µs).`);
rmSync(dir, { recursive: true, force: true });
if (p50 > TARGET_P50_US) process.exitCode = 1;
