import { describe, expect, it } from "vitest";
import { formatMonth, monthIndex } from "../../lib/months.ts";
import {
  ascendingLatitudes, assertConsecutiveMonths, calendarDaysInMonth, normalizeLongitudes, normalizeUnits, parseCalendar,
  parseTimeUnits, precipitationConversion, temperatureOffset, timeToMonths, unpackInPlace,
} from "../../pipeline/inputs/netcdf/cf.ts";

const fmt = (ms: number[]) => ms.map(formatMonth);

describe("unpackInPlace", () => {
  it("masks _FillValue and valid_range on packed values, then applies scale_factor and add_offset", () => {
    const raw = Float64Array.of(-32767, 0, 100, 32767, 5);
    const out = unpackInPlace(raw, { scale_factor: [0.5], add_offset: [10], _FillValue: [-32767], valid_range: [0, 30000] }, "short");
    expect(Array.from(out)).toEqual([NaN, 10, 60, NaN, 12.5]);
  });

  it("masks every missing_value, valid_min/valid_max, NaN fill and NaN data", () => {
    const out = unpackInPlace(Float64Array.of(-999, -888, 3, NaN, 401, 149), {
      missing_value: [-999, -888], _FillValue: [NaN], valid_min: [150], valid_max: [400],
    });
    expect(Array.from(out)).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
    const kept = unpackInPlace(Float64Array.of(150, 400, -999), { missing_value: [-999], valid_range: [150, 400] });
    expect(Array.from(kept)).toEqual([150, 400, NaN]);
  });

  it("compares a float fill at float precision and uses the netCDF default fill when _FillValue is absent", () => {
    const fill = Math.fround(1e20);
    expect(Array.from(unpackInPlace(Float64Array.of(fill, 1.5), { _FillValue: [1e20] }))).toEqual([NaN, 1.5]);
    const dflt = Math.fround(9.969209968386869e36);
    expect(Array.from(unpackInPlace(Float64Array.of(dflt, 2), {}, "float"))).toEqual([NaN, 2]);
    expect(Array.from(unpackInPlace(Float64Array.of(-32767, 7), { scale_factor: [2] }, "short"))).toEqual([NaN, 14]);
    expect(Array.from(unpackInPlace(Float64Array.of(-32767), {}))).toEqual([-32767]);
  });
});

describe("time coordinates", () => {
  it("parses CF time units with short dates, times and UTC markers", () => {
    expect(parseTimeUnits("days since 1900-1-1")).toEqual({ unit: 86400, origin: { year: 1900, month: 1, day: 1, seconds: 0 } });
    expect(parseTimeUnits("hours since 1800-01-01 06:30:15")).toEqual({
      unit: 3600, origin: { year: 1800, month: 1, day: 1, seconds: 6 * 3600 + 30 * 60 + 15 },
    });
    expect(parseTimeUnits("seconds since 1970-01-01T00:00:00Z").unit).toBe(1);
    expect(parseTimeUnits("Months since 1960-01-01").unit).toBe("months");
    expect(() => parseTimeUnits("days after 1900-01-01")).toThrow('unsupported CF time units "days after 1900-01-01"');
    expect(() => parseTimeUnits("fortnights since 1900-01-01")).toThrow('(unit "fortnights")');
    expect(() => parseTimeUnits("days since 1900-13-01")).toThrow("invalid reference date");
  });

  it("maps calendar names and rejects unknown ones", () => {
    expect(parseCalendar(undefined)).toBe("standard");
    expect(parseCalendar("GREGORIAN")).toBe("standard");
    expect(parseCalendar("365_day")).toBe("noleap");
    expect(parseCalendar("366_day")).toBe("all_leap");
    expect(() => parseCalendar("lunar")).toThrow('unsupported CF calendar "lunar"');
  });

  it("converts the GHCN-CAMS time axis (hours since 1800-01-01) to 2018-01 and 2018-08", () => {
    // 79623 days = 218 years * 365 + 53 leap days from 1800-01-01 to 2018-01-01.
    expect(fmt(timeToMonths([1910952, 1916040], "hours since 1800-01-01", "proleptic_gregorian"))).toEqual(["2018-01", "2018-08"]);
  });

  it("counts days in each calendar: leap years, 360-day and Julian years", () => {
    // Day 59 after 2000-01-01 is 29 Feb in Gregorian (2000 is a leap year) and 1 Mar in noleap.
    expect(fmt(timeToMonths([59], "days since 2000-01-01", "standard"))).toEqual(["2000-02"]);
    expect(fmt(timeToMonths([59], "days since 2000-01-01", "noleap"))).toEqual(["2000-03"]);
    // 2001 has a 29 Feb only in all_leap: day 366 + 59 after 2000-01-01.
    expect(fmt(timeToMonths([425], "days since 2000-01-01", "all_leap"))).toEqual(["2001-02"]);
    expect(fmt(timeToMonths([425], "days since 2000-01-01", "366_day"))).toEqual(["2001-02"]);
    expect(fmt(timeToMonths([425], "days since 2000-01-01", "noleap"))).toEqual(["2001-03"]);
    expect(fmt(timeToMonths([59, 60, 359, 360], "days since 2000-01-01", "360_day"))).toEqual(["2000-02", "2000-03", "2000-12", "2001-01"]);
    // 1900 is a leap year only in the Julian calendar.
    expect(fmt(timeToMonths([59], "days since 1900-01-01", "julian"))).toEqual(["1900-02"]);
    expect(fmt(timeToMonths([59], "days since 1900-01-01", "gregorian"))).toEqual(["1900-03"]);
  });

  it("skips the ten days of October 1582 in the mixed standard calendar only", () => {
    // 1582-10-04 (Julian) is followed by 1582-10-15 (Gregorian): day 21 after 1 October is 1 November.
    expect(fmt(timeToMonths([3, 4, 20, 21], "days since 1582-10-01", "standard"))).toEqual(["1582-10", "1582-10", "1582-10", "1582-11"]);
    expect(fmt(timeToMonths([21, 30, 31], "days since 1582-10-01", "proleptic_gregorian"))).toEqual(["1582-10", "1582-10", "1582-11"]);
  });

  it("counts 'months since' as calendar months, keeping mid-month stamps in their month", () => {
    expect(fmt(timeToMonths([0.5, 1.5, 11.5, 12.5], "months since 1960-01-01", "360_day"))).toEqual(["1960-01", "1960-02", "1960-12", "1961-01"]);
    expect(fmt(timeToMonths([0, 1, 13], "months since 1960-03-01"))).toEqual(["1960-03", "1960-04", "1961-04"]);
  });

  it("puts a value a hair before midnight on the 1st into the new month, but not 15 minutes before", () => {
    expect(fmt(timeToMonths([30.9999999, 30.99], "days since 2018-01-01"))).toEqual(["2018-02", "2018-01"]);
  });

  it("reports gaps and non-monthly steps with the months involved", () => {
    expect(() => assertConsecutiveMonths([monthIndex(1901, 1), monthIndex(1901, 3)], "f.nc", formatMonth))
      .toThrow("f.nc: gap in monthly time steps between 1901-01 and 1901-03");
    expect(() => assertConsecutiveMonths([monthIndex(1901, 1), monthIndex(1901, 1)], "f.nc", formatMonth))
      .toThrow("f.nc: time steps are not monthly (step 1 is 1901-01 after 1901-01)");
    expect(() => assertConsecutiveMonths([monthIndex(1901, 1), monthIndex(1901, 2)], "f.nc", formatMonth)).not.toThrow();
  });

  it("knows the month lengths of each calendar", () => {
    expect([2000, 1900, 2001].map((y) => calendarDaysInMonth("standard", y, 2))).toEqual([29, 28, 28]);
    expect(calendarDaysInMonth("julian", 1900, 2)).toBe(29);
    expect(calendarDaysInMonth("noleap", 2000, 2)).toBe(28);
    expect(calendarDaysInMonth("all_leap", 2001, 2)).toBe(29);
    expect(calendarDaysInMonth("360_day", 2001, 1)).toBe(30);
    expect(calendarDaysInMonth("proleptic_gregorian", 2001, 12)).toBe(31);
  });
});

