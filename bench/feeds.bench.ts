// npx tsx bench/feeds.bench.ts — µs per FeedRiskService.score() call per feed risk type, in process, over snapshots
// built from DATA_DIR into a temp dir: where the point is (lib/geo) + the score + the answer, 404s included.
// Points: cities on every continent, ±0.5° (deterministic), and the worst case, Manila (648 West Pacific storms,
// ~2,500 track points within 300 km). Prints a markdown table (bench/run.ts collects it).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { dataDir } from "../lib/config.ts";
import { buildSnapshots } from "../pipeline/snapshots/build-snapshots.ts";
import { openFeedRiskService } from "../server/services/feed-risk-service.ts";
import { sharedGeography } from "../lib/feed-risk/place.ts";

/** [lat, lng] of cities on every continent (Asia, Africa, Europe, the Americas, Oceania). */
const CITIES: [number, number][] = [
  [13.75, 100.5], [18.79, 98.98], [23.81, 90.41], [14.6, 120.98], [35.68, 139.69], [31.23, 121.47], [28.61, 77.21], [19.08, 72.88],
  [-6.21, 106.85], [21.03, 105.85], [1.35, 103.82], [41.01, 28.98], [35.69, 51.39], [24.71, 46.68],
  [6.52, 3.38], [9.06, 7.49], [30.04, 31.24], [-1.29, 36.82], [-26.2, 28.05], [-4.32, 15.31], [14.72, -17.47], [-20.16, 57.5],
  [51.92, 4.48], [52.52, 13.4], [48.85, 2.35], [40.42, -3.7], [55.76, 37.62], [59.33, 18.07], [41.9, 12.5],
  [25.76, -80.19], [40.71, -74.01], [34.05, -118.24], [19.43, -99.13], [49.28, -123.12], [-23.55, -46.63], [-34.6, -58.38], [-12.05, -77.04], [4.71, -74.07],
  [-33.87, 151.21], [-37.81, 144.96], [-36.85, 174.76], [-18.14, 178.44], [-9.44, 147.18], [21.31, -157.86],
];
const N = 4000;

function rng(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function quantiles(times: number[]) {
  times.sort((a, b) => a - b);
  const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))].toFixed(1);
  return { p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "feeds-bench-"));
  // Each type built on its own, timed: the snapshot build time of every hazard (shared geography built first).
  sharedGeography();
  const buildSeconds: Record<string, string> = {};
  for (const type of ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"] as const) {
    const t0 = process.hrtime.bigint();
    await buildSnapshots({ dataDir: dataDir(), artifactsDir: dir, env: {}, only: [type] });
    buildSeconds[type] = (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1);
  }
  // Built by the snapshot build's score distribution already; the service shares it.
  const geo = sharedGeography();
  const { service, stop } = await openFeedRiskService(dir, pino({ level: "silent" }), { watch: false, geography: geo });
  const rand = rng(7);
  const points = Array.from({ length: N }, () => {
    const [lat, lng] = CITIES[Math.floor(rand() * CITIES.length)];
    return { lat: lat + rand() - 0.5, lng: lng + rand() - 0.5 };
  });
  const rows: string[] = [];
  const time = (riskType: string, pts: { lat: number; lng: number }[], rounds: number) => {
    const times: number[] = [];
    let notFound = 0;
    for (let r = 0; r < rounds; r++) {
      for (const p of pts) {
        const q = { ...p, riskType: riskType as "flood", includeHistorical: false, timeframe: "1y" as const };
        const t = process.hrtime.bigint();
        try {
          service.score(q);
        } catch {
          notFound++; // 404 outside coverage: timed too
        }
        times.push(Number(process.hrtime.bigint() - t) / 1000);
      }
    }
    return { ...quantiles(times), notFound: notFound / rounds };
  };
  for (const riskType of ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"]) {
    time(riskType, points.slice(0, 500), 1); // warm-up
    const all = time(riskType, points, 1);
    rows.push(`| ${riskType} | ${all.p50} | ${all.p95} | ${all.p99} | ${all.notFound} of ${N} |`);
  }
  const manila = time("storm", [{ lat: 14.6, lng: 120.98 }], 500);
  const locateTimes: number[] = [];
  for (const p of points) {
    const t = process.hrtime.bigint();
    geo.locate(p.lat, p.lng);
    locateTimes.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  const loc = quantiles(locateTimes);
  stop();
  console.log(`| feed score, in process (${N} points near ${CITIES.length} cities on every continent, ±0.5°; timeframe 1y) | p50 µs | p95 µs | p99 µs | 404 |`);
  console.log("|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  console.log(`| storm at Manila (worst case: 648 storms, ~2,500 track points within 300 km), 500 calls | ${manila.p50} | ${manila.p95} | ${manila.p99} | 0 |`);
  console.log(`| of which where the point is: lib/geo locate, 1:10m (built once per process) | ${loc.p50} | ${loc.p95} | ${loc.p99} | |`);
  console.log("");
  console.log(`Snapshot build time from DATA_DIR, one type at a time (s): ${Object.entries(buildSeconds).map(([t, v]) => `${t} ${v}`).join(", ")}.`);
}
void main();
