// Nearest-cell lookups at two grid sizes, side by side in one run (issue 12, goal 2): the published Thai grid and a
// synthetic 1,000,000-cell version of the same area (bench/synthetic-grid.ts, published into a temporary directory).
// For points inside the covered area, near it (sea and neighbouring countries) and far from it (anywhere on Earth):
// - batch of 100 through the drought service (ArtifactDroughtService.batchItem, what POST /api/risk-map/batch runs);
// - batch of 100 nearestCell calls alone (the search on its own, which outside points reach only in this form);
// - the same with the previous box search (bench/box-search-reference.ts), where it finishes in reasonable time.
// The 1M grid is opened twice: with few months it is read whole like the Thai grid; with 24 months it exceeds the
// 256 MiB limit and is opened paged (one pread per record), as a long record on a fine grid would be.
// Run: npx tsx bench/grid-lookup.bench.ts [--batches B]   (needs published artifacts: make artifacts)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { openDroughtService, type ArtifactDroughtService } from "../server/services/drought-service.ts";
import type { ArtifactStore } from "../server/data/artifact-store.ts";
import { isCovered, type DroughtArtifacts } from "../formats/drought-version.ts";
import { boxSearchReference } from "./box-search-reference.ts";
import { publishSyntheticGrid } from "./synthetic-grid.ts";
import { rng } from "./random.ts";

const argBatches = process.argv.indexOf("--batches");
const BATCHES = argBatches > 0 ? Number(process.argv[argBatches + 1]) : 2000;
const ROUNDS = 10; // the grids take turns in this many rounds, so both see the same machine state
const ARTIFACTS = artifactsDir();

type Point = [lat: number, lng: number];

interface Opened {
  label: string;
  service: ArtifactDroughtService;
  store: ArtifactStore<DroughtArtifacts>;
  a: DroughtArtifacts;
}

async function open(label: string, dir: string): Promise<Opened> {
  const { service, store } = await openDroughtService(dir, { pollMs: 3_600_000 });
  return { label, service, store, a: store.require().data };
}

/** Seeded point sets: inland Thailand, all covered land, uncovered points within a few degrees, the rest of Earth. */
function pointSets(thai: DroughtArtifacts): Record<string, Point[]> {
  const r = rng(12);
  // Inland: the Khorat plateau and central plains, as bench/api.bench.ts draws them (no border or coast nearby).
  const inland: Point[] = Array.from({ length: 20_000 }, () => [14.6 + r() * 2.6, 99.5 + r() * 3.3]);
  const inside: Point[] = [];
  const near: Point[] = [];
  const far: Point[] = [];
  while (inside.length < 20_000) {
    const p: Point = [5.6 + r() * 14.9, 97.3 + r() * 8.4];
    if (isCovered(thai, p[0], p[1])) inside.push(p);
  }
  while (near.length < 20_000) {
    const p: Point = [0 + r() * 26, 92 + r() * 19];
    if (!isCovered(thai, p[0], p[1])) near.push(p);
  }
  while (far.length < 20_000) {
    const p: Point = [Math.asin(2 * r() - 1) / (Math.PI / 180), -180 + 360 * r()];
    if (!(p[0] > 0 && p[0] < 26 && p[1] > 92 && p[1] < 111)) far.push(p);
  }
  return { "inside, inland": inland, "inside, anywhere": inside, "outside, near (≤ 8° away)": near, "outside, far": far };
}

function p(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** µs per batch of 100, for each contender, the contenders taking turns. */
function timeBatches(contenders: { name: string; run: (lat: number, lng: number) => unknown }[], pts: Point[], batches: number) {
  const ns = contenders.map(() => new Float64Array(batches));
  let sink = 0;
  for (const c of contenders) for (let i = 0; i < 2000; i++) sink += c.run(pts[i % pts.length][0], pts[i % pts.length][1]) ? 1 : 0;
  const perRound = Math.ceil(batches / ROUNDS);
  for (let round = 0; round * perRound < batches; round++) {
    contenders.forEach((c, k) => {
      for (let b = round * perRound; b < Math.min(batches, (round + 1) * perRound); b++) {
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < 100; i++) {
          const q = pts[(b * 100 + i) % pts.length];
          if (c.run(q[0], q[1])) sink++;
        }
        ns[k][b] = Number(process.hrtime.bigint() - t0);
      }
    });
  }
  if (sink < 0) console.log(sink);
  return ns.map((a) => {
    a.sort();
    return { p50: p(a, 0.5) / 1000, p99: p(a, 0.99) / 1000 };
  });
}

