// `make bench`: runs every benchmark one after the other (never two at once: they share 2 cores), collects what
// each prints on stdout (a markdown table) into bench/RESULTS.md, with the date and the machine.
// Run one: npx tsx bench/<name>.bench.ts. Progress goes to stderr.
import { spawnSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../lib/config.ts";
import { mergeResults, splitBenchOutput, type BenchSection } from "./bench-output.ts";

const BENCHES: [title: string, file: string, args: string[]][] = [
  ["Pipeline (issue 2)", "pipeline.bench.ts", []],
  ["Grid lookup, format level (issue 2)", "grid-lookup.bench.ts", []],
  ["PostGIS comparison (issue 12)", "postgis.bench.ts", []],
  ["API (issue 3)", "api.bench.ts", []],
  ["Tiles (issue 4)", "tiles.bench.ts", []],
  ["Feed risk scores (issue 5)", "feeds.bench.ts", []],
  ["Outbreak radar (issue 6)", "outbreak.bench.ts", []],
  ["Supply chain (issue 6)", "supply-chain.bench.ts", []],
  ["Where a point is, lib/geo (issue 10)", "geo.bench.ts", []],
  ["Bulk scoring and many-series indices (issue 12)", "bulk.bench.ts", []],
  ["Start-up, compiled and tsx (issue 12)", "startup.bench.ts", []],
  ["Admission control under a burst (issue 24)", "admission.bench.ts", []],
  ["HTTP path, pinned cores (issue 25)", "http-pinned.bench.ts", []],
  ["First run (issue 25)", "first-run.bench.ts", []],
  ["HTTP plumbing: libraries against hand-written (issue 26 item 6)", "http-plumbing.bench.ts", []],
  ["Bulk over HTTP (issue 38)", "bulk-http.bench.ts", []],
  ["GC and the live heap under HTTP load (issue 38)", "gc-heap.bench.ts", []],
  ["Instructions a request, callgrind (issue 38)", "http-instructions.bench.ts", []],
];

const only = process.argv.slice(2);
const today = new Date().toISOString().slice(0, 10);
const sections: BenchSection[] = [];
for (const [title, file, args] of BENCHES) {
  if (only.length && !only.some((o) => file.startsWith(o))) continue;
  process.stderr.write(`\n=== ${title}: bench/${file}\n`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "bench", file), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", LOG_FORMAT: "json" },
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const { results: out, logs } = splitBenchOutput(r.stdout ?? "");
  for (const l of logs) process.stderr.write(l + "\n");
  process.stdout.write(out + "\n");
  if (r.status !== 0) {
    process.stderr.write(`bench/${file} failed with status ${r.status}\n`);
    process.exitCode = 1;
  }
  const body = out.startsWith("|") ? out : "```text\n" + out + "\n```";
  const took = `${((Date.now() - t0) / 1000).toFixed(0)} s, measured ${today}`;
  sections.push({ title, text: `## ${title}\n\n\`bench/${file}\`, ${took}${r.status === 0 ? "" : " — FAILED"}\n\n${body}\n` });
}

const header = `# Benchmark results\n\nMeasured by \`make bench\` on ${today}: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}. Medians unless stated; ratios are measured side by side in the same run. Each section names the day it was measured.\n\n`;
const resultsFile = join(PROJECT_ROOT, "bench", "RESULTS.md");
if (!only.length || !existsSync(resultsFile)) writeFileSync(resultsFile, header + sections.map((s) => s.text).join("\n"));
else writeFileSync(resultsFile, mergeResults(readFileSync(resultsFile, "utf8"), sections, BENCHES.map(([t]) => t)));
