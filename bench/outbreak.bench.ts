// Outbreak radar query cost in process (no HTTP): where the point is (lib/geo), series and news per disease,
// channel, clusters, texts. Points on every continent, open sea included (a 404 is an answer too, and is timed).
// Run: npx tsx bench/outbreak.bench.ts   (uses ARTIFACTS_DIR's outbreaks snapshot if published, else builds one
// from DATA_DIR into a temp dir; prints p50 and p99 µs per query per disease type and over all, after one warm-up
// pass over every point, disease and timeframe: the first query of a country and timeframe fills the per-version
// caches)
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { OUTBREAK_SNAPSHOT } from "../formats/outbreak-snapshot.ts";
import { snapshotRoot } from "../formats/snapshot-layout.ts";
import { artifactsDir, dataDir } from "../lib/config.ts";
import { buildOutbreakSnapshot } from "../pipeline/snapshots/outbreaks.ts";
import { DISEASE_TYPES } from "../server/schemas-outbreak.ts";
import { openOutbreakService } from "../server/services/outbreak-service.ts";

/** [name, continent, lat, lng] */
const POINTS: [string, string, number, number][] = [
  ["Bangkok", "Asia", 13.75, 100.5],
  ["Chiang Mai", "Asia", 18.79, 98.98],
  ["Hanoi", "Asia", 21.03, 105.85],
  ["Jakarta", "Asia", -6.2, 106.85],
  ["Dhaka", "Asia", 23.8, 90.4],
  ["Lagos", "Africa", 6.45, 3.4],
  ["Kinshasa", "Africa", -4.32, 15.31],
  ["Nairobi", "Africa", -1.29, 36.82],
  ["Paris", "Europe", 48.85, 2.35],
  ["Berlin", "Europe", 52.52, 13.4],
  ["Rio de Janeiro", "South America", -22.9, -43.2],
  ["Lima", "South America", -12.05, -77.04],
  ["Mexico City", "North America", 19.43, -99.13],
  ["Miami", "North America", 25.77, -80.19],
  ["Sydney", "Oceania", -33.87, 151.21],
  ["Nouméa", "Oceania", -22.27, 166.45],
  ["Indian Ocean", "sea", -10, 80],
  ["Andaman Sea", "sea", 10, 95],
];
const TIMEFRAMES = ["7d", "30d", "90d"] as const;
const ROUNDS = 200;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function main(): Promise<void> {
  let root = artifactsDir();
  let temp: string | undefined;
  if (!existsSync(join(snapshotRoot(root, OUTBREAK_SNAPSHOT), "current"))) {
    temp = root = mkdtempSync(join(tmpdir(), "outbreak-bench-"));
    await buildOutbreakSnapshot({ dataDir: dataDir(), artifactsDir: root });
  }
  const t0 = performance.now();
  const { service, store } = await openOutbreakService(root, pino({ level: "silent" }));
  const openMs = performance.now() - t0;
  store.stop();
  const run = (diseaseType: (typeof DISEASE_TYPES)[number], i: number, lat: number, lng: number): boolean => {
    try {
      service.query({ lat, lng, diseaseType, timeframe: TIMEFRAMES[i % 3] });
      return true;
    } catch {
      return false;
    }
  };
  for (const d of DISEASE_TYPES) for (let i = 0; i < 3; i++) for (const [, , lat, lng] of POINTS) run(d, i, lat, lng); // warm-up
  const rows: string[] = [];
  const all: number[] = [];
  for (const diseaseType of DISEASE_TYPES) {
    const times: number[] = [];
    let answered = 0;
    for (let r = 0; r < ROUNDS; r++) {
      POINTS.forEach(([, , lat, lng], k) => {
        const t = process.hrtime.bigint();
        if (run(diseaseType, r + k, lat, lng)) answered++;
        times.push(Number(process.hrtime.bigint() - t) / 1e3);
      });
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    rows.push(
      `${diseaseType.padEnd(10)} p50 ${pct(times, 0.5).toFixed(1).padStart(6)} µs   p99 ${pct(times, 0.99).toFixed(1).padStart(7)} µs   ` +
        `${Math.round((100 * answered) / times.length)} % answered 200`,
    );
  }
  all.sort((a, b) => a - b);
  const continents = [...new Set(POINTS.map((p) => p[1]))].join(", ");
  console.log(
    `outbreak radar, ${service.dataVersion()}, ${POINTS.length} points (${continents}) × ${ROUNDS} rounds per disease type, ` +
      `timeframes in turn; service open incl. geography build ${Math.round(openMs)} ms:\n${rows.join("\n")}\n` +
      `all        p50 ${pct(all, 0.5).toFixed(1).padStart(6)} µs   p99 ${pct(all, 0.99).toFixed(1).padStart(7)} µs`,
  );
  if (temp) rmSync(temp, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
