// gridFromNetcdf on precipitation (NetCDF-3, packed metres, descending latitudes) and temperature (NetCDF-4, K)
// over Thailand on a 1° grid centred on whole degrees (cell edges at .5: not multiples of the resolution).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import { GRID_INDICES } from "../../pipeline/build.ts";
import { clampInfinite, gridFromNetcdf, type GridFromNetcdfResult } from "../../pipeline/grid/from-netcdf.ts";
import { computeStationIndices, type StationIndices } from "../../pipeline/indices/station.ts";
import { readMonthlyClimateGrid, seriesOffset, type MonthlyGrid } from "../../pipeline/inputs/netcdf/index.ts";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import {
  axis, packPrecipitation, plausiblePrecipitation, plausibleTemperature, PRECIP_OFFSET, PRECIP_SCALE, speiValue,
  writePrecipitationNc3, writeSpeibaseNc4, writeTemperatureNc4, type CellValue,
} from "./fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "netcdf-build-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const provinces = loadProvinces();

const LATS_DESC = axis(21, 5, 1);
const LNGS = axis(97, 106, 1);
const REF = { refStart: monthIndex(1981, 1), refEnd: monthIndex(2010, 12) };
// Cell (13N, 100E) is land (Phetchaburi, Samut Songkhram…) but has no values in the source: "sea" there.
const masked = (f: CellValue): CellValue => (lat, lng, m) => (lat === 13 && lng === 100 ? NaN : f(lat, lng, m));

const prcpPath = join(dir, "prcp.nc");
const tasPath = join(dir, "tas.nc");
let result: GridFromNetcdfResult;

beforeAll(async () => {
  // Precipitation 1980-01..2019-12, temperature 1979-07..2019-06 (ascending latitudes): 474 months in common.
  writePrecipitationNc3(prcpPath, { lats: LATS_DESC, lngs: LNGS, firstMonth: monthIndex(1980, 1), nMonths: 480 }, masked(plausiblePrecipitation));
  await writeTemperatureNc4(tasPath, { lats: axis(5, 21, 1), lngs: LNGS, firstMonth: monthIndex(1979, 7), nMonths: 480 }, masked(plausibleTemperature));
  result = await gridFromNetcdf({ provinces, precipitation: prcpPath, temperature: tasPath, ...REF, indexNames: GRID_INDICES });
});

function cellAt(r: GridFromNetcdfResult, lat: number, lng: number): number {
  for (let c = 0; c < r.cells.lat.length; c++) if (r.cells.lat[c] === lat && r.cells.lng[c] === lng) return c;
  return -1;
}

/** A cell's series over months [from, from + n), read on its own from the file (no bbox). */
function seriesOf(g: MonthlyGrid, lat: number, lng: number, from: number, n: number): Float64Array {
  const o = seriesOffset(g, g.lats.indexOf(lat), g.lngs.indexOf(lng)) + (from - g.months[0]);
  return Float64Array.from(g.values.subarray(o, o + n));
}

