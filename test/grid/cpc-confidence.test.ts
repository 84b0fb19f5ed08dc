// The regional grid's confidence (pipeline/grid/cpc-confidence.ts): support from the stations that report each month
// near a cell, calibrated by cell-against-station errors, with a floor below which no confidence is said; and the
// confidence.bin sentinel that carries "below the calibrated range" to the server.
import { describe, expect, it } from "vitest";
import { BELOW_CALIBRATION, ConfidenceGrid, NO_BIN, writeConfidenceGrid } from "../../formats/confidence-grid.ts";
import { supportScore } from "../../pipeline/grid/confidence.ts";
import { calibrateAtStations, reportingSupport, supportBins } from "../../pipeline/grid/cpc-confidence.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";

const KM_PER_DEG = haversineKm(0, 0, 1, 0);

describe("reportingSupport", () => {
  it("counts the stations reporting the month within the radius and takes the nearest's distance", () => {
    // A cell at (0, 0); stations 1°, 2° and 3° north (the third beyond 250 km), reporting months as given.
    const stations = [
      { lat: 1, lng: 0, firstMonth: 100, tavg: [20, NaN, 20] },
      { lat: 2, lng: 0, firstMonth: 100, tavg: [20, 20, NaN] },
      { lat: 3, lng: 0, firstMonth: 99, tavg: [20, 20, 20, 20] },
    ];
    const u = reportingSupport(stations, [0], [0], 100, 4);
    expect(u[0]).toBeCloseTo(supportScore({ n: 2, nearestKm: KM_PER_DEG, spread: 0 }), 12);
    expect(u[1]).toBeCloseTo(supportScore({ n: 1, nearestKm: 2 * KM_PER_DEG, spread: 0 }), 12);
    expect(u[2]).toBeCloseTo(supportScore({ n: 1, nearestKm: KM_PER_DEG, spread: 0 }), 12);
    // Month 103: only the station out of range reports.
    expect(u[3]).toBeNaN();
  });
});

describe("calibrateAtStations and supportBins", () => {
  it("pairs each station-month with its cell's support, keeps the error's fall with support, and marks what lies below the floor", () => {
    // 200 months; the cell's support rises over them and the cell's error against the station falls.
    const n = 200;
    const support = Float64Array.from({ length: n }, (_, m) => 0.2 + (0.6 * m) / n);
    const station = Float64Array.from({ length: n }, (_, m) => (m % 2 ? 1 : -1));
    const cellValue = Float64Array.from(station, (v, m) => v + (m % 2 ? 1 : -1) * (1 - m / n));
    // One month missing in each series, one with no support: 197 samples.
    station[5] = NaN;
    cellValue[6] = NaN;
    support[7] = NaN;
    const { calibration, supportFloor } = calibrateAtStations([{ cell: 0, station, cellValue, firstMonth: 50 }], support, 50, n, 3, 5);
    expect(calibration.samples).toBe(197);
    expect(calibration.maeClimatology).toBe(1);
    for (let b = 1; b < calibration.bins.length; b++) expect(calibration.bins[b].confidence).toBeGreaterThan(calibration.bins[b - 1].confidence);
    // The floor is the support of the 1 % quantile of the samples (the second lowest of 197).
    expect(supportFloor).toBeCloseTo(0.2 + (0.6 * 1) / n, 12);
    const bins = supportBins(Float64Array.of(NaN, 0.1, supportFloor, 0.79), calibration, supportFloor);
    expect([...bins]).toEqual([NO_BIN, BELOW_CALIBRATION, 0, calibration.bins.length - 1]);
  });

  it("values beyond ±clampZ count as ±clampZ, and station months outside the grid's months are left out", () => {
    const support = new Float64Array(4).fill(0.5);
    const { calibration } = calibrateAtStations(
      [{ cell: 0, station: [NaN, 9, -9, 1, 1, 1], cellValue: [0, 3, -2, 1, 1, 1], firstMonth: 9 }],
      support,
      10,
      4,
      3,
      1,
    );
    // Months 10..13 of the grid are the pair's 2nd to 5th: |3−3|, |−2−(−3)|, 0, 0 and |obs| 3, 3, 1, 1.
    expect(calibration.samples).toBe(4);
    expect(calibration.bins[0].mae).toBeCloseTo(0.25, 12);
    expect(calibration.maeClimatology).toBeCloseTo(2, 12);
  });
});

describe("confidence.bin's gaps", () => {
  it("tells a cell-month without support from one below the calibrated range", () => {
    const bytes = writeConfidenceGrid({
      nCells: 2,
      nMonths: 2,
      firstMonth: 24000,
      binConfidence: Float64Array.of(0.3, 0.5),
      cellBins: Uint8Array.of(0, NO_BIN, BELOW_CALIBRATION, 1),
      nProvinces: 1,
      provinceConfidence: Float32Array.of(0.4, NaN),
    });
    const g = new ConfidenceGrid(bytes);
    expect([g.cell(0, 0), g.cell(0, 1), g.cell(1, 0), g.cell(1, 1)]).toEqual([0.3, null, null, 0.5]);
    expect([g.cellGap(0, 0), g.cellGap(0, 1), g.cellGap(1, 0), g.cellGap(1, 1), g.cellGap(2, 0)]).toEqual([null, "no-support", "below-calibration", null, null]);
    // A bin number past the bins (other than the two marks) is refused.
    const bad = Uint8Array.from(bytes);
    bad[32 + 2 * 8 + 1] = 2;
    expect(() => new ConfidenceGrid(bad)).toThrow(/cell bin 2 of 2/);
  });
});
