// Micro benchmark of POST /api/supply-chain/query's service call, in process (no HTTP): builds the ports snapshot
// from DATA_DIR into a temp ARTIFACTS_DIR, opens it, and times queries of every type, by code and by coordinate.
// Run: npx tsx bench/supply-chain.bench.ts   (prints the median and p99 µs per query)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { dataDir } from "../lib/config.ts";
import { buildPortsSnapshot } from "../pipeline/snapshots/ports.ts";
import { openSupplyChainService } from "../server/services/supply-chain-service.ts";
import type { SupplyChainBody } from "../server/schemas-supply-chain.ts";

const dir = mkdtempSync(join(tmpdir(), "sc-bench-"));
await buildPortsSnapshot({ dataDir: dataDir(), artifactsDir: dir });
const { service, store } = await openSupplyChainService(dir, pino({ level: "silent" }));
store.stop();

const cases: SupplyChainBody[] = [
  { portCode: "THLCH", queryType: "congestion" },
  { portCode: "THMAT", queryType: "vessel_count" },
  { portCode: "MYPKG", queryType: "cargo_delay" },
  { portCode: "THPKT", queryType: "trade_risk" },
  { lat: 13.09, lng: 100.9, queryType: "congestion" },
  { lat: 10.77, lng: 106.72, queryType: "trade_risk" },
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

for (const q of cases) time(q, 200); // warm up
console.log("query                                   median µs   p99 µs");
for (const q of cases) {
  const t = time(q, 2000);
  const label = `${q.portCode ?? `${q.lat},${q.lng}`} ${q.queryType}`.padEnd(40);
  console.log(`${label}${t[1000].toFixed(1).padStart(9)}${t[1980].toFixed(1).padStart(9)}`);
}
rmSync(dir, { recursive: true, force: true });
