// The time of an answer (lib/currency.ts, lib/feed-risk/recent-window.ts) and the refusal of data dated after today
// (pipeline/snapshots/feed-builders.ts refuseFutureData, pipeline/snapshots/outbreaks.ts refuseFutureEnds).
import { describe, expect, it } from "vitest";
import { ageDays, currencyOf, HORIZON_DAYS, monthPeriod, monthsPeriod, parseClock, yearPeriod } from "../../lib/currency.ts";
import { recentWindow } from "../../lib/feed-risk/recent-window.ts";
import { refuseFutureData } from "../../pipeline/snapshots/feed-builders.ts";
import { refuseFutureEnds } from "../../pipeline/snapshots/outbreaks.ts";
import { refusePortsAfterToday } from "../../pipeline/snapshots/ports.ts";
import type { SnapshotMeta } from "../../formats/feed-snapshot.ts";

const at = (iso: string) => Date.parse(iso);

describe("currency: whether the newest datum is within its series' horizon of today", () => {
  it("ages count whole days from the end of the datum's day: 0 on the day, 1 the next", () => {
    expect(ageDays("2026-11-28", at("2026-11-28T12:00:00Z"))).toBe(0);
    expect(ageDays("2026-11-27", at("2026-11-28T00:00:01Z"))).toBe(1);
    expect(ageDays("2026-05-24", at("2026-11-28T12:00:00Z"))).toBe(188);
    // A datum after today is never a negative age.
    expect(ageDays("2026-12-01", at("2026-11-28T12:00:00Z"))).toBe(0);
  });

  it("horizons: 3 days daily, 21 weekly, 92 monthly, 731 yearly; the last day inside is current, the next is not", () => {
    expect(HORIZON_DAYS).toEqual({ daily: 3, weekly: 21, monthly: 92, yearly: 731 });
    expect(currencyOf("2026-11-25", "daily", at("2026-11-28T12:00:00Z"))).toMatchObject({ current: true, ageDays: 3 });
    expect(currencyOf("2026-11-24", "daily", at("2026-11-28T12:00:00Z"))).toMatchObject({ current: false, ageDays: 4 });
    // A yearly figure for 2024 is current until the end of 2026; 2023's was not in late 2026.
    expect(currencyOf("2024-12-31", "yearly", at("2026-12-31T12:00:00Z")).current).toBe(true);
    expect(currencyOf("2024-12-31", "yearly", at("2027-01-02T12:00:00Z")).current).toBe(false);
    expect(currencyOf("2023-12-31", "yearly", at("2026-11-28T12:00:00Z"))).toMatchObject({ current: false, ageDays: 1063 });
    const c = currencyOf("2018-10-31", "monthly", at("2026-11-28T12:00:00Z"));
    expect(c).toEqual({ current: false, cadence: "monthly", horizonDays: 92, ageDays: 2950, note: "not current: the data end 2018-10-31, 2950 days before 2026-11-28 (a monthly series is current for 92 days)" });
  });

  it("periods of months and years as days", () => {
    expect(monthPeriod("2024-02")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(monthPeriod("2018-10")).toEqual({ from: "2018-10-01", to: "2018-10-31" });
    expect(monthsPeriod("2019-04", "2019-06")).toEqual({ from: "2019-04-01", to: "2019-06-30" });
    expect(yearPeriod(1940, 2023)).toEqual({ from: "1940-01-01", to: "2023-12-31" });
  });

  it("CLOCK_TODAY: a day (noon UTC) or an ISO time; anything else is an error, not the machine's clock", () => {
    expect(parseClock(undefined)).toBeNull();
    expect(parseClock("")).toBeNull();
    expect(parseClock("2026-11-28")).toBe(at("2026-11-28T12:00:00Z"));
    expect(parseClock("2026-11-28T03:00:00Z")).toBe(at("2026-11-28T03:00:00Z"));
    expect(() => parseClock("yesterday")).toThrow(/CLOCK_TODAY must be YYYY-MM-DD/);
  });
});

describe("the recent window ends today, observed as far as the data go", () => {
  const now = at("2026-11-28T12:00:00Z");
  it("a window after the data's end: none, with the data's last day", () => {
    const w = recentWindow(now, 30, at("1985-01-01T00:00:00Z"), at("2026-05-24T01:00:00Z"), 3);
    expect(w).toMatchObject({ observed: "none", observedPeriod: null, period: { from: "2026-10-29", to: "2026-11-28" }, dataEnd: "2026-05-24" });
    expect(w.note).toBe("no data for this window: the data end 2026-05-24, before it starts");
  });
  it("data ending inside the window: partial, the observed days named", () => {
    const w = recentWindow(now, 365, at("1985-01-01T00:00:00Z"), at("2026-05-24T01:00:00Z"), 3);
    expect(w).toMatchObject({ observed: "partial", observedPeriod: { from: "2025-11-28", to: "2026-05-24" } });
  });
  it("a window longer than the record: partial from the record's first day", () => {
    const w = recentWindow(now, 365, at("2026-11-20T00:00:00Z"), at("2026-11-27T23:00:00Z"), 3);
    expect(w).toMatchObject({ observed: "partial", observedPeriod: { from: "2026-11-20", to: "2026-11-27" } });
    expect(w.note).toMatch(/^the window starts before the data \(2026-11-20\)/);
  });
  it("data reaching today's horizon and starting before the window: full", () => {
    expect(recentWindow(now, 7, at("2026-11-20T00:00:00Z"), at("2026-11-26T23:00:00Z"), 3)).toMatchObject({ observed: "full", note: null });
  });
});

describe("data dated after today are refused at snapshot build", () => {
  const meta = (asOf: string): SnapshotMeta => ({ riskType: "flood", format: 3, asOf, recordStart: "2000-01-01T00:00:00Z", recordYears: 26, coverage: { bbox: [-180, -90, 180, 90], surface: "land", description: "test" }, dataSources: [], params: {}, unit: "x" });
  const now = at("2026-11-28T12:00:00Z");
  const event = (time: string) => ({ id: "E1", source: "T", time: at(time), endTime: at(time), lng: 0, lat: 0, magnitude: 1, name: "e" });

  it("an as-of, an event, a record, a station year or a gauge year after today: refused naming it; today and yesterday pass", () => {
    expect(() => refuseFutureData(meta("2026-11-28T00:00:00Z"), [event("2026-11-27T00:00:00Z")], {}, now)).not.toThrow();
    expect(() => refuseFutureData(meta("2027-03-01T00:00:00Z"), [], {}, now)).toThrow(/flood snapshot refused: its data end 2027-03-01 lies after today \(2026-11-28\)/);
    expect(() => refuseFutureData(meta("2026-11-28T00:00:00Z"), [event("2036-11-10T00:00:00Z")], {}, now)).toThrow(/event E1 starts 2036-11-10/);
    expect(() => refuseFutureData(meta("2026-11-28T00:00:00Z"), [], { records: [{ id: "r", name: "r", start: "2026-01-01", end: "2026-12-31", events: 1 }] }, now)).toThrow(/record r ends 2026-12-31/);
    expect(() => refuseFutureData(meta("2026-11-28T00:00:00Z"), [], { gauges: [{ id: 9, lastYear: 2030 } as never] }, now)).toThrow(/gauge 9's last year begins 2030-01-01/);
  });

  it("an outbreak series or the news ending after today: refused", () => {
    expect(() => refuseFutureEnds({ "dengue THA": "2026-11-20" }, "2026-11-01", now)).not.toThrow();
    expect(() => refuseFutureEnds({ "dengue THA": "2027-01-31" }, "2026-11-01", now)).toThrow(/series dengue THA ends 2027-01-31, after today \(2026-11-28\)/);
    expect(() => refuseFutureEnds({}, "2026-12-25", now)).toThrow(/the news end 2026-12-25/);
  });

  it("port calls dated after today: refused", () => {
    expect(() => refusePortsAfterToday("2026-11-29", now)).not.toThrow();
    expect(() => refusePortsAfterToday("2027-02-01", now)).toThrow(/ports snapshot refused: port calls dated 2027-02-01, after today \(2026-11-28\)/);
  });
});
