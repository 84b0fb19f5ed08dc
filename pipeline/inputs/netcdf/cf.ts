// CF-convention decoding, pure (no I/O): packed values and missing data, time coordinates in CF calendars,
// precipitation and temperature units, longitude and latitude ordering. See docs/methods/netcdf-input.md.
import { monthIndex, type MonthIndex } from "../../../lib/months.ts";

/** Attribute values as the readers give them: text, or numbers (a single number is a one-element array). */
export type AttributeValue = string | number[];
export type Attributes = Record<string, AttributeValue>;

export function numberAttribute(attrs: Attributes, name: string): number | undefined {
  const v = attrs[name];
  return Array.isArray(v) && v.length > 0 ? v[0] : undefined;
}

export function stringAttribute(attrs: Attributes, name: string): string | undefined {
  const v = attrs[name];
  return typeof v === "string" ? v : undefined;
}

/** netCDF default fill values by storage type (NUG "Fill Values"); used when a variable has no _FillValue. */
const DEFAULT_FILL: Record<string, number> = {
  short: -32767,
  int: -2147483647,
  float: 9.969209968386869e36,
  double: 9.969209968386869e36,
};

/**
 * Unpacks raw stored values in place: values equal to _FillValue or missing_value, outside valid_min/valid_max/
 * valid_range, or NaN become NaN; the rest become raw * scale_factor + add_offset (CF 1.11 §2.5.1, §8.1).
 * The missing-value tests compare the packed (raw) values, as CF prescribes. `storageType` is the variable's
 * on-disk type ("short", "float", ...), which selects the netCDF default fill when _FillValue is absent.
 */
export function unpackInPlace(raw: Float64Array, attrs: Attributes, storageType?: string): Float64Array {
  const scale = numberAttribute(attrs, "scale_factor") ?? 1;
  const offset = numberAttribute(attrs, "add_offset") ?? 0;
  const missing: number[] = [];
  const fill = numberAttribute(attrs, "_FillValue") ?? (storageType ? DEFAULT_FILL[storageType] : undefined);
  if (fill !== undefined && !Number.isNaN(fill)) missing.push(fill, Math.fround(fill));
  const mv = attrs.missing_value;
  if (Array.isArray(mv)) for (const m of mv) if (!Number.isNaN(m)) missing.push(m, Math.fround(m));
  let lo = -Infinity;
  let hi = Infinity;
  const range = attrs.valid_range;
  if (Array.isArray(range) && range.length >= 2) {
    lo = range[0];
    hi = range[1];
  }
  lo = numberAttribute(attrs, "valid_min") ?? lo;
  hi = numberAttribute(attrs, "valid_max") ?? hi;
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    if (Number.isNaN(r) || r < lo || r > hi || missing.includes(r)) raw[i] = NaN;
    else raw[i] = r * scale + offset;
  }
  return raw;
}

// ---------------------------------------------------------------------------------------------------------------
// Time: "<unit> since <date>" in a CF calendar (CF 1.11 §4.4, §4.4.1) → MonthIndex of each time step.

export type Calendar = "standard" | "proleptic_gregorian" | "julian" | "noleap" | "all_leap" | "360_day";

const CALENDAR_ALIASES: Record<string, Calendar> = {
  standard: "standard",
  gregorian: "standard",
  proleptic_gregorian: "proleptic_gregorian",
  julian: "julian",
  noleap: "noleap",
  "365_day": "noleap",
  all_leap: "all_leap",
  "366_day": "all_leap",
  "360_day": "360_day",
};

/** Canonical calendar for a CF calendar attribute (absent → "standard", as CF specifies). */
export function parseCalendar(attr: string | undefined): Calendar {
  if (attr === undefined || attr.trim() === "") return "standard";
  const c = CALENDAR_ALIASES[attr.trim().toLowerCase()];
  if (!c) throw new Error(`unsupported CF calendar "${attr}"`);
  return c;
}

