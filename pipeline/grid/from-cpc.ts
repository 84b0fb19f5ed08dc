// The regional drought grid (GRID_SOURCE=cpc): NOAA CPC gauge-based precipitation on its own 1° cells (the mirror's
// 1979–2023 series continued by the cpc_precip source's yearly files, cpc-extension.ts), temperature
// for PET from GHCN-Monthly stations put on the same cells (station-temperature.ts), then the indices per cell as for
// any gridded pair (from-netcdf.ts). docs/methods/gridding.md, "The regional grid (CPC + GHCN-Monthly)".
import { log } from "../../lib/log.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import type { StationMonthly } from "../inputs/ghcnd/stations.ts";
import { computeStationIndices } from "../indices/index.ts";
import type { GridSourceResult } from "./from-stations.ts";
import { BELOW_CALIBRATION } from "../../formats/confidence-grid.ts";
import { IDW_DEFAULTS } from "./interpolate.ts";
import { calibrateAtStations, REPORTING_RADIUS_KM, reportingSupport, supportBins, type CalibrationPair } from "./cpc-confidence.ts";
import type { MonthlyGrid } from "../inputs/netcdf/index.ts";
import { readCpcSeries } from "./cpc-extension.ts";
import { readGhcnmStations } from "../inputs/ghcnm/stations.ts";
import type { Province } from "../provinces/boundaries.ts";
import { gridFromNetcdf, readBox, widenBox, type GridFromNetcdfResult } from "./from-netcdf.ts";
import { STATION_TEMPERATURE_DEFAULTS, stationTemperatureGrid } from "./station-temperature.ts";

export interface GridFromCpcInput {
  provinces: readonly Province[];
  /** CPC monthly precipitation (CF NetCDF, mm per month). */
  precipitation: string;
  /** The folder of its yearly continuations (cpc-extension.ts), when any. */
  precipitationExtension?: string;
  /** GHCN-Monthly TAVG .dat (plain or gzip) and its .inv. */
  ghcnmDat: string;
  ghcnmInv: string;
  /** Baseline of the indices and of the stations' temperature normals. */
  refStart: MonthIndex;
  refEnd: MonthIndex;
  indexNames: readonly string[];
  /**
   * The Thai GHCN-Daily stations whose SPEI-1 calibrates the confidence (cpc-confidence.ts); without them the grid
   * has no confidence.
   */
  calibrationStations?: readonly StationMonthly[];
  /** SPEI-1 is clamped to ±this in the calibration, as the station grid's estimates are (default IDW_DEFAULTS.clampZ). */
  clampZ?: number;
}

/** The baseline of the confidence's calibration: within both CPC (from 1979) and the GHCN-Daily stations (to 2019). */
export const CALIBRATION_BASELINE = { start: parseMonth("1981-01")!, end: parseMonth("2010-12")! };

export interface CpcTemperatureReport {
  source: "GHCN-Monthly v4 TAVG (qcf)";
  stationsRead: number;
  /** Stations with a normal over the baseline: the ones that carry weight. */
  stationsUsed: number;
  maxDistanceKm: number;
  /** Cell-months at the cell's normal because no station in range reported the month. */
  cellMonthsAtNormal: number;
  /** Grid cells with no station in range: no temperature, no indices. */
  cellsWithoutTemperature: number;
}

/** Degrees of latitude (≈ 111 km) by which the stations read exceed the box: every station that can carry weight. */
const STATION_MARGIN_DEG = Math.ceil(STATION_TEMPERATURE_DEFAULTS.maxDistanceKm / 111);


/** The stations' temperature on every cell centre of `prcp`, for its months, as a grid of the same shape. */
export function temperatureOnGrid(
  prcp: MonthlyGrid,
  stations: Parameters<typeof stationTemperatureGrid>[0],
  refStart: MonthIndex,
  refEnd: MonthIndex,
  source: string,
): { grid: MonthlyGrid<"degC">; stationsUsed: number; cellMonthsAtNormal: number; cellsWithoutTemperature: number } {
  const nLat = prcp.lats.length;
  const nLng = prcp.lngs.length;
  const lats = new Float64Array(nLat * nLng);
  const lngs = new Float64Array(nLat * nLng);
  for (let i = 0; i < nLat; i++) {
    for (let j = 0; j < nLng; j++) {
      lats[i * nLng + j] = prcp.lats[i];
      lngs[i * nLng + j] = prcp.lngs[j];
    }
  }
  const nMonths = prcp.months.length;
  const t = stationTemperatureGrid(stations, lats, lngs, prcp.months[0], nMonths, { baselineStart: refStart, baselineEnd: refEnd });
  let cellsWithoutTemperature = 0;
  for (let c = 0; c < nLat * nLng; c++) if (t.values[c * nMonths] !== t.values[c * nMonths]) cellsWithoutTemperature++;
  return {
    grid: { path: source, variable: "tavg", lats: prcp.lats, lngs: prcp.lngs, months: prcp.months, values: t.values, units: "degC" },
    stationsUsed: t.stationsUsed,
    cellMonthsAtNormal: t.normalOnly,
    cellsWithoutTemperature,
  };
}

/** The grid, its build report carrying how the temperature was made (report.temperature). */
export async function gridFromCpc(input: GridFromCpcInput): Promise<
  GridFromNetcdfResult & {
    confidence?: GridSourceResult["confidence"];
    report: { temperature: CpcTemperatureReport; precipitationExtension: { appended: string[]; stopped?: string }; confidence: Record<string, unknown> };
  }
