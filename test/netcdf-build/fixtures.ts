// Small synthetic NetCDF inputs over Thailand for the gridFromNetcdf tests: precipitation as NetCDF-3 (short-packed
// metres with scale/offset and a fill value), temperature and SPEIbase files as NetCDF-4 (float32, K / "1").
import { monthIndex, type MonthIndex } from "../../lib/months.ts";
import { writeNetcdf3, doubleAttr, shortAttr } from "../netcdf/write-netcdf3.ts";
import { writeNetcdf4 } from "../netcdf/write-netcdf4.ts";

export interface GridSpec {
  /** Latitudes and longitudes in file order (descending or 0..360 allowed). */
  lats: number[];
  lngs: number[];
  firstMonth: MonthIndex;
  nMonths: number;
}

/** Values of a cell and month; NaN is written as the fill value. */
export type CellValue = (lat: number, lng: number, month: MonthIndex) => number;

/** Evenly spaced values from a to b inclusive (a > b gives a descending axis). */
export function axis(a: number, b: number, step: number): number[] {
  const n = Math.round(Math.abs(b - a) / step) + 1;
  return Array.from({ length: n }, (_, i) => a + Math.sign(b - a) * i * step);
}

/** Mid-month day numbers since 1900-01-01 (Gregorian). */
export function midMonthDays(first: MonthIndex, n: number): number[] {
  return Array.from({ length: n }, (_, t) => {
    const m = first + t;
    return (Date.UTC(Math.floor(m / 12), m % 12, 15) - Date.UTC(1900, 0, 1)) / 86_400_000;
  });
}

/** Deterministic uniform [0, 1) from integers (a hash, so every cell and month has its own draw). */
export function uniform(...keys: number[]): number {
  let h = 0x811c9dc5;
  for (const k of keys) {
    h = Math.imul(h ^ (k | 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return (h >>> 0) / 2 ** 32;
}

/** Monsoon precipitation, mm per month: wet May–October, some dry months with no rain. */
export const plausiblePrecipitation: CellValue = (lat, lng, m) => {
  const month = m % 12;
  const u = uniform(Math.round(lat * 4), Math.round(lng * 4), m, 1);
  const seasonal = 120 + 110 * Math.sin((2 * Math.PI * (month - 3)) / 12);
  if (seasonal < 40 && u < 0.25) return 0;
  return seasonal * (0.4 + 1.2 * u);
};

/** Mean temperature, °C: ~27 °C, cooler to the north, a seasonal cycle, noise and a small warming trend. */
export const plausibleTemperature: CellValue = (lat, lng, m) => {
  const u = uniform(Math.round(lat * 4), Math.round(lng * 4), m, 2);
  return 27 + 3 * Math.sin((2 * Math.PI * (m % 12 - 1)) / 12) - 0.3 * (lat - 13) + 0.8 * (u - 0.5) + (0.02 * (m - monthIndex(1980, 1))) / 12;
};

export const PRECIP_SCALE = 1e-5;
export const PRECIP_OFFSET = 0.2;
const PRECIP_FILL = -32767;

/** The packed short of a precipitation value in mm (metres in the file). */
export function packPrecipitation(mm: number): number {
  return Number.isNaN(mm) ? PRECIP_FILL : Math.round((mm / 1000 - PRECIP_OFFSET) / PRECIP_SCALE);
}

/** prcp(time, lat, lon) short, units "m", scale_factor/add_offset/_FillValue, days since 1900-01-01. */
export function writePrecipitationNc3(path: string, grid: GridSpec, value: CellValue = plausiblePrecipitation): void {
  const { lats, lngs, firstMonth, nMonths } = grid;
  const data = new Int16Array(nMonths * lats.length * lngs.length);
  let o = 0;
  for (let t = 0; t < nMonths; t++) for (const la of lats) for (const lo of lngs) data[o++] = packPrecipitation(value(la, lo, firstMonth + t));
  writeNetcdf3(path, {
    dims: [{ name: "time", size: nMonths }, { name: "lat", size: lats.length }, { name: "lon", size: lngs.length }],
    globalAttrs: { Conventions: "CF-1.8" },
    variables: [
      { name: "time", dims: ["time"], type: "double", attrs: { units: "days since 1900-01-01", calendar: "gregorian" }, data: midMonthDays(firstMonth, nMonths) },
      { name: "lat", dims: ["lat"], type: "float", attrs: { units: "degrees_north" }, data: lats },
      { name: "lon", dims: ["lon"], type: "float", attrs: { units: "degrees_east" }, data: lngs },
      {
        name: "prcp", dims: ["time", "lat", "lon"], type: "short", data,
        attrs: {
          units: "m", standard_name: "precipitation_amount",
          scale_factor: doubleAttr(PRECIP_SCALE), add_offset: doubleAttr(PRECIP_OFFSET), _FillValue: shortAttr(PRECIP_FILL),
        },
      },
    ],
  });
}

async function writeFloatNc4(path: string, grid: GridSpec, name: string, attrs: Record<string, string | Float32Array>, value: CellValue, fill: number, toFile: (v: number) => number): Promise<void> {
  const { lats, lngs, firstMonth, nMonths } = grid;
  const data = new Float32Array(nMonths * lats.length * lngs.length);
  let o = 0;
  for (let t = 0; t < nMonths; t++) {
    for (const la of lats) {
      for (const lo of lngs) {
        const v = value(la, lo, firstMonth + t);
        data[o++] = Number.isNaN(v) ? fill : toFile(v);
      }
    }
  }
  await writeNetcdf4(path, {
    globalAttrs: { Conventions: "CF-1.8" },
    coords: [
      { name: "time", data: Float64Array.from(midMonthDays(firstMonth, nMonths)), attrs: { units: "days since 1900-01-01", calendar: "gregorian", axis: "T" } },
      { name: "lat", data: Float32Array.from(lats), attrs: { units: "degrees_north", axis: "Y" } },
      { name: "lon", data: Float32Array.from(lngs), attrs: { units: "degrees_east", axis: "X" } },
    ],
    variables: [{ name, dims: ["time", "lat", "lon"], data, attrs: { ...attrs, _FillValue: Float32Array.of(fill) } }],
  });
}

/** tas(time, lat, lon) float32 in K, fill −9999. */
export function writeTemperatureNc4(path: string, grid: GridSpec, value: CellValue = plausibleTemperature): Promise<void> {
  return writeFloatNc4(path, grid, "tas", { units: "K", standard_name: "air_temperature" }, value, -9999, (c) => c + 273.15);
}

/** SPEIbase layout: spei(time, lat, lon) float32, units "1", fill 1e30. */
export function writeSpeibaseNc4(path: string, grid: GridSpec, value: CellValue): Promise<void> {
  return writeFloatNc4(path, grid, "spei", { units: "1", long_name: "Standardized Precipitation-Evapotranspiration Index" }, value, 1e30, (z) => z);
}

/** A plausible SPEI value (roughly standard normal) for a cell and month, per time scale. */
export function speiValue(scale: number): CellValue {
  return (lat, lng, m) => {
    const u = uniform(Math.round(lat * 4), Math.round(lng * 4), m, 10 + scale);
    const v = uniform(Math.round(lat * 4), Math.round(lng * 4), m, 50 + scale);
    return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
  };
}
