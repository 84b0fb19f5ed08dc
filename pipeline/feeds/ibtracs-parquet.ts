// NOAA IBTrACS v04r01 (Knapp et al. 2010, doi:10.1175/2009BAMS2755.1), the long West Pacific record as a derived
// Apache Parquet extract: one row per 6-hourly synoptic fix of every WP storm 1884–2025 (SID, ISO_TIME, LAT, LON,
// WMO_WIND, WMO_PRES as text with " " for missing, ...). Rows become the same TrackPoint records as the CSV adapter
// (pipeline/feeds/ibtracs.ts); mergeTrackRecords joins them with the recent/active CSV tracks by SID.
// See docs/methods/feed-risks.md, "IBTrACS West Pacific long record".
import { readFileSync } from "node:fs";
import { parquetMetadata, parquetReadObjects, parquetSchema } from "hyparquet";
import type { TrackPoint } from "./ibtracs.ts";
import { readCsv } from "./csv.ts";
import { RejectCounter, validLatLng, type AdapterResult } from "./records.ts";

export const IBTRACS_WP_FILE = "feeds/ibtracs/ibtracs_wp_tracks.parquet";
/** `source` of every record from the long record, so an answer can say which record it used. */
export const IBTRACS_WP_SOURCE = "IBTrACS-WP";
export const IBTRACS_WP_CITATION =
  "NOAA IBTrACS v04r01 West Pacific best tracks 1884–2025, 6-hourly WMO fixes (Knapp et al. 2010), Parquet extract";

const COLUMNS = ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND", "WMO_PRES"] as const;
/** IBTrACS storm id: year, day of year, hemisphere, latitude and longitude of the first fix ("2013306N07162"). */
const SID_RE = /^\d{7}[NS]\d{5}$/;
/** Central pressure beyond these bounds (hPa) is a corrupt value, not a storm (record low 870, Tip 1979). */
const PRESSURE_RANGE_MB = [850, 1100] as const;

export interface StormSummary {
  /** The storm's group: its SID (or the CSV's basin-year-name key for compact rows that matched no SID). */
  sid: string;
  firstTime: number;
  lastTime: number;
  points: number;
  /** Highest reported wind in knots; null when no fix reports one. */
  maxWindKt: number | null;
  /** Lowest reported central pressure in hPa; null when no fix reports one. */
  minPressureMb: number | null;
}

