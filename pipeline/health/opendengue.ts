// OpenDengue V1.3 extracts (Clarke et al. 2024, https://opendengue.org, CC BY 4.0): a national series for every
// country of the global national extract (129 countries; weeks, months and years, one source per period), and for
// Thailand monthly cases per province (Admin1 rows of the SEARO spatial extract, 1993-01..2022-12), the only
// country whose provinces the service can locate a point in. Thai province names are upper case with odd
// spellings; every one must match one of the 77 provinces or the build fails. Rules: docs/methods/outbreaks.md.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { daysInMonth, formatMonth, monthIndex, yearOf, type MonthIndex } from "../../lib/months.ts";
import { resolveProvince } from "../provinces/aliases.ts";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { endemicChannel, MIN_BASELINE } from "../../lib/outbreaks/endemic-channel.ts";
import { dayIndex, denseSeries, formatDay, type CaseSeries, type Resolution } from "../../lib/outbreaks/series.ts";

export const OPENDENGUE_DIR = join("health", "opendengue");
export const OPENDENGUE_FILES = {
  /** Global: every country's best national series (the regional national extracts are subsets of it). */
  national: "National_extract_V1_3.csv",
  spatial: "Spatial_extract_SEARO_V1_3.csv",
  temporal: "Temporal_extract_SEARO_V1_3.csv",
} as const;
export const OPENDENGUE_SOURCE = "OpenDengue V1.3 (Clarke et al. 2024, Sci Data 11:296, CC BY 4.0)";
/**
 * The worldwide spatial and temporal extracts of a release (unpacked from its ZIPs by `make refresh` into the inputs
 * tree): read instead of the mirror's SEARO splits when present; Thailand's rows are the same in both.
 */
export const OPENDENGUE_WORLD_FILES = { spatial: "Spatial_extract_V1_3.csv", temporal: "Temporal_extract_V1_3.csv" } as const;

/** The three extracts a build reads (relative to the data directory): the worldwide ones when a refresh brought them. */
export function openDengueInputs(dir: string): { national: string; spatial: string; temporal: string } {
  const pick = (k: "spatial" | "temporal") => join(OPENDENGUE_DIR, existsSync(join(dir, OPENDENGUE_DIR, OPENDENGUE_WORLD_FILES[k])) ? OPENDENGUE_WORLD_FILES[k] : OPENDENGUE_FILES[k]);
  return { national: join(OPENDENGUE_DIR, OPENDENGUE_FILES.national), spatial: pick("spatial"), temporal: pick("temporal") };
}

/**
 * OpenDengue spellings the general alias table does not know, mapped to the canonical English name. "PHACHINBURI"
 * (2003 on) and "PRACHIN BURI" (1993–2002) are the same province, TH-25.
 */
export const OPENDENGUE_SPELLINGS: Record<string, string> = {
  "KAMPAENG PHET": "Kamphaeng Phet",
  PHACHINBURI: "Prachin Buri",
  "PHRA NAKHON SI AYUDHYA": "Phra Nakhon Si Ayutthaya",
  "PRACHUAP KHILIKHAN": "Prachuap Khiri Khan",
  "SAMUT PRAKARN": "Samut Prakan",
  "SAMUT SONGKHAM": "Samut Songkhram",
  TRAD: "Trat",
};

export interface DengueRow {
  adm0: string;
  /** ISO 3166-1 alpha-3 (ISO_A0). */
  iso3: string;
  adm1: string;
  sRes: string;
  tRes: string;
  start: string;
  end: string;
  cases: number;
  uuid: string;
}

const COLUMNS = ["adm_0_name", "ISO_A0", "adm_1_name", "S_res", "T_res", "calendar_start_date", "calendar_end_date", "dengue_total", "UUID"];

/**
 * The rows of one country (adm_0_name, upper case; null = every country) from an extract. Names may hold line
 * breaks inside quotes ("ARUNACHAL\r\nPRADESH"), so records may span lines. Malformed rows go to `rejected`.
 */