describe("gridFromNetcdf from precipitation and temperature grids", () => {
  it("keeps the native 1° cells that overlap a Thai province, centres exactly as in the file", () => {
    const { cells } = result;
    // 79 cells' boxes intersect a province polygon (turf.booleanIntersects, checked once); the 40 × 40 sub-sampling
    // misses two whose land is a few islets (6N 99E, 7N 98E): 77 land cells, and the one without source values
    // (13N 100E, below) leaves the grid.
    expect(result.report.landCells).toBe(77);
    expect(cells.lat.length).toBe(76);
    expect(cells.resolutionDeg).toBe(1);
    expect(cells.samples).toBe(40);
    expect(cells.west).toBe(96.5);
    expect(cells.south).toBe(5.5);
    for (let c = 0; c < cells.lat.length; c++) {
      expect(Number.isInteger(cells.lat[c]) && Number.isInteger(cells.lng[c])).toBe(true);
    }
    // Bangkok (TH-10) lies in the cells centred at 14N 100E (3.6875 % of that cell's box) and 14N 101E (9.25 %).
    const bkk = provinces.findIndex((p) => p.code === "TH-10");
    const share = (lat: number, lng: number) => {
      const c = cellAt(result, lat, lng);
      for (let e = 0; e < cells.weightCell.length; e++) if (cells.weightCell[e] === c && cells.weightProvince[e] === bkk) return cells.weightFraction[e];
      return 0;
    };
    expect(share(14, 100)).toBe(Math.fround(59 / 1600));
    expect(share(14, 101)).toBe(Math.fround(148 / 1600));
    // Sea and foreign cells are not land cells: 5N 97E (Andaman Sea), 21N 100E (Laos/Myanmar, north of Mae Sai).
    expect(cellAt(result, 5, 97)).toBe(-1);
    expect(cellAt(result, 21, 100)).toBe(-1);
    expect(result.report.provincesWithoutCells).toEqual([]);
  });

  it("intersects the months of the two files", () => {
    expect(formatMonth(result.firstMonth)).toBe("1980-01");
    expect(result.nMonths).toBe(474);
    expect(result.report.monthRange).toEqual({ first: "1980-01", last: "2019-06" });
    expect(result.layers).toHaveLength(GRID_INDICES.length);
    for (const layer of result.layers) expect(layer.length).toBe(76 * 474);
  });

  it("gives every layer of a cell exactly what computeStationIndices gives for that cell's series read on their own", async () => {
    const prcp = await readMonthlyClimateGrid(prcpPath, { kind: "precipitation" });
    const tas = await readMonthlyClimateGrid(tasPath, { kind: "temperature" });
    // The reader's unpacking is what it should be: packed × 1e-5 + 0.2 m, in mm.
    const first = seriesOf(prcp, 14, 100, result.firstMonth, 1)[0];
    expect(first).toBeCloseTo((packPrecipitation(plausiblePrecipitation(14, 100, result.firstMonth)) * PRECIP_SCALE + PRECIP_OFFSET) * 1000, 9);
    for (const [lat, lng] of [[14, 100], [19, 99], [7, 100]]) {
      const c = cellAt(result, lat, lng);
      expect(c).toBeGreaterThanOrEqual(0);
      const expected = computeStationIndices({
        firstMonth: result.firstMonth,
        lat,
        prcp: seriesOf(prcp, lat, lng, result.firstMonth, 474),
        tmean: seriesOf(tas, lat, lng, result.firstMonth, 474),
        ...REF,
      });
      GRID_INDICES.forEach((name, k) => {
        const got = result.layers[k].subarray(c * 474, (c + 1) * 474);
        // ±Inf (beyond the fitted distribution) served as ±3.5, the station grid's clamp.
        expect(got, `${name} at ${lat},${lng}`).toEqual(Float32Array.from(clampInfinite(expected[name as keyof StationIndices] as Float64Array, 3.5)));
      });
    }
    // SPEI-3 at 14N 100E: the first two months have no 3-month sum; the rest are finite values of a fitted index.
    const spei3 = result.layers[GRID_INDICES.indexOf("spei3")].subarray(cellAt(result, 14, 100) * 474, (cellAt(result, 14, 100) + 1) * 474);
    expect(Number.isNaN(spei3[0]) && Number.isNaN(spei3[1])).toBe(true);
    expect(spei3.subarray(2).every((v) => Number.isFinite(v) && Math.abs(v) < 4)).toBe(true);
  });

  it("leaves a land cell without source values out of the grid and counts it; a province only it touched takes the nearest cell", () => {
    expect(cellAt(result, 13, 100)).toBe(-1);
    // Samut Songkhram (TH-75) lies wholly in 13N 100E's box: its summary is the nearest cell's (14N 100E).
    expect(result.report).toMatchObject({
      landCells: 77,
      cellsWithoutData: 1,
      cellsServed: 76,
      provincesWithoutCells: [],
      provincesFromNearestCell: [{ code: "TH-75", cellLat: 14, cellLng: 100, distanceKm: 69.6 }],
    });
    const tp = provinces.findIndex((p) => p.code === "TH-75");
    const entries = [...result.cells.weightProvince.keys()].filter((e) => result.cells.weightProvince[e] === tp);
    expect(entries.map((e) => [result.cells.lat[result.cells.weightCell[e]], result.cells.lng[result.cells.weightCell[e]], result.cells.weightFraction[e]])).toEqual([[14, 100, Math.fround(1e-6)]]);
    for (const layer of result.layers) expect(layer.length).toBe(76 * 474);
  });

  it("reports the files, units, layers and PET method", () => {
    const r = result.report;
    expect(r.files.map((f) => [f.role, f.variable, f.units, f.firstMonth, f.lastMonth])).toEqual([
      ["precipitation", "prcp", "mm", "1980-01", "2019-12"],
      ["temperature", "tas", "degC", "1979-07", "2019-06"],
    ]);
    expect(r.layers).toEqual(Object.fromEntries(GRID_INDICES.map((n) => [n, "computed"])));
    expect(r.petMethod).toBe("thornthwaite");
    expect(r.landCells).toBe(77);
    // Read with a 5° margin around the provinces (97.34–105.64E, 5.61–20.46N): the whole file.
    expect(r.nativeGrid).toEqual({ south: 5, north: 21, west: 97, east: 106, nLat: 17, nLng: 10 });
  });

  it("takes a SPEIbase layer in place of the computed one, on the same grid, over the common months", async () => {
    const speiPath = join(dir, "spei03.nc");
    await writeSpeibaseNc4(speiPath, { lats: LATS_DESC, lngs: LNGS, firstMonth: monthIndex(1990, 1), nMonths: 360 }, speiValue(3));
    const both = await gridFromNetcdf({
      provinces, precipitation: prcpPath, temperature: tasPath, speibase: { spei3: speiPath }, ...REF, indexNames: GRID_INDICES,
    });
    expect(formatMonth(both.firstMonth)).toBe("1990-01");
    expect(both.nMonths).toBe(354);
    expect(both.report.layers.spei3).toBe("ingested");
    expect(both.report.layers.spei1).toBe("computed");
    const c = cellAt(both, 19, 99);
    const k3 = GRID_INDICES.indexOf("spei3");
    for (const t of [0, 100, 353]) {
      expect(both.layers[k3][c * 354 + t]).toBe(Math.fround(speiValue(3)(19, 99, monthIndex(1990, 1) + t)));
    }
  });

  it("reads only the part of a global 0..360° grid around Thailand and finds the same cells", async () => {
    const global = { lats: LATS_DESC, lngs: axis(0, 359, 1), firstMonth: monthIndex(1981, 1), nMonths: 24 };
    writePrecipitationNc3(join(dir, "prcp-global.nc"), global);
    await writeTemperatureNc4(join(dir, "tas-global.nc"), global);
    const g = await gridFromNetcdf({
      provinces, precipitation: join(dir, "prcp-global.nc"), temperature: join(dir, "tas-global.nc"), ...REF, indexNames: ["spi1"],
    });
    // Provinces span 97.34–105.64E; with the 5° margin, centres 93..110E are read.
    expect(g.report.nativeGrid).toEqual({ south: 5, north: 21, west: 93, east: 110, nLat: 17, nLng: 18 });
    // The same 77 land cells; here 13N 100E has values (the regional file's gap is not in this one), so it stays.
    const centres = (r: { cells: { lat: Float64Array; lng: Float64Array } }) => Array.from(r.cells.lat, (lat, c) => `${lat},${r.cells.lng[c]}`);
    expect(centres(g).filter((k) => k !== "13,100")).toEqual(centres(result));
    expect(g.cells.lat.length).toBe(77);
    expect(g.layers).toHaveLength(1);
    expect(g.layers[0].length).toBe(77 * 24);
  });
});