export interface TimeUnits {
  /** Seconds per unit, or "months" for calendar months. */
  unit: number | "months";
  origin: { year: number; month: number; day: number; seconds: number };
}

const UNIT_SECONDS: Record<string, number> = {
  day: 86400, days: 86400, d: 86400,
  hour: 3600, hours: 3600, hr: 3600, hrs: 3600, h: 3600,
  minute: 60, minutes: 60, min: 60, mins: 60,
  second: 1, seconds: 1, sec: 1, secs: 1, s: 1,
};

const TIME_UNITS_RE =
  /^\s*([a-z]+)\s+since\s+(-?\d{1,4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T\s]+(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?)?\s*(Z|UTC|GMT|[+-]0{1,2}(?::?00)?)?\s*$/i;

/** Parses CF time units such as "hours since 1800-01-01" or "days since 1900-1-1 00:00:00". */
export function parseTimeUnits(units: string): TimeUnits {
  const m = TIME_UNITS_RE.exec(units);
  if (!m) throw new Error(`unsupported CF time units "${units}"`);
  const word = m[1].toLowerCase();
  const unit = word === "month" || word === "months" ? "months" : UNIT_SECONDS[word];
  if (unit === undefined) throw new Error(`unsupported CF time units "${units}" (unit "${m[1]}")`);
  const month = Number(m[3]);
  const day = m[4] === undefined ? 1 : Number(m[4]);
  if (month < 1 || month > 12 || day < 1 || day > 31) throw new Error(`invalid reference date in CF time units "${units}"`);
  const seconds = (Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0)) * 60 + Number(m[7] ?? 0);
  return { unit, origin: { year: Number(m[2]), month, day, seconds } };
}

function isGregorianLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function isJulianLeap(y: number): boolean {
  return ((y % 4) + 4) % 4 === 0;
}

