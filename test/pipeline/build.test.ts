// End to end: the real data mirror → a published version. Also: unchanged inputs publish nothing, and a
// malformed input stops the build without touching the published version.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { buildDrought, GRID_INDICES } from "../../pipeline/build.ts";
import { buildSettingsFromEnv } from "../../pipeline/build-settings.ts";
import { readManifest, verifyArtifacts } from "../../formats/manifest.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { ProvinceSummariesReader } from "../../formats/province-summaries.ts";
import { ProvinceIndexReader, readProvincesJson } from "../../formats/province-index.ts";
import { CoverageMask, INSIDE, OUTSIDE } from "../../formats/coverage-mask.ts";
import { parseMonth } from "../../lib/months.ts";

// The GHCN-Daily station grid of Thailand (GRID_SOURCE=stations); the default regional grid is built by the suite's
// global setup and checked in test/pipeline/build-region.test.ts.
const settings = buildSettingsFromEnv({ GRID_SOURCE: "stations", TILE_MONTHS: "1", TILE_MAX_ZOOM: "6" });
const artifacts = mkdtempSync(join(tmpdir(), "build-"));
let versionDir = "";

beforeAll(async () => {
  const r = await buildDrought({ dataDir: dataDir(), artifactsDir: artifacts, settings, now: new Date("2026-11-23T00:00:00Z") });
  expect(r.status).toBe("published");
  versionDir = r.dir!;
}, 120_000);

