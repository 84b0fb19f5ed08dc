// The drought grid from NetCDF grids instead of stations: the cells are the native cells of the source grid that
// overlap a province, each with its province fractions (docs/methods/gridding.md, "Gridded (NetCDF) source").
// Indices come either from monthly precipitation and temperature grids (computed per cell like a station) or
// precomputed from SPEIbase files (ingested as they are).
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
import { computeStationIndices, type StationIndices } from "../indices/station.ts";
import { readMonthlyClimateGrid, readSpeibase, type BBox, type MonthlyGrid } from "../inputs/netcdf/index.ts";
import { provincesBox, type Province } from "../provinces/boundaries.ts";
import { IDW_DEFAULTS } from "./interpolate.ts";
import { attachNearestCells, buildLandCells, type LandCells, type NearestCellProvince } from "./land-cells.ts";

/** Index series that computeStationIndices yields and a grid layer may hold. */
const COMPUTABLE = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "spi6", "spi12", "mcdi"] as const;
type Computable = (typeof COMPUTABLE)[number];

/** Degrees read around the provinces' bounding box, so that coarse cells centred outside it still count (≤ 10° cells). */
const READ_MARGIN_DEG = 5;

export interface GridFromNetcdfInput {
  provinces: readonly Province[];
  /** Monthly precipitation grid (CF NetCDF-3/4); needs `temperature` too. */
  precipitation?: string;
  /** Monthly mean temperature grid on the same grid as `precipitation`. */
  temperature?: string;
  /** Precomputed SPEI files in the SPEIbase layout, keyed by layer name ("spei3" → spei03.nc). */
  speibase?: Record<string, string>;
  refStart: MonthIndex;
  refEnd: MonthIndex;
  /**
   * Precipitation (mm) and temperature (°C) grids already read or made (pipeline/grid/from-cpc.ts: temperature from
   * stations on the precipitation grid), instead of the two files.
   */
  grids?: { precipitation: MonthlyGrid; temperature: MonthlyGrid };
  /** Overrides the precipitation file's units attribute (e.g. "m day-1" for ERA5 monthly means of tp). */
  precipitationUnits?: string;
  /** Layer names in output order (the build's GRID_INDICES). */
  indexNames: readonly string[];
  /** Sub-samples per cell side for the province fractions; default scales with the cell size (see below). */
  samples?: number;
}

export interface GridFromNetcdfReport {
  source: "netcdf";
  resolutionDeg: number;
  /** Native grid extent read (cell centres) and its size. */
  nativeGrid: { south: number; north: number; west: number; east: number; nLat: number; nLng: number };
  files: { role: string; path: string; variable: string; units: string; firstMonth: string; lastMonth: string }[];
  monthRange: { first: string; last: string };
  /** How each layer was filled. */
  layers: Record<string, "computed" | "ingested" | "missing">;
  landCells: number;
  /** Land cells where every input is missing in every month (sea or masked in the source): left out of the grid. */
  cellsWithoutData: number;
  /** The cells of the grid: landCells − cellsWithoutData (all of them when none has data). */
  cellsServed: number;
  /** Provinces that no native cell of the file overlaps (the file does not cover them). */
  provincesWithoutCells: string[];
  /** Provinces touched by no cell with data, summarised from the nearest one (land-cells.ts attachNearestCells). */
  provincesFromNearestCell: NearestCellProvince[];
  petMethod?: "thornthwaite";
  samplesPerCellSide: number;
}

export interface GridFromNetcdfResult {
  cells: LandCells;
  firstMonth: MonthIndex;
  nMonths: number;
  /** One layer per indexNames entry, [cell * nMonths + month], NaN = missing. */
  layers: Float32Array[];
  report: GridFromNetcdfReport;
}

/** A grid as read, with the role it plays, for error messages. */
interface Source {
  role: string;
  grid: MonthlyGrid;
}

/** Sub-samples per side so that points are ~0.025° apart (10 at 0.25°), within 10..50. */
export function defaultSamples(resolutionDeg: number): number {
  return Math.min(50, Math.max(10, Math.round((10 * resolutionDeg) / 0.25)));
}

