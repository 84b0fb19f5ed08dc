// Daily → monthly station series under explicit completeness rules, with a quality flag byte per month, and the
// dry-day policy for station-years in which most dry days were not reported. Pure functions, no I/O.
import { daysInMonth, monthIndex, yearOf, type MonthIndex } from "../../../lib/months.ts";
import type { DailySeries } from "./parse.ts";

/** Flag bits, one byte per month, travelling with prcp (prcpFlags) and tmean (tempFlags). */
export const FLAG_COMPLETE = 1; // every day of the month has a value
export const FLAG_PARTIAL = 2; // admitted with some days missing (within the completeness rule)
export const FLAG_DRY_DAYS_ASSUMED = 4; // admitted only because unreported days were taken as 0 mm
export const FLAG_DRY_DAY_OMITTING_YEAR = 8; // the month lies in a station-year detected as dry-day-omitting
export const FLAG_TEMP_FROM_TMAX_TMIN = 16; // at least one day's mean is (TMAX+TMIN)/2 because TAVG was missing
export const FLAG_REJECTED = 32; // the month has some data but fails the rules: value is NaN

export type DryDayPolicy = "strict" | "assume-dry";
export const DEFAULT_DRY_DAY_POLICY: DryDayPolicy = "assume-dry";

export interface CompletenessRules {
  /** A precipitation month is valid with at most this many unreported days (their rain is unknown, summed as 0). */
  maxMissingPrcpDays: number;
  /** A temperature month (tmean, tmax, tmin each) needs at least this many days with a value... */
  minTempDays: number;
  /** ...and no run of missing days longer than this (WMO "3/5"-style rule against one-sided gaps). */
  maxConsecutiveMissingTempDays: number;
}

export const DEFAULT_COMPLETENESS: CompletenessRules = {
  maxMissingPrcpDays: 3,
  minTempDays: 21,
  maxConsecutiveMissingTempDays: 4,
};

/**
 * A station-year is dry-day-omitting when precipitation is reported on less than `maxReportedShare` of its in-record
 * days (so a record starting or ending mid-year is judged on its own days) and, over its
 * incomplete months (those failing the P rule), at least `minJudgedDays` reports of which fewer than
 * `maxZeroFraction` are 0 mm. Thresholds chosen from the Thai mirror (docs/methods/station-data.md).
 */
export interface DryDayDetection {
  maxReportedShare: number;
  maxZeroFraction: number;
  minJudgedDays: number;
  /** Under assume-dry an incomplete month is admitted only with at least this many reported days. */
  minReportedDaysAssumeDry: number;
}

export const DEFAULT_DETECTION: DryDayDetection = {
  maxReportedShare: 0.9, // ≈ 330 of 365 days
  maxZeroFraction: 0.4,
  minJudgedDays: 10,
  minReportedDaysAssumeDry: 1,
};

export interface YearReport {
  year: number;
  /** Days of the year inside the station's record. */
  days: number;
  reportedDays: number;
  /** Share of 0 mm among all reported days (NaN when none). */
  zeroFraction: number;
  /** Reported days and their zero share within the year's incomplete months: the detection statistic. */
  incompleteReportedDays: number;
  incompleteZeroFraction: number;
  dryDayOmitting: boolean;
  monthsAdmittedStrict: number;
  monthsAdmittedAssumeDry: number;
}

export interface MonthlyQc {
  months: number;
  prcpMonthsStrict: number;
  prcpMonthsAssumeDry: number;
  prcpMonthsDryDaysAssumed: number;
  prcpMonthsRejected: number;
  tempMonths: number;
  tempMonthsFromTmaxTmin: number;
  tempMonthsRejected: number;
  dryDayOmittingYears: number;
}

export interface MonthlySeries {
  firstMonth: MonthIndex;
  prcp: Float64Array;
  tmean: Float64Array;
  tmax: Float64Array;
  tmin: Float64Array;
  prcpFlags: Uint8Array;
  tempFlags: Uint8Array;
  years: YearReport[];
  qc: MonthlyQc;
}

export interface AggregateOptions {
  policy?: DryDayPolicy;
  rules?: CompletenessRules;
  detection?: DryDayDetection;
}

/** Reads GHCND_DRY_DAYS; unset means the documented default, anything else unknown is an error. */
export function dryDayPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): DryDayPolicy {
  const raw = env.GHCND_DRY_DAYS;
  if (raw === undefined || raw === "") return DEFAULT_DRY_DAY_POLICY;
  if (raw === "strict" || raw === "assume-dry") return raw;
  throw new Error(`GHCND_DRY_DAYS must be "strict" or "assume-dry", got "${raw}"`);
}