/** A text (or numeric) field: blank → NaN (missing); anything not a number → undefined (unreadable). */
function textNumber(v: unknown): number | undefined {
  if (v === null || v === undefined) return NaN;
  if (typeof v === "number") return v;
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  if (t === "") return NaN;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

function timeOf(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "string") return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(" ", "T")}Z`);
  return NaN;
}

/**
 * Longitude in -180..180 from the extract's 0..360 (dateline crossers); NaN outside -180..360. Rounded to 1e-6°
 * so 266.9 becomes -93.1, not -93.10000000000002.
 */
function normaliseLng(lng: unknown): number {
  if (typeof lng !== "number" || lng < -180 || lng > 360) return NaN;
  return lng > 180 ? Math.round((lng - 360) * 1e6) / 1e6 : lng;
}

/** The storm a point belongs to: its group, which defaults to the id (formats/event-index.ts). */
const stormOf = (p: TrackPoint): string => p.group ?? p.id;

function isoMinute(time: number): string {
  return new Date(time).toISOString().slice(0, 16);
}

/**
 * Track points of the Parquet extract in file order. Missing wind or pressure stays NaN (not interpolated: the
 * extract holds only synoptic fixes, and a blank is an unreported value). Rejected rows are counted by reason.
 */
export async function parseIbtracsParquet(bytes: ArrayBuffer, name: string): Promise<AdapterResult<TrackPoint>> {
  let rows: Record<string, unknown>[];
  try {
    const metadata = parquetMetadata(bytes);
    const present = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
    const missing = COLUMNS.filter((c) => !present.has(c));
    if (missing.length > 0) throw new Error(`missing column(s) ${missing.join(", ")}`);
    rows = await parquetReadObjects({ file: bytes, metadata, columns: [...COLUMNS] });
  } catch (err) {
    throw new Error(`${name}: not a readable IBTrACS Parquet file (${(err as Error).message})`, { cause: err });
  }
  const rc = new RejectCounter();
  const seen = new Set<string>();
  const out: TrackPoint[] = [];
  for (const row of rows) {
    rc.rows++;
    const sid = typeof row.SID === "string" ? row.SID.trim() : "";
    const p = longRecordPoint({ sid, time: timeOf(row.ISO_TIME), lat: typeof row.LAT === "number" ? row.LAT : NaN, lng: row.LON, wind: row.WMO_WIND, pressure: row.WMO_PRES }, seen);
    if (typeof p === "string") rc.reject(p);
    else out.push(p);
  }
  return rc.result(out);
}

/**
 * One fix of the long record, or why it is refused. Missing wind or pressure stays NaN (not interpolated: the record
 * holds only synoptic fixes, and a blank is an unreported value). `name` defaults to the SID (the Parquet extract
 * has none; a CSV supplies it), basin and status to "".
 */
function longRecordPoint(
  f: { sid: string; time: number; lat: number; lng: unknown; wind: unknown; pressure: unknown; name?: string; basin?: string; status?: string },
  seen: Set<string>,
): TrackPoint | string {
  const lng = normaliseLng(f.lng);
  const wind = textNumber(f.wind);
  const pressure = textNumber(f.pressure);
  if (!SID_RE.test(f.sid)) return "missing or malformed SID";
  if (!Number.isFinite(f.time)) return "bad time";
  if (!validLatLng(f.lat, lng)) return "bad coordinates";
  if (wind === undefined) return "unreadable WMO_WIND";
  if (wind < 0) return "negative wind speed";
  if (pressure === undefined) return "unreadable WMO_PRES";
  if (pressure < PRESSURE_RANGE_MB[0] || pressure > PRESSURE_RANGE_MB[1]) return "pressure outside 850–1100 hPa";
  const id = `${f.sid}@${isoMinute(f.time)}`;
  if (seen.has(id)) return "duplicate storm time";
  seen.add(id);
  return {
    id, group: f.sid, source: IBTRACS_WP_SOURCE, kind: "cyclone", time: f.time, endTime: f.time, lng, lat: f.lat,
    magnitude: wind, unit: "kt", name: f.name || f.sid, basin: f.basin ?? "", pressureMb: pressure, status: f.status ?? "",
  };
}

/** NOAA's own West Pacific list (what `make refresh` downloads), linked into the inputs tree beside the Parquet extract. */
export const IBTRACS_WP_CSV_FILE = "feeds/ibtracs/ibtracs.WP.list.v04r01.csv";
const SYNOPTIC_HOURS = new Set([0, 6, 12, 18]);

/**
 * The long record from NOAA's native WP list CSV (a header row, a units row, every agency's columns, 3-hourly
 * rows): the 6-hourly synoptic fixes with their WMO wind and pressure, as the Parquet extract holds them, plus the
 * storm's NAME, BASIN and NATURE. Only the columns used are held (the file is ~150 columns wide).
 */
export function parseIbtracsWpCsv(text: string, file = "ibtracs.WP.list.v04r01.csv"): AdapterResult<TrackPoint> {
  const keep = [...COLUMNS, "NAME", "BASIN", "NATURE"];
  let table: ReturnType<typeof readCsv>;
  try {
    table = readCsv(text, file, { keep });
  } catch (err) {
    throw new Error(`${file}: not the IBTrACS native list (${(err as Error).message})`, { cause: err });
  }
  const rc = new RejectCounter();
  rc.addCsvRejections(table.rejected);
  const seen = new Set<string>();
  const out: TrackPoint[] = [];
  for (const { line, fields } of table.rows) {
    const [sid, isoTime, lat, lng, wind, pressure, name, basin, nature] = fields.map((v) => v.trim());
    // The units row ("degrees_north", "kts", …) follows the header.
    if (lat === "degrees_north") continue;
    const time = timeOf(isoTime);
    if (Number.isFinite(time) && !(SYNOPTIC_HOURS.has(new Date(time).getUTCHours()) && time % 3_600_000 === 0)) continue;
    rc.rows++;
    const p = longRecordPoint({ sid, time, lat: lat === "" ? NaN : Number(lat), lng: lng === "" ? NaN : Number(lng), wind, pressure, name: name === "NOT_NAMED" ? "" : name, basin, status: nature }, seen);
    if (typeof p === "string") rc.reject(p, file, line);
    else out.push(p);
  }
  return rc.result(out);
}

/** Reads and parses the extract; every error names the file. */
export async function readIbtracsParquet(path: string): Promise<AdapterResult<TrackPoint>> {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new Error(`${path}: cannot read (${(err as Error).message})`, { cause: err });
  }
  return parseIbtracsParquet(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer, path);
}

/** One summary per storm (group): first/last fix, fixes, maximum wind, minimum pressure; ordered by first fix, then SID. */
export function summariseStorms(points: readonly TrackPoint[]): StormSummary[] {
  const bySid = new Map<string, StormSummary>();
  for (const p of points) {
    let s = bySid.get(stormOf(p));
    if (s === undefined) {
      s = { sid: stormOf(p), firstTime: p.time, lastTime: p.time, points: 0, maxWindKt: null, minPressureMb: null };
      bySid.set(stormOf(p), s);
    }
    s.points++;
    if (p.time < s.firstTime) s.firstTime = p.time;
    if (p.time > s.lastTime) s.lastTime = p.time;
    if (Number.isFinite(p.magnitude) && (s.maxWindKt === null || p.magnitude > s.maxWindKt)) s.maxWindKt = p.magnitude;
    if (Number.isFinite(p.pressureMb) && (s.minPressureMb === null || p.pressureMb < s.minPressureMb)) s.minPressureMb = p.pressureMb;
  }
  return [...bySid.values()].sort((a, b) => a.firstTime - b.firstTime || (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0));
}

export interface MergedTracks {
  /** Every storm once, points ordered by storm then time. */
  records: TrackPoint[];
  /** Distinct storms (groups) in the union. */
  storms: number;
  /** SIDs present in both inputs: their fixes at a time both have come from the CSV. */
  overlappingSids: number;
  /** Long-record points replaced by a CSV point of the same storm and time. */
  replacedPoints: number;
  /** CSV groups without a SID (the compact file's basin-year-name keys) and the SID their fixes matched. */
  resolvedGroups: Record<string, string>;
}

const positionKey = (p: { time: number; lat: number; lng: number }) => `${p.time}|${p.lat.toFixed(1)}|${p.lng.toFixed(1)}`;

/**
 * The long record joined with the recent/active CSV records by SID. A CSV group that is not a SID (the compact
 * file names storms basin-year-name) takes the SID whose fixes share most of its time-and-position keys (time to
 * the minute, position to 0.1°), so a storm that crossed basins (DORA 2023, EP then WP) becomes one SID. Within a
 * storm a point is keyed by its time: CSV rows with a native SID win over relabelled compact rows, which win over
 * the long record; long-record fixes at times the CSV lacks are kept and take the CSV's storm name.
 */
export function mergeTrackRecords(long: readonly TrackPoint[], recent: readonly TrackPoint[]): MergedTracks {
  const sidAt = new Map<string, string>();
  for (const p of long) sidAt.set(positionKey(p), stormOf(p));
  for (const p of recent) if (SID_RE.test(stormOf(p))) sidAt.set(positionKey(p), stormOf(p));
  const votes = new Map<string, Map<string, number>>();
  for (const p of recent) {
    const group = stormOf(p);
    if (SID_RE.test(group)) continue;
    const sid = sidAt.get(positionKey(p));
    if (sid === undefined) continue;
    let v = votes.get(group);
    if (v === undefined) votes.set(group, (v = new Map()));
    v.set(sid, (v.get(sid) ?? 0) + 1);
  }
  const resolvedGroups: Record<string, string> = {};
  for (const [group, v] of votes) {
    resolvedGroups[group] = [...v.entries()].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a))[0];
  }
  const relabel = (p: TrackPoint): TrackPoint => {
    const sid = resolvedGroups[stormOf(p)];
    return sid === undefined ? { ...p, group: stormOf(p) } : { ...p, group: sid, id: `${sid}@${isoMinute(p.time)}` };
  };
  const byKey = new Map<string, TrackPoint>();
  const timeKey = (p: TrackPoint) => `${stormOf(p)}@${p.time}`;
  for (const p of long) byKey.set(timeKey(p), p);
  const longSids = new Set(long.map(stormOf));
  const recentSids = new Set<string>();
  const names = new Map<string, string>();
  let replacedPoints = 0;
  // Compact (relabelled) rows first, native-SID rows last: the later write wins.
  const ordered = [...recent.filter((p) => !SID_RE.test(stormOf(p))).map(relabel), ...recent.filter((p) => SID_RE.test(stormOf(p)))];
  for (const p of ordered) {
    const k = timeKey(p);
    const before = byKey.get(k);
    if (before !== undefined && before.source === IBTRACS_WP_SOURCE) replacedPoints++;
    byKey.set(k, p);
    recentSids.add(stormOf(p));
    if (p.name && p.name !== "UNNAMED") names.set(stormOf(p), p.name);
  }
  const records = [...byKey.values()].map((p) => {
    const name = names.get(stormOf(p));
    return p.source === IBTRACS_WP_SOURCE && name !== undefined ? { ...p, name } : p;
  });
  records.sort((a, b) => (stormOf(a) < stormOf(b) ? -1 : stormOf(a) > stormOf(b) ? 1 : a.time - b.time));
  let overlappingSids = 0;
  for (const s of recentSids) if (longSids.has(s)) overlappingSids++;
  return { records, storms: new Set(records.map(stormOf)).size, overlappingSids, replacedPoints, resolvedGroups };
}