describe("station-grid build on the real data mirror", () => {
  it("publishes a verified version with a manifest of inputs and artifacts", async () => {
    const m = readManifest(versionDir);
    expect(readlinkSync(join(artifacts, "current"))).toBe(join("versions", m.version));
    const names = Object.keys(m.artifacts).sort();
    expect(names.filter((n) => !n.startsWith("tiles-"))).toEqual([
      "build-report.json",
      "confidence.bin",
      "coverage-mask.bin",
      "drought-cells.csv.gz",
      "drought-cells.parquet",
      "drought-grid.bin",
      "province-index.bin",
      "province-shapes.json",
      "province-summaries.bin",
      "province-summaries.csv.gz",
      "province-summaries.parquet",
      "provinces.json",
    ]);
    // One raster archive per index for the one precomputed month, the vector archives and their index.
    expect(names).toContain(`tiles-drought-spei1-${m.latestValidMonth}.pmtiles`);
    expect(names).toEqual(expect.arrayContaining(["tiles-provinces.pmtiles", "tiles-cells.pmtiles", "tiles-countries.pmtiles", "tiles-index.json"]));
    expect(await verifyArtifacts(versionDir, m)).toEqual([]);
    // 53 station files + their index + 3 boundary files.
    expect(Object.keys(m.inputs).filter((k) => k.startsWith("climate/ghcnd-thailand/"))).toHaveLength(54);
    expect(m.inputs["boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson"].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.baseline).toEqual({ start: "1961-01", end: "1990-12" });
    expect(m.latestValidMonth).toMatch(/^\d{4}-\d{2}$/);
  });

  it("gives every land cell of Thailand values in the latest valid month", () => {
    const m = readManifest(versionDir);
    const grid = openDroughtGrid(new Uint8Array(readFileSync(join(versionDir, "drought-grid.bin"))));
    expect(grid.indexNames).toEqual([...GRID_INDICES]);
    expect(grid.nCells).toBeGreaterThan(600);
    expect(grid.nCells).toBeLessThan(900);
    const off = grid.monthOffset(parseMonth(m.latestValidMonth!)!);
    expect(off).toBeGreaterThanOrEqual(0);
    for (let c = 0; c < grid.nCells; c++) expect(Number.isFinite(grid.value(c, off, 0)), `cell ${c}`).toBe(true);
    // A baseline month is nearly fully covered for every SPEI/SPI scale up to 12 (a far-southern cell goes
    // without when its only station in range, Hat Yai, misses the month).
    const base = grid.monthOffset(parseMonth("1980-06")!);
    for (const name of ["spei1", "spei3", "spei6", "spei12", "spi1", "spi3", "mcdi"]) {
      expect(grid.monthValidCount(base, grid.indexNo(name)), name).toBeGreaterThanOrEqual(0.95 * grid.nCells);
    }
  });

  it("summarises all 77 provinces in the latest valid month, with the cells used", () => {
    const m = readManifest(versionDir);
    const provinces = readProvincesJson(readFileSync(join(versionDir, "provinces.json"), "utf8"));
    const s = new ProvinceSummariesReader(new Uint8Array(readFileSync(join(versionDir, "province-summaries.bin"))));
    expect(provinces).toHaveLength(77);
    const off = s.monthOffset(parseMonth(m.latestValidMonth!)!);
    for (let p = 0; p < 77; p++) {
      expect(Number.isFinite(s.record(p, off)[0]), provinces[p].code).toBe(true);
      expect(s.cellsUsed(p, off)).toBeGreaterThanOrEqual(1);
    }
  });

  it("writes a coverage mask that agrees with the province polygons everywhere", () => {
    const mask = new CoverageMask(new Uint8Array(readFileSync(join(versionDir, "coverage-mask.bin"))));
    const index = new ProvinceIndexReader(new Uint8Array(readFileSync(join(versionDir, "province-index.bin"))));
    let inside = 0;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const lat = 5 + rand() * 16;
      const lng = 97 + rand() * 9;
      const state = mask.stateAt(lat, lng);
      const inPolygon = index.provinceAt(lat, lng) >= 0;
      // INSIDE squares never hold a non-Thai point; OUTSIDE squares never a Thai one.
      if (state === INSIDE) expect(inPolygon, `${lat},${lng}`).toBe(true);
      if (state === OUTSIDE) expect(inPolygon, `${lat},${lng}`).toBe(false);
      if (state === INSIDE) inside++;
    }
    // Most of the country is answered from the mask alone.
    expect(inside).toBeGreaterThan(3000);
  });

  it("writes a build report with station QC, cross-validation, baseline and latest valid month", () => {
    const r = JSON.parse(readFileSync(join(versionDir, "build-report.json"), "utf8"));
    expect(r.source.stationQc.stationsRead).toBe(53);
    expect(r.source.stationQc.rowsRead).toBe(1043778);
    expect(r.source.stationQc.policy).toBe("assume-dry");
    expect(r.baseline).toEqual({ start: "1961-01", end: "1990-12" });
    expect(r.latestValidMonth).toBe(readManifest(versionDir).latestValidMonth);
    for (const name of GRID_INDICES) {
      const cv = r.source.crossValidation.indices[name];
      expect(cv.n, name).toBeGreaterThan(10_000);
      // Interpolated neighbours must carry real skill: positive correlation, RMSE below the z-scale's spread.
      expect(cv.pearson, name).toBeGreaterThan(0.4);
      expect(cv.rmse, name).toBeLessThan(1.1);
    }
    expect(r.provinces.withSummaryAtLatestValidMonth).toBe(77);
    expect(r.grid.cellsWithSpei1AtLatestValidMonth).toBe(r.grid.landCells);
  });

  it("publishes nothing when inputs, settings and code are unchanged", async () => {
    const before = readdirSync(join(artifacts, "versions"));
    const r = await buildDrought({ dataDir: dataDir(), artifactsDir: artifacts, settings });
    expect(r.status).toBe("unchanged");
    expect(readdirSync(join(artifacts, "versions"))).toEqual(before);
  });

  it("stops on a malformed station row, naming file and line, and leaves the published version alone", async () => {
    // A data directory of links to the mirror, with one station file replaced by a broken copy.
    const src = dataDir();
    const dd = mkdtempSync(join(tmpdir(), "data-"));
    mkdirSync(join(dd, "climate", "ghcnd-thailand"), { recursive: true });
    symlinkSync(join(src, "boundaries"), join(dd, "boundaries"));
    const stationDir = join(src, "climate", "ghcnd-thailand");
    const broken = "CHIANG_MAI_TH_TH000048327_1950-2019.csv";
    for (const f of readdirSync(stationDir)) {
      if (f !== broken) symlinkSync(join(stationDir, f), join(dd, "climate", "ghcnd-thailand", f));
    }
    const lines = readFileSync(join(stationDir, broken), "utf8").split("\n");
    // A date that is no date (a value out of its element's range is now dropped and reported, not fatal: issue 37).
    lines[5] = lines[5].replace(/\d{4}-\d{2}-\d{2}/, "2019-13-45");
    writeFileSync(join(dd, "climate", "ghcnd-thailand", broken), lines.join("\n"));

    const current = readlinkSync(join(artifacts, "current"));
    await expect(buildDrought({ dataDir: dd, artifactsDir: artifacts, settings, force: true })).rejects.toThrow(
      new RegExp(`${broken}:6: .*2019-13-45`),
    );
    expect(readlinkSync(join(artifacts, "current"))).toBe(current);
    expect(readdirSync(join(artifacts, "staging"))).toEqual([]);
  });
});
