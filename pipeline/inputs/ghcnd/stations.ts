// Reads the station index and every station file of the GHCN-Daily folder into monthly series, with bounded
// concurrency and progress. The index's `file` column may say `observed/NAME.csv` while files sit in the folder.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import pLimit from "p-limit";
import { aggregateMonthly, type AggregateOptions, type DryDayPolicy, type MonthlyQc, type MonthlySeries, type YearReport } from "./aggregate.ts";
import { log } from "../../../lib/log.ts";
import { InputError, readGhcndFile, splitCsvLine, type ParseCounts } from "./parse.ts";

export {
  FLAG_COMPLETE,
  FLAG_PARTIAL,
  FLAG_DRY_DAYS_ASSUMED,
  FLAG_DRY_DAY_OMITTING_YEAR,
  FLAG_TEMP_FROM_TMAX_TMIN,
  FLAG_REJECTED,
} from "./aggregate.ts";

/** The station folder inside DATA_DIR. */
export const GHCND_SUBDIR = join("climate", "ghcnd-thailand");
export const STATION_INDEX_FILE = "_stations.csv";

export interface StationIndexEntry {
  id: string;
  name: string;
  lat: number;
  lng: number;
  elevationM: number;
  /** Resolved path of the station file. */
  path: string;
  /** The row was derived from NOAA's station list (station-list.ts), not written with its file. */
  listed: boolean;
}

export interface StationQc {
  parse: ParseCounts;
  monthly: MonthlyQc;
  years: YearReport[];
}

/** A station's monthly series (see MonthlySeries) with where it is and its QC. */
export interface StationMonthly extends Omit<MonthlySeries, "years" | "qc"> {
  id: string;
  name: string;
  lat: number;
  lng: number;
  elevationM: number;
  qc: StationQc;
}

const INDEX_COLUMNS = ["station", "name", "lat", "lon", "elev_m", "file"] as const;

/** Parses `_stations.csv` text; `dir` is the folder the station files are looked up in. */
export function parseStationIndex(text: string, file: string, dir: string): StationIndexEntry[] {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const header = splitCsvLine(lines[0] ?? "");
  if (!header) throw new InputError(file, 1, "unreadable header");
  const col = {} as Record<(typeof INDEX_COLUMNS)[number], number>;
  for (const name of INDEX_COLUMNS) {
    col[name] = header.indexOf(name);
    if (col[name] < 0) throw new InputError(file, 1, `missing column ${name}`);
  }
  const listedBy = header.indexOf("listed_by");
  const out: StationIndexEntry[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "" && i === lines.length - 1) break;
    const f = splitCsvLine(lines[i]);
    if (!f || f.length !== header.length) throw new InputError(file, i + 1, `expected ${header.length} columns`);
    const num = (c: number, what: string) => {
      const v = Number(f[c]);
      if (f[c].trim() === "" || !Number.isFinite(v)) throw new InputError(file, i + 1, `${what} is not a number: "${f[c]}"`);
      return v;
    };
    const id = f[col.station];
    if (seen.has(id)) throw new InputError(file, i + 1, `duplicate station ${id}`);
    seen.add(id);
    const listed = join(dir, f[col.file]);
    const path = existsSync(listed) ? listed : join(dir, basename(f[col.file]));
    out.push({
      id,
      name: f[col.name],
      lat: num(col.lat, "lat"),
      lng: num(col.lon, "lon"),
      elevationM: num(col.elev_m, "elev_m"),
      path,
      listed: listedBy >= 0 && f[listedBy] !== "",
    });
  }
  return out;
}

/**
 * The index's stations. A row derived from NOAA's list whose file is not there (its download failed and there was
 * no earlier copy) is left out with a warning; any other missing file stops the reader that opens it. `all` keeps
 * every row (the refresh asks for every listed file).
 */
export async function readStationIndex(dir: string, opts: { all?: boolean } = {}): Promise<StationIndexEntry[]> {
  const file = join(dir, STATION_INDEX_FILE);
  const entries = parseStationIndex(await readFile(file, "utf8"), file, dir);
  if (opts.all) return entries;
  const missing = entries.filter((e) => e.listed && !existsSync(e.path));
  if (missing.length === 0) return entries;
  log.warn({ index: file, stations: missing.length, first: missing.slice(0, 5).map((e) => e.id) }, "listed stations without a file left out");
  const left = new Set(missing);
  return entries.filter((e) => !left.has(e));
}