> {
  const box = readBox(input.provinces);
  const series = await readCpcSeries(input.precipitation, input.precipitationExtension, box);
  const prcp = series.grid;
  if (series.stopped) log.warn({ reason: series.stopped }, "CPC precipitation: the yearly continuation stops early");
  if (prcp.months.length === 0 || prcp.lats.length === 0) throw new Error(`${input.precipitation}: no month or no cell over the provinces`);
  if (input.refStart < prcp.months[0] || input.refEnd > prcp.months[prcp.months.length - 1]) {
    throw new Error(
      `baseline ${formatMonth(input.refStart)}..${formatMonth(input.refEnd)} is not inside ${input.precipitation}'s ` +
        `${formatMonth(prcp.months[0])}..${formatMonth(prcp.months[prcp.months.length - 1])}`,
    );
  }
  const read = readGhcnmStations(input.ghcnmDat, input.ghcnmInv, widenBox(box, STATION_MARGIN_DEG));
  const t = temperatureOnGrid(prcp, read.stations, input.refStart, input.refEnd, input.ghcnmDat);
  const result = await gridFromNetcdf({
    provinces: input.provinces,
    grids: { precipitation: prcp, temperature: t.grid },
    refStart: input.refStart,
    refEnd: input.refEnd,
    indexNames: input.indexNames,
  });
  const confidence = cpcConfidence(input, prcp, t.grid, read.stations, result);
  return {
    ...result,
    confidence: confidence?.grid,
    report: {
      ...result.report,
      precipitationExtension: { appended: series.appended, stopped: series.stopped },
      temperature: {
        source: "GHCN-Monthly v4 TAVG (qcf)",
        stationsRead: read.stations.length,
        stationsUsed: t.stationsUsed,
        maxDistanceKm: STATION_TEMPERATURE_DEFAULTS.maxDistanceKm,
        cellMonthsAtNormal: t.cellMonthsAtNormal,
        cellsWithoutTemperature: t.cellsWithoutTemperature,
      },
      confidence: confidence?.report ?? { reason: "no GHCN-Daily stations to calibrate against" },
    },
  };
}

/**
 * The confidence of the grid's SPEI-1 (cpc-confidence.ts): the support of each cell-month from the GHCN-Monthly
 * stations that report it, calibrated by each calibration station's SPEI-1 against its cell's, both on
 * CALIBRATION_BASELINE (the grid's own baseline lies past the stations' end).
 */
function cpcConfidence(input: GridFromCpcInput, prcp: MonthlyGrid, tavg: MonthlyGrid, reporting: Parameters<typeof reportingSupport>[0], result: GridFromNetcdfResult) {
  const stations = input.calibrationStations ?? [];
  if (stations.length === 0) return undefined;
  const { cells, firstMonth, nMonths } = result;
  const support = reportingSupport(reporting, cells.lat, cells.lng, firstMonth, nMonths);
  const step = prcp.lats.length > 1 ? Math.abs(prcp.lats[1] - prcp.lats[0]) : 1;
  const inCell = (centre: number, x: number) => x >= centre - step / 2 && x < centre + step / 2;
  const nM = prcp.months.length;
  const pairs: CalibrationPair[] = [];
  for (const s of stations) {
    const cell = cells.lat.findIndex((lat, c) => inCell(lat, s.lat) && inCell(cells.lng[c], s.lng));
    const i = prcp.lats.findIndex((lat) => inCell(lat, s.lat));
    const j = prcp.lngs.findIndex((lng) => inCell(lng, s.lng));
    if (cell < 0 || i < 0 || j < 0) continue;
    const at = (g: MonthlyGrid) => Float64Array.from({ length: nM }, (_, m) => g.values[(i * prcp.lngs.length + j) * nM + m]);
    const ref = { refStart: CALIBRATION_BASELINE.start, refEnd: CALIBRATION_BASELINE.end };
    const cellSpei1 = computeStationIndices({ firstMonth: prcp.months[0], lat: cells.lat[cell], prcp: at(prcp), tmean: at(tavg), ...ref }).spei1;
    // The station's series put on the grid's month axis.
    const onAxis = (v: ArrayLike<number>) => Float64Array.from({ length: nM }, (_, m) => {
      const k = prcp.months[0] + m - s.firstMonth;
      return k >= 0 && k < v.length ? v[k] : NaN;
    });
    const stationSpei1 = computeStationIndices({ firstMonth: prcp.months[0], lat: s.lat, prcp: onAxis(s.prcp), tmean: onAxis(s.tmean), ...ref }).spei1;
    pairs.push({ cell, station: stationSpei1, cellValue: cellSpei1, firstMonth: prcp.months[0] });
  }
  if (pairs.length === 0) return undefined;
  const { calibration, supportFloor } = calibrateAtStations(pairs, support, firstMonth, nMonths, input.clampZ ?? IDW_DEFAULTS.clampZ);
  const cellBins = supportBins(support, calibration, supportFloor);
  let belowFloor = 0;
  for (const b of cellBins) if (b === BELOW_CALIBRATION) belowFloor++;
  log.info({ samples: calibration.samples, stations: pairs.length, bins: calibration.bins.length }, "confidence calibrated at the GHCN-Daily stations");
  return {
    grid: { calibration, cellBins },
    report: {
      support: `GHCN-Monthly stations reporting within ${REPORTING_RADIUS_KM} km`,
      calibrationStations: pairs.length,
      calibrationBaseline: [formatMonth(CALIBRATION_BASELINE.start), formatMonth(CALIBRATION_BASELINE.end)],
      supportFloor,
      cellMonthsBelowFloor: belowFloor,
      cellMonths: cellBins.length,
    },
  };
}
