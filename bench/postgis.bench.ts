// Nearest grid cell for batches of 100 points: this service in process against PostGIS's index-assisted KNN on the
// same cells, side by side in one run, on the Thai grid and a synthetic 1,000,000-cell grid (issue 12).
// PostGIS: `ORDER BY cell <-> point LIMIT 1` on geography points with a GiST index (great-circle distance, as our
// nearest cell), one LATERAL query per batch of 100 through a prepared statement, timed by psql (\timing) over a
// Unix socket; ours: ArtifactDroughtService.batchItem (what POST /api/risk-map/batch runs) for the same points.
// Needs PostgreSQL with PostGIS (Debian: apt-get install postgresql-15 postgresql-15-postgis-3); without it the
// table says so and the bench exits 0. A throw-away cluster is made under the temp directory and stopped after.
// Run: npx tsx bench/postgis.bench.ts [--batches B]
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artifactsDir, PROJECT_ROOT } from "../lib/config.ts";
import { isCovered } from "../formats/drought-version.ts";
import { openDroughtService } from "../server/services/drought-service.ts";
import { rng } from "./random.ts";
import { publishSyntheticGrid } from "./synthetic-grid.ts";

const argBatches = process.argv.indexOf("--batches");
const BATCHES = argBatches > 0 ? Number(process.argv[argBatches + 1]) : 200;
const PORT = 54329;
const INSTALL = "apt-get install postgresql-15 postgresql-15-postgis-3 (Debian 12)";

type Point = [lat: number, lng: number];