/** Spacing of a regular ascending axis; throws naming the file when it is not regular. */
export function regularSpacing(coords: Float64Array, what: string): number {
  if (coords.length < 2) throw new Error(`${what}: needs at least 2 values to know the cell size, has ${coords.length}`);
  const n = coords.length;
  const step = (coords[n - 1] - coords[0]) / (n - 1);
  for (let k = 0; k < n; k++) {
    // Coordinates stored as float32 are off by ~1e-5° at 100°: allow a thousandth of a cell.
    if (Math.abs(coords[k] - (coords[0] + k * step)) > step * 1e-3) {
      throw new Error(`${what}: not a regular grid (value ${k} is ${coords[k]}, expected ${coords[0] + k * step})`);
    }
  }
  return step;
}

/**
 * The cell size a spacing read from float32 coordinates stands for: the nearest whole number of arc-seconds when
 * within 0.1″ (0.1°, 0.25°, 1/12°, 30″ grids all are), else the spacing as it is. Float32 0.1° axes near 100°E
 * otherwise give 0.100001°, and the error would accumulate across the grid.
 */
export function snapCellSize(step: number): number {
  const arcSeconds = Math.round(step * 3600);
  return arcSeconds > 0 && Math.abs(step * 3600 - arcSeconds) < 0.1 ? arcSeconds / 3600 : step;
}

/** Whether two coordinate axes hold the same values within `tolerance` degrees. */
export function sameAxis(a: Float64Array, b: Float64Array, tolerance: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > tolerance) return false;
  return true;
}

function describeGrid(g: MonthlyGrid): string {
  const range = (c: Float64Array) => (c.length ? `${c[0]}..${c[c.length - 1]} (${c.length})` : "none");
  return `lat ${range(g.lats)}, lng ${range(g.lngs)}`;
}

function describeMonths(g: MonthlyGrid): string {
  return g.months.length ? `${formatMonth(g.months[0])}..${formatMonth(g.months[g.months.length - 1])}` : "no months";
}

const label = (s: Source) => `${s.grid.path} (${s.role}, variable "${s.grid.variable}")`;

/** Throws unless every source has the grid of the first; names both files. */
export function assertSameGrid(sources: readonly Source[]): void {
  const first = sources[0];
  for (const s of sources.slice(1)) {
    const step = first.grid.lngs.length > 1 ? Math.abs(first.grid.lngs[1] - first.grid.lngs[0]) : 1;
    const tol = step * 1e-3;
    if (!sameAxis(first.grid.lats, s.grid.lats, tol) || !sameAxis(first.grid.lngs, s.grid.lngs, tol)) {
      throw new Error(
        `grids differ: ${label(first)} has ${describeGrid(first.grid)}, ${label(s)} has ${describeGrid(s.grid)}; ` +
          "regrid them to one grid first",
      );
    }
  }
}

/** The months all sources share; throws naming the files when they share none. */
export function commonMonths(sources: readonly Source[]): { firstMonth: MonthIndex; nMonths: number } {
  let first = -Infinity;
  let last = Infinity;
  for (const s of sources) {
    const m = s.grid.months;
    if (m.length === 0) throw new Error(`${label(s)}: no months`);
    first = Math.max(first, m[0]);
    last = Math.min(last, m[m.length - 1]);
  }
  if (first > last) {
    throw new Error(`no month in common: ${sources.map((s) => `${label(s)} has ${describeMonths(s.grid)}`).join(", ")}`);
  }
  return { firstMonth: first, nMonths: last - first + 1 };
}

/** ±Infinity replaced by ±limit (other values, NaN included, as they are). */
export function clampInfinite(values: ArrayLike<number>, limit: number): Float64Array {
  return Float64Array.from(values, (v) => (v === Infinity ? limit : v === -Infinity ? -limit : v));
}

/** Keeps the land cells for which keep(c) is true, renumbering the province weights. */
export function subsetLandCells(cells: LandCells, keep: (cell: number) => boolean): { cells: LandCells; kept: Uint32Array } {
  const n = cells.lat.length;
  const newIndex = new Int32Array(n).fill(-1);
  const kept: number[] = [];
  for (let c = 0; c < n; c++) {
    if (keep(c)) {
      newIndex[c] = kept.length;
      kept.push(c);
    }
  }
  const wCell: number[] = [];
  const wProv: number[] = [];
  const wFrac: number[] = [];
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = newIndex[cells.weightCell[e]];
    if (c < 0) continue;
    wCell.push(c);
    wProv.push(cells.weightProvince[e]);
    wFrac.push(cells.weightFraction[e]);
  }
  const pick = <T extends Float64Array | Uint16Array>(a: T): T => {
    const out = new (a.constructor as new (n: number) => T)(kept.length);
    kept.forEach((c, i) => (out[i] = a[c]));
    return out;
  };
  return {
    kept: Uint32Array.from(kept),
    cells: {
      ...cells,
      lat: pick(cells.lat),
      lng: pick(cells.lng),
      row: pick(cells.row),
      col: pick(cells.col),
      areaKm2: pick(cells.areaKm2),
      weightCell: Uint32Array.from(wCell),
      weightProvince: Uint8Array.from(wProv),
      weightFraction: Float32Array.from(wFrac),
    },
  };
}

