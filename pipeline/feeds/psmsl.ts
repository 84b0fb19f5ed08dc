// PSMSL annual Revised Local Reference data (Holgate et al. 2013, doi:10.2112/JCOASTRES-D-12-00175.1;
// https://psmsl.org/data/obtaining/): filelist.txt ("id; lat; lon; name; coastline; station; flag") and one
// data/<id>.rlrdata per station ("year; mm; missing-days flag; attention flag", -99999 = missing).
// Trend: ordinary least squares of annual mean sea level on year, mm/yr, with its standard error.
import { readCsv, type CsvRow } from "./csv.ts";
import { RejectCounter, validLatLng, type AdapterResult } from "./records.ts";

export interface PsmslStation {
  id: number;
  lat: number;
  lng: number;
  name: string;
  coastline: number;
  stationCode: string;
  /** "Y" marks a station with a quality flag in filelist.txt. */
  flagged: boolean;
}

export interface AnnualSeries {
  years: Float64Array;
  /** mm, NaN where missing. */
  mm: Float64Array;
}

/** Non-blank lines of a PSMSL text file, fields split at ";" and trimmed (the format has no header and no quoting). */
function psmslRows(text: string, file: string): { line: number; f: string[] }[] {
  return readCsv(text, file, { header: false, delimiter: ";", quote: false })
    .rows.filter((r: CsvRow) => r.fields.some((v) => v.trim() !== ""))
    .map((r) => ({ line: r.line, f: r.fields.map((v) => v.trim()) }));
}

export function parsePsmslFilelist(text: string, file = "filelist.txt"): AdapterResult<PsmslStation> {
  const rc = new RejectCounter();
  const out: PsmslStation[] = [];
  for (const { line, f } of psmslRows(text, file)) {
    rc.rows++;
    const id = Number(f[0]);
    const lat = Number(f[1]);
    const lng = Number(f[2]);
    if (f.length < 7 || !Number.isInteger(id)) { rc.reject("malformed line", file, line); continue; }
    if (!validLatLng(lat, lng)) { rc.reject("bad coordinates", file, line); continue; }
    out.push({ id, lat, lng, name: f[3], coastline: Number(f[4]), stationCode: f[5], flagged: f[6] === "Y" });
  }
  return rc.result(out);
}

export function parseRlrAnnual(text: string, file = "rlrdata"): AdapterResult<{ year: number; mm: number }> & { series: AnnualSeries } {
  const rc = new RejectCounter();
  const rows: { year: number; mm: number }[] = [];
  for (const { line, f } of psmslRows(text, file)) {
    rc.rows++;
    const year = Number(f[0]);
    const mm = Number(f[1]);
    if (f.length < 2 || !Number.isInteger(year) || !Number.isFinite(mm)) { rc.reject("malformed line", file, line); continue; }
    rows.push({ year, mm: mm === -99999 ? NaN : mm });
  }
  const series = { years: Float64Array.from(rows, (r) => r.year), mm: Float64Array.from(rows, (r) => r.mm) };
  return { ...rc.result(rows), series };
}

export interface Trend {
  /** mm/yr */
  slope: number;
  /** standard error of the slope, mm/yr (OLS, independent residuals) */
  se: number;
  n: number;
  firstYear: number;
  lastYear: number;
}

/** OLS trend of y on x over the finite pairs; NaN slope when fewer than 3 points. */
export function linearTrend(x: ArrayLike<number>, y: ArrayLike<number>): Trend {
  let n = 0, sx = 0, sy = 0, first = Infinity, last = -Infinity;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(y[i])) continue;
    n++; sx += x[i]; sy += y[i];
    first = Math.min(first, x[i]); last = Math.max(last, x[i]);
  }
  if (n < 3) return { slope: NaN, se: NaN, n, firstYear: first, lastYear: last };
  const mx = sx / n, my = sy / n;
  let sxx = 0, sxy = 0;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(y[i])) continue;
    sxx += (x[i] - mx) ** 2; sxy += (x[i] - mx) * (y[i] - my);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(y[i])) continue;
    sse += (y[i] - my - slope * (x[i] - mx)) ** 2;
  }
  return { slope, se: Math.sqrt(sse / (n - 2) / sxx), n, firstYear: first, lastYear: last };
}
