// Temperature anomaly tables: Our World in Data monthly anomalies by country (from Copernicus ERA5; columns
// Entity, Code, Day = M/15/YYYY, temperature_anomaly °C vs 1991-2020) and the global monthly series
// (GISTEMP and NOAA GCAG; columns Source, Year = YYYY-MM, Mean °C). Both become monthly series keyed by
// MonthIndex (year*12 + month-1).
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

export function parseGlobalTemperature(text: string, file = "global-monthly-gistemp-gcag.csv"): AdapterResult<MonthlyAnomaly> {
  const csv = readCsvRecords(text, file, { trim: true, required: ["Source", "Year", "Mean"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: MonthlyAnomaly[] = [];
  for (const [i, r] of csv.records.entries()) {
    rc.rows++;
    const m = parseMonth(r.Year);
    const a = num(r.Mean);
    if (m === undefined) { rc.reject("bad Year (YYYY-MM)", file, csv.lines[i]); continue; }
    if (!Number.isFinite(a) || Math.abs(a) > 10) { rc.reject("bad Mean", file, csv.lines[i]); continue; }
    out.push({ series: r.Source, month: m, anomalyC: a });
  }
  return rc.result(out);
}