/** Land cells on the native grid of `grid`, clipped to the cells the file has; native row/column of each. */
export function nativeLandCells(
  provinces: readonly Province[],
  grid: MonthlyGrid,
  samples?: number,
): { cells: LandCells; latIndex: Uint32Array; lngIndex: Uint32Array; provincesWithoutCells: string[]; samples: number } {
  const resLat = regularSpacing(grid.lats, `${grid.path}: latitudes of "${grid.variable}"`);
  const resLng = regularSpacing(grid.lngs, `${grid.path}: longitudes of "${grid.variable}"`);
  if (Math.abs(resLat - resLng) > resLng * 1e-3) {
    throw new Error(`${grid.path}: cells of "${grid.variable}" are ${resLat}° × ${resLng}°; only square cells are supported`);
  }
  const res = snapCellSize(resLng);
  const n = samples ?? defaultSamples(res);
  const all = buildLandCells(provinces, {
    resolutionDeg: res,
    samples: n,
    origin: { lng: grid.lngs[0] - res / 2, lat: grid.lats[0] - res / 2 },
  });
  const nLat = grid.lats.length;
  const nLng = grid.lngs.length;
  const rowOf = (c: number) => Math.round((all.lat[c] - grid.lats[0]) / res);
  const colOf = (c: number) => Math.round((all.lng[c] - grid.lngs[0]) / res);
  const { cells, kept } = subsetLandCells(all, (c) => {
    const i = rowOf(c);
    const j = colOf(c);
    return i >= 0 && i < nLat && j >= 0 && j < nLng;
  });
  const latIndex = Uint32Array.from(kept, rowOf);
  const lngIndex = Uint32Array.from(kept, colOf);
  // Centres exactly as the file gives them (Thornthwaite uses the latitude; the artifact stores both).
  for (let c = 0; c < cells.lat.length; c++) {
    cells.lat[c] = grid.lats[latIndex[c]];
    cells.lng[c] = grid.lngs[lngIndex[c]];
  }
  const seen = new Uint8Array(provinces.length);
  for (let e = 0; e < cells.weightProvince.length; e++) seen[cells.weightProvince[e]] = 1;
  const provincesWithoutCells = provinces.filter((_, p) => !seen[p]).map((p) => p.code);
  return { cells, latIndex, lngIndex, provincesWithoutCells, samples: n };
}

/** Bounding box of the provinces widened by READ_MARGIN_DEG: what is read from the files. */
export function readBox(provinces: readonly Province[]): BBox {
  return widenBox(provincesBox(provinces), READ_MARGIN_DEG);
}

/** A box widened by `deg` on every side, within the globe's limits. */
export function widenBox(b: BBox, deg: number): BBox {
  return { west: Math.max(-180, b.west - deg), south: Math.max(-90, b.south - deg), east: Math.min(180, b.east + deg), north: Math.min(90, b.north + deg) };
}