export function parseOpenDengue(text: string, source: string, country: string | null = "THAILAND", rejected: CsvRejection[] = []): DengueRow[] {
  // Only the columns read: the worldwide extracts are large.
  const csv = readCsvRecords(text, source, { required: COLUMNS, keep: COLUMNS, multiline: true });
  rejected.push(...csv.rejected);
  return csv.records
    .filter((r) => country === null || r.adm_0_name === country)
    .map((r) => ({
      adm0: r.adm_0_name,
      iso3: r.ISO_A0,
      adm1: r.adm_1_name,
      sRes: r.S_res,
      tRes: r.T_res,
      start: r.calendar_start_date,
      end: r.calendar_end_date,
      cases: parseCount(r.dengue_total),
      uuid: r.UUID,
    }));
}

function monthOfDate(date: string): number {
  return monthIndex(Number(date.slice(0, 4)), Number(date.slice(5, 7)));
}

/** Province code of an OpenDengue admin-1 name, or undefined. */
export function matchDengueProvince(index: ReadonlyMap<string, string>, name: string): string | undefined {
  return resolveProvince(index, OPENDENGUE_SPELLINGS[name] ?? name);
}

export interface ProvinceDengue {
  series: CaseSeries[];
  /** Distinct admin-1 names and the province each matched. */
  matches: Record<string, string>;
  unmatched: string[];
  rows: number;
}

/** Monthly province series from Admin1/Month rows; two names of one province (Prachin Buri) merge into one series. */
export function provinceDengueSeries(rows: readonly DengueRow[], index: ReadonlyMap<string, string>): ProvinceDengue {
  const byCode = new Map<string, [number, number][]>();
  const matches: Record<string, string> = {};
  const unmatched = new Set<string>();
  let used = 0;
  for (const r of rows) {
    if (r.sRes !== "Admin1" || r.tRes !== "Month") continue;
    const code = matchDengueProvince(index, r.adm1);
    if (code === undefined) {
      unmatched.add(r.adm1);
      continue;
    }
    matches[r.adm1] = code;
    let list = byCode.get(code);
    if (list === undefined) byCode.set(code, (list = []));
    list.push([monthOfDate(r.start), r.cases]);
    used++;
  }
  const series = [...byCode.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, points]): CaseSeries => {
      const { start, values } = denseSeries(points, `OpenDengue ${code}`);
      return { disease: "dengue", area: code, country: "THA", level: "admin-1", resolution: "month", start, values, baseline: "seasonal", source: OPENDENGUE_SOURCE };
    });
  return { series, matches, unmatched: [...unmatched].sort(), rows: used };
}

/** Weekday of a UTC day number, 0 = Sunday (day 0, 1970-01-01, was a Thursday). */
function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Days of month m that fall on weekday wd. */
function weekdaysIn(m: MonthIndex, wd: number): number {
  const offset = (wd - weekday(dayIndex(`${formatMonth(m)}-01`)) + 7) % 7;
  return Math.floor((daysInMonth(m) - 1 - offset) / 7) + 1;
}

/** Why a row's dates do not make one whole week, month or year; undefined when they do. */
function periodFault(r: DengueRow): string | undefined {
  const start = dayIndex(r.start);
  const end = dayIndex(r.end);
  if (r.tRes === "Week") return end - start === 6 ? undefined : `a week must span 7 days, ${r.start}..${r.end} does not`;
  if (r.tRes === "Month") {
    const m = monthOfDate(r.start);
    return r.start.slice(8, 10) === "01" && r.end === `${formatMonth(m)}-${String(daysInMonth(m)).padStart(2, "0")}` ? undefined : `${r.start}..${r.end} is not one calendar month`;
  }
  if (r.tRes === "Year") return r.start.endsWith("-01-01") && r.end === `${r.start.slice(0, 4)}-12-31` ? undefined : `${r.start}..${r.end} is not one calendar year`;
  return `unknown temporal resolution "${r.tRes}"`;
}