export interface ReadStationsOptions extends AggregateOptions {
  /** The GHCN-Daily folder (default: DATA_DIR/climate/ghcnd-thailand, resolved by the caller). */
  dir: string;
  concurrency?: number;
  onProgress?: (done: number, total: number, file: string) => void;
}

export async function readStationMonthly(entry: StationIndexEntry, opts: AggregateOptions = {}): Promise<StationMonthly> {
  if (!existsSync(entry.path)) throw new InputError(entry.path, 0, `station file for ${entry.id} not found`);
  // Monthly precipitation is what these series are for (the drought grid): a station without PRCP is refused.
  const daily = await readGhcndFile(entry.path, { require: ["PRCP"] });
  if (daily.station !== entry.id) throw new InputError(entry.path, 2, `STATION ${daily.station} but the index says ${entry.id}`);
  const m = aggregateMonthly(daily, opts);
  // A row derived from NOAA's list has the list's 4-decimal position; the station's own file states it in full.
  const at = entry.listed ? daily : entry;
  return {
    id: entry.id,
    name: at.name,
    lat: at.lat,
    lng: at.lng,
    elevationM: at.elevationM,
    firstMonth: m.firstMonth,
    prcp: m.prcp,
    tmean: m.tmean,
    tmax: m.tmax,
    tmin: m.tmin,
    prcpFlags: m.prcpFlags,
    tempFlags: m.tempFlags,
    qc: { parse: daily.counts, monthly: m.qc, years: m.years },
  };
}

/** Every station of the index, in index order. The first InputError stops the whole read. */
export async function readGhcndStations(opts: ReadStationsOptions): Promise<StationMonthly[]> {
  const index = await readStationIndex(opts.dir);
  const limit = pLimit(Math.max(1, opts.concurrency ?? 2));
  let done = 0;
  return Promise.all(
    index.map((entry) =>
      limit(async () => {
        const s = await readStationMonthly(entry, opts);
        done++;
        opts.onProgress?.(done, index.length, entry.path);
        return s;
      }),
    ),
  );
}

export interface GhcndQcReport {
  policy: DryDayPolicy;
  stationsRead: number;
  rowsRead: number;
  rowsRejected: { tminAboveTmax: number; knownBad: number; noaaQualityFlag: number; outOfRange: number };
  prcpMonthsAdmitted: { strict: number; assumeDry: number };
  prcpMonthsDryDaysAssumed: number;
  prcpMonthsRejected: number;
  tempMonthsAdmitted: number;
  tempMonthsFromTmaxTmin: number;
  dryDayOmittingStationYears: number;
}

/** Totals for the build report. `policy` is the one the series were built with. */
export function summarizeGhcndQc(stations: readonly StationMonthly[], policy: DryDayPolicy): GhcndQcReport {
  const r: GhcndQcReport = {
    policy,
    stationsRead: stations.length,
    rowsRead: 0,
    rowsRejected: { tminAboveTmax: 0, knownBad: 0, noaaQualityFlag: 0, outOfRange: 0 },
    prcpMonthsAdmitted: { strict: 0, assumeDry: 0 },
    prcpMonthsDryDaysAssumed: 0,
    prcpMonthsRejected: 0,
    tempMonthsAdmitted: 0,
    tempMonthsFromTmaxTmin: 0,
    dryDayOmittingStationYears: 0,
  };
  for (const s of stations) {
    const p = s.qc.parse;
    const m = s.qc.monthly;
    r.rowsRead += p.rows;
    r.rowsRejected.tminAboveTmax += p.rejected.tminAboveTmax;
    r.rowsRejected.knownBad += p.rejected.knownBad;
    r.rowsRejected.noaaQualityFlag += p.rejected.noaaQualityFlag;
    r.rowsRejected.outOfRange += p.rejected.outOfRange;
    r.prcpMonthsAdmitted.strict += m.prcpMonthsStrict;
    r.prcpMonthsAdmitted.assumeDry += m.prcpMonthsAssumeDry;
    r.prcpMonthsDryDaysAssumed += m.prcpMonthsDryDaysAssumed;
    r.prcpMonthsRejected += m.prcpMonthsRejected;
    r.tempMonthsAdmitted += m.tempMonths;
    r.tempMonthsFromTmaxTmin += m.tempMonthsFromTmaxTmin;
    r.dryDayOmittingStationYears += m.dryDayOmittingYears;
  }
  return r;
}
