// The regional drought grid (GRID_SOURCE=cpc): NOAA CPC gauge-based precipitation on its own 1° cells (the mirror's
// 1979–2023 series continued by the cpc_precip source's yearly files, cpc-extension.ts), temperature
// for PET from GHCN-Monthly stations put on the same cells (station-temperature.ts), then the indices per cell as for
// any gridded pair (from-netcdf.ts). docs/methods/gridding.md, "The regional grid (CPC + GHCN-Monthly)".
import { log } from "../../lib/log.ts";
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
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
}

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
export async function gridFromCpc(input: GridFromCpcInput): Promise<GridFromNetcdfResult & { report: { temperature: CpcTemperatureReport; precipitationExtension: { appended: string[]; stopped?: string } } }> {
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
  return {
    ...result,
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
    },
  };
}
