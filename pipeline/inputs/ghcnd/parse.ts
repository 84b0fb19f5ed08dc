// Parses one GHCN-Daily station CSV into flat daily arrays. Columns are found by header name, so both the NOAA CDO
// export (STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN in mm and °C) and NOAA's per-station
// access CSV (more columns, *_ATTRIBUTES flags, values in tenths of mm / tenths of °C) are read by the same code.
// Structural faults stop the build with `file:line: reason`. A value outside its element's plausible range (the
// world's records, PLAUSIBLE_RANGE) is dropped and reported, so one keying error does not cost a station its other
// years; a file with many such values (a unit or format error) is refused.
import { readFile } from "node:fs/promises";

export class InputError extends Error {
  readonly code = "GHCND_INPUT";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = "InputError";
  }
}

export interface RejectedCounts {
  /** Days whose TMIN > TMAX: both values dropped (internal-consistency check, Durre et al. 2010). */
  tminAboveTmax: number;
  /** Values listed in KNOWN_BAD_VALUES (reviewed impossible values in the mirror), dropped. */
  knownBad: number;
  /** Access-format values carrying a NOAA quality flag (failed NOAA QC), dropped. */
  noaaQualityFlag: number;
  /** Unflagged values outside PLAUSIBLE_RANGE (not in KNOWN_BAD_VALUES), dropped; listed in DailySeries.outOfRange. */
  outOfRange: number;
}

export interface ParseCounts {
  rows: number;
  prcpValues: number;
  tavgValues: number;
  tmaxValues: number;
  tminValues: number;
  rejected: RejectedCounts;
}

/** One station's days from firstDay (days since 1970-01-01, UTC) on; NaN = not reported. */
export interface DailySeries {
  station: string;
  name: string;
  lat: number;
  lng: number;
  elevationM: number;
  firstDay: number;
  prcp: Float64Array;
  tavg: Float64Array;
  tmax: Float64Array;
  tmin: Float64Array;
  counts: ParseCounts;
  /** The values dropped as outside PLAUSIBLE_RANGE, in file order. */
  outOfRange: OutOfRangeValue[];
}

export interface OutOfRangeValue {
  line: number;
  date: string;
  element: GhcndElement;
  /** As read, in mm or °C. */
  value: number;
}

export interface ParseOptions {
  /** Element columns the caller cannot do without (the drought grid: PRCP; the heat network: TMAX). Default none. */
  require?: readonly GhcndElement[];
}

export interface KnownBadValue {
  station: string;
  date: string;
  element: GhcndElement;
  value: number;
  reason: string;
}

/** Impossible values in the mirror, each reviewed by hand: counted apart (knownBad) from values found out of range. */
export const KNOWN_BAD_VALUES: readonly KnownBadValue[] = [
  {
    station: "TH000048354",
    date: "1976-05-13",
    element: "TMIN",
    value: 74.3,
    reason: "TMIN 74.3 °C with TMAX 31.7 °C the same day: a keying error",
  },
];

export const ELEMENTS = ["PRCP", "TAVG", "TMAX", "TMIN"] as const;
export type GhcndElement = (typeof ELEMENTS)[number];

/**
 * Plausible range of each element, [lowest, highest] in °C or mm a day. The bounds are the world's records with a
 * margin, never a regional climate, so a polar or Siberian station parses; a value beyond is a keying or unit error.
 * Records (WMO World Weather and Climate Extremes Archive): lowest air temperature −89.2 °C, Vostok, 21 July 1983;
 * highest 56.7 °C, Furnace Creek (Death Valley), 10 July 1913 (disputed; the 58 °C of El Azizia 1922 was struck out
 * in 2012); greatest 24-hour rainfall 1,825 mm, Foc-Foc, La Réunion, 7–8 January 1966. Highest daily minimum reported:
 * 42.6 °C over 24 hours, Quriyat, Oman, 26 June 2018 (44.2 °C over a night, Khasab, Oman, 2017; neither certified).
 */
export const PLAUSIBLE_RANGE: Readonly<Record<GhcndElement, readonly [number, number]>> = {
  // A day's maximum is not below the lowest reading ever (−89.2 °C); 60 stays above every record claimed (58).
  TMAX: [-90, 60],
  // Vostok's −89.2 °C floor; no night on record stayed above 44.2 °C: 50 keeps a margin of about 6 °C.
  TMIN: [-90, 50],
  // A day's mean lies between its minimum and maximum: TMIN's floor, TMAX's ceiling.
  TAVG: [-90, 60],
  // No negative rain; ~10 % above Foc-Foc's 1,825 mm.
  PRCP: [0, 2000],
};

export function inPlausibleRange(element: GhcndElement, value: number): boolean {
  const [lo, hi] = PLAUSIBLE_RANGE[element];
  return value >= lo && value <= hi;
}

