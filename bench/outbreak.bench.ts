// Outbreak radar query cost in process (no HTTP): point → province, channel per disease, clusters, texts.
// Run: npx tsx bench/outbreak.bench.ts   (uses ARTIFACTS_DIR's outbreaks snapshot if published, else builds one
// from DATA_DIR into a temp dir; prints median and p99 µs per query per disease type, first query per timeframe
// excluded because it fills the per-version province cache)
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { OUTBREAK_SNAPSHOT } from "../formats/outbreak-snapshot.ts";
import { artifactsDir, dataDir } from "../lib/config.ts";
import { buildOutbreakSnapshot } from "../pipeline/snapshots/outbreaks.ts";
import { snapshotRoot } from "../pipeline/snapshots/publish-snapshot.ts";
import { DISEASE_TYPES } from "../server/schemas-outbreak.ts";
import { openOutbreakService } from "../server/services/outbreak-service.ts";

async function main(): Promise<void> {
  let root = artifactsDir();
  let temp: string | undefined;
  if (!existsSync(join(snapshotRoot(root, OUTBREAK_SNAPSHOT), "current"))) {
    temp = root = mkdtempSync(join(tmpdir(), "outbreak-bench-"));
    await buildOutbreakSnapshot({ dataDir: dataDir(), artifactsDir: root });
  }
  const { service, store } = await openOutbreakService(root, pino({ level: "silent" }));
  store.stop();
  // Points inside Thailand: Bangkok, Chiang Mai, Khon Kaen, Hat Yai, Ubon Ratchathani.
  const points = [[13.75, 100.5], [18.79, 98.98], [16.43, 102.83], [7.01, 100.47], [15.24, 104.85]];
  const rows: string[] = [];
  for (const diseaseType of DISEASE_TYPES) {
    for (const timeframe of ["7d", "30d", "90d"] as const) service.query({ lat: 13.75, lng: 100.5, diseaseType, timeframe }); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const [lat, lng] = points[i % points.length];
      const t0 = process.hrtime.bigint();
      service.query({ lat, lng, diseaseType, timeframe: (["7d", "30d", "90d"] as const)[i % 3] });
      times.push(Number(process.hrtime.bigint() - t0) / 1e3);
    }
    times.sort((a, b) => a - b);
    rows.push(`${diseaseType.padEnd(10)} median ${times[times.length >> 1].toFixed(1).padStart(7)} µs   p99 ${times[Math.floor(times.length * 0.99)].toFixed(1).padStart(7)} µs`);
  }
  console.log(`outbreak radar, ${service.dataVersion()}, 2000 queries per disease type:\n${rows.join("\n")}`);
  if (temp) rmSync(temp, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
