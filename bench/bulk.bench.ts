// Bulk tools (issue 12, goals 5 and 6), timed as whole processes the way a user runs them (start-up included):
// - `npm run score` over 2,000,000 points spread over Thailand's bounding box (a third on land), against the
//   published grid in ARTIFACTS_DIR: points per second end to end, and after the lookup raster is built;
// - `indices` over 10,000 series of 40 years (480 months): a wide SPI-3 table and a long SPEI-3 table (tmean and a
//   lat column), with the default workers and with one, side by side.
// Both run as `npm run -s score|indices -- …` (the compiled CLI). Medians of 3 runs. Run: npx tsx bench/bulk.bench.ts   Prints a markdown table; writes bench/results/bulk.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from "node:fs";
import { once } from "node:events";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { artifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { rng } from "./random.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const RUNS = 3;
const POINTS = 2_000_000;
const SERIES = 10_000;
const MONTHS = 480;

const dir = mkdtempSync(join(tmpdir(), "bench-bulk-"));

async function writeLines(path: string, lines: (emit: (line: string) => void) => void): Promise<void> {
  const out = createWriteStream(path);
  let buf: string[] = [];
  lines((line) => {
    buf.push(line);
    if (buf.length === 10_000) {
      out.write(buf.join("\n") + "\n");
      buf = [];
    }
  });
  if (buf.length) out.write(buf.join("\n") + "\n");
  out.end();
  await once(out, "close");
}

/** Runs an npm script as a user does (`npm run -s <script> -- args`): the compiled CLI, built first when stale. */
function time(script: string, args: string[]): { seconds: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync("npm", ["run", "-s", script, "--", ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ARTIFACTS_DIR: process.env.ARTIFACTS_DIR ?? artifactsDir() },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

async function main() {
  const rand = rng(12);
  const points = join(dir, "points.csv");
  await writeLines(points, (emit) => {
    emit("id,lat,lng");
    for (let i = 0; i < POINTS; i++) emit(`p${i},${(5.6 + rand() * 14.8).toFixed(5)},${(97.4 + rand() * 8.2).toFixed(5)}`);
  });
  const wide = join(dir, "wide.csv");
  const long = join(dir, "long.csv");
  const names = Array.from({ length: SERIES }, (_, k) => `s${k}`);
  const month = (i: number) => `${1981 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
  const prcp = (i: number) => (rand() < 0.08 ? 0 : -Math.log(1 - rand()) * (120 + 100 * Math.sin((2 * Math.PI * (i % 12)) / 12))).toFixed(1);
  await writeLines(wide, (emit) => {
    emit("date," + names.join(","));
    for (let i = 0; i < MONTHS; i++) emit(month(i) + "," + names.map(() => prcp(i)).join(","));
  });
  await writeLines(long, (emit) => {
    emit("series,date,prcp,tmean,lat");
    for (let k = 0; k < SERIES; k++) {
      const lat = (5 + rand() * 15).toFixed(3);
      for (let i = 0; i < MONTHS; i++) emit(`${names[k]},${month(i)},${prcp(i)},${(27 + 3 * Math.sin((2 * Math.PI * (i % 12)) / 12)).toFixed(1)},${lat}`);
    }
  });
  process.stderr.write("inputs written\n");

  const rows: string[] = [];
  const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cores: availableParallelism() };

  const scoreWall: number[] = [];
  const scoreInside: number[] = [];
  let scoreFound = 0;
  for (let r = 0; r < RUNS; r++) {
    const { seconds, stdout } = time("score", ["--input", points, "--output", join(dir, "scored.csv")]);
    const summary = JSON.parse(stdout.trim().split("\n").pop()!) as { seconds: number; found: number; rows: number };
    if (summary.rows !== POINTS) throw new Error(`scored ${summary.rows} rows, expected ${POINTS}`);
    scoreWall.push(seconds);
    scoreInside.push(summary.seconds);
    scoreFound = summary.found;
    process.stderr.write(`score ${r + 1}/${RUNS}: ${seconds.toFixed(2)} s\n`);
  }
  const perSecond = (n: number, s: number) => Math.round(n / s).toLocaleString("en-US");
  results.score = { points: POINTS, found: scoreFound, wallSeconds: median(scoreWall), commandSeconds: median(scoreInside) };
  rows.push(`| \`npm run score\`, ${POINTS.toLocaleString("en-US")} points (${scoreFound.toLocaleString("en-US")} on the grid), one core | ${perSecond(POINTS, median(scoreWall))} points/s end to end (${median(scoreWall).toFixed(2)} s); ${perSecond(POINTS, median(scoreInside))} points/s from opening the grid to the last row written | ≥ 1,000,000 points/s per core |`);

  for (const [label, file, extra] of [
    ["wide SPI-3", wide, ["--index", "spi", "--scale", "3", "--layout", "wide"]],
    ["long SPEI-3 (tmean, lat column)", long, ["--index", "spei", "--scale", "3"]],
  ] as const) {
    const by: Record<string, number> = {};
    for (const workers of [String(availableParallelism()), "1"]) {
      const t: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        t.push(time("indices", ["--input", file, ...extra, "--workers", workers, "--output", join(dir, "indices.csv")]).seconds);
        process.stderr.write(`indices ${label} workers=${workers} ${r + 1}/${RUNS}: ${t[r].toFixed(2)} s\n`);
      }
      by[workers] = median(t);
    }
    const all = by[String(availableParallelism())];
    results[label] = { series: SERIES, months: MONTHS, seconds: by };
    rows.push(`| \`indices\`, ${label}, ${SERIES.toLocaleString("en-US")} series × ${MONTHS} months | ${perSecond(SERIES, all)} series/s end to end with ${availableParallelism()} workers (${all.toFixed(2)} s); ${perSecond(SERIES, by["1"])} series/s with one (${by["1"].toFixed(2)} s) | ≥ 5,000 series/s |`);
  }

  mkdirSync(join(PROJECT_ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, "bench", "results", "bulk.json"), JSON.stringify(results, null, 2) + "\n");
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(["| measure | result | goal |", "|---|---|---|", ...rows].join("\n") + "\n");
}

main().catch((err) => {
  rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