const DAY_MS = 86_400_000;

function monthOfEpochDay(day: number): MonthIndex {
  const d = new Date(day * DAY_MS);
  return monthIndex(d.getUTCFullYear(), d.getUTCMonth() + 1);
}

function epochDayOfMonthStart(m: MonthIndex): number {
  return Date.UTC(yearOf(m), m % 12, 1) / DAY_MS;
}

/** Mean of the finite values in a[from, to) if they meet the temperature rule, else NaN. */
function validTempMean(a: Float64Array, from: number, to: number, rules: CompletenessRules): number {
  let sum = 0;
  let n = 0;
  let run = 0;
  let longestRun = 0;
  for (let i = from; i < to; i++) {
    const x = a[i];
    if (Number.isNaN(x)) {
      run++;
      if (run > longestRun) longestRun = run;
    } else {
      run = 0;
      sum += x;
      n++;
    }
  }
  if (n < rules.minTempDays || longestRun > rules.maxConsecutiveMissingTempDays) return NaN;
  return sum / n;
}

export function aggregateMonthly(daily: DailySeries, opts: AggregateOptions = {}): MonthlySeries {
  const policy = opts.policy ?? DEFAULT_DRY_DAY_POLICY;
  const rules = opts.rules ?? DEFAULT_COMPLETENESS;
  const detection = opts.detection ?? DEFAULT_DETECTION;
  const nDays = daily.prcp.length;
  const firstMonth = monthOfEpochDay(daily.firstDay);
  const lastMonth = monthOfEpochDay(daily.firstDay + nDays - 1);
  const nMonths = lastMonth - firstMonth + 1;

  // Daily mean temperature: TAVG, otherwise the midrange (TMAX+TMIN)/2.
  const tday = new Float64Array(nDays);
  const fromMidrange = new Uint8Array(nDays);
  for (let i = 0; i < nDays; i++) {
    const avg = daily.tavg[i];
    if (!Number.isNaN(avg)) tday[i] = avg;
    else {
      tday[i] = (daily.tmax[i] + daily.tmin[i]) / 2; // NaN if either is missing
      if (!Number.isNaN(tday[i])) fromMidrange[i] = 1;
    }
  }

  const prcp = new Float64Array(nMonths).fill(NaN);
  const tmean = new Float64Array(nMonths).fill(NaN);
  const tmax = new Float64Array(nMonths).fill(NaN);
  const tmin = new Float64Array(nMonths).fill(NaN);
  const prcpFlags = new Uint8Array(nMonths);
  const tempFlags = new Uint8Array(nMonths);

  // Per month: in-record days, reported P days, zero P days, P sum.
  const inRecord = new Int32Array(nMonths);
  const reported = new Int32Array(nMonths);
  const zeros = new Int32Array(nMonths);
  const sums = new Float64Array(nMonths);

  for (let k = 0; k < nMonths; k++) {
    const m = firstMonth + k;
    const start = epochDayOfMonthStart(m) - daily.firstDay;
    const end = start + daysInMonth(m);
    const from = Math.max(0, start);
    const to = Math.min(nDays, end);
    inRecord[k] = to - from;
    for (let i = from; i < to; i++) {
      const p = daily.prcp[i];
      if (Number.isNaN(p)) continue;
      reported[k]++;
      sums[k] += p;
      if (p === 0) zeros[k]++;
    }
    // Days outside the record count as missing: a month cut by the record's ends is judged like any other.
    const full = daysInMonth(m);
    const missingP = full - reported[k];
    if (missingP <= rules.maxMissingPrcpDays) {
      prcp[k] = sums[k];
      prcpFlags[k] = missingP === 0 ? FLAG_COMPLETE : FLAG_PARTIAL;
    } else if (reported[k] > 0) prcpFlags[k] = FLAG_REJECTED;

    // Temperature over the full calendar month (days outside the record are missing).
    const tm = validTempMean(windowed(tday, start, end), 0, full, rules);
    tmax[k] = validTempMean(windowed(daily.tmax, start, end), 0, full, rules);
    tmin[k] = validTempMean(windowed(daily.tmin, start, end), 0, full, rules);
    let any = false;
    let midrange = false;
    let nT = 0;
    for (let i = from; i < to; i++) {
      if (!Number.isNaN(tday[i])) {
        any = true;
        nT++;
      }
      if (fromMidrange[i]) midrange = true;
    }
    if (!Number.isNaN(tm)) {
      tmean[k] = tm;
      tempFlags[k] = (nT === full ? FLAG_COMPLETE : FLAG_PARTIAL) | (midrange ? FLAG_TEMP_FROM_TMAX_TMIN : 0);
    } else if (any) tempFlags[k] = FLAG_REJECTED;
  }

  // Dry-day detection per station-year, then the assume-dry admissions.
  const years: YearReport[] = [];
  const firstYear = yearOf(firstMonth);
  const lastYear = yearOf(lastMonth);
  for (let y = firstYear; y <= lastYear; y++) {
    const r: YearReport = {
      year: y,
      days: 0,
      reportedDays: 0,
      zeroFraction: NaN,
      incompleteReportedDays: 0,
      incompleteZeroFraction: NaN,
      dryDayOmitting: false,
      monthsAdmittedStrict: 0,
      monthsAdmittedAssumeDry: 0,
    };
    let z = 0;
    let incZ = 0;
    const k0 = Math.max(0, monthIndex(y, 1) - firstMonth);
    const k1 = Math.min(nMonths, monthIndex(y, 12) - firstMonth + 1);
    for (let k = k0; k < k1; k++) {
      r.days += inRecord[k];
      r.reportedDays += reported[k];
      z += zeros[k];
      if (Number.isNaN(prcp[k])) {
        r.incompleteReportedDays += reported[k];
        incZ += zeros[k];
      }
    }
    if (r.reportedDays > 0) r.zeroFraction = z / r.reportedDays;
    if (r.incompleteReportedDays > 0) r.incompleteZeroFraction = incZ / r.incompleteReportedDays;
    r.dryDayOmitting =
      r.reportedDays < detection.maxReportedShare * r.days &&
      r.incompleteReportedDays >= detection.minJudgedDays &&
      r.incompleteZeroFraction < detection.maxZeroFraction;
    for (let k = k0; k < k1; k++) {
      const strictOk = !Number.isNaN(prcp[k]);
      if (strictOk) r.monthsAdmittedStrict++;
      if (!r.dryDayOmitting) {
        if (strictOk) r.monthsAdmittedAssumeDry++;
        continue;
      }
      prcpFlags[k] |= FLAG_DRY_DAY_OMITTING_YEAR;
      if (strictOk) {
        r.monthsAdmittedAssumeDry++;
      } else if (reported[k] >= detection.minReportedDaysAssumeDry) {
        r.monthsAdmittedAssumeDry++;
        if (policy === "assume-dry") {
          prcp[k] = sums[k];
          prcpFlags[k] = (prcpFlags[k] & ~FLAG_REJECTED) | FLAG_DRY_DAYS_ASSUMED;
        }
      }
    }
    years.push(r);
  }

  const qc: MonthlyQc = {
    months: nMonths,
    prcpMonthsStrict: 0,
    prcpMonthsAssumeDry: 0,
    prcpMonthsDryDaysAssumed: 0,
    prcpMonthsRejected: 0,
    tempMonths: 0,
    tempMonthsFromTmaxTmin: 0,
    tempMonthsRejected: 0,
    dryDayOmittingYears: 0,
  };
  for (const r of years) {
    qc.prcpMonthsStrict += r.monthsAdmittedStrict;
    qc.prcpMonthsAssumeDry += r.monthsAdmittedAssumeDry;
    if (r.dryDayOmitting) qc.dryDayOmittingYears++;
  }
  for (let k = 0; k < nMonths; k++) {
    if (prcpFlags[k] & FLAG_DRY_DAYS_ASSUMED) qc.prcpMonthsDryDaysAssumed++;
    if (Number.isNaN(prcp[k]) && prcpFlags[k] & FLAG_REJECTED) qc.prcpMonthsRejected++;
    if (!Number.isNaN(tmean[k])) qc.tempMonths++;
    if (tempFlags[k] & FLAG_TEMP_FROM_TMAX_TMIN) qc.tempMonthsFromTmaxTmin++;
    if (tempFlags[k] & FLAG_REJECTED) qc.tempMonthsRejected++;
  }
  return { firstMonth, prcp, tmean, tmax, tmin, prcpFlags, tempFlags, years, qc };
}

/** a[start, end) as a new array, NaN where the window runs past the record's ends. */
function windowed(a: Float64Array, start: number, end: number): Float64Array {
  const out = new Float64Array(end - start).fill(NaN);
  const from = Math.max(0, start);
  const to = Math.min(a.length, end);
  if (to > from) out.set(a.subarray(from, to), from - start);
  return out;
}