/**
 * Whole weeks → calendar months: a week goes whole to the month of its middle day (start + 3; the Wednesday of
 * OpenDengue's Sunday-to-Saturday epidemiological weeks, the Thursday of an ISO week), so a week is never split. A
 * month is complete, and kept, only when every week whose middle day falls in it is reported.
 */
export function weeksToMonths(weeks: ReadonlyArray<{ start: string; cases: number }>): Map<MonthIndex, number> {
  const acc = new Map<MonthIndex, { sum: number; n: number; wd: number }>();
  for (const w of weeks) {
    if (Number.isNaN(w.cases)) continue;
    const mid = dayIndex(w.start) + 3;
    const iso = formatDay(mid);
    const m = monthIndex(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)));
    const a = acc.get(m);
    if (a === undefined) acc.set(m, { sum: w.cases, n: 1, wd: weekday(mid) });
    else if (a.wd !== weekday(mid)) a.n = -Infinity; // weeks starting on different weekdays: not comparable, left out
    else {
      a.sum += w.cases;
      a.n++;
    }
  }
  const out = new Map<MonthIndex, number>();
  for (const [m, a] of acc) if (a.n === weekdaysIn(m, a.wd)) out.set(m, a.sum);
  return out;
}

/** A year of weeks counts for the burden when at least this many of its weeks are reported (three quarters of 52). */
export const MIN_WEEKS_FOR_YEAR = 39;
export const WEEK_YEARS_SOURCE = "OpenDengue V1.3 weeks, years of ≥ 39 reported weeks scaled to 52 (Clarke et al. 2024, Sci Data 11:296, CC BY 4.0)";

/**
 * Years of Week rows (a week belongs to the year of its middle day) with at least MIN_WEEKS_FOR_YEAR weeks reported,
 * as their sum scaled to 52 weeks. For the burden only: a year like the Marshall Islands' 2024 (40 weeks reported,
 * months incomplete) says more about now than its last whole year (2019).
 */
export function weeksToYears(weeks: ReadonlyArray<{ start: string; cases: number }>): Map<number, number> {
  const acc = new Map<number, { sum: number; n: number }>();
  for (const w of weeks) {
    if (Number.isNaN(w.cases)) continue;
    const y = Number(formatDay(dayIndex(w.start) + 3).slice(0, 4));
    const a = acc.get(y) ?? { sum: 0, n: 0 };
    a.sum += w.cases;
    a.n++;
    acc.set(y, a);
  }
  const out = new Map<number, number>();
  for (const [y, a] of acc) if (a.n >= MIN_WEEKS_FOR_YEAR && a.n <= 53) out.set(y, Math.round((a.sum * 52) / a.n));
  return out;
}

export interface NationalChoice {
  /** Resolution served, and why. */
  chosen: Resolution;
  reason: string;
  month: { from: string; to: string; periods: number; years: number; latestBaselines: number } | null;
  year: { from: string; to: string; periods: number; years: number; latestBaselines: number } | null;
}

export interface NationalDengue {
  /** One series per country (ISO3), sorted by code. */
  series: CaseSeries[];
  /** The other resolution's series where a country has both: the burden may reach a later year with it. */
  alternates: CaseSeries[];
  choices: Record<string, NationalChoice>;
  /** Rows whose dates are not one week, month or year (file:line not kept: row content instead). */
  faults: string[];
  /** Periods reported twice at one resolution (first row kept). */
  duplicates: number;
}

function reportedYears(s: { start: number; values: Float64Array; resolution: Resolution }): number {
  const years = new Set<number>();
  s.values.forEach((v, i) => {
    if (!Number.isNaN(v)) years.add(s.resolution === "month" ? yearOf(s.start + i) : s.start + i);
  });
  return years.size;
}

/** Baseline windows the endemic channel finds for the series' latest period (the 30-day answer). */
function latestBaselines(s: CaseSeries): number {
  return endemicChannel(s, s.start + lastReportedIndex(s.values), 1).n;
}