/**
 * A file is refused, not thinned, when more than this share of its values is out of range and more than
 * OUT_OF_RANGE_TOLERATED values are: that is tenths read as units, °F for °C or a column shifted, not a station's
 * odd bad day (the Thai mirror has one such value in over a million rows).
 */
export const OUT_OF_RANGE_REFUSE_SHARE = 0.01;
export const OUT_OF_RANGE_TOLERATED = 10;

const ELEMENT_NAME: Record<GhcndElement, string> = {
  PRCP: "precipitation",
  TAVG: "mean temperature",
  TMAX: "maximum temperature",
  TMIN: "minimum temperature",
};

/** Whether a column name is one of the elements the parser reads. */
export function isGhcndElement(name: string): name is GhcndElement {
  return (ELEMENTS as readonly string[]).includes(name);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since 1970-01-01 for a valid calendar date, undefined otherwise. */
export function epochDay(year: number, month: number, day: number): number | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return t / DAY_MS;
}

export function formatEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Splits one CSV record (RFC 4180 quoting, "" escapes). Returns undefined on an unterminated quote. */
export function splitCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (true) {
    if (i < n && line.charCodeAt(i) === 34 /* " */) {
      let value = "";
      i++;
      while (true) {
        const q = line.indexOf('"', i);
        if (q < 0) return undefined;
        value += line.slice(i, q);
        if (line.charCodeAt(q + 1) === 34) {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      if (i === n) return out;
      if (line.charCodeAt(i) !== 44 /* , */) return undefined;
      i++;
    } else {
      const c = line.indexOf(",", i);
      if (c < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
}

type Element = GhcndElement;
const REQUIRED = ["STATION", "DATE", "LATITUDE", "LONGITUDE", "ELEVATION"] as const;

interface Columns {
  station: number;
  name: number;
  date: number;
  lat: number;
  lng: number;
  elevation: number;
  element: Record<Element, number>;
  attributes: Record<Element, number>;
  count: number;
  /** Access CSV stores tenths of mm / °C; the CDO export stores mm / °C. */
  scale: number;
}

function mapColumns(header: string[], file: string, require: readonly Element[]): Columns {
  const at = (name: string) => header.indexOf(name);
  for (const name of REQUIRED) if (at(name) < 0) throw new InputError(file, 1, `missing column ${name}`);
  for (const e of require) if (at(e) < 0) throw new InputError(file, 1, `missing column ${e}: no ${ELEMENT_NAME[e]} in this station file, and this reader needs it`);
  const element = {} as Record<Element, number>;
  const attributes = {} as Record<Element, number>;
  for (const e of ELEMENTS) {
    element[e] = at(e);
    attributes[e] = at(`${e}_ATTRIBUTES`);
  }
  const isAccess = header.some((h) => h.endsWith("_ATTRIBUTES"));
  return {
    station: at("STATION"),
    name: at("NAME"),
    date: at("DATE"),
    lat: at("LATITUDE"),
    lng: at("LONGITUDE"),
    elevation: at("ELEVATION"),
    element,
    attributes,
    count: header.length,
    scale: isAccess ? 0.1 : 1,
  };
}

function parseNumber(raw: string, what: string, file: string, line: number): number {
  const s = raw.trim();
  const v = Number(s);
  if (s === "" || !Number.isFinite(v)) throw new InputError(file, line, `${what} is not a number: "${raw}"`);
  return v;
}

/** GHCN attribute field "MFLAG,QFLAG,SFLAG[,TIME]": a non-blank QFLAG means the value failed NOAA QC. */
function hasQualityFlag(attr: string): boolean {
  const parts = attr.split(",");
  return parts.length > 1 && parts[1].trim() !== "";
}

/** Parses a whole station file held in memory. `file` names the source in errors. */
export function parseGhcndCsv(text: string, file: string, opts: ParseOptions = {}): DailySeries {
  const lines = text.split("\n");
  const headerLine = lines[0]?.replace(/\r$/, "") ?? "";
  const header = splitCsvLine(headerLine.replace(/^\uFEFF/, ""));
  if (!header || headerLine === "") throw new InputError(file, 1, "empty file or unreadable header");
  const cols = mapColumns(header, file, opts.require ?? []);

  const days: number[] = [];
  const values: Record<Element, number[]> = { PRCP: [], TAVG: [], TMAX: [], TMIN: [] };
  const lineOfDay = new Map<number, number>();
  const rejected: RejectedCounts = { tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 0 };
  const outOfRange: OutOfRangeValue[] = [];
  let valuesRead = 0;
  let station = "";
  let name = "";
  let lat = NaN;
  let lng = NaN;
  let elevationM = NaN;

  for (let li = 1; li < lines.length; li++) {
    const raw = lines[li];
    const lineNo = li + 1;
    const lineText = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (lineText === "") {
      if (li === lines.length - 1) break; // trailing newline
      throw new InputError(file, lineNo, "empty line");
    }
    const f = splitCsvLine(lineText);
    if (!f) throw new InputError(file, lineNo, "unterminated quoted field");
    if (f.length !== cols.count) throw new InputError(file, lineNo, `expected ${cols.count} columns, found ${f.length}`);

    if (days.length === 0) {
      station = f[cols.station];
      if (station === "") throw new InputError(file, lineNo, "empty STATION");
      name = cols.name >= 0 ? f[cols.name] : station;
      lat = parseNumber(f[cols.lat], "LATITUDE", file, lineNo);
      lng = parseNumber(f[cols.lng], "LONGITUDE", file, lineNo);
      elevationM = parseNumber(f[cols.elevation], "ELEVATION", file, lineNo);
      if (Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new InputError(file, lineNo, `impossible coordinates ${lat}, ${lng}`);
    } else if (f[cols.station] !== station) {
      throw new InputError(file, lineNo, `STATION ${f[cols.station]} differs from ${station} on line 2`);
    }

    const dateText = f[cols.date];
    const dm = DATE_RE.exec(dateText);
    const day = dm ? epochDay(Number(dm[1]), Number(dm[2]), Number(dm[3])) : undefined;
    if (day === undefined) throw new InputError(file, lineNo, `bad date "${dateText}"`);
    const firstLine = lineOfDay.get(day);
    if (firstLine !== undefined) throw new InputError(file, lineNo, `duplicate date ${dateText} (first on line ${firstLine})`);
    lineOfDay.set(day, lineNo);

    const v = { PRCP: NaN, TAVG: NaN, TMAX: NaN, TMIN: NaN };
    for (const e of ELEMENTS) {
      const c = cols.element[e];
      if (c < 0 || f[c].trim() === "") continue;
      let x = parseNumber(f[c], e, file, lineNo) * cols.scale;
      if (cols.scale !== 1) x = Math.round(x * 10) / 10; // tenths → one decimal, no binary noise
      const a = cols.attributes[e];
      if (a >= 0 && hasQualityFlag(f[a])) {
        rejected.noaaQualityFlag++;
        continue;
      }
      valuesRead++;
      if (!inPlausibleRange(e, x)) {
        // Dropped as missing; the station's other values stand (the file as a whole is judged after the loop).
        const known = KNOWN_BAD_VALUES.some((k) => k.station === station && k.date === dateText && k.element === e && k.value === x);
        if (known) rejected.knownBad++;
        else outOfRange.push({ line: lineNo, date: dateText, element: e, value: x });
        continue;
      }
      v[e] = x;
    }
    if (v.TMIN > v.TMAX) {
      rejected.tminAboveTmax++;
      v.TMIN = NaN;
      v.TMAX = NaN;
    }
    days.push(day);
    for (const e of ELEMENTS) values[e].push(v[e]);
  }
  if (days.length === 0) throw new InputError(file, 1, "no data rows");
  rejected.outOfRange = outOfRange.length;
  if (outOfRange.length > OUT_OF_RANGE_TOLERATED && outOfRange.length > OUT_OF_RANGE_REFUSE_SHARE * valuesRead) {
    const first = outOfRange[0];
    throw new InputError(
      file,
      first.line,
      `${outOfRange.length} of ${valuesRead} values outside the plausible ranges (more than ${OUT_OF_RANGE_REFUSE_SHARE * 100} %: a unit or format error), first ${first.element} ${first.value} on ${first.date}`,
    );
  }

  let firstDay = Infinity;
  let lastDay = -Infinity;
  for (const d of days) {
    if (d < firstDay) firstDay = d;
    if (d > lastDay) lastDay = d;
  }
  const len = lastDay - firstDay + 1;
  const arrays = {} as Record<Element, Float64Array>;
  const counts: ParseCounts = { rows: days.length, prcpValues: 0, tavgValues: 0, tmaxValues: 0, tminValues: 0, rejected };
  for (const e of ELEMENTS) {
    const out = new Float64Array(len).fill(NaN);
    const src = values[e];
    let n = 0;
    for (let i = 0; i < days.length; i++) {
      out[days[i] - firstDay] = src[i];
      if (!Number.isNaN(src[i])) n++;
    }
    arrays[e] = out;
    if (e === "PRCP") counts.prcpValues = n;
    else if (e === "TAVG") counts.tavgValues = n;
    else if (e === "TMAX") counts.tmaxValues = n;
    else counts.tminValues = n;
  }
  return {
    station,
    name,
    lat,
    lng,
    elevationM,
    firstDay,
    prcp: arrays.PRCP,
    tavg: arrays.TAVG,
    tmax: arrays.TMAX,
    tmin: arrays.TMIN,
    counts,
    outOfRange,
  };
}

export async function readGhcndFile(path: string, opts: ParseOptions = {}): Promise<DailySeries> {
  return parseGhcndCsv(await readFile(path, "utf8"), path, opts);
}