/** The previous box search on 1M cells takes up to a quarter of a second per far point: a few points, times 100. */
function timeOldPerPoint(search: (lat: number, lng: number) => unknown, pts: Point[], n: number): number {
  const us: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    search(pts[i][0], pts[i][1]);
    us.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  us.sort((a, b) => a - b);
  return us[Math.floor(us.length / 2)] * 100;
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), "bench-grid-"));
  try {
    process.stderr.write("publishing synthetic 1,000,000-cell versions (6 and 24 months)…\n");
    const resident = await publishSyntheticGrid({ cells: 1_000_000, out: join(tmp, "resident"), from: ARTIFACTS, months: 6 });
    const paged = await publishSyntheticGrid({ cells: 1_000_000, out: join(tmp, "paged"), from: ARTIFACTS, months: 24 });
    const grids = [await open("Thai grid", ARTIFACTS), await open("1M cells", join(tmp, "resident")), await open("1M cells, paged", join(tmp, "paged"))];
    const thai = grids[0];
    const sets = pointSets(thai.a);
    const rows: string[] = [];
    const results: Record<string, unknown> = {
      date: new Date().toISOString(),
      node: process.version,
      batches: BATCHES,
      grids: grids.map((g) => ({ label: g.label, cells: g.a.grid.nCells, resolutionDeg: g.a.grid.resolutionDeg, version: g.a.version })),
      synthetic: [resident, paged].map((s) => ({ cells: s.cells, months: s.months, gridBytes: s.gridBytes })),
    };
    for (const [setName, pts] of Object.entries(sets)) {
      process.stderr.write(`${setName}: service batches…\n`);
      const service = timeBatches(
        grids.map((g) => ({ name: g.label, run: (lat: number, lng: number) => g.service.batchItem(undefined, lat, lng).found })),
        pts,
        BATCHES,
      );
      process.stderr.write(`${setName}: nearestCell batches…\n`);
      const search = timeBatches(
        grids.slice(0, 2).map((g) => ({ name: g.label, run: (lat: number, lng: number) => g.a.grid.nearestCell(lat, lng).cell >= 0 })),
        pts,
        BATCHES,
      );
      process.stderr.write(`${setName}: previous box search…\n`);
      const oldThai = boxSearchReference(thai.a.grid.cellLats, thai.a.grid.cellLngs, thai.a.grid.resolutionDeg);
      const oldMillion = boxSearchReference(grids[1].a.grid.cellLats, grids[1].a.grid.cellLngs, grids[1].a.grid.resolutionDeg);
      const oldThaiP50 = timeBatches([{ name: "old", run: oldThai }], pts, Math.min(BATCHES, 500))[0].p50;
      const oldMillionP50 = setName.startsWith("inside") ? timeBatches([{ name: "old", run: oldMillion }], pts, Math.min(BATCHES, 500))[0].p50 : timeOldPerPoint(oldMillion, pts, setName.includes("far") ? 5 : 200);
      const [t, m, mp] = service;
      rows.push(
        `| ${setName} | batch of 100 through the service | ${t.p50.toFixed(1)} (p99 ${t.p99.toFixed(0)}) | ${m.p50.toFixed(1)} (p99 ${m.p99.toFixed(0)}) | **${(m.p50 / t.p50).toFixed(2)}×** | ${mp.p50.toFixed(1)} (${(mp.p50 / t.p50).toFixed(2)}×) |`,
        `| ${setName} | 100 × nearestCell, tree walk | ${search[0].p50.toFixed(1)} | ${search[1].p50.toFixed(1)} | ${(search[1].p50 / search[0].p50).toFixed(2)}× | |`,
        `| ${setName} | 100 × nearestCell, previous box search | ${oldThaiP50.toFixed(1)} | ${oldMillionP50.toFixed(setName.includes("far") ? 0 : 1)}${setName.startsWith("inside") ? "" : " (median point × 100)"} | ${(oldMillionP50 / oldThaiP50).toFixed(1)}× | |`,
      );
      results[setName] = { service, search, oldThaiP50, oldMillionP50 };
      process.stderr.write(`${rows.slice(-3).join("\n")}\n`);
    }
    for (const g of grids) g.store.stop();
    mkdirSync(join(PROJECT_ROOT, "bench/results"), { recursive: true });
    writeFileSync(join(PROJECT_ROOT, "bench/results/grid-lookup.json"), JSON.stringify(results, null, 2) + "\n");
    const [, r1, r2] = grids;
    console.log(`In process, µs per batch of 100 points (p50 over ${BATCHES} batches; the grids take turns). Thai grid: ${thai.a.grid.nCells} cells at ${thai.a.grid.resolutionDeg}°; 1M: ${r1.a.grid.nCells} synthetic cells at ${r1.a.grid.resolutionDeg.toPrecision(3)}° over the same area (${(resident.gridBytes / 1e6).toFixed(0)} MB, read whole); paged: the same cells with 24 months (${(paged.gridBytes / 1e6).toFixed(0)} MB, ${r2.a.grid.values.length === 0 ? "one pread per record" : "read whole"}). Goal: 1M ≤ 2× Thai.

| points | what | Thai grid µs | 1M cells µs | 1M / Thai | 1M paged µs |
|---|---|---|---|---|---|
${rows.join("\n")}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
