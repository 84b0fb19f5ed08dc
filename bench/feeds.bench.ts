// npx tsx bench/feeds.bench.ts — median µs per score() call per feed risk type, in process, over snapshots
// built from DATA_DIR into a temp dir.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { dataDir } from "../lib/config.ts";
import { buildSnapshots } from "../pipeline/snapshots/build-snapshots.ts";
import { openFeedRiskService } from "../server/services/feed-risk-service.ts";

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "feeds-bench-"));
  await buildSnapshots({ dataDir: dataDir(), artifactsDir: dir, env: {} });
  const { service, stop } = await openFeedRiskService(dir, pino({ level: "silent" }), { watch: false });
  for (const riskType of ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"] as const) {
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const q = { lat: 12 + (i % 50) * 0.05, lng: 99.5 + (i % 37) * 0.05, riskType, includeHistorical: false, timeframe: "30d" as const };
      const t = process.hrtime.bigint();
      try { service.score(q); } catch { /* 404 outside coverage counts too */ }
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    times.sort((a, b) => a - b);
    console.log(`${riskType.padEnd(15)} median ${times[1000].toFixed(1)} µs  p95 ${times[1900].toFixed(1)} µs`);
  }
  stop();
}
void main();
