import { describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import {
  FLAG_COMPLETE,
  FLAG_DRY_DAY_OMITTING_YEAR,
  FLAG_DRY_DAYS_ASSUMED,
  FLAG_PARTIAL,
  FLAG_REJECTED,
  FLAG_TEMP_FROM_TMAX_TMIN,
  aggregateMonthly,
  dryDayPolicyFromEnv,
} from "../../pipeline/inputs/ghcnd/aggregate.ts";
import { epochDay, type DailySeries } from "../../pipeline/inputs/ghcnd/parse.ts";

/** A synthetic station from `from` to `to` (inclusive, [y, m, d]) with all values missing; fill with set(). */
function station(from: [number, number, number], to: [number, number, number]) {
  const first = epochDay(...from)!;
  const n = epochDay(...to)! - first + 1;
  const nan = () => new Float64Array(n).fill(NaN);
  const d: DailySeries = {
    station: "TEST0000001",
    name: "TEST",
    lat: 13,
    lng: 100,
    elevationM: 0,
    firstDay: first,
    prcp: nan(),
    tavg: nan(),
    tmax: nan(),
    tmin: nan(),
    counts: { rows: n, prcpValues: 0, tavgValues: 0, tmaxValues: 0, tminValues: 0, rejected: { tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 0 } },
    outOfRange: [],
  };
  const set = (arr: Float64Array, y: number, m: number, day: number, v: number) => {
    arr[epochDay(y, m, day)! - first] = v;
  };
  return { d, set };
}

describe("dryDayPolicyFromEnv", () => {
  it("defaults to assume-dry and rejects unknown values", () => {
    expect(dryDayPolicyFromEnv({})).toBe("assume-dry");
    expect(dryDayPolicyFromEnv({ GHCND_DRY_DAYS: "strict" })).toBe("strict");
    expect(() => dryDayPolicyFromEnv({ GHCND_DRY_DAYS: "wet" })).toThrow('GHCND_DRY_DAYS must be "strict" or "assume-dry", got "wet"');
  });
});

describe("aggregateMonthly completeness rules", () => {
  it("sums precipitation with at most 3 missing days and flags complete/partial/rejected months", () => {
    const { d, set } = station([2001, 1, 1], [2001, 3, 31]);
    // January: 28 of 31 days, 1.5 mm on each of days 1..4, 0 otherwise → 6 mm, partial.
    for (let day = 1; day <= 28; day++) set(d.prcp, 2001, 1, day, day <= 4 ? 1.5 : 0);
    // February: all 28 days, 2.25 mm on day 10 and 7.5 mm on day 20 → 9.75 mm, complete.
    for (let day = 1; day <= 28; day++) set(d.prcp, 2001, 2, day, day === 10 ? 2.25 : day === 20 ? 7.5 : 0);
    // March: 27 of 31 days (4 missing) → rejected.
    for (let day = 1; day <= 27; day++) set(d.prcp, 2001, 3, day, 1);
    const m = aggregateMonthly(d, { policy: "strict" });
    expect(m.firstMonth).toBe(monthIndex(2001, 1));
    expect(Array.from(m.prcp)).toEqual([6, 9.75, NaN]);
    expect(Array.from(m.prcpFlags)).toEqual([FLAG_PARTIAL, FLAG_COMPLETE, FLAG_REJECTED]);
    expect(m.qc.prcpMonthsRejected).toBe(1);
  });

  it("averages TAVG, falling back to (TMAX+TMIN)/2 per day, with the 21-day and 4-consecutive-missing rules", () => {
    const { d, set } = station([2001, 3, 1], [2001, 5, 31]);
    // March: TAVG 26 on days 1..25, TMAX 32/TMIN 22 (→27) on days 26..27, days 28..31 missing (a run of 4: allowed).
    for (let day = 1; day <= 25; day++) set(d.tavg, 2001, 3, day, 26);
    for (const day of [26, 27]) {
      set(d.tmax, 2001, 3, day, 32);
      set(d.tmin, 2001, 3, day, 22);
    }
    // April: TAVG 28 on every day but 10..14 (a run of 5 missing) → rejected although 25 days ≥ 21.
    for (let day = 1; day <= 30; day++) if (day < 10 || day > 14) set(d.tavg, 2001, 4, day, 28);
    // May: TMAX 33 and TMIN 24 on all 31 days, no TAVG → tmean 28.5, tmax 33, tmin 24, complete.
    for (let day = 1; day <= 31; day++) {
      set(d.tmax, 2001, 5, day, 33);
      set(d.tmin, 2001, 5, day, 24);
    }
    const m = aggregateMonthly(d);
    expect(m.tmean[0]).toBeCloseTo(704 / 27, 12); // (25·26 + 2·27) / 27
    expect(m.tempFlags[0]).toBe(FLAG_PARTIAL | FLAG_TEMP_FROM_TMAX_TMIN);
    expect(m.tmax[0]).toBeNaN(); // only 2 days of TMAX in March
    expect(m.tmean[1]).toBeNaN();
    expect(m.tempFlags[1]).toBe(FLAG_REJECTED);
    expect([m.tmean[2], m.tmax[2], m.tmin[2]]).toEqual([28.5, 33, 24]);
    expect(m.tempFlags[2]).toBe(FLAG_COMPLETE | FLAG_TEMP_FROM_TMAX_TMIN);
    expect(m.qc.tempMonths).toBe(2);
    expect(m.qc.tempMonthsFromTmaxTmin).toBe(2);
  });
});

describe("dry-day policy on a synthetic station", () => {
  // 2009 complete: 10 mm on day 1 of each month, 0 otherwise.
  // 2010 dry-day-omitting: only days 1..10 reported each month, 5 mm on days 1..8 and 0 on 9..10 (zero fraction 0.2);
  //      June not reported at all.
  // 2011 a gap, like 1999 at the Thai stations: nothing January–September, October–December complete and dry.
  function build() {
    const { d, set } = station([2009, 1, 1], [2011, 12, 31]);
    for (let m = 1; m <= 12; m++) {
      for (let day = 1; day <= new Date(Date.UTC(2009, m, 0)).getUTCDate(); day++) set(d.prcp, 2009, m, day, day === 1 ? 10 : 0);
      if (m !== 6) for (let day = 1; day <= 10; day++) set(d.prcp, 2010, m, day, day <= 8 ? 5 : 0);
      if (m >= 10) for (let day = 1; day <= new Date(Date.UTC(2011, m, 0)).getUTCDate(); day++) set(d.prcp, 2011, m, day, 0);
    }
    return d;
  }

  it("detects the omitting year from the zero fraction of its incomplete months, not the gap year", () => {
    const m = aggregateMonthly(build(), { policy: "strict" });
    const [y2009, y2010, y2011] = m.years;
    expect(y2009).toMatchObject({ year: 2009, days: 365, reportedDays: 365, incompleteReportedDays: 0, dryDayOmitting: false });
    expect(y2009.zeroFraction).toBeCloseTo(353 / 365, 12);
    expect(y2010).toMatchObject({ year: 2010, reportedDays: 110, incompleteReportedDays: 110, dryDayOmitting: true });
    expect(y2010.zeroFraction).toBeCloseTo(0.2, 12);
    expect(y2011).toMatchObject({ year: 2011, reportedDays: 92, incompleteReportedDays: 0, dryDayOmitting: false });
    expect([y2009.monthsAdmittedStrict, y2010.monthsAdmittedStrict, y2011.monthsAdmittedStrict]).toEqual([12, 0, 3]);
    expect([y2009.monthsAdmittedAssumeDry, y2010.monthsAdmittedAssumeDry, y2011.monthsAdmittedAssumeDry]).toEqual([12, 11, 3]);
  });

  it("strict leaves the omitting year missing but flags it", () => {
    const m = aggregateMonthly(build(), { policy: "strict" });
    const jan2010 = 12;
    expect(m.prcp[jan2010]).toBeNaN();
    expect(m.prcpFlags[jan2010]).toBe(FLAG_REJECTED | FLAG_DRY_DAY_OMITTING_YEAR);
    expect(m.qc).toMatchObject({ prcpMonthsStrict: 15, prcpMonthsAssumeDry: 26, prcpMonthsDryDaysAssumed: 0, dryDayOmittingYears: 1 });
  });

  it("assume-dry admits the omitting year's reported months as 40 mm each, flagged, and leaves June and 2011 gaps", () => {
    const m = aggregateMonthly(build(), { policy: "assume-dry" });
    const y2010 = Array.from(m.prcp.subarray(12, 24));
    expect(y2010).toEqual([40, 40, 40, 40, 40, NaN, 40, 40, 40, 40, 40, 40]);
    expect(m.prcpFlags[12]).toBe(FLAG_DRY_DAYS_ASSUMED | FLAG_DRY_DAY_OMITTING_YEAR);
    expect(m.prcpFlags[17]).toBe(FLAG_DRY_DAY_OMITTING_YEAR); // June: no report, no evidence either way
    expect(Array.from(m.prcp.subarray(24, 36))).toEqual([NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, 0, 0, 0]);
    expect(m.prcp[0]).toBe(10);
    expect(m.qc).toMatchObject({ prcpMonthsStrict: 15, prcpMonthsAssumeDry: 26, prcpMonthsDryDaysAssumed: 11, prcpMonthsRejected: 0 });
  });
});
