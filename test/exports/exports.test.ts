// The exports of a published version, read back by an independent reader (DuckDB) and downloaded over HTTP from a
// running server: the values are the grid's and the summaries' own, the geometry is each cell's square, the files
// are served with their checksum as ETag, conditional GET and ranges.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CONFIDENCE_FILE, ConfidenceGrid } from "../../formats/confidence-grid.ts";
import { checkCsvExport, checkParquetExport, EXPORT_FILES } from "../../formats/drought-export.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { readManifest } from "../../formats/manifest.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { readProvincesJson } from "../../formats/province-index.ts";
import { formatMonth } from "../../lib/months.ts";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { privateArtifacts, startRealServer, type RealServer } from "../e2e/real-server.ts";

const dir = realpathSync(join(inject("artifactsDir"), "current"));
const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
const summaries = new ProvinceSummariesReader(new Uint8Array(readFileSync(join(dir, "province-summaries.bin"))));
const provinces = readProvincesJson(readFileSync(join(dir, "provinces.json"), "utf8"));
const manifest = readManifest(dir);
// The regional grid has no confidence: the column is null (the station grid's is checked in the station build).
const confidence = existsSync(join(dir, CONFIDENCE_FILE)) ? new ConfidenceGrid(new Uint8Array(readFileSync(join(dir, CONFIDENCE_FILE)))) : undefined;

async function duck(sql: string): Promise<unknown[][]> {
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  const rows = (await c.runAndReadAll(sql)).getRows();
  c.closeSync();
  return rows.map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
}

