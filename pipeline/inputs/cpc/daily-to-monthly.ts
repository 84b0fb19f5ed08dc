// A year of NOAA PSL's CPC Global Unified Gauge-Based daily precipitation (precip.YYYY.nc: precip(time, lat, lon) in
// mm per day on 0.5° cells centred on .25/.75, latitudes 89.75 → −89.75, longitudes 0.25..359.75) reduced to the data
// mirror's regional layout (../shared/data PROVENANCE.md, climate/cpc-seasia-1deg/), as the mirror's own script
// made it (dubilava/seasia 02-getrainfall.r: raster::aggregate(fact 2, mean) — NA sub-cells left out — then the
// days of a month summed over the days that have a value): each day's four 0.5° cells averaged to the 1° cell, the
// days summed to months. Only whole months are kept: a month whose last day the file does not hold yet (the current
// month) is left out. The file is refused (with the reason) when the variable, its grid or its days are not as
// expected or a value is not a daily precipitation.
import { daysInMonth, formatMonth, monthIndex, type MonthIndex } from "../../../lib/months.ts";
import { parseCalendar, parseTimeUnits, stringAttribute, unpackInPlace } from "../netcdf/cf.ts";
import { openNetcdf } from "../netcdf/open.ts";
import { writeNetcdf4 } from "../netcdf/write-netcdf4.ts";

/** The mirror's 1° cell centres: latitudes north to south as its file stores them, longitudes west to east. */
export const CPC_REGION = {
  lats: Float64Array.from({ length: 40 }, (_, i) => 28.5 - i),
  lngs: Float64Array.from({ length: 49 }, (_, j) => 92.5 + j),
};
/** No day on Earth has had 2 m of rain (the record is ~1.8 m): a larger value is a broken file. */
export const MAX_DAILY_MM = 2000;

export interface CpcMonthly {
  year: number;
  /** Whole months of the year, consecutive from January. */
  months: MonthIndex[];
  /** Days the file holds (from 1 January on). */
  days: number;
  /** mm per month, (time, lat, lon) on CPC_REGION, NaN where no day had a value. */
  values: Float32Array;
}

const fail = (path: string, reason: string) => new Error(`${path}: ${reason}`);

/** Index of each wanted 0.5° centre in the file's axis (any order), or the error naming the first one missing. */
function axisIndices(axis: Float64Array, wanted: number[], path: string, name: string): number[] {
  const at = new Map<number, number>();
  axis.forEach((v, i) => at.set(Math.round(v * 4), i));
  return wanted.map((w) => {
    const i = at.get(Math.round(w * 4));
    if (i === undefined || Math.abs(axis[i] - w) > 1e-3) throw fail(path, `the ${name} axis has no 0.5° cell centred at ${w} (not CPC's 0.5° grid)`);
    return i;
  });
}

/** Sub-cell centres of the 1° cells: c − 0.25 and c + 0.25 for each centre c. */
const halves = (centres: Float64Array) => Array.from(centres).flatMap((c) => [c - 0.25, c + 0.25]);

/** Days of the time axis as days since 1970-01-01 (Gregorian calendars only: CPC's files use the standard one). */
function epochDays(values: Float64Array, units: string, calendar: string | undefined, path: string): number[] {
  const cal = parseCalendar(calendar);
  if (cal !== "standard" && cal !== "proleptic_gregorian") throw fail(path, `time calendar "${calendar}" is not Gregorian`);
  const t = parseTimeUnits(units);
  if (t.unit === "months") throw fail(path, `time units "${units}" are not days or hours`);
  const origin = Date.UTC(t.origin.year, t.origin.month - 1, t.origin.day) / 1000 + t.origin.seconds;
  return Array.from(values, (v) => (origin + v * (t.unit as number)) / 86400);
}