/** The newest PostgreSQL bin directory whose server has the PostGIS extension, or null. */
function findPostgis(): { bin: string; version: string } | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) {
    if (existsSync(join(root, v, "bin", "initdb")) && existsSync(`/usr/share/postgresql/${v}/extension/postgis.control`)) return { bin: join(root, v, "bin"), version: v };
  }
  return null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const pg = findPostgis();
  if (pg === null) {
    console.log(`| PostGIS | skipped: no PostgreSQL with the PostGIS extension on this machine (install: ${INSTALL}) |\n|---|---|`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), "bench-postgis-"));
  chmodSync(tmp, 0o755);
  const data = join(tmp, "data");
  const sock = join(tmp, "sock");
  mkdirSync(sock);
  // initdb and the server refuse to run as root: as root they run as the postgres user of the Debian package.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(tmp, uid, gid);
    chownSync(sock, uid, gid);
  }
  const run = (cmd: string, args: string[], input?: string) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(pg.bin, cmd), ...args]] : [join(pg.bin, cmd), args];
    const r = spawnSync(file, argv, { encoding: "utf8", input, maxBuffer: 256 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  const psql = (sql: string) => run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", sock, "-p", String(PORT), "-U", "bench", "-d", "postgres", "-f", "-"], sql);
  let started = false;
  try {
    process.stderr.write(`PostgreSQL ${pg.version}: initdb and start under ${tmp}…\n`);
    run("initdb", ["-D", data, "-A", "trust", "-U", "bench", "-E", "UTF8", "--no-sync"]);
    run("pg_ctl", ["-D", data, "-w", "-l", join(tmp, "server.log"), "-o", `-k ${sock} -p ${PORT} -c listen_addresses='' -c fsync=off -c shared_buffers=256MB`, "start"]);
    started = true;
    const postgisVersion = psql("CREATE EXTENSION postgis; SELECT postgis_lib_version();").trim().split("\n").find((l) => /^\s*\d/.test(l))?.trim();

    process.stderr.write("publishing a synthetic 1,000,000-cell grid…\n");
    const million = await publishSyntheticGrid({ cells: 1_000_000, out: join(tmp, "million"), from: artifactsDir(), months: 6 });
    const grids = [
      { label: "Thai grid", table: "cells_thai", ...(await openDroughtService(artifactsDir(), { pollMs: 3_600_000 })) },
      { label: "1M cells", table: "cells_1m", ...(await openDroughtService(join(tmp, "million"), { pollMs: 3_600_000 })) },
    ];
    for (const g of grids) {
      const grid = g.store.require().data.grid;
      const csv = join(tmp, `${g.table}.csv`);
      const lines: string[] = [];
      for (let c = 0; c < grid.nCells; c++) lines.push(`${c},${grid.cellLat(c)},${grid.cellLng(c)}`);
      writeFileSync(csv, lines.join("\n") + "\n");
      chmodSync(csv, 0o644);
      process.stderr.write(`loading ${grid.nCells} cells into ${g.table}…\n`);
      psql(
        `CREATE TABLE ${g.table}_in (id int, lat float8, lng float8);\n\\copy ${g.table}_in FROM '${csv}' WITH (FORMAT csv)\n` +
          `CREATE TABLE ${g.table} AS SELECT id, ST_SetSRID(ST_MakePoint(lng, lat), 4326)::geography AS g FROM ${g.table}_in;\n` +
          `CREATE INDEX ON ${g.table} USING gist (g); ANALYZE ${g.table};\n`,
      );
    }

    // The point sets of bench/grid-lookup.bench.ts: covered land inland and anywhere, uncovered points nearby.
    const thai = grids[0].store.require().data;
    const r = rng(12);
    const sets: Record<string, Point[]> = { "inside, inland": [], "inside, anywhere": [], "outside, near (≤ 8° away)": [] };
    while (sets["inside, inland"].length < BATCHES * 100) sets["inside, inland"].push([14.6 + r() * 2.6, 99.5 + r() * 3.3]);
    while (sets["inside, anywhere"].length < BATCHES * 100) {
      const p: Point = [5.6 + r() * 14.9, 97.3 + r() * 8.4];
      if (isCovered(thai, p[0], p[1])) sets["inside, anywhere"].push(p);
    }
    while (sets["outside, near (≤ 8° away)"].length < BATCHES * 100) {
      const p: Point = [r() * 26, 92 + r() * 19];
      if (!isCovered(thai, p[0], p[1])) sets["outside, near (≤ 8° away)"].push(p);
    }

    const rows: string[] = [];
    const results: Record<string, unknown> = { date: new Date().toISOString(), postgresql: pg.version, postgis: postgisVersion, batches: BATCHES };
    for (const [setName, pts] of Object.entries(sets)) {
      const cells: string[] = [];
      for (const g of grids) {
        // PostGIS: one prepared LATERAL KNN query per batch; psql prints each statement's time ("Time: 1.234 ms").
        let sql = `PREPARE knn(float8[], float8[]) AS SELECT p.i, c.id FROM unnest($1, $2) WITH ORDINALITY AS p(lat, lng, i) CROSS JOIN LATERAL (SELECT id FROM ${g.table} ORDER BY g <-> ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326)::geography LIMIT 1) c;\n`;
        sql += "\\o /dev/null\n\\timing on\n";
        for (let b = 0; b < BATCHES; b++) {
          const batch = pts.slice(b * 100, b * 100 + 100);
          sql += `EXECUTE knn('{${batch.map((q) => q[0]).join(",")}}', '{${batch.map((q) => q[1]).join(",")}}');\n`;
        }
        process.stderr.write(`${setName}, ${g.label}: PostGIS…\n`);
        const times = [...psql(sql).matchAll(/^Time: ([\d.]+) ms/gm)].map((m) => Number(m[1]));
        if (times.length !== BATCHES) throw new Error(`psql printed ${times.length} timings for ${BATCHES} batches`);
        // Ours, the same batches, in process (warmed up first).
        const us: number[] = [];
        for (let b = 0; b < 50; b++) for (const q of pts.slice(0, 100)) g.service.batchItem(undefined, q[0], q[1]);
        for (let b = 0; b < BATCHES; b++) {
          const t0 = process.hrtime.bigint();
          for (let i = b * 100; i < b * 100 + 100; i++) g.service.batchItem(undefined, pts[i][0], pts[i][1]);
          us.push(Number(process.hrtime.bigint() - t0) / 1000);
        }
        const pgMs = median(times);
        const oursUs = median(us);
        cells.push(`${pgMs.toFixed(2)} ms`, `${oursUs.toFixed(1)} µs`, `**${Math.round((pgMs * 1000) / oursUs)}×**`);
        results[`${setName} ${g.label}`] = { postgisMsPer100: pgMs, oursUsPer100: oursUs };
      }
      rows.push(`| ${setName} | ${cells.join(" | ")} |`);
    }
    // The same answers: PostGIS's nearest cell against ours for 500 covered points.
    const agreement: string[] = [];
    const check = sets["inside, anywhere"].slice(0, 500);
    for (const g of grids) {
      const grid = g.store.require().data.grid;
      const out = psql(
        `\\pset format unaligned\n\\pset tuples_only on\nSELECT p.i, c.id FROM unnest('{${check.map((q) => q[0]).join(",")}}'::float8[], '{${check.map((q) => q[1]).join(",")}}'::float8[]) WITH ORDINALITY AS p(lat, lng, i) ` +
          `CROSS JOIN LATERAL (SELECT id FROM ${g.table} ORDER BY g <-> ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326)::geography LIMIT 1) c ORDER BY p.i;\n`,
      );
      const ids = out.trim().split("\n").filter((l) => /^\d+\|\d+$/.test(l)).map((l) => Number(l.split("|")[1]));
      const same = ids.filter((id, i) => id === grid.nearestCell(check[i][0], check[i][1]).cell).length;
      agreement.push(`${g.label}: the same cell for ${same} of ${ids.length} covered points`);
      results[`agreement ${g.label}`] = { same, of: ids.length };
    }
    for (const g of grids) g.store.stop();
    mkdirSync(join(PROJECT_ROOT, "bench/results"), { recursive: true });
    writeFileSync(join(PROJECT_ROOT, "bench/results/postgis.json"), JSON.stringify(results, null, 2) + "\n");
    console.log(`Batch of 100 nearest-cell lookups, median of ${BATCHES} batches: PostGIS ${postgisVersion} on PostgreSQL ${pg.version} (geography KNN, GiST index, prepared LATERAL query over a Unix socket, timed by psql) against this service in process (the batch endpoint's lookup, no HTTP). PostGIS answers every point with some cell; ours says "no data" for points outside the coverage without a search. 1M: ${million.cells} synthetic cells at ${million.resolutionDeg.toPrecision(3)}°. ${agreement.join("; ")} (PostGIS measures on the WGS 84 spheroid, ours on the sphere: a point almost equidistant from two cells may go either way).

| points | PostGIS, Thai grid | ours, Thai grid | PostGIS / ours | PostGIS, 1M cells | ours, 1M cells | PostGIS / ours |
|---|---|---|---|---|---|---|
${rows.join("\n")}`);
  } finally {
    if (started) run("pg_ctl", ["-D", data, "-m", "fast", "stop"]);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
