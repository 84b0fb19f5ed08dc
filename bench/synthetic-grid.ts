// A synthetic drought version of N grid cells, for benchmarks and tests only. The cells are a regular lattice over
// the covered squares of a real published version's coverage mask (Thailand's land and coast), fine enough to give
// exactly N cells; their index values are drawn from the seeded generator in bench/random.ts. The province files
// and the coverage mask are copied from the real version, so the server opens the result like any other version.
// It is written with the real writer and published with the pipeline's publish code into the directory given,
// never into the artifacts directory the service reads by default, and its manifest says it is synthetic.
//
// Run: npm run -s bench:grid -- --cells N --out DIR [--from ARTIFACTS_DIR] [--months M] [--seed S]
import { copyFileSync, existsSync, mkdirSync, realpathSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { artifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../lib/months.ts";
import { writeDroughtGrid } from "../formats/drought-grid.ts";
import { CoverageMask, OUTSIDE } from "../formats/coverage-mask.ts";
import { MANIFEST_FILE, readManifest } from "../formats/manifest.ts";
import { createStaging, discardStaging, makeVersionId, publishStaging } from "../pipeline/publish/publish.ts";
import { rng } from "./random.ts";

export const SYNTHETIC_INDICES = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"];
/** Files of the source version a synthetic grid does not replace: everything but the grid and the stations' confidence. */
const NOT_COPIED = new Set(["drought-grid.bin", "confidence.bin"]);

/**
 * Copies into `dir` every artifact of the published version `src` that a synthetic grid keeps (provinces, coverage
 * mask, shapes, tiles, exports, the report): a version must hold every required file to be served
 * (formats/version-files.ts). Returns the source's report file name.
 */
export function copyVersionExtras(src: string, dir: string): string {
  const manifest = readManifest(src);
  for (const f of Object.keys(manifest.artifacts)) {
    if (NOT_COPIED.has(f)) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(src, f), join(dir, f));
  }
  return manifest.report;
}

export interface SyntheticGridOptions {
  /** Number of grid cells. */
  cells: number;
  /** Artifacts directory to publish into (versions/ and `current` are made there). */
  out: string;
  /** A published artifacts directory (its `current`) or a version directory: provinces and coverage come from it. */
  from: string;
  /** Months of values, ending at the source version's latest valid month. */
  months?: number;
  seed?: number;
  /** Only cells inside [south, west, north, east] (degrees); default the whole covered area. */
  bbox?: [number, number, number, number];
  now?: Date;
}

export interface SyntheticGridResult {
  version: string;
  dir: string;
  cells: number;
  resolutionDeg: number;
  months: number;
  gridBytes: number;
}

function sourceVersionDir(from: string): string {
  if (existsSync(join(from, MANIFEST_FILE))) return realpathSync(from);
  const current = join(from, "current");
  if (!existsSync(current)) throw new Error(`${from}: neither a version directory nor an artifacts directory with a current version`);
  return realpathSync(current);
}

/** Centres of the lattice of step `step` (from the mask's south-west corner) that fall in a covered square and the box. */
function latticeCells(mask: CoverageMask, step: number, box: [number, number, number, number], collect: boolean) {
  const [south, west, north, east] = box;
  const nCols = Math.floor((mask.nCols * mask.resolutionDeg) / step);
  const nRows = Math.floor((mask.nRows * mask.resolutionDeg) / step);
  const lats: number[] = [];
  const lngs: number[] = [];
  const ids: number[] = [];
  let count = 0;
  for (let r = 0; r < nRows; r++) {
    const lat = mask.south + (r + 0.5) * step;
    if (lat < south || lat > north) continue;
    for (let c = 0; c < nCols; c++) {
      const lng = mask.west + (c + 0.5) * step;
      if (lng < west || lng > east || mask.stateAt(lat, lng) === OUTSIDE) continue;
      count++;
      if (collect) {
        lats.push(lat);
        lngs.push(lng);
        ids.push(r * nCols + c);
      }
    }
  }
  return { count, lats, lngs, ids };
}

/** The lattice step that gives at least `n` cells (and not many more), and exactly `n` of them, evenly thinned. */
function chooseCells(mask: CoverageMask, n: number, box: [number, number, number, number]) {
  let covered = 0;
  for (const s of mask.state) if (s !== OUTSIDE) covered++;
  if (covered === 0) throw new Error("the source coverage mask covers nothing");
  let step = mask.resolutionDeg * Math.sqrt(covered / n);
  let count = latticeCells(mask, step, box, false).count;
  for (let tries = 0; count < n; tries++) {
    if (tries > 60) throw new Error(`cannot place ${n} cells in the covered area of the box ${box.join(",")}`);
    step *= count > 0 ? Math.min(0.99, Math.sqrt(count / n) * 0.999) : 0.5;
    count = latticeCells(mask, step, box, false).count;
  }
  const all = latticeCells(mask, step, box, true);
  const cellLats = new Float64Array(n);
  const cellLngs = new Float64Array(n);
  const cellIds = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const i = Math.floor((k * all.count) / n);
    cellLats[k] = all.lats[i];
    cellLngs[k] = all.lngs[i];
    cellIds[k] = all.ids[i];
  }
  return { step, cellLats, cellLngs, cellIds };
}

