// Reads one (time, lat, lon) variable of an open NetCDF dataset into a monthly grid: fill values → NaN, packed
// values unpacked, latitudes ascending, longitudes in −180..180 ascending, optional bbox, months consecutive.
// Unit conversion is the caller's (climate-grid.ts, speibase.ts).
import { formatMonth, type MonthIndex } from "../../../lib/months.ts";
import {
  ascendingLatitudes, assertConsecutiveMonths, normalizeLongitudes, parseCalendar, stringAttribute, timeToMonths,
  unpackInPlace, type Attributes, type Calendar,
} from "./cf.ts";
import type { NcDataset, NcVariable } from "./open.ts";

/** Degrees; west/east in −180..180 (west > east is not supported: split such a box in two). */
export interface BBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * A monthly grid. `values` is laid out [cell][month]: the value of row i (lats[i]), column j (lngs[j]) and month
 * months[t] is values[(i * lngs.length + j) * months.length + t]; NaN = missing. Each cell's series is contiguous,
 * which is what the per-cell index computations read.
 */
export interface MonthlyGrid<U extends string = string> {
  path: string;
  variable: string;
  /** Cell-centre latitudes, ascending. */
  lats: Float64Array;
  /** Cell-centre longitudes in [−180, 180), ascending. */
  lngs: Float64Array;
  /** Consecutive months. */
  months: MonthIndex[];
  values: Float64Array;
  units: U;
}

/** Offset of the series of row i, column j in `values` ([cell][month] layout). */
export function seriesOffset(grid: MonthlyGrid, latIndex: number, lngIndex: number): number {
  return (latIndex * grid.lngs.length + lngIndex) * grid.months.length;
}

type Axis = "time" | "lat" | "lon";

const AXIS_NAMES: Record<Axis, string[]> = {
  time: ["time", "t", "valid_time"],
  lat: ["lat", "latitude", "lats", "nav_lat"],
  lon: ["lon", "longitude", "lng", "lons", "nav_lon"],
};

const LAT_UNITS = ["degrees_north", "degree_north", "degree_n", "degrees_n", "degreen", "degreesn"];
const LON_UNITS = ["degrees_east", "degree_east", "degree_e", "degrees_e", "degreee", "degreese"];

/** Which axis a dimension is, from its coordinate variable's attributes (CF §4) or, failing that, its name. */
function axisOf(dim: string, coord: NcVariable | undefined): Axis | undefined {
  const a: Attributes = coord?.attributes ?? {};
  const axis = stringAttribute(a, "axis")?.toUpperCase();
  const std = stringAttribute(a, "standard_name")?.toLowerCase();
  const units = stringAttribute(a, "units")?.toLowerCase().trim() ?? "";
  if (axis === "T" || std === "time" || / since /.test(units)) return "time";
  if (axis === "Y" || std === "latitude" || LAT_UNITS.includes(units)) return "lat";
  if (axis === "X" || std === "longitude" || LON_UNITS.includes(units)) return "lon";
  const name = dim.toLowerCase();
  for (const ax of ["time", "lat", "lon"] as const) if (AXIS_NAMES[ax].includes(name)) return ax;
  return undefined;
}

export interface RawMonthlyGrid extends MonthlyGrid<string> {
  calendar: Calendar;
  /** The variable's attributes (units etc.). */
  attributes: Attributes;
}

