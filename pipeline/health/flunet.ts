// WHO FluNet laboratory-confirmed influenza counts (WHO GISRS): FluNet's own export (VIW_FNT, every country, what a
// refresh downloads) or, in the data mirror, Our World in Data's republication (Thailand influenza A monthly, Vietnam
// A and B monthly and weekly). Terms: WHO's for its datasets (who-terms.ts); the mirror's series are attributed to
// OWID too. Monthly series per country (ISO3) and type, in the health adapters' CaseSeries shape. Two rules of our own, documented in docs/methods/outbreaks.md ("Influenza (FluNet)"):
//  - zero-filled reporting gaps: a run of ≥ ZERO_RUN_MIN_LENGTH consecutive zero months in a series whose median
//    month is ≥ ZERO_RUN_MIN_MEDIAN is missing (NaN), not zero;
//  - weekly → monthly: an ISO week belongs to the month of its Thursday; a month is complete only when every such
//    week is reported.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsv } from "../feeds/csv.ts";
import { WHO_DATA_TERMS } from "./who-terms.ts";
import { formatMonth, monthIndex, type MonthIndex } from "../../lib/months.ts";
import { dayIndex, denseSeries, formatDay, lastPeriod, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const FLUNET_DIR = join("health", "flunet");
export const FLUNET_FILES = {
  thailandA: "thailand_flu_A_month.csv",
  vietnamWeekly: "vietnam_flu.csv",
  vietnamA: "vietnam_flu_A_month.csv",
  vietnamB: "vietnam_flu_B_month.csv",
} as const;
/** Series from FluNet's own export. */
export const FLUNET_SOURCE = `WHO FluNet laboratory-confirmed influenza, all surveillance types (WHO GISRS, FluNet export); ${WHO_DATA_TERMS}`;
/** Series from the data mirror's copy: OWID's republication of FluNet. */
export const FLUNET_OWID_SOURCE = `WHO FluNet laboratory-confirmed influenza, all surveillance types (WHO GISRS), as republished by Our World in Data; ${WHO_DATA_TERMS}`;

/** Shortest run of consecutive zero months treated as a reporting gap. */
export const ZERO_RUN_MIN_LENGTH = 2;
/** A series whose median month is at least this many cases cannot plausibly report zero two months running. */
export const ZERO_RUN_MIN_MEDIAN = 10;

export type InfluenzaType = "A" | "B" | "total";

/** A CaseSeries of influenza counts (monthly, seasonal baseline) with the months masked as zero-filled gaps. */
export interface InfluenzaSeries extends Omit<CaseSeries, "disease"> {
  disease: "influenza";
  type: InfluenzaType;
  /** Months that held 0 in the file and are missing here (zero-run rule); for "total", those of A and B. */
  zeroFilledMonths: MonthIndex[];
}

export interface FlunetTable {
  /** "month" (first column "Month", dates YYYY-MM-01) or "week" (first column "Day", the Monday of an ISO week). */
  period: "month" | "week";
  /** Month indexes, or UTC day numbers of the weeks' Mondays. */
  periods: number[];
  /** Counts per influenza type found in the header; NaN where the cell is blank. */
  counts: Partial<Record<"A" | "B", Float64Array>>;
}

const VALUE_COLUMN = /^Influenza ([AB]) - All types of surveillance$/;
const MONTH_DATE = /^(\d{4})-(0[1-9]|1[0-2])-01$/;
const DAY_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses one OWID FluNet CSV strictly (the pipeline CSV reader: equal column counts, closed quotes); errors name the source and line. */
export function parseFlunetCsv(text: string, source: string): FlunetTable {
  const table = readCsv(text, source);
  // FluNet files are small and regular: any unreadable row stops the build rather than leaving a hole in a series.
  const bad = table.rejected[0];
  if (bad) throw new Error(`${source}:${bad.line}: ${bad.reason}`);
  const header = table.header;
  if (header.length === 0) throw new Error(`${source}: empty file`);
  const rows = table.rows.map((r) => ({ record: r.fields, info: { lines: r.line } }));
  const first = header[0].trim();
  if (first !== "Month" && first !== "Day") throw new Error(`${source}:1: first column is "${first}", expected "Month" or "Day"`);
  const period = first === "Month" ? "month" : "week";
  const typeColumns: ["A" | "B", number][] = [];
  for (let c = 1; c < header.length; c++) {
    const m = VALUE_COLUMN.exec(header[c].trim());
    if (m === null) throw new Error(`${source}:1: unexpected column "${header[c]}"`);
    typeColumns.push([m[1] as "A" | "B", c]);
  }
  if (typeColumns.length === 0) throw new Error(`${source}:1: no influenza count column`);
  const counts: FlunetTable["counts"] = {};
  for (const [type] of typeColumns) counts[type] = new Float64Array(rows.length);
  const periods: number[] = [];
  rows.forEach(({ record, info }, i) => {
    const at = `${source}:${info.lines}`;
    const date = record[0].trim();
    let p: number;
    if (period === "month") {
      const m = MONTH_DATE.exec(date);
      if (m === null) throw new Error(`${at}: "${date}" is not the first day of a month`);
      p = monthIndex(Number(m[1]), Number(m[2]));
    } else {
      p = DAY_DATE.test(date) ? dayIndex(date) : NaN;
      // Day 0 (1970-01-01) was a Thursday: Mondays are the days ≡ 4 (mod 7).
      if (!Number.isFinite(p) || formatDay(p) !== date || (((p - 4) % 7) + 7) % 7 !== 0) throw new Error(`${at}: "${date}" is not the Monday of an ISO week`);
    }
    if (i > 0 && p <= periods[i - 1]) throw new Error(`${at}: "${date}" does not follow the row before`);
    periods.push(p);
    for (const [type, c] of typeColumns) {
      const cell = record[c].trim();
      const v = cell === "" ? NaN : Number(cell);
      if (cell !== "" && !(Number.isInteger(v) && v >= 0)) throw new Error(`${at}: influenza ${type} count "${record[c]}" is not a whole number ≥ 0`);
      counts[type]![i] = v;
    }
  });
  return { period, periods, counts };
}

/** Number of Thursdays in a month = the ISO weeks that belong to it. */
function thursdaysIn(month: MonthIndex): number {
  const first = dayIndex(`${formatMonth(month)}-01`);
  const next = dayIndex(`${formatMonth(month + 1)}-01`);
  const firstThursday = first + ((((0 - first) % 7) + 7) % 7); // day ≡ 0 (mod 7) is a Thursday
  return firstThursday >= next ? 0 : Math.floor((next - 1 - firstThursday) / 7) + 1;
}

/**
 * Weekly counts (weeks given by their Monday) → monthly sums: each ISO week goes whole to the month of its Thursday
 * (so to the same year as its ISO week number). A month is kept only when every week whose Thursday falls in it is
 * present with a count; a month at the edge of the record or with a blank week is left out.
 */
export function weeklyToMonthly(mondays: readonly number[], counts: ArrayLike<number>): [MonthIndex, number][] {
  const sums = new Map<MonthIndex, { sum: number; weeks: number }>();
  for (let i = 0; i < mondays.length; i++) {
    if (Number.isNaN(counts[i])) continue;
    const thursday = formatDay(mondays[i] + 3);
    const m = monthIndex(Number(thursday.slice(0, 4)), Number(thursday.slice(5, 7)));
    const s = sums.get(m) ?? { sum: 0, weeks: 0 };
    s.sum += counts[i];
    s.weeks++;
    sums.set(m, s);
  }
  return [...sums.entries()].filter(([m, s]) => s.weeks === thursdaysIn(m)).map(([m, s]): [MonthIndex, number] => [m, s.sum]).sort((a, b) => a[0] - b[0]);
}

function median(values: ArrayLike<number>): number {
  const finite = Float64Array.from(values).filter((v) => !Number.isNaN(v)).sort();
  if (finite.length === 0) return NaN;
  const h = (finite.length - 1) / 2;
  return (finite[Math.floor(h)] + finite[Math.ceil(h)]) / 2;
}

/**
 * The zero-run rule: when the series' median month (reported months, zeros included) is ≥ ZERO_RUN_MIN_MEDIAN, every
 * run of ≥ ZERO_RUN_MIN_LENGTH consecutive zero months becomes NaN. Returns a copy and the masked offsets.
 */
export function maskZeroRuns(values: ArrayLike<number>): { values: Float64Array; masked: number[] } {
  const out = Float64Array.from(values);
  const masked: number[] = [];
  if (!(median(out) >= ZERO_RUN_MIN_MEDIAN)) return { values: out, masked };
  for (let i = 0; i < out.length; ) {
    if (out[i] !== 0) { i++; continue; }
    let j = i;
    while (j < out.length && out[j] === 0) j++;
    if (j - i >= ZERO_RUN_MIN_LENGTH) for (let k = i; k < j; k++) { out[k] = NaN; masked.push(k); }
    i = j;
  }
  return { values: out, masked };
}

/** A monthly influenza series from (month, count) pairs, zero-filled gaps masked. */
export function influenzaSeries(area: string, type: "A" | "B", points: ReadonlyArray<readonly [MonthIndex, number]>, what: string, source = FLUNET_SOURCE): InfluenzaSeries {
  const dense = denseSeries(points, what);
  const { values, masked } = maskZeroRuns(dense.values);
  return {
    disease: "influenza", type, area, country: area, level: "national", subtype: `influenza ${type}`, resolution: "month", start: dense.start, values, baseline: "seasonal", source,
    zeroFilledMonths: masked.map((k) => dense.start + k),
  };
}

/** A + B over the months both series span; NaN where either is missing. */
export function totalSeries(a: InfluenzaSeries, b: InfluenzaSeries): InfluenzaSeries {
  if (a.area !== b.area) throw new Error(`influenza total: ${a.area} and ${b.area} are different areas`);
  const start = Math.max(a.start, b.start);
  const end = Math.min(lastPeriod(a), lastPeriod(b));
  const values = new Float64Array(Math.max(0, end - start + 1));
  for (let m = start; m <= end; m++) values[m - start] = a.values[m - a.start] + b.values[m - b.start];
  const zeroFilled = [...new Set([...a.zeroFilledMonths, ...b.zeroFilledMonths])].filter((m) => m >= start && m <= end).sort((x, y) => x - y);
  return { ...a, type: "total", subtype: "influenza A+B", start, values, zeroFilledMonths: zeroFilled };
}

function monthlyPoints(t: FlunetTable, type: "A" | "B", source: string): [MonthIndex, number][] {
  const counts = t.counts[type];
  if (t.period !== "month" || counts === undefined) throw new Error(`${source}: no monthly influenza ${type} column`);
  return t.periods.map((p, i): [MonthIndex, number] => [p, counts[i]]);
}

export interface Flunet {
  /** THA A; VNM A, B and total (A + B). */
  series: InfluenzaSeries[];
  /** Vietnam A and B from the weekly file, Thursday rule, before the zero-run rule: the cross-check of the monthly files. */
  vietnamFromWeekly: Record<"A" | "B", [MonthIndex, number][]>;
  /** Blank weeks of the weekly file (the last row, 2024-03-11, is blank). */
  blankWeeks: string[];
}

/** Reads the four FluNet files; the monthly files are the series (OWID's later download, with revisions through 2024-03). */
export function readFlunet(dir: string): Flunet {
  const read = (f: string) => {
    const path = join(dir, FLUNET_DIR, f);
    return { path, table: parseFlunetCsv(readFileSync(path, "utf8"), path) };
  };
  const tha = read(FLUNET_FILES.thailandA);
  const vnA = read(FLUNET_FILES.vietnamA);
  const vnB = read(FLUNET_FILES.vietnamB);
  const weekly = read(FLUNET_FILES.vietnamWeekly);
  if (weekly.table.period !== "week") throw new Error(`${weekly.path}: expected weekly rows (first column "Day")`);
  const a = influenzaSeries("VNM", "A", monthlyPoints(vnA.table, "A", vnA.path), vnA.path, FLUNET_OWID_SOURCE);
  const b = influenzaSeries("VNM", "B", monthlyPoints(vnB.table, "B", vnB.path), vnB.path, FLUNET_OWID_SOURCE);
  const w = weekly.table;
  const weeklyCounts = (type: "A" | "B") => {
    const c = w.counts[type];
    if (c === undefined) throw new Error(`${weekly.path}: no influenza ${type} column`);
    return c;
  };
  return {
    series: [influenzaSeries("THA", "A", monthlyPoints(tha.table, "A", tha.path), tha.path, FLUNET_OWID_SOURCE), a, b, totalSeries(a, b)],
    vietnamFromWeekly: { A: weeklyToMonthly(w.periods, weeklyCounts("A")), B: weeklyToMonthly(w.periods, weeklyCounts("B")) },
    blankWeeks: w.periods.filter((_, i) => Number.isNaN(weeklyCounts("A")[i]) || Number.isNaN(weeklyCounts("B")[i])).map(formatDay),
  };
}

/** FluNet's own export (VIW_FNT, what `make refresh` downloads), linked into the inputs tree beside the OWID files. */
export const FLUNET_LIVE_FILE = "VIW_FNT.csv";
const LIVE_COLUMNS = ["COUNTRY_CODE", "ISO_WEEKSTARTDATE", "INF_A", "INF_B"];

/** Weekly A and B counts of one country, summed over the export's surveillance origins (sentinel, non-sentinel, …). */
export interface FlunetWeekly {
  mondays: number[];
  A: Float64Array;
  B: Float64Array;
}

/**
 * FluNet's export: one row per country, ISO week and surveillance origin (COUNTRY_CODE, ISO_WEEKSTARTDATE, INF_A,
 * INF_B, …). The origins of a week are summed ("all types of surveillance", as OWID republishes it); a week whose
 * rows are all blank for a type stays missing. Errors name the source and line.
 */
export function parseFlunetExport(text: string, source: string): Map<string, FlunetWeekly> {
  const table = readCsv(text, source, { keep: LIVE_COLUMNS });
  const bad = table.rejected[0];
  if (bad) throw new Error(`${source}:${bad.line}: ${bad.reason}`);
  const weeks = new Map<string, Map<number, [number, number]>>();
  for (const { line, fields } of table.rows) {
    const [iso3, start, a, b] = fields;
    const day = start.slice(0, 10);
    if (!/^[A-Z]{3}$/.test(iso3) || !DAY_DATE.test(day)) throw new Error(`${source}:${line}: expected a country code and a week start date, got "${iso3}", "${start}"`);
    const monday = dayIndex(day);
    let byWeek = weeks.get(iso3);
    if (!byWeek) weeks.set(iso3, (byWeek = new Map()));
    const sum = byWeek.get(monday) ?? [NaN, NaN];
    const add = (acc: number, v: string) => (v.trim() === "" ? acc : (Number.isNaN(acc) ? 0 : acc) + Number(v));
    byWeek.set(monday, [add(sum[0], a), add(sum[1], b)]);
  }
  const out = new Map<string, FlunetWeekly>();
  for (const [iso3, byWeek] of [...weeks].sort(([x], [y]) => x.localeCompare(y))) {
    const mondays = [...byWeek.keys()].sort((x, y) => x - y);
    out.set(iso3, { mondays, A: Float64Array.from(mondays, (d) => byWeek.get(d)![0]), B: Float64Array.from(mondays, (d) => byWeek.get(d)![1]) });
  }
  return out;
}

/**
 * The served influenza series of every country in the export: A + B by month (the Thursday rule, complete months
 * only, then the zero-run rule per type); a country reporting only one type serves that type.
 */
export function flunetExportSeries(weekly: ReadonlyMap<string, FlunetWeekly>, source: string): InfluenzaSeries[] {
  const out: InfluenzaSeries[] = [];
  for (const [iso3, w] of weekly) {
    const a = weeklyToMonthly(w.mondays, w.A);
    const b = weeklyToMonthly(w.mondays, w.B);
    const sa = a.length ? influenzaSeries(iso3, "A", a, `${source} ${iso3} A`) : undefined;
    const sb = b.length ? influenzaSeries(iso3, "B", b, `${source} ${iso3} B`) : undefined;
    const served = sa && sb ? totalSeries(sa, sb) : (sa ?? sb);
    if (served && served.values.length > 0) out.push(served);
  }
  return out;
}

/** The FluNet files a build reads (relative to the data directory): FluNet's export when a refresh brought it. */
export function flunetInputs(dir: string): string[] {
  return existsSync(join(dir, FLUNET_DIR, FLUNET_LIVE_FILE)) ? [join(FLUNET_DIR, FLUNET_LIVE_FILE)] : Object.values(FLUNET_FILES).map((f) => join(FLUNET_DIR, f));
}

/** The influenza series the radar serves: every country of FluNet's export, or from the mirror THA A and VNM A+B. */
export function servedInfluenza(dir: string): InfluenzaSeries[] {
  const live = join(dir, FLUNET_DIR, FLUNET_LIVE_FILE);
  if (existsSync(live)) return flunetExportSeries(parseFlunetExport(readFileSync(live, "utf8"), live), live);
  const flunet = readFlunet(dir);
  return Object.entries(MIRROR_SERVED).map(([iso3, type]) => {
    const s = flunet.series.find((x) => x.area === iso3 && x.type === type);
    if (s === undefined) throw new Error(`FluNet: no influenza ${type} series for ${iso3}`);
    return s;
  });
}

/** Influenza series served per country from the mirror: Thailand has only influenza A; Vietnam A + B. */
export const MIRROR_SERVED: Record<string, InfluenzaType> = { THA: "A", VNM: "total" };
