// Temperature anomaly tables: Our World in Data monthly anomalies by country (from Copernicus ERA5; columns
// Entity, Code, Day = M/15/YYYY, temperature_anomaly °C vs 1991-2020) and NASA GISTEMP v4's global monthly
// anomalies (°C vs 1951-1980), in two layouts: NASA's own GLB.Ts+dSST.csv (a title line, then Year,Jan,…,Dec,J-D,…
// with *** for a month not yet in) and the data mirror's datahub.io copy (Source, Year = YYYY-MM, Mean). The
// datahub copy's other rows, labelled "gcag", are HadCRUT5 (1961-1990 mean 0.008 °C, 1850 −0.418 °C: HadCRUT5's
// reference period and values, not NOAA's), so only its GISTEMP rows are read. Both become monthly series keyed
// by MonthIndex (year*12 + month-1).
import { num, readCsvRecords } from "./csv.ts";
import { RejectCounter, type AdapterResult } from "./records.ts";
import { parseUsDate } from "./dfo.ts";
import { parseMonth, type MonthIndex } from "../../lib/months.ts";

export interface MonthlyAnomaly {
  series: string;
  month: MonthIndex;
  anomalyC: number;
}

export function parseOwidTemperature(text: string, file = "monthly-temperature-anomalies.csv"): AdapterResult<MonthlyAnomaly & { code: string }> {
  const csv = readCsvRecords(text, file, { trim: true, required: ["Entity", "Code", "Day", "temperature_anomaly"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: (MonthlyAnomaly & { code: string })[] = [];
  for (const [i, r] of csv.records.entries()) {
    rc.rows++;
    const t = parseUsDate(r.Day);
    const a = num(r.temperature_anomaly);
    if (!Number.isFinite(t)) { rc.reject("bad Day", file, csv.lines[i]); continue; }
    if (!Number.isFinite(a) || Math.abs(a) > 20) { rc.reject("bad anomaly", file, csv.lines[i]); continue; }
    const d = new Date(t);
    out.push({ series: r.Entity, code: r.Code, month: d.getUTCFullYear() * 12 + d.getUTCMonth(), anomalyC: a });
  }
  return rc.result(out);
}

/** Where a refresh links NASA's table in the inputs tree (registry: gistemp); the heatwave builder reads it first. */
export const GISTEMP_TABLE_FILE = "feeds/temperature/GLB.Ts+dSST.csv";
/** The global series served: NASA GISTEMP v4 (°C vs 1951–1980). */
export const GISTEMP = "GISTEMP";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** NASA's value for a month not yet in (the rest of the current year). */
const MISSING = "***";

/** NASA's GLB.Ts+dSST.csv: one row per year, a column per month; the title line above the header is skipped. */
export function parseGistempTable(text: string, file = "GLB.Ts+dSST.csv"): AdapterResult<MonthlyAnomaly> {
  const skipLines = /^\uFEFF?Year,/.test(text) ? 0 : 1;
  const csv = readCsvRecords(text, file, { trim: true, skipLines, required: ["Year", ...MONTHS] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: MonthlyAnomaly[] = [];
  for (const [i, r] of csv.records.entries()) {
    const year = Number(r.Year);
    if (!/^\d{4}$/.test(r.Year)) { rc.rows++; rc.reject("bad Year", file, csv.lines[i]); continue; }
    MONTHS.forEach((name, m) => {
      if (r[name] === MISSING) return;
      rc.rows++;
      const a = num(r[name]);
      if (!Number.isFinite(a) || Math.abs(a) > 10) rc.reject(`bad ${name}`, file, csv.lines[i]);
      else out.push({ series: GISTEMP, month: year * 12 + m, anomalyC: a });
    });
  }
  return rc.result(out);
}

/** The global monthly series from either layout: NASA's table, or the mirror's long datahub copy (GISTEMP rows). */
export function parseGlobalTemperature(text: string, file = "global-monthly-gistemp-gcag.csv"): AdapterResult<MonthlyAnomaly> {
  if (!/^\uFEFF?Source,/.test(text)) return parseGistempTable(text, file);
  const csv = readCsvRecords(text, file, { trim: true, required: ["Source", "Year", "Mean"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: MonthlyAnomaly[] = [];
  for (const [i, r] of csv.records.entries()) {
    // The "gcag" rows are HadCRUT5 under another name (see above): not GISTEMP, not served.
    if (r.Source !== GISTEMP) continue;
    rc.rows++;
    const m = parseMonth(r.Year);
    const a = num(r.Mean);
    if (m === undefined) { rc.reject("bad Year (YYYY-MM)", file, csv.lines[i]); continue; }
    if (!Number.isFinite(a) || Math.abs(a) > 10) { rc.reject("bad Mean", file, csv.lines[i]); continue; }
    out.push({ series: r.Source, month: m, anomalyC: a });
  }
  return rc.result(out);
}
