// Pipeline benchmarks (issue 2): full rebuild time on the data mirror, index throughput on a synthetic grid of
// 100,000 cells × 720 months (series per second on one core), and artifact bytes per cell-month.
// Run: npx tsx bench/pipeline.bench.ts [--cells N]   Prints a markdown table and writes bench/results/pipeline.json.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataDir } from "../lib/config.ts";
import { buildDrought } from "../pipeline/build.ts";
import { buildSettingsFromEnv } from "../pipeline/build-settings.ts";
import { spei, spi, accumulate } from "../pipeline/indices/index.ts";
import { computeStationIndices } from "../pipeline/indices/index.ts";
import { readManifest } from "../formats/manifest.ts";
import { openDroughtGrid } from "../formats/drought-grid.ts";
import { rng } from "./random.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];


/** Synthetic monthly precipitation (gamma-ish, with dry months) and temperature with a seasonal cycle. */
function syntheticSeries(rand: () => number, n: number) {
  const prcp = new Float64Array(n);
  const tmean = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const season = Math.sin((2 * Math.PI * (i % 12)) / 12);
    const u = rand();
    prcp[i] = u < 0.08 ? 0 : -Math.log(1 - rand()) * (120 + 100 * season);
    tmean[i] = 27 + 3 * season + (rand() - 0.5) * 2;
  }
  return { prcp, tmean };
}

async function main() {
  const argCells = process.argv.indexOf("--cells");
  const nCells = argCells > 0 ? Number(process.argv[argCells + 1]) : 100_000;
  const nMonths = 720;
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };

  // 1. Full rebuild on the embedded data (forced, three runs).
  const times: number[] = [];
  let bytesPerCellMonth = 0;
  let gridBytes = 0;
  let totalBytes = 0;
  for (let run = 0; run < 3; run++) {
    const dir = mkdtempSync(join(tmpdir(), "bench-build-"));
    const t0 = performance.now();
    const r = await buildDrought({ dataDir: dataDir(), artifactsDir: dir, settings: buildSettingsFromEnv(), force: true });
    times.push(performance.now() - t0);
    const m = readManifest(r.dir!);
    const grid = openDroughtGrid(new Uint8Array(readFileSync(join(r.dir!, "drought-grid.bin"))));
    gridBytes = statSync(join(r.dir!, "drought-grid.bin")).size;
    totalBytes = Object.values(m.artifacts).reduce((s, a) => s + a.bytes, 0);
    bytesPerCellMonth = gridBytes / (grid.nCells * grid.nMonths);
    results.grid = { cells: grid.nCells, months: grid.nMonths, indices: grid.nIndices };
    rmSync(dir, { recursive: true, force: true });
    process.stderr.write(`rebuild ${run + 1}/3: ${(times[run] / 1000).toFixed(2)} s\n`);
  }
  results.rebuildSecondsMedian = median(times) / 1000;
  results.gridBytes = gridBytes;
  results.versionBytes = totalBytes;
  results.gridBytesPerCellMonth = bytesPerCellMonth;

  // 2. Index throughput on synthetic series, one core.
  const rand = rng(42);
  const firstMonth = 1951 * 12;
  const opts = (scale: number) => ({ scale, firstMonth, refStart: 1961 * 12, refEnd: 1990 * 12 + 11 });
  const sample = Array.from({ length: Math.min(nCells, 2000) }, () => syntheticSeries(rand, nMonths));
  const measure = (label: string, fn: (s: (typeof sample)[number]) => void) => {
    // Cycle through the sample until nCells series are done.
    const t0 = performance.now();
    for (let i = 0; i < nCells; i++) fn(sample[i % sample.length]);
    const s = (performance.now() - t0) / 1000;
    process.stderr.write(`${label}: ${(nCells / s).toFixed(0)} series/s\n`);
    return nCells / s;
  };
  // A water balance with a seasonal PET, so SPEI fits see negative values as they do in the dry season.
  const balance = new Map(sample.map((s) => [s, s.prcp.map((p, i) => p - (110 + 40 * Math.sin((2 * Math.PI * (i % 12)) / 12)))]));
  const balanceOf = (s: (typeof sample)[number]) => balance.get(s)!;
  results.throughput = {
    cells: nCells,
    months: nMonths,
    spei3SeriesPerSecond: measure("SPEI-3", (s) => void spei(balanceOf(s), opts(3))),
    spi3SeriesPerSecond: measure("SPI-3", (s) => void spi(s.prcp, opts(3))),
    accumulate12SeriesPerSecond: measure("accumulate-12", (s) => void accumulate(s.prcp, 12)),
    allIndicesSeriesPerSecond: measure("all indices (PET, SPEI 1-24, SPI 1-12, mcdi)", (s) =>
      void computeStationIndices({ firstMonth, lat: 15, prcp: s.prcp, tmean: s.tmean, refStart: 1961 * 12, refEnd: 1990 * 12 + 11 }),
    ),
  };

  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/pipeline.json", JSON.stringify(results, null, 2) + "\n");
  const t = results.throughput as Record<string, number>;
  console.log(`| pipeline metric | value |
|---|---|
| full rebuild on the data mirror (median of 3) | ${(results.rebuildSecondsMedian as number).toFixed(2)} s |
| grid artifact | ${(gridBytes / 1e6).toFixed(1)} MB, ${bytesPerCellMonth.toFixed(1)} bytes per cell-month (${(results.grid as { indices: number }).indices} float32 indices) |
| whole version (all artifacts) | ${(totalBytes / 1e6).toFixed(1)} MB |
| SPEI-3, ${nCells.toLocaleString("en")} cells × ${nMonths} months, one core | ${t.spei3SeriesPerSecond.toFixed(0)} series/s |
| SPI-3, same | ${t.spi3SeriesPerSecond.toFixed(0)} series/s |
| all indices of a cell (PET, SPEI-1/3/6/12/24, SPI-1/3/6/12, mcdi), same | ${t.allIndicesSeriesPerSecond.toFixed(0)} cells/s |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