function lastReportedIndex(values: Float64Array): number {
  for (let i = values.length - 1; i >= 0; i--) if (!Number.isNaN(values[i])) return i;
  return -1;
}

/**
 * One national series per country from the Admin0 rows of the national extract:
 *  - monthly: Month rows, plus the months completed by Week rows (weeksToMonths) where no Month row exists;
 *  - yearly: Year rows, plus the years whose 12 months are all in the monthly series where no Year row exists;
 *  - served: of the two, those whose latest period has an endemic channel (at least MIN_BASELINE comparable baseline
 *    periods with data, lib/outbreaks/endemic-channel.ts), else both; of these the one whose last reported period ends
 *    later; on the same end, the monthly one (it resolves the seasons).
 */
export function nationalDengueSeries(rows: readonly DengueRow[]): NationalDengue {
  const byCountry = new Map<string, DengueRow[]>();
  const faults: string[] = [];
  for (const r of rows) {
    if (r.sRes !== "Admin0") continue;
    const fault = periodFault(r);
    if (fault !== undefined) {
      faults.push(`${r.iso3} ${r.uuid}: ${fault}`);
      continue;
    }
    let list = byCountry.get(r.iso3);
    if (list === undefined) byCountry.set(r.iso3, (list = []));
    list.push(r);
  }
  let duplicates = 0;
  const series: CaseSeries[] = [];
  const alternates: CaseSeries[] = [];
  const choices: Record<string, NationalChoice> = {};
  for (const iso3 of [...byCountry.keys()].sort()) {
    const list = byCountry.get(iso3)!;
    const months = new Map<MonthIndex, number>();
    const years = new Map<number, number>();
    for (const r of list) {
      if (Number.isNaN(r.cases)) continue;
      if (r.tRes === "Month") {
        const m = monthOfDate(r.start);
        if (months.has(m)) duplicates++;
        else months.set(m, r.cases);
      } else if (r.tRes === "Year") {
        const y = Number(r.start.slice(0, 4));
        if (years.has(y)) duplicates++;
        else years.set(y, r.cases);
      }
    }
    for (const [m, v] of weeksToMonths(list.filter((r) => r.tRes === "Week"))) if (!months.has(m)) months.set(m, v);
    const perYear = new Map<number, { sum: number; n: number }>();
    for (const [m, v] of months) {
      const a = perYear.get(yearOf(m)) ?? { sum: 0, n: 0 };
      a.sum += v;
      a.n++;
      perYear.set(yearOf(m), a);
    }
    for (const [y, a] of perYear) if (a.n === 12 && !years.has(y)) years.set(y, a.sum);
    const make = (resolution: "month" | "year", points: Map<number, number>): CaseSeries | undefined => {
      if (points.size === 0) return undefined;
      const { start, values } = denseSeries([...points.entries()], `OpenDengue ${iso3} ${resolution}`);
      return { disease: "dengue", area: iso3, country: iso3, level: "national", resolution, start, values, baseline: "seasonal", source: OPENDENGUE_SOURCE };
    };
    const monthly = make("month", months);
    const yearly = make("year", years);
    const endDate = (s: CaseSeries) => {
      const last = s.start + lastReportedIndex(s.values);
      return s.resolution === "month" ? `${formatMonth(last)}-${String(daysInMonth(last)).padStart(2, "0")}` : `${last}-12-31`;
    };
    const describe = (s: CaseSeries | undefined) =>
      s === undefined
        ? null
        : {
            from: s.resolution === "month" ? `${formatMonth(s.start)}-01` : `${s.start}-01-01`,
            to: endDate(s),
            periods: s.values.filter((v) => !Number.isNaN(v)).length,
            years: reportedYears(s),
            latestBaselines: latestBaselines(s),
          };
    const candidates = [monthly, yearly].filter((s): s is CaseSeries => s !== undefined);
    if (candidates.length === 0) continue;
    const usable = candidates.filter((s) => latestBaselines(s) >= MIN_BASELINE);
    const pool = usable.length > 0 ? usable : candidates;
    // pool is in [monthly, yearly] order: a later end wins, a tie keeps the monthly series.
    const best = pool.reduce((a, b) => (endDate(b) > endDate(a) ? b : a));
    const other = candidates.find((s) => s !== best);
    const reason =
      other === undefined
        ? `only ${best.resolution}ly data`
        : !usable.includes(other) && usable.includes(best)
          ? `the ${other.resolution}ly series has ${latestBaselines(other)} baseline periods for its latest period (fewer than ${MIN_BASELINE})`
          : endDate(best) > endDate(other)
            ? `reaches ${endDate(best)}, the ${other.resolution}ly series ${endDate(other)}`
            : `ends with the ${other.resolution}ly series on ${endDate(best)}; months resolve the seasons`;
    series.push(best);
    if (other !== undefined) alternates.push(other);
    // Years of weeks after the yearly series' last year: a third candidate, for the burden only (the service takes
    // whichever candidate gives a rate for the latest period; months with a missing week are not whole months).
    const lastYear = yearly === undefined ? -Infinity : yearly.start + lastReportedIndex(yearly.values);
    const weekYears = [...weeksToYears(list.filter((r) => r.tRes === "Week"))].filter(([y]) => y > lastYear);
    if (weekYears.length > 0) {
      const { start, values } = denseSeries(weekYears, `OpenDengue ${iso3} week-years`);
      alternates.push({ disease: "dengue", area: iso3, country: iso3, level: "national", resolution: "year", start, values, baseline: "seasonal", source: WEEK_YEARS_SOURCE });
    }
    choices[iso3] = { chosen: best.resolution, reason, month: describe(monthly), year: describe(yearly) };
  }
  return { series, alternates, choices, faults, duplicates };
}

