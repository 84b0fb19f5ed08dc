// Micro benchmark of the server's hot path on the drought grid: nearestCell + record view.
// Run: npx tsx bench/grid-lookup.bench.ts   (prints p50/p99 ns per lookup; in-process, no HTTP)
import { openDroughtGrid, writeDroughtGrid, type DroughtGrid } from "../formats/drought-grid.ts";
import { rng } from "./random.ts";


/** A regular grid of rows x cols cells starting at (lat0, lng0), step deg; values random. */
function syntheticGrid(rows: number, cols: number, lat0: number, lng0: number, step: number, nMonths: number): DroughtGrid {
  const n = rows * cols;
  const lats = new Float64Array(n);
  const lngs = new Float64Array(n);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      lats[r * cols + c] = lat0 + (r + 0.5) * step;
      lngs[r * cols + c] = lng0 + (c + 0.5) * step;
    }
  }
  const names = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"];
  const values = new Float32Array(n * nMonths * names.length);
  const rand = rng(1);
  for (let i = 0; i < values.length; i++) values[i] = rand() * 4 - 2;
  const bytes = writeDroughtGrid({
    firstMonth: 1951 * 12, nMonths, indexNames: names, baselineStart: 1961 * 12, baselineEnd: 1990 * 12 + 11,
    resolutionDeg: step, cellIds: Uint32Array.from({ length: n }, (_, i) => i), cellLats: lats, cellLngs: lngs,
    countries: ["THA"], cellCountry: new Uint8Array(n), values,
  });
  return openDroughtGrid(bytes);
}

function run(label: string, grid: DroughtGrid, latMin: number, latMax: number, lngMin: number, lngMax: number): void {
  const iterations = 200_000;
  const rand = rng(2);
  const qLat = Float64Array.from({ length: iterations }, () => latMin + rand() * (latMax - latMin));
  const qLng = Float64Array.from({ length: iterations }, () => lngMin + rand() * (lngMax - lngMin));
  const qMonth = Uint32Array.from({ length: iterations }, () => Math.floor(rand() * grid.nMonths));
  let sink = 0;
  for (let i = 0; i < 20_000; i++) sink += grid.record(grid.nearestCell(qLat[i], qLng[i]).cell, qMonth[i])[0]; // warm-up
  const ns = new Float64Array(iterations);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    const { cell } = grid.nearestCell(qLat[i], qLng[i]);
    sink += grid.record(cell, qMonth[i])[0];
    ns[i] = Number(process.hrtime.bigint() - t0);
  }
  const totalNs = Number(process.hrtime.bigint() - start);
  ns.sort();
  const pct = (p: number) => ns[Math.min(iterations - 1, Math.floor(p * iterations))];
  console.log(
    `${label}: ${grid.nCells} cells, ${iterations} lookups: p50 ${pct(0.5)} ns, p99 ${pct(0.99)} ns, ` +
      `mean ${(totalNs / iterations).toFixed(0)} ns (incl. timer) [checksum ${sink.toFixed(1)}]`,
  );
}

// ~800 cells: a 0.25° block (28 x 29) the size of the Thai land grid, 850 months x 8 indices as in a full build;
// queries in and just around it.
run("thai-like", syntheticGrid(28, 29, 6, 98, 0.25, 850), 5.5, 13.5, 97.5, 105.75);
// 1,000,000 cells: 1000 x 1000 at 0.05° (few months to keep memory small; lookup cost does not depend on months).
run("1M cells", syntheticGrid(1000, 1000, -10, 80, 0.05, 2), -10, 40, 80, 130);