describe("units", () => {
  it("normalises UDUNITS spellings", () => {
    expect(["kg/m2/s", "kg m^-2 s^-1", "kg.m-2.s-1", "kg m**-2 s**-1", " KG  M-2 S-1 "].map(normalizeUnits))
      .toEqual(Array(5).fill("kg m-2 s-1"));
    expect(normalizeUnits("mm/day")).toBe("mm day-1");
  });

  it("converts precipitation amounts and rates to mm per month", () => {
    expect(precipitationConversion("mm", "pre")).toEqual({ factor: 1, perDay: false });
    expect(precipitationConversion("kg m-2", "pre")).toEqual({ factor: 1, perDay: false });
    expect(precipitationConversion("m", "tp")).toEqual({ factor: 1000, perDay: false });
    expect(precipitationConversion("kg m-2 s-1", "pr")).toEqual({ factor: 86400, perDay: true });
    expect(precipitationConversion("kg/m2/s", "pr")).toEqual({ factor: 86400, perDay: true });
    expect(precipitationConversion("mm/day", "precip")).toEqual({ factor: 1, perDay: true });
    expect(precipitationConversion("m day-1", "tp")).toEqual({ factor: 1000, perDay: true });
    expect(precipitationConversion("mm h-1", "rr")).toEqual({ factor: 24, perDay: true });
    expect(() => precipitationConversion("inches", "pr")).toThrow('variable "pr": unknown precipitation units "inches"');
  });

  it("converts Kelvin and Celsius spellings and rejects Fahrenheit", () => {
    for (const u of ["K", "degK", "Kelvin", "degrees_K"]) expect(temperatureOffset(u, "air")).toBe(-273.15);
    for (const u of ["degC", "°C", "Celsius", "degrees_Celsius", "deg_C"]) expect(temperatureOffset(u, "tmp")).toBe(0);
    expect(() => temperatureOffset("degF", "tmp")).toThrow('variable "tmp": unknown temperature units "degF"');
  });
});

describe("coordinates", () => {
  it("wraps 0..360 longitudes to −180..180 with the source column of each output column", () => {
    const { lngs, order } = normalizeLongitudes([0.25, 90.25, 180.25, 270.25]);
    expect(Array.from(lngs)).toEqual([-179.75, -89.75, 0.25, 90.25]);
    expect(Array.from(order)).toEqual([2, 3, 0, 1]);
  });

  it("drops a repeated cyclic column and maps 180 to −180", () => {
    const { lngs, order } = normalizeLongitudes([0, 90, 180, 270, 360]);
    expect(Array.from(lngs)).toEqual([-180, -90, 0, 90]);
    expect(Array.from(order)).toEqual([2, 3, 0, 1]);
  });

  it("flips descending latitudes and rejects non-monotonic ones", () => {
    const { lats, order } = ascendingLatitudes([10, 5, 0], "f.nc");
    expect(Array.from(lats)).toEqual([0, 5, 10]);
    expect(Array.from(order)).toEqual([2, 1, 0]);
    expect(Array.from(ascendingLatitudes([-1, 1], "f.nc").order)).toEqual([0, 1]);
    expect(() => ascendingLatitudes([0, 5, 3], "f.nc")).toThrow("f.nc: latitudes are not strictly monotonic (at index 2)");
  });
});