export interface OpenDengue {
  /** Thai provinces (admin-1). */
  provinces: ProvinceDengue;
  /** Every country of the national extract, Thailand included. */
  national: NationalDengue;
  qc: {
    /** Thailand rows of the spatial and temporal extracts; all rows of the national extract. */
    spatialRows: number;
    temporalRows: number;
    nationalRows: number;
    nationalCountries: number;
    /** Thai admin-1 rows of the temporal extract that differ from the spatial extract. */
    temporalAdmin1Mismatches: number;
    nationalDuplicatePeriods: number;
    nationalRowFaults: number;
  };
}

/**
 * Reads the extracts: Thai admin-1 from the spatial extract (checked against the temporal one), every country's
 * national series from the global national extract.
 */
export function readOpenDengue(dir: string, index: ReadonlyMap<string, string>, rejected: CsvRejection[] = []): OpenDengue {
  const read = (rel: string, country: string | null) => {
    const path = join(dir, rel);
    return parseOpenDengue(readFileSync(path, "utf8"), path, country, rejected);
  };
  const files = openDengueInputs(dir);
  const spatial = read(files.spatial, "THAILAND");
  const temporal = read(files.temporal, "THAILAND");
  const nationalRows = read(files.national, null);
  const provinces = provinceDengueSeries(spatial, index);
  const key = (r: DengueRow) => `${r.adm1}|${r.start}|${r.tRes}`;
  const spatialAdmin1 = new Map(spatial.filter((r) => r.sRes === "Admin1").map((r) => [key(r), r.cases]));
  let mismatches = 0;
  for (const r of temporal) if (r.sRes === "Admin1" && spatialAdmin1.get(key(r)) !== r.cases) mismatches++;
  const national = nationalDengueSeries(nationalRows);
  return {
    provinces,
    national,
    qc: {
      spatialRows: spatial.length,
      temporalRows: temporal.length,
      nationalRows: nationalRows.length,
      nationalCountries: national.series.length,
      temporalAdmin1Mismatches: mismatches,
      nationalDuplicatePeriods: national.duplicates,
      nationalRowFaults: national.faults.length,
    },
  };
}