/** Days in a calendar month of the given CF calendar. */
export function calendarDaysInMonth(calendar: Calendar, year: number, month: number): number {
  if (calendar === "360_day") return 30;
  if (month === 2) {
    if (calendar === "noleap") return 28;
    if (calendar === "all_leap") return 29;
    const leap = calendar === "julian" || (calendar === "standard" && year < 1582) ? isJulianLeap(year) : isGregorianLeap(year);
    return leap ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const CUMULATIVE_DAYS = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

// Julian day numbers (Richards' algorithms, Explanatory Supplement to the Astronomical Almanac, 3rd ed., §15.11).
function gregorianToJdn(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}

function julianToJdn(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
}

function jdnToYearMonth(jdn: number, gregorian: boolean): [number, number] {
  let c: number;
  let b: number;
  if (gregorian) {
    const a = jdn + 32044;
    b = Math.floor((4 * a + 3) / 146097);
    c = a - Math.floor((146097 * b) / 4);
  } else {
    b = 0;
    c = jdn + 32082;
  }
  const d = Math.floor((4 * c + 3) / 1461);
  const e = c - Math.floor((1461 * d) / 4);
  const m = Math.floor((5 * e + 2) / 153);
  const month = m + 3 - 12 * Math.floor(m / 10);
  const year = 100 * b + d - 4800 + Math.floor(m / 10);
  return [year, month];
}

/** First JDN of the Gregorian calendar in the "standard" (mixed) calendar: 1582-10-15. */
const GREGORIAN_START_JDN = 2299161;

/** Day number of a date in the calendar (any fixed epoch per calendar; only differences and the inverse matter). */
function dayNumber(calendar: Calendar, y: number, m: number, d: number): number {
  switch (calendar) {
    case "360_day":
      return y * 360 + (m - 1) * 30 + (d - 1);
    case "noleap":
      return y * 365 + CUMULATIVE_DAYS[m - 1] + (d - 1);
    case "all_leap":
      return y * 366 + CUMULATIVE_DAYS[m - 1] + (m > 2 ? 1 : 0) + (d - 1);
    case "julian":
      return julianToJdn(y, m, d);
    case "proleptic_gregorian":
      return gregorianToJdn(y, m, d);
    case "standard": {
      const g = gregorianToJdn(y, m, d);
      return g >= GREGORIAN_START_JDN ? g : julianToJdn(y, m, d);
    }
  }
}

function yearMonthOfDay(calendar: Calendar, n: number): [number, number] {
  switch (calendar) {
    case "360_day": {
      const y = Math.floor(n / 360);
      return [y, Math.floor((n - y * 360) / 30) + 1];
    }
    case "noleap":
    case "all_leap": {
      const leap = calendar === "all_leap";
      const len = leap ? 366 : 365;
      const y = Math.floor(n / len);
      const doy = n - y * len;
      let m = 12;
      while (CUMULATIVE_DAYS[m - 1] + (leap && m > 2 ? 1 : 0) > doy) m--;
      return [y, m];
    }
    case "julian":
      return jdnToYearMonth(n, false);
    case "proleptic_gregorian":
      return jdnToYearMonth(n, true);
    case "standard":
      return jdnToYearMonth(n, n >= GREGORIAN_START_JDN);
  }
}

// Half a second in days: time values computed in floating point that land a hair before midnight on the first
// of a month must not fall into the previous month.
const DAY_EPSILON = 0.5 / 86400;

/**
 * Month of each time value. "months since" counts calendar months from the reference month (exact in 360_day;
 * for other calendars this is how such files are meant in practice, not UDUNITS' 30.436875-day month).
 */
export function timeToMonths(values: ArrayLike<number>, units: string, calendarAttr?: string): MonthIndex[] {
  const t = parseTimeUnits(units);
  const calendar = parseCalendar(calendarAttr);
  const { year, month, day, seconds } = t.origin;
  const out: MonthIndex[] = new Array(values.length);
  if (t.unit === "months") {
    // Fractional months advance by 30-day steps from the reference day (as in 360_day); mid-month stamps stay put.
    const start = (day - 1 + seconds / 86400) / 30;
    for (let i = 0; i < values.length; i++) {
      if (!Number.isFinite(values[i])) throw new Error(`time value ${values[i]} at step ${i} is not finite`);
      out[i] = monthIndex(year, month) + Math.floor(values[i] + start + DAY_EPSILON / 30);
    }
    return out;
  }
  const origin = dayNumber(calendar, year, month, day) + seconds / 86400;
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) throw new Error(`time value ${values[i]} at step ${i} is not finite`);
    const n = Math.floor(origin + (values[i] * t.unit) / 86400 + DAY_EPSILON);
    const [y, m] = yearMonthOfDay(calendar, n);
    out[i] = monthIndex(y, m);
  }
  return out;
}