/** Layer name → SPEIbase time scale and variable kind: "spei3" → 3. */
function speibaseScale(name: string): number | undefined {
  const m = /^spe?i(\d{1,2})$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

async function readSpeibaseLayer(name: string, path: string, bbox: BBox): Promise<MonthlyGrid> {
  const scale = speibaseScale(name);
  if (scale === undefined) throw new Error(`${path}: SPEIbase layer "${name}" is not an SPEI/SPI layer (spei1, spei3, …)`);
  let g;
  try {
    g = await readSpeibase(path, { bbox });
  } catch (e) {
    // No scale in the name or attributes: the layer it is given for says it.
    if (!/time scale not found/.test((e as Error).message)) throw e;
    g = await readSpeibase(path, { bbox, scale });
  }
  if (g.scale !== scale) {
    throw new Error(`${path}: variable "${g.variable}" is SPEI at the ${g.scale}-month scale, given for layer "${name}"`);
  }
  return g;
}

/**
 * Index layers of the native grid cells over the provinces from NetCDF grids: precipitation + temperature (indices computed per
 * cell as for a station, Thornthwaite PET at the cell-centre latitude) and/or SPEIbase files (taken as they are,
 * replacing a computed layer of the same name). Layers neither computed nor ingested are NaN.
 */
export async function gridFromNetcdf(input: GridFromNetcdfInput): Promise<GridFromNetcdfResult> {
  const { provinces, indexNames } = input;
  const speibase = Object.entries(input.speibase ?? {});
  if (input.grids !== undefined && (input.precipitation !== undefined || input.temperature !== undefined)) {
    throw new Error("gridFromNetcdf takes either grids or precipitation and temperature files, not both");
  }
  if ((input.precipitation === undefined) !== (input.temperature === undefined)) {
    throw new Error(
      input.precipitation === undefined
        ? `${input.temperature}: a temperature grid needs a precipitation grid (precipitation) to compute the indices`
        : `${input.precipitation}: a precipitation grid needs a temperature grid (temperature) for PET`,
    );
  }
  if (input.precipitation === undefined && input.grids === undefined && speibase.length === 0) {
    throw new Error("gridFromNetcdf needs precipitation and temperature grids, or SPEIbase files");
  }
  for (const name of indexNames) {
    if (!(COMPUTABLE as readonly string[]).includes(name)) throw new Error(`unknown index layer "${name}" (known: ${COMPUTABLE.join(", ")})`);
  }
  for (const [name, path] of speibase) {
    if (!indexNames.includes(name)) throw new Error(`${path}: SPEIbase layer "${name}" is not one of the layers ${indexNames.join(", ")}`);
  }

  const bbox = readBox(provinces);
  const sources: Source[] = [];
  let prcp: MonthlyGrid | undefined;
  let tmean: MonthlyGrid | undefined;
  if (input.precipitation !== undefined && input.temperature !== undefined) {
    prcp = await readMonthlyClimateGrid(input.precipitation, { kind: "precipitation", bbox, units: input.precipitationUnits });
    tmean = await readMonthlyClimateGrid(input.temperature, { kind: "temperature", bbox });
    sources.push({ role: "precipitation", grid: prcp }, { role: "temperature", grid: tmean });
  } else if (input.grids !== undefined) {
    prcp = input.grids.precipitation;
    tmean = input.grids.temperature;
    sources.push({ role: "precipitation", grid: prcp }, { role: "temperature", grid: tmean });
  }
  const ingested = new Map<string, MonthlyGrid>();
  for (const [name, path] of speibase) {
    const g = await readSpeibaseLayer(name, path, bbox);
    ingested.set(name, g);
    sources.push({ role: `SPEIbase ${name}`, grid: g });
  }
  for (const s of sources) {
    if (s.grid.lats.length === 0 || s.grid.lngs.length === 0) {
      throw new Error(`${label(s)}: no cell over Thailand (the file covers none of lat ${bbox.south}..${bbox.north}, lng ${bbox.west}..${bbox.east})`);
    }
  }
  assertSameGrid(sources);
  const { firstMonth, nMonths } = commonMonths(sources);
  if (prcp && (input.refEnd < firstMonth || input.refStart > firstMonth + nMonths - 1)) {
    throw new Error(
      `reference period ${formatMonth(input.refStart)}..${formatMonth(input.refEnd)} lies outside the months ` +
        `${formatMonth(firstMonth)}..${formatMonth(firstMonth + nMonths - 1)} of ${prcp.path} and ${tmean!.path}`,
    );
  }

  const grid = sources[0].grid;
  const native = nativeLandCells(provinces, grid, input.samples);
  const { latIndex, lngIndex } = native;
  let cells = native.cells;
  const nCells = cells.lat.length;
  if (nCells === 0) {
    throw new Error(`${sources.map(label).join(", ")}: no native cell over Thailand's provinces (${describeGrid(grid)})`);
  }

  const layers = indexNames.map(() => new Float32Array(nCells * nMonths).fill(NaN));
  const how: Record<string, "computed" | "ingested" | "missing"> = {};
  for (const name of indexNames) how[name] = ingested.has(name) ? "ingested" : prcp ? "computed" : "missing";
  const hasData = new Uint8Array(nCells);
  // Series of a cell over the common months, from the [cell][month] layout of a grid.
  const series = (g: MonthlyGrid, c: number): Float64Array => {
    const start = (latIndex[c] * g.lngs.length + lngIndex[c]) * g.months.length + (firstMonth - g.months[0]);
    return g.values.subarray(start, start + nMonths);
  };
  const anyValue = (s: Float64Array) => s.some((v) => v === v);

  const computed = indexNames.map((name, k) => (how[name] === "computed" ? k : -1)).filter((k) => k >= 0);
  for (let c = 0; c < nCells; c++) {
    if (prcp && tmean) {
      const p = series(prcp, c);
      const t = series(tmean, c);
      // Sea in the source's precipitation: no values to fit (a temperature alone gives no index). The cell stays
      // (it is land by the provinces) with NaN.
      if (anyValue(p)) {
        // A cell has data when some index could be computed: CPC's sea cells off Côn Đảo carry one stray month.
        hasData[c] = computed.length === 0 ? 1 : 0;
        if (computed.length > 0) {
          const out: StationIndices = computeStationIndices({
            firstMonth, lat: cells.lat[c], prcp: Float64Array.from(p), tmean: Float64Array.from(t),
            refStart: input.refStart, refEnd: input.refEnd,
          });
          // ±Inf (beyond the fitted distribution, as R SPEI gives it) is served as ±3.5, the station grid's clamp
          // (interpolate.ts): a summary or a tile over such a cell would otherwise be infinite or empty.
          for (const k of computed) {
            const v = clampInfinite(out[indexNames[k] as Computable], IDW_DEFAULTS.clampZ);
            if (anyValue(v)) hasData[c] = 1;
            layers[k].set(v, c * nMonths);
          }
        }
      }
    }
    for (const [name, g] of ingested) {
      const s = series(g, c);
      if (anyValue(s)) hasData[c] = 1;
      // An ingested ±Inf (SPEIbase is made by R SPEI, which gives them) is served as ±3.5 too (formats/index-range.ts).
      layers[indexNames.indexOf(name)].set(clampInfinite(s, IDW_DEFAULTS.clampZ), c * nMonths);
    }
  }

  // Cells the source has no value in (its sea) leave the grid, so that a point there answers from the nearest cell
  // with data, and a province only they touched takes the nearest such cell (attachNearestCells).
  const cellsWithoutData = nCells - hasData.reduce((a, b) => a + b, 0);
  let served = layers;
  if (cellsWithoutData > 0 && cellsWithoutData < nCells) {
    const sub = subsetLandCells(cells, (c) => hasData[c] === 1);
    cells = sub.cells;
    served = layers.map((l) => {
      const out = new Float32Array(sub.kept.length * nMonths);
      sub.kept.forEach((c, i) => out.set(l.subarray(c * nMonths, (c + 1) * nMonths), i * nMonths));
      return out;
    });
  }
  const nearest = attachNearestCells(cells, provinces);
  cells = nearest.cells;

  const lats = grid.lats;
  const lngs = grid.lngs;
  return {
    cells,
    firstMonth,
    nMonths,
    layers: served,
    report: {
      source: "netcdf",
      resolutionDeg: cells.resolutionDeg,
      nativeGrid: {
        south: lats[0], north: lats[lats.length - 1], west: lngs[0], east: lngs[lngs.length - 1], nLat: lats.length, nLng: lngs.length,
      },
      files: sources.map((s) => ({
        role: s.role,
        path: s.grid.path,
        variable: s.grid.variable,
        units: s.grid.units,
        firstMonth: formatMonth(s.grid.months[0]),
        lastMonth: formatMonth(s.grid.months[s.grid.months.length - 1]),
      })),
      monthRange: { first: formatMonth(firstMonth), last: formatMonth(firstMonth + nMonths - 1) },
      layers: how,
      landCells: nCells,
      cellsWithoutData,
      cellsServed: cells.lat.length,
      provincesWithoutCells: native.provincesWithoutCells,
      provincesFromNearestCell: nearest.attached,
      ...(prcp ? { petMethod: "thornthwaite" as const } : {}),
      samplesPerCellSide: native.samples,
    },
  };
}
