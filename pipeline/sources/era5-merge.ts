// The ERA5 file the builders read (climate/era5/era5-land-monthly.nc): the CDS answers' precipitation and
// temperature, each the answers' months end to end (whole years, then the months of the current year), written as one
// NetCDF-4 file on the answers' own grid — values as the CDS stores them once unpacked (tp in m per day, t2m in K),
// latitudes ascending, `valid_time` in seconds since 1970-01-01. Only the months both variables have are kept.
import { calendarMonthOf, formatMonth, yearOf, type MonthIndex } from "../../lib/months.ts";
import type { ClimateKind, RawMonthlyGrid } from "../inputs/netcdf/index.ts";
import { writeNetcdf4 } from "../inputs/netcdf/write-netcdf4.ts";
import type { Era5Grids } from "./era5-answer.ts";

const sameAxis = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Math.abs(v - b[i]) < 1e-6);

/** One variable's answers end to end; each must start the month after the previous one ends, on the same grid. */
function concatMonths(parts: RawMonthlyGrid[], what: string): RawMonthlyGrid {
  const [first] = parts;
  for (const p of parts.slice(1)) {
    if (!sameAxis(p.lats, first.lats) || !sameAxis(p.lngs, first.lngs)) throw new Error(`${what}: the CDS's answers are not on the same grid`);
  }
  const months = parts.flatMap((p) => p.months);
  for (let i = 1; i < months.length; i++) {
    if (months[i] !== months[i - 1] + 1) throw new Error(`${what}: the CDS's answers do not follow on (${formatMonth(months[i - 1])} then ${formatMonth(months[i])})`);
  }
  const cells = first.lats.length * first.lngs.length;
  const values = new Float64Array(cells * months.length);
  let offset = 0;
  for (const p of parts) {
    const n = p.months.length;
    for (let c = 0; c < cells; c++) values.set(p.values.subarray(c * n, (c + 1) * n), c * months.length + offset);
    offset += n;
  }
  return { ...first, months, values };
}

/** The months [from, to] of a grid ([cell][month] layout). */
function sliceMonths(g: RawMonthlyGrid, from: MonthIndex, to: MonthIndex): RawMonthlyGrid {
  const a = g.months.indexOf(from);
  const n = to - from + 1;
  if (a === 0 && n === g.months.length) return g;
  const cells = g.lats.length * g.lngs.length;
  const values = new Float64Array(cells * n);
  for (let c = 0; c < cells; c++) values.set(g.values.subarray(c * g.months.length + a, c * g.months.length + a + n), c * n);
  return { ...g, months: g.months.slice(a, a + n), values };
}

export interface MergedEra5 {
  precipitation: RawMonthlyGrid;
  temperature: RawMonthlyGrid;
  members: string[];
}

/** The answers (in month order) merged: both variables over the months they share. */
export function mergeEra5Answers(answers: Era5Grids[]): MergedEra5 {
  const p = concatMonths(answers.map((a) => a.precipitation), "precipitation");
  const t = concatMonths(answers.map((a) => a.temperature), "temperature");
  if (!sameAxis(p.lats, t.lats) || !sameAxis(p.lngs, t.lngs)) throw new Error("precipitation and temperature are not on the same grid");
  const from = Math.max(p.months[0], t.months[0]);
  const to = Math.min(p.months.at(-1)!, t.months.at(-1)!);
  if (!(to >= from)) throw new Error("precipitation and temperature share no month");
  return { precipitation: sliceMonths(p, from, to), temperature: sliceMonths(t, from, to), members: answers.flatMap((a) => a.members) };
}

/** [cell][month] → (time, latitude, longitude) float32. */
function timeMajor(g: RawMonthlyGrid): Float32Array {
  const nT = g.months.length;
  const cells = g.lats.length * g.lngs.length;
  const out = new Float32Array(cells * nT);
  for (let c = 0; c < cells; c++) for (let t = 0; t < nT; t++) out[t * cells + c] = g.values[c * nT + t];
  return out;
}

const NAMES: Record<ClimateKind, string> = { precipitation: "tp", temperature: "t2m" };

export async function writeMergedEra5(path: string, merged: MergedEra5): Promise<void> {
  const g = merged.precipitation;
  const seconds = Float64Array.from(g.months, (m) => Date.UTC(yearOf(m), calendarMonthOf(m) - 1, 1) / 1000);
  const variable = (kind: ClimateKind) => {
    const v = merged[kind];
    const keep = ["units", "long_name", "standard_name"].flatMap((k) => (typeof v.attributes[k] === "string" ? [[k, v.attributes[k] as string]] : []));
    return {
      name: NAMES[kind],
      dims: ["valid_time", "latitude", "longitude"],
      data: timeMajor(v),
      attrs: { ...Object.fromEntries(keep), _FillValue: Float32Array.of(NaN) },
      deflate: 4,
    };
  };
  await writeNetcdf4(path, {
    globalAttrs: {
      Conventions: "CF-1.7",
      source: "ERA5-Land monthly averaged reanalysis (Copernicus Climate Data Store, reanalysis-era5-land-monthly-means)",
      history: `merged by the pipeline's era5 refresh from the CDS's ${merged.members.join(", ")}`,
    },
    coords: [
      { name: "valid_time", data: seconds, attrs: { units: "seconds since 1970-01-01", calendar: "proleptic_gregorian", standard_name: "time" } },
      { name: "latitude", data: g.lats, attrs: { units: "degrees_north", standard_name: "latitude" } },
      { name: "longitude", data: g.lngs, attrs: { units: "degrees_east", standard_name: "longitude" } },
    ],
    variables: [variable("precipitation"), variable("temperature")],
  });
}


