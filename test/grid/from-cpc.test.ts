// The regional grid (GRID_SOURCE=cpc) on the data mirror's files: CPC precipitation read from the NetCDF equals the
// mirror's CSV copy of the same values, GHCN-Monthly temperature reaches every cell, and the indices computed over the
// Thai provinces are standardised over their baseline (mean ≈ 0, standard deviation ≈ 1 in every cell).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { gridFromCpc } from "../../pipeline/grid/from-cpc.ts";
import { CPC_DATA_DIR_FILE, GHCNM_DATA_DIR_FILES } from "../../pipeline/grid/grid-source.ts";
import { readMonthlyClimateGrid, seriesOffset } from "../../pipeline/inputs/netcdf/index.ts";
import { loadProvinces, provincesPath } from "../../pipeline/provinces/boundaries.ts";

const DATA = dataDir();
const BASE = { refStart: monthIndex(1991, 1), refEnd: monthIndex(2020, 12) };

describe("CPC precipitation on the mirror", () => {
  it("the NetCDF's Bangkok cell (13.5 °N, 100.5 °E) holds the CSV copy's 540 monthly totals", async () => {
    const g = await readMonthlyClimateGrid(join(DATA, CPC_DATA_DIR_FILE), { kind: "precipitation", bbox: { west: 100, east: 101, south: 13, north: 14 } });
    expect([g.lats[0], g.lngs[0], g.months.length, formatMonth(g.months[0]), formatMonth(g.months.at(-1)!)]).toEqual([13.5, 100.5, 540, "1979-01", "2023-12"]);
    const csv = gunzipSync(readFileSync(join(DATA, CPC_DATA_DIR_FILE.replace(/\.nc$/, ".csv.gz")))).toString("utf8");
    const fromCsv = csv.split("\n").filter((l) => l.startsWith("100.5,13.5,")).map((l) => l.split(",").map(Number));
    expect(fromCsv).toHaveLength(540);
    const at = seriesOffset(g, 0, 0);
    for (const [, , year, month, mm] of fromCsv) expect(g.values[at + monthIndex(year, month) - g.months[0]]).toBeCloseTo(mm, 3);
  });
});

describe("gridFromCpc over the Thai provinces", () => {
  let r: Awaited<ReturnType<typeof gridFromCpc>>;
  beforeAll(async () => {
    r = await gridFromCpc({
      provinces: loadProvinces(provincesPath(DATA)),
      precipitation: join(DATA, CPC_DATA_DIR_FILE),
      ghcnmDat: join(DATA, GHCNM_DATA_DIR_FILES.dat),
      ghcnmInv: join(DATA, GHCNM_DATA_DIR_FILES.inv),
      ...BASE,
      indexNames: ["spei1", "spei3", "spi1"],
    });
  }, 120_000);

  it("1° cells over Thailand, 1979-01..2023-12, temperature for every cell from the stations", () => {
    expect(r.cells.resolutionDeg).toBe(1);
    // 74 land cells; the coastal one west of Ranong (9.5 °N, 97.5 °E) has one month of CPC data, no fit: left out.
    expect(r.report.landCells).toBe(74);
    expect(r.cells.lat.length).toBe(73);
    expect([formatMonth(r.firstMonth), r.nMonths]).toEqual(["1979-01", 540]);
    expect(r.report.temperature).toMatchObject({ source: "GHCN-Monthly v4 TAVG (qcf)", maxDistanceKm: 1200, cellsWithoutTemperature: 0 });
    expect(r.report.temperature.stationsUsed).toBeGreaterThan(300);
    expect(r.report.cellsWithoutData).toBe(1);
  });

  it("every cell's SPEI-1, SPEI-3 and SPI-1 have mean ≈ 0 and standard deviation ≈ 1 over the baseline, and a value for 2023-12", () => {
    // The coastal cell west of Ranong without a fit has left the grid: every cell is fitted.
    const from = BASE.refStart - r.firstMonth;
    const to = BASE.refEnd - r.firstMonth;
    const unfitted = new Set<string>();
    for (const layer of r.layers) {
      for (let c = 0; c < r.cells.lat.length; c++) {
        // ±3.5: ±Infinity beyond the fitted distribution (as R SPEI gives) served clamped; left out of the moments.
        const v = Array.from(layer.subarray(c * r.nMonths + from, c * r.nMonths + to + 1)).filter((x) => Number.isFinite(x) && Math.abs(x) < 3.5);
        if (v.length === 0) {
          unfitted.add(`${r.cells.lat[c]},${r.cells.lng[c]}`);
          continue;
        }
        const mean = v.reduce((a, b) => a + b, 0) / v.length;
        const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
        expect(v.length).toBeGreaterThan(340);
        expect(Math.abs(mean)).toBeLessThan(0.1);
        expect(Math.abs(sd - 1)).toBeLessThan(0.15);
        expect(layer[c * r.nMonths + r.nMonths - 1]).not.toBeNaN();
      }
    }
    expect([...unfitted]).toEqual([]);
    expect(r.layers.every((l) => l.every((x) => x !== Infinity && x !== -Infinity))).toBe(true);
  });
});