const cellsFile = join(dir, EXPORT_FILES.cellsParquet).replace(/'/g, "''");
const provincesFile = join(dir, EXPORT_FILES.provincesParquet).replace(/'/g, "''");
const month = grid.lastMonth - 1;
const m = month - grid.firstMonth;

describe("GeoParquet export read by DuckDB", () => {
  it("holds every cell and month, and SPEI-1 where the grid has it", async () => {
    const [[rows, cells, first, last, valid]] = await duck(
      `select count(*), count(distinct cell_id), min(month), max(month), sum(valid::int) from '${cellsFile}'`,
    );
    expect([rows, cells, first, last]).toEqual([grid.nCells * grid.nMonths, grid.nCells, formatMonth(grid.firstMonth), formatMonth(grid.lastMonth)]);
    let finite = 0;
    for (let mm = 0; mm < grid.nMonths; mm++) for (let c = 0; c < grid.nCells; c++) if (Number.isFinite(grid.value(c, mm, 0))) finite++;
    expect(valid).toBe(finite);
  });

  it("gives each cell its stored values and its square", async () => {
    const picks = [0, Math.floor(grid.nCells / 2), grid.nCells - 1];
    const rows = await duck(
      `select cell_id, grid_id, lat, lng, ${grid.indexNames.join(", ")}, valid, geometry::varchar, confidence, country from '${cellsFile}' ` +
        `where month = '${formatMonth(month)}' and cell_id in (${picks.map((c) => grid.cellId(c)).join(",")}) order by cell_id`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const c = picks.find((p) => grid.cellId(p) === row[0])!;
      const h = grid.resolutionDeg / 2;
      const [lat, lng] = [grid.cellLat(c), grid.cellLng(c)];
      expect(row.slice(1, 4)).toEqual([`SEA100-${grid.cellId(c)}`, lat, lng]);
      expect(row[7 + grid.nIndices]).toBe(grid.cellCountry(c));
      const rec = grid.record(c, m);
      grid.indexNames.forEach((_, k) => expect(row[4 + k]).toBe(Number.isFinite(rec[k]) ? rec[k] : null));
      expect(row[4 + grid.nIndices]).toBe(Number.isFinite(rec[0]));
      expect(row[6 + grid.nIndices]).toBe(confidence ? Math.fround(confidence.cell(c, m) ?? NaN) || null : null);
      expect(row[5 + grid.nIndices]).toBe(`POLYGON ((${lng - h} ${lat - h}, ${lng + h} ${lat - h}, ${lng + h} ${lat + h}, ${lng - h} ${lat + h}, ${lng - h} ${lat - h}))`);
    }
  });

  it("carries GeoParquet metadata DuckDB understands", async () => {
    const [[type]] = await duck(`select typeof(geometry) from '${cellsFile}' limit 1`);
    expect(String(type)).toMatch(/^GEOMETRY/);
    const meta = checkParquetExport(readFileSync(join(dir, EXPORT_FILES.cellsParquet)), EXPORT_FILES.cellsParquet);
    const geo = JSON.parse(meta.key_value_metadata!.find((kv) => kv.key === "geo")!.value!);
    expect(geo).toMatchObject({ version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB", geometry_types: ["Polygon"] } } });
  });

  it("province export: the summaries' means and cell counts", async () => {
    const rows = await duck(`select province_code, province, ${summaries.indexNames.join(", ")}, cells_used, country, province_th from '${provincesFile}' where month = '${formatMonth(month)}' order by province_code`);
    expect(rows).toHaveLength(summaries.nProvinces);
    const byCode = new Map(rows.map((r) => [r[0], r]));
    provinces.forEach((p, i) => {
      const row = byCode.get(p.code)!;
      expect(row[1]).toBe(p.nameEn);
      const rec = summaries.record(i, summaries.monthOffset(month));
      summaries.indexNames.forEach((_, k) => expect(row[2 + k]).toBe(Number.isFinite(rec[k]) ? rec[k] : null));
      expect(row[2 + summaries.nIndices]).toBe(summaries.cellsUsed(i, summaries.monthOffset(month)));
      expect(row.slice(3 + summaries.nIndices)).toEqual([p.country, p.nameTh]);
    });
    const [[vnm, mys]] = await duck(`select count(distinct province_code) filter (where country = 'VNM'), count(distinct province_code) filter (where country = 'MYS') from '${provincesFile}'`);
    expect([vnm, mys]).toEqual([64, 16]);
  });
});

describe("CSV exports", () => {
  it("cells: one row per cell and month, values to 4 decimals", () => {
    const rows = parse(gunzipSync(readFileSync(join(dir, EXPORT_FILES.cellsCsv))), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(grid.nCells * grid.nMonths);
    const c = 5;
    const row = rows[m * grid.nCells + c];
    expect([row.cell_id, row.month]).toEqual([String(grid.cellId(c)), formatMonth(month)]);
    const v = grid.value(c, m, 0);
    expect(row.spei1).toBe(Number.isFinite(v) ? String(Math.round(v * 1e4) / 1e4) : "");
  });

  it("load-time checks refuse a truncated Parquet file and a CSV with another header", () => {
    const parquet = readFileSync(join(dir, EXPORT_FILES.cellsParquet));
    expect(() => checkParquetExport(parquet.subarray(0, parquet.length - 100), EXPORT_FILES.cellsParquet)).toThrow(/not a readable Parquet file/);
    expect(() => checkCsvExport(Buffer.from("not gzip"), EXPORT_FILES.cellsCsv)).toThrow(/not gzip/);
    expect(() => checkCsvExport(gzipSync("a,b\n1,2\n"), EXPORT_FILES.provincesCsv)).toThrow(/does not start with province_code/);
  });
});

describe("export routes", () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer(privateArtifacts(inject("artifactsDir")).dir);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.base + path, { headers: { "X-API-Key": server.key, ...headers } });

  it("lists the served version's exports with their checksums", async () => {
    const r = await get("/api/risk-map/drought/exports");
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data: { version: string; files: { name: string; sha256: string; bytes: number; url: string }[] } };
    expect(body.data.version).toBe(manifest.version);
    expect(body.data.files.map((f) => f.name)).toEqual(Object.values(EXPORT_FILES));
    for (const f of body.data.files) expect([f.sha256, f.bytes, f.url]).toEqual([manifest.artifacts[f.name].sha256, manifest.artifacts[f.name].bytes, `/api/risk-map/drought/exports/${f.name}`]);
  });

  it("sends a file with its checksum as ETag, 304 on If-None-Match, ranges", async () => {
    const path = `/api/risk-map/drought/exports/${EXPORT_FILES.cellsParquet}`;
    const r = await get(path);
    expect(r.status).toBe(200);
    const bytes = Buffer.from(await r.arrayBuffer());
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(sha).toBe(manifest.artifacts[EXPORT_FILES.cellsParquet].sha256);
    expect(r.headers.get("etag")).toBe(`"${sha}"`);
    expect(r.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="${manifest.version}-${EXPORT_FILES.cellsParquet}"`);
    expect((await get(path, { "If-None-Match": `"${sha}"` })).status).toBe(304);
    const head = await get(path, { Range: "bytes=0-3" });
    expect([head.status, Buffer.from(await head.arrayBuffer()).toString()]).toEqual([206, "PAR1"]);
    const stale = await get(path, { Range: "bytes=0-3", "If-Range": '"0000"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
  });

  it("a file edited or damaged in place is not served: 500 INTERNAL_ERROR in the envelope, never its old ETag nor other bytes under 200 (issues 24, 39)", async () => {
    const path = `/api/risk-map/drought/exports/${EXPORT_FILES.provincesCsv}`;
    const before = await get(path);
    const oldTag = before.headers.get("etag");
    expect(oldTag).toBe(`"${createHash("sha256").update(Buffer.from(await before.arrayBuffer())).digest("hex")}"`);
    const file = join(server.artifactsDir, "current", EXPORT_FILES.provincesCsv);
    const intact = readFileSync(file);
    const cut = intact.subarray(0, intact.length - 100); // a truncated gzip stream: it would fail to gunzip
    try {
      for (const edited of [Buffer.concat([intact, Buffer.from("edited in place")]), cut]) {
        writeFileSync(file, edited);
        const conditions: Record<string, string>[] = [{}, { "If-None-Match": oldTag! }, { "If-Match": oldTag! }, { Range: "bytes=0-9" }];
        for (const headers of conditions) {
          const after = await get(path, headers);
          expect(after.status).toBe(500);
          expect(after.headers.get("etag")).toBeNull();
          expect((await after.json()).error.code).toBe("INTERNAL_ERROR");
        }
      }
    } finally {
      writeFileSync(file, intact);
    }
    const restored = await get(path);
    expect([restored.status, restored.headers.get("etag")]).toEqual([200, oldTag]);
    await restored.arrayBuffer();
  });

  it("the README's DuckDB recipe runs as written on the file as downloaded (saved under its versioned name)", async () => {
    const r = await get(`/api/risk-map/drought/exports/${EXPORT_FILES.cellsParquet}`);
    const name = /filename="([^"]+)"/.exec(r.headers.get("content-disposition") ?? "")![1];
    const work = mkdtempSync(join(tmpdir(), "readme-recipe-"));
    writeFileSync(join(work, name), Buffer.from(await r.arrayBuffer()));
    writeFileSync(join(work, "points10m.csv"), "id,lat,lng\ncnx,18.79,98.98\nparis,48.85,2.35\n");
    // The recipe's SQL block, its file names made absolute (DuckDB reads relative to the process's directory).
    const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
    const sql = /```sql\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("Ten million points")))![1].replace(/'([^']*\.(?:parquet|csv))'/g, (_m, f: string) => `'${join(work, f)}'`);
    expect(sql).toContain(`'${join(work, "*-drought-cells.parquet")}'`);
    const db = await DuckDBInstance.create(":memory:");
    const c = await db.connect();
    for (const statement of sql.split(";").filter((s) => s.trim() !== "")) await c.run(statement);
    c.closeSync();
    const rows = parse(readFileSync(join(work, "scored10m.csv")), { columns: true }) as Record<string, string>[];
    // Chiang Mai's square holds the cell the API names; Paris is in no square.
    const api = (await (await get("/api/risk-map/drought?lat=18.79&lng=98.98&month=2023-12")).json()) as { data: { location: { gridId: string }; drought: { indices: { spei1: number } } } };
    expect(rows.map((x) => x.id)).toEqual(["cnx", "paris"]);
    expect(rows[0].grid_id).toBe(api.data.location.gridId);
    expect(Number(rows[0].spei1)).toBeCloseTo(api.data.drought.indices.spei1, 3);
    expect([rows[1].grid_id, rows[1].spei1]).toEqual(["", ""]);
    rmSync(work, { recursive: true, force: true });
  });

  it("needs a key; an unknown export is a 404 in the envelope", async () => {
    const r = await fetch(server.base + `/api/risk-map/drought/exports/${EXPORT_FILES.cellsCsv}`);
    expect(r.status).toBe(401);
    const missing = await get("/api/risk-map/drought/exports/secrets.parquet");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});