/** Reads variable `name` of `ds` (dims time, lat, lon in any order) clipped to `bbox`, unpacked, units as stored. */
export function readMonthlyVariable(ds: NcDataset, name: string, bbox?: BBox): RawMonthlyGrid {
  const what = `${ds.path}: variable "${name}"`;
  const v = ds.variables.get(name);
  if (!v) throw new Error(`${ds.path}: no variable "${name}"`);
  const axes = v.dims.map((d) => axisOf(d, ds.variables.get(d)));
  const pos = { time: axes.indexOf("time"), lat: axes.indexOf("lat"), lon: axes.indexOf("lon") };
  if (v.dims.length !== 3 || pos.time < 0 || pos.lat < 0 || pos.lon < 0) {
    throw new Error(`${what}: unsupported layout (${v.dims.join(", ")}); expected dimensions (time, lat, lon) in some order`);
  }
  const coord = (axis: Axis) => {
    const dim = v.dims[pos[axis]];
    const c = ds.variables.get(dim);
    if (!c || c.shape.length !== 1) throw new Error(`${what}: dimension "${dim}" has no coordinate variable`);
    return c;
  };
  const timeVar = coord("time");
  const timeUnits = stringAttribute(timeVar.attributes, "units");
  if (!timeUnits) throw new Error(`${ds.path}: time variable "${timeVar.name}" has no units`);
  const calendarAttr = stringAttribute(timeVar.attributes, "calendar");
  // A read error names the file and the variable already; only the CF decoding needs the context added.
  const timeValues = ds.read(timeVar.name);
  let months: MonthIndex[];
  try {
    months = timeToMonths(timeValues, timeUnits, calendarAttr);
  } catch (e) {
    throw new Error(`${ds.path}: time variable "${timeVar.name}": ${(e as Error).message}`);
  }
  assertConsecutiveMonths(months, what, formatMonth);
  const calendar = parseCalendar(calendarAttr);

  const latAll = ascendingLatitudes(ds.read(coord("lat").name), what);
  const lonAll = normalizeLongitudes(ds.read(coord("lon").name));
  const rows = selectIndices(latAll.lats, bbox ? bbox.south : -Infinity, bbox ? bbox.north : Infinity);
  const cols = selectIndices(lonAll.lngs, bbox ? bbox.west : -Infinity, bbox ? bbox.east : Infinity);
  const srcRows = rows.map((i) => latAll.order[i]);
  const srcCols = cols.map((j) => lonAll.order[j]);
  const nT = months.length;
  const nCells = rows.length * cols.length;
  const values = new Float64Array(nCells * nT);
  if (nCells > 0 && nT > 0) {
    // One hyperslab covering the selected source rows and columns (contiguous in rows; columns may wrap).
    const rowStart = Math.min(...srcRows);
    const colStart = Math.min(...srcCols);
    const start = [0, 0, 0];
    const count = [0, 0, 0];
    start[pos.time] = 0;
    count[pos.time] = nT;
    start[pos.lat] = rowStart;
    count[pos.lat] = Math.max(...srcRows) - rowStart + 1;
    start[pos.lon] = colStart;
    count[pos.lon] = Math.max(...srcCols) - colStart + 1;
    const slab = unpackInPlace(ds.read(name, start, count), v.attributes, v.type);
    const stride = [count[1] * count[2], count[2], 1];
    const sT = stride[pos.time];
    const sY = stride[pos.lat];
    const sX = stride[pos.lon];
    let o = 0;
    for (const r of srcRows) {
      for (const c of srcCols) {
        const base = (r - rowStart) * sY + (c - colStart) * sX;
        for (let t = 0; t < nT; t++) values[o++] = slab[base + t * sT];
      }
    }
  }
  return {
    path: ds.path,
    variable: name,
    lats: Float64Array.from(rows, (i) => latAll.lats[i]),
    lngs: Float64Array.from(cols, (j) => lonAll.lngs[j]),
    months,
    values,
    units: stringAttribute(v.attributes, "units") ?? "",
    calendar,
    attributes: v.attributes,
  };
}

/** Indices of the ascending coordinates within [lo, hi]. */
function selectIndices(coords: Float64Array, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < coords.length; i++) if (coords[i] >= lo && coords[i] <= hi) out.push(i);
  return out;
}

/**
 * The months of a file's time axis (the first 1-D coordinate that is a time axis), read without the data: what a
 * source's `dataAsOf` and its content check need from a NetCDF download.
 */
export function timeAxisMonths(ds: NcDataset): MonthIndex[] {
  for (const v of ds.variables.values()) {
    if (v.dims.length !== 1 || v.dims[0] !== v.name || axisOf(v.name, v) !== "time") continue;
    const units = stringAttribute(v.attributes, "units");
    if (!units) throw new Error(`${ds.path}: time variable "${v.name}" has no units`);
    try {
      return timeToMonths(ds.read(v.name), units, stringAttribute(v.attributes, "calendar"));
    } catch (e) {
      throw new Error(`${ds.path}: time variable "${v.name}": ${(e as Error).message}`);
    }
  }
  throw new Error(`${ds.path}: no time coordinate`);
}