export async function publishSyntheticGrid(opts: SyntheticGridOptions): Promise<SyntheticGridResult> {
  const { cells } = opts;
  if (!Number.isInteger(cells) || cells < 1 || cells > 50_000_000) throw new Error(`--cells must be an integer 1..50,000,000, got ${cells}`);
  const months = opts.months ?? 12;
  if (!Number.isInteger(months) || months < 1) throw new Error(`--months must be a positive integer, got ${months}`);
  const seed = opts.seed ?? 1;
  const out = resolve(opts.out);
  const src = sourceVersionDir(resolve(opts.from));
  // The service reads ./artifacts unless told otherwise: a synthetic version must never become its default.
  if (out === resolve(PROJECT_ROOT, "artifacts") || out === resolve(opts.from)) {
    throw new Error(`refusing to publish synthetic data into ${out}: it is an artifacts directory the service serves`);
  }
  const manifest = readManifest(src);
  const latest = manifest.latestValidMonth ? parseMonth(manifest.latestValidMonth) : undefined;
  const baselineStart = manifest.baseline ? parseMonth(manifest.baseline.start) : undefined;
  const baselineEnd = manifest.baseline ? parseMonth(manifest.baseline.end) : undefined;
  if (latest === undefined || baselineStart === undefined || baselineEnd === undefined) {
    throw new Error(`${src}: the source manifest lacks a latest valid month or a baseline`);
  }

  const mask = new CoverageMask(new Uint8Array(readFileSync(join(src, "coverage-mask.bin"))));
  const { step, cellLats, cellLngs, cellIds } = chooseCells(mask, cells, opts.bbox ?? [-90, -180, 90, 180]);
  const firstMonth: MonthIndex = latest - months + 1;
  const values = new Float32Array(cells * months * SYNTHETIC_INDICES.length);
  const random = rng(seed);
  // Roughly standard-normal, like SPEI/SPI: a sum of three uniforms, scaled to unit variance.
  for (let i = 0; i < values.length; i++) values[i] = (random() + random() + random() - 1.5) * 2;

  const now = opts.now ?? new Date();
  const staging = createStaging(out, makeVersionId(now, `synthetic${cells}`));
  try {
    const gridBytes = writeDroughtGrid({
      firstMonth,
      nMonths: months,
      indexNames: SYNTHETIC_INDICES,
      baselineStart,
      baselineEnd,
      resolutionDeg: step,
      cellIds,
      cellLats,
      cellLngs,
      countries: ["THA"],
      cellCountry: new Uint8Array(cells),
      values,
    });
    writeFileSync(join(staging.dir, "drought-grid.bin"), gridBytes);
    const report = copyVersionExtras(src, staging.dir);
    const synthetic = { synthetic: true, generator: "bench/synthetic-grid.ts", seed, cells, months, resolutionDeg: step, provincesFrom: manifest.version };
    const dir = await publishStaging(staging, {
      builtAt: now.toISOString(),
      kind: "drought",
      inputs: {},
      sources: [`SYNTHETIC values (bench/synthetic-grid.ts, seed ${seed}), for benchmarks and tests only; provinces and coverage mask of version ${manifest.version}`],
      baseline: manifest.baseline,
      monthRange: { first: formatMonth(firstMonth), last: formatMonth(latest) },
      latestValidMonth: formatMonth(latest),
      qc: synthetic,
      report,
      settings: synthetic,
    });
    return { version: staging.version, dir, cells, resolutionDeg: step, months, gridBytes: gridBytes.byteLength };
  } catch (err) {
    discardStaging(staging);
    throw err;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      cells: { type: "string" },
      out: { type: "string" },
      from: { type: "string" },
      months: { type: "string" },
      seed: { type: "string" },
    },
  });
  if (!values.cells || !values.out) {
    process.stderr.write("usage: npm run -s bench:grid -- --cells N --out DIR [--from ARTIFACTS_DIR] [--months M] [--seed S]\n");
    process.exit(2);
  }
  const t0 = performance.now();
  const r = await publishSyntheticGrid({
    cells: Number(values.cells),
    out: values.out,
    from: values.from ?? artifactsDir(),
    months: values.months === undefined ? undefined : Number(values.months),
    seed: values.seed === undefined ? undefined : Number(values.seed),
  });
  process.stdout.write(
    `published synthetic version ${r.version}: ${r.cells} cells at ${r.resolutionDeg.toPrecision(4)}°, ${r.months} months, ` +
      `${(r.gridBytes / 1e6).toFixed(1)} MB grid, in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${r.dir}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(PROJECT_ROOT, "bench", "synthetic-grid.ts")) {
  main().catch((err) => {
    process.stderr.write(`bench:grid: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
