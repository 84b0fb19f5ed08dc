// The station source of the drought grid: GHCN-Daily stations → monthly series → station indices → inverse
// distance interpolation onto the land cells, with leave-one-out cross-validation for the build report.
import { join, relative } from "node:path";
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
import { log } from "../../lib/log.ts";
import { GHCND_SUBDIR, readGhcndStations, summarizeGhcndQc, type StationMonthly } from "../inputs/ghcnd/stations.ts";
import { computeStationIndices } from "../indices/index.ts";
import type { Province } from "../provinces/boundaries.ts";
import type { BuildSettings } from "../build-settings.ts";
import { buildLandCells, type LandCells } from "./land-cells.ts";
import { idwAt, interpolateToCells, nearestStationDistancesKm, stationNeighbours } from "./interpolate.ts";
import { crossValidateIndices } from "./cross-validate.ts";
import { binOf, calibrate, looSamples, supportAt, supportScore, type Calibration } from "./confidence.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { NO_BIN } from "../../formats/confidence-grid.ts";

export interface GridSourceResult {
  cells: LandCells;
  firstMonth: MonthIndex;
  nMonths: number;
  /** One layer per index name, [cell * nMonths + month], NaN = missing. */
  layers: Float32Array[];
  report: Record<string, unknown>;
  /** The station grid's confidence (pipeline/grid/confidence.ts): calibration and each cell-month's bin. */
  confidence?: { calibration: Calibration; cellBins: Uint8Array };
}

/** Places every station series on one common month axis. */
function commonAxis(stations: readonly StationMonthly[]): { first: MonthIndex; nMonths: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const s of stations) {
    first = Math.min(first, s.firstMonth);
    last = Math.max(last, s.firstMonth + s.prcp.length - 1);
  }
  return { first, nMonths: last - first + 1 };
}

function align(series: Float64Array, from: MonthIndex, first: MonthIndex, nMonths: number): Float64Array {
  const out = new Float64Array(nMonths).fill(NaN);
  out.set(series, from - first);
  return out;
}

function median(a: Float64Array): number {
  const s = Float64Array.from(a).sort();
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export async function gridFromStations(input: {
  dataDir: string;
  provinces: readonly Province[];
  settings: BuildSettings;
  indexNames: readonly string[];
}): Promise<GridSourceResult> {
  const { dataDir, settings, indexNames } = input;
  const ghcndDir = join(dataDir, GHCND_SUBDIR);
  log.info({ dir: ghcndDir, policy: settings.dryDayPolicy }, "reading GHCN-Daily stations");
  const stations = await readGhcndStations({
    dir: ghcndDir,
    policy: settings.dryDayPolicy,
    concurrency: settings.concurrency,
    onProgress: (done, total, file) => {
      if (done % 10 === 0 || done === total) log.info({ stage: "stations", done, total, file: relative(dataDir, file) }, "progress");
    },
  });
  const axis = commonAxis(stations);

  // Station indices on the common axis. Thornthwaite PET from mean temperature: TAVG covers 1973–2018 and
  // (TMAX+TMIN)/2 fills 1955–1980, while Hargreaves would need TMAX and TMIN, complete only in 1955–1980.
  const nS = stations.length;
  const lats = Float64Array.from(stations, (s) => s.lat);
  const lngs = Float64Array.from(stations, (s) => s.lng);
  const byIndex: Record<string, Float64Array> = {};
  for (const name of indexNames) byIndex[name] = new Float64Array(nS * axis.nMonths).fill(NaN);
  stations.forEach((s, i) => {
    const series = computeStationIndices({
      firstMonth: axis.first,
      lat: s.lat,
      prcp: align(s.prcp, s.firstMonth, axis.first, axis.nMonths),
      tmean: align(s.tmean, s.firstMonth, axis.first, axis.nMonths),
      refStart: settings.baselineStart,
      refEnd: settings.baselineEnd,
    }) as unknown as Record<string, Float64Array>;
    for (const name of indexNames) byIndex[name].set(series[name], i * axis.nMonths);
  });
  log.info({ stations: nS, months: axis.nMonths }, "station indices computed");

  const cells = buildLandCells(input.provinces, { resolutionDeg: settings.resolutionDeg });
  const idw = {
    power: settings.idwPower,
    maxStations: settings.idwMaxStations,
    maxDistanceKm: settings.idwMaxDistanceKm,
    clampZ: settings.idwClampZ,
  };
  const layers = indexNames.map((name) => interpolateToCells(lats, lngs, byIndex[name], axis.nMonths, cells.lat, cells.lng, idw));
  log.info({ cells: cells.lat.length }, "interpolated");

  // Confidence of SPEI-1: the support of each estimate, calibrated against the leave-one-out errors (same
  // withholding rule as the cross-validation below).
  const spei1 = byIndex.spei1;
  const nbLoo = stationNeighbours(lats, lngs, lats, lngs, idw.maxDistanceKm, (t, s) => t === s || haversineKm(lats[t], lngs[t], lats[s], lngs[s]) < 10);
  const loo = looSamples(lats, lngs, spei1, axis.nMonths, nbLoo, idw, idwAt);
  const calibration = calibrate(loo.support, loo.absError, loo.absObserved, 10);
  const nbCells = stationNeighbours(lats, lngs, cells.lat, cells.lng, idw.maxDistanceKm);
  const cellBins = new Uint8Array(cells.lat.length * axis.nMonths).fill(NO_BIN);
  for (let c = 0; c < cells.lat.length; c++) {
    for (let m = 0; m < axis.nMonths; m++) {
      const sup = supportAt(nbCells, c, spei1, axis.nMonths, m, idw.maxStations, idw.clampZ);
      if (sup !== null) cellBins[c * axis.nMonths + m] = binOf(calibration.bins, supportScore(sup));
    }
  }
  log.info({ samples: calibration.samples, bins: calibration.bins.length }, "confidence calibrated");

  // Stations within 10 km of the withheld one are withheld too: the station list has co-located duplicate
  // records (e.g. Don Muang) that would otherwise predict themselves.
  const cv = crossValidateIndices(lats, lngs, byIndex, axis.nMonths, { ...idw, excludeWithinKm: 10 });
  const nearestKm = nearestStationDistancesKm(lats, lngs, cells.lat, cells.lng);

  return {
    confidence: { calibration, cellBins },
    cells,
    firstMonth: axis.first,
    nMonths: axis.nMonths,
    layers,
    report: {
      source: "stations",
      stationQc: summarizeGhcndQc(stations, settings.dryDayPolicy),
      stations: stations.map((s) => ({
        id: s.id,
        name: s.name,
        lat: s.lat,
        lng: s.lng,
        months: s.prcp.length,
        firstMonth: formatMonth(s.firstMonth),
        qc: s.qc,
      })),
      petMethod: "thornthwaite",
      idw,
      nearestStationKm: { max: Math.max(...nearestKm), median: median(nearestKm) },
      crossValidation: cv,
    },
  };
}