export async function reduceCpcDailyYear(path: string, year: number): Promise<CpcMonthly> {
  const ds = await openNetcdf(path);
  try {
    const v = ds.variables.get("precip");
    if (!v) throw fail(path, 'no variable "precip"');
    if (v.dims.join(",") !== "time,lat,lon") throw fail(path, `precip has dimensions (${v.dims.join(", ")}), expected (time, lat, lon)`);
    const rows = axisIndices(ds.read("lat"), halves(CPC_REGION.lats), path, "latitude");
    const cols = axisIndices(ds.read("lon").map((x) => (x < 0 ? x + 360 : x)), halves(CPC_REGION.lngs), path, "longitude");
    const time = ds.variables.get("time");
    const units = time && stringAttribute(time.attributes, "units");
    if (!time || !units) throw fail(path, "no time axis with units");
    const days = epochDays(ds.read("time"), units, stringAttribute(time.attributes, "calendar"), path);
    const jan1 = Date.UTC(year, 0, 1) / 86400_000;
    days.forEach((d, i) => {
      // Daily stamps may sit at 00:00 or 12:00 of their day.
      if (Math.floor(d + 1e-6) !== jan1 + i) throw fail(path, `time step ${i} is ${new Date(d * 86400_000).toISOString().slice(0, 10)}, expected day ${i + 1} of ${year} (days must run from 1 January without a gap)`);
    });
    const nT = days.length;
    const yearDays = (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86400_000;
    if (nT === 0 || nT > yearDays) throw fail(path, `${nT} days, expected 1..${yearDays}`);

    const r0 = Math.min(...rows);
    const c0 = Math.min(...cols);
    const nr = Math.max(...rows) - r0 + 1;
    const nc = Math.max(...cols) - c0 + 1;
    const slab = unpackInPlace(ds.read("precip", [0, r0, c0], [nT, nr, nc]), v.attributes, v.type);
    for (let k = 0; k < slab.length; k++) {
      const x = slab[k];
      if (x < 0 || x > MAX_DAILY_MM) {
        const day = Math.floor(k / (nr * nc));
        throw fail(path, `precip ${x} mm on day ${day + 1} is not a daily precipitation (0..${MAX_DAILY_MM} mm)`);
      }
    }

    const months: MonthIndex[] = [];
    for (let m = 1, end = 0; m <= 12; m++) {
      end += daysInMonth(monthIndex(year, m));
      if (end > nT) break;
      months.push(monthIndex(year, m));
    }
    if (months.length === 0) throw fail(path, `no whole month yet (${nT} days of ${year}, January has 31)`);
    const nLat = CPC_REGION.lats.length;
    const nLng = CPC_REGION.lngs.length;
    const values = new Float32Array(months.length * nLat * nLng);
    let day = 0;
    for (let t = 0; t < months.length; t++) {
      const sum = new Float64Array(nLat * nLng);
      const seen = new Uint8Array(nLat * nLng);
      for (let d = 0; d < daysInMonth(months[t]); d++, day++) {
        for (let i = 0; i < nLat; i++) {
          for (let j = 0; j < nLng; j++) {
            let s = 0;
            let n = 0;
            for (const r of [rows[2 * i], rows[2 * i + 1]]) {
              for (const c of [cols[2 * j], cols[2 * j + 1]]) {
                const x = slab[(day * nr + (r - r0)) * nc + (c - c0)];
                if (x === x) {
                  s += x;
                  n++;
                }
              }
            }
            if (n > 0) {
              sum[i * nLng + j] += s / n;
              seen[i * nLng + j] = 1;
            }
          }
        }
      }
      for (let c = 0; c < nLat * nLng; c++) values[t * nLat * nLng + c] = seen[c] ? sum[c] : NaN;
    }
    return { year, months, days: nT, values };
  } finally {
    ds.close();
  }
}

/** Writes the months in the mirror's layout: precip(time, lat, lon) mm/month, time in months since 1900-01-01. */
export async function writeCpcMonthly(path: string, m: CpcMonthly): Promise<void> {
  await writeNetcdf4(path, {
    globalAttrs: {
      Conventions: "CF-1.6",
      history: `${m.days} days of NOAA PSL cpc_global_precip precip.${m.year}.nc reduced by the pipeline's cpc_precip source: ${formatMonth(m.months[0])}..${formatMonth(m.months.at(-1)!)}`,
    },
    coords: [
      { name: "time", data: Float64Array.from(m.months, (x) => x - monthIndex(1900, 1)), attrs: { units: "months since 1900-01-01", calendar: "360_day" } },
      { name: "lat", data: CPC_REGION.lats, attrs: { units: "degrees_north" } },
      { name: "lon", data: CPC_REGION.lngs, attrs: { units: "degrees_east" } },
    ],
    variables: [{
      name: "precip",
      dims: ["time", "lat", "lon"],
      data: m.values,
      attrs: {
        _FillValue: Float32Array.of(NaN),
        units: "mm/month",
        long_name: "monthly total precipitation (sum of daily CPC gauge analysis, 0.5deg averaged to 1deg)",
        source: "NOAA PSL CPC Global Unified Gauge-Based Analysis of Daily Precipitation",
      },
      deflate: 4,
    }],
  });
}