/** Checks that months run one after another without gaps or repeats; the error names the first break. */
export function assertConsecutiveMonths(months: readonly MonthIndex[], what: string, format: (m: MonthIndex) => string): void {
  for (let i = 1; i < months.length; i++) {
    const step = months[i] - months[i - 1];
    if (step === 1) continue;
    if (step <= 0) {
      throw new Error(`${what}: time steps are not monthly (step ${i} is ${format(months[i])} after ${format(months[i - 1])})`);
    }
    throw new Error(`${what}: gap in monthly time steps between ${format(months[i - 1])} and ${format(months[i])}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Units (CF 1.11 §3.1, UDUNITS syntax): precipitation → mm per month, temperature → °C.

/** Lower-cases and rewrites UDUNITS spellings to one form: "kg/m2/s", "kg m^-2 s^-1", "kg.m-2.s-1" → "kg m-2 s-1". */
export function normalizeUnits(units: string): string {
  let u = units.trim().toLowerCase().replace(/\*\*|\^/g, "").replace(/[.*·]/g, " ");
  // "a/b/c" → "a b-1 c-1"; "a/b2" → "a b-2"
  u = u.replace(/\/\s*([a-z]+)(\d*)/g, (_m, sym: string, pow: string) => ` ${sym}-${pow || "1"}`);
  return u.replace(/\s+/g, " ").trim();
}

/** How a precipitation unit maps to mm per month: mm = value * factor * (perDay ? days in month : 1). */
export interface PrecipitationConversion {
  factor: number;
  perDay: boolean;
}

const AMOUNT_MM: Record<string, number> = {
  mm: 1, millimeter: 1, millimeters: 1, millimetre: 1, millimetres: 1, "kg m-2": 1, "mm month-1": 1,
  cm: 10, m: 1000, meter: 1000, meters: 1000, metre: 1000, metres: 1000, "m of water equivalent": 1000,
};

const RATE_PER_SECOND: Record<string, number> = { "kg m-2 s-1": 1, "mm s-1": 1, "m s-1": 1000 };
const DAY_WORDS = ["day", "d"];
const HOUR_WORDS = ["hour", "hr", "h"];

export function precipitationConversion(units: string, variable: string): PrecipitationConversion {
  const u = normalizeUnits(units);
  if (u in AMOUNT_MM) return { factor: AMOUNT_MM[u], perDay: false };
  if (u in RATE_PER_SECOND) return { factor: RATE_PER_SECOND[u] * 86400, perDay: true };
  const rate = /^(mm|m|kg m-2) ([a-z]+)-1$/.exec(u);
  if (rate) {
    const amount = rate[1] === "m" ? 1000 : 1;
    if (DAY_WORDS.includes(rate[2])) return { factor: amount, perDay: true };
    if (HOUR_WORDS.includes(rate[2])) return { factor: amount * 24, perDay: true };
  }
  throw new Error(`variable "${variable}": unknown precipitation units "${units}"`);
}

const KELVIN = ["k", "degk", "deg_k", "degree_k", "degrees_k", "kelvin", "kelvins", "degreek", "degreesk"];
const CELSIUS = ["degc", "deg_c", "degree_c", "degrees_c", "°c", "celsius", "degree_celsius", "degrees_celsius",
  "degrees celsius", "degree celsius", "c", "degreec", "degreesc"];

/** Offset to add to get °C. */
export function temperatureOffset(units: string, variable: string): number {
  const u = units.trim().toLowerCase();
  if (KELVIN.includes(u)) return -273.15;
  if (CELSIUS.includes(u)) return 0;
  throw new Error(`variable "${variable}": unknown temperature units "${units}"`);
}

// ---------------------------------------------------------------------------------------------------------------
// Coordinates.

/**
 * Longitudes wrapped to [-180, 180) and sorted ascending; `order[j]` is the source column of output column j.
 * A repeated (cyclic) column such as both 0 and 360 is dropped.
 */
export function normalizeLongitudes(source: ArrayLike<number>): { lngs: Float64Array; order: Int32Array } {
  const wrapped = Array.from(source, (x) => {
    const w = ((((x + 180) % 360) + 360) % 360) - 180;
    return w;
  });
  const idx = wrapped.map((_, i) => i).sort((a, b) => wrapped[a] - wrapped[b] || a - b);
  const keep = idx.filter((i, k) => k === 0 || Math.abs(wrapped[i] - wrapped[idx[k - 1]]) > 1e-9);
  return { lngs: Float64Array.from(keep, (i) => wrapped[i]), order: Int32Array.from(keep) };
}

/** Latitudes ascending; `order[i]` is the source row of output row i. Non-monotonic latitudes are an error. */
export function ascendingLatitudes(source: ArrayLike<number>, what: string): { lats: Float64Array; order: Int32Array } {
  const n = source.length;
  const up = n < 2 || source[1] > source[0];
  for (let i = 1; i < n; i++) {
    if (up ? !(source[i] > source[i - 1]) : !(source[i] < source[i - 1])) {
      throw new Error(`${what}: latitudes are not strictly monotonic (at index ${i})`);
    }
  }
  const order = Int32Array.from({ length: n }, (_, i) => (up ? i : n - 1 - i));
  return { lats: Float64Array.from(order, (i) => source[i]), order };
}
