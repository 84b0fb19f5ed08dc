// GHCN-Monthly v4 mean temperature (TAVG) in NOAA's fixed-width layout (readme.txt of the ghcnm v4 release):
//   .dat  ID 1-11, YEAR 12-15, ELEMENT 16-19, then 12 × (VALUE 5 chars in hundredths of °C, −9999 missing,
//         DMFLAG, QCFLAG, DSFLAG), 115 characters a line;
//   .inv  ID 1-11, LATITUDE 13-20, LONGITUDE 22-30, STNELEV 32-37 (m), NAME 39-68.
// A value with a QC flag failed NOAA's quality control and is dropped (the qcf release keeps such values flagged).
// Structural faults and impossible values stop the read with `file:line: reason`, so a truncated or foreign download
// is refused before it reaches a grid.
import { monthIndex, type MonthIndex } from "../../../lib/months.ts";

export class GhcnmInputError extends Error {
  readonly code = "GHCNM_INPUT";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = "GhcnmInputError";
  }
}

export interface GhcnmStation {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** Metres; NaN where the inventory says −999.9 (unknown). */
  elevationM: number;
}

/** One station's monthly means in °C from firstMonth on; NaN = not reported or flagged. */
export interface GhcnmSeries {
  id: string;
  firstMonth: MonthIndex;
  tavg: Float64Array;
}

export interface GhcnmCounts {
  lines: number;
  values: number;
  /** Values carrying a QC flag: dropped. */
  qcFlagged: number;
}

const DAT_LINE = 115;
/** The warmest and coldest monthly means on record are far inside this (°C). */
const TAVG_LIMIT_C = 60;
/** The first year GHCN-Monthly has any value. */
const FIRST_YEAR = 1701;

/** The inventory's stations, in file order; every field checked. */
export function parseGhcnmInventory(text: string, file: string): GhcnmStation[] {
  const out: GhcnmStation[] = [];
  const seen = new Set<string>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line.trim() === "") continue;
    const fail = (reason: string) => new GhcnmInputError(file, i + 1, reason);
    if (line.length < 37) throw fail(`inventory line of ${line.length} characters, expected at least 37 (ID, latitude, longitude, elevation)`);
    const id = line.slice(0, 11);
    if (!/^[A-Z0-9]{11}$/.test(id)) throw fail(`station id "${id}" is not 11 letters and digits`);
    if (seen.has(id)) throw fail(`station ${id} listed twice`);
    const lat = Number(line.slice(12, 20));
    const lng = Number(line.slice(21, 30));
    const elev = Number(line.slice(31, 37));
    if (!(Math.abs(lat) <= 90) || line.slice(12, 20).trim() === "") throw fail(`latitude "${line.slice(12, 20).trim()}" is not within ±90`);
    if (!(Math.abs(lng) <= 180) || line.slice(21, 30).trim() === "") throw fail(`longitude "${line.slice(21, 30).trim()}" is not within ±180`);
    if (Number.isNaN(elev)) throw fail(`elevation "${line.slice(31, 37).trim()}" is not a number`);
    seen.add(id);
    out.push({ id, name: line.slice(38, 68).trim(), lat, lng, elevationM: elev <= -999 ? NaN : elev });
  }
  if (out.length === 0) throw new GhcnmInputError(file, 0, "no station in the inventory");
  return out;
}

/**
 * The TAVG series of every station in the .dat text (other elements are skipped). Years of a station may come in any
 * order; a year given twice is refused.
 */
export function parseGhcnmDat(text: string, file: string): { series: Map<string, GhcnmSeries>; counts: GhcnmCounts } {
  const years = new Map<string, Map<number, Float64Array>>();
  const counts: GhcnmCounts = { lines: 0, values: 0, qcFlagged: 0 };
  const lastYear = new Date().getUTCFullYear();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line === "") continue;
    const fail = (reason: string) => new GhcnmInputError(file, i + 1, reason);
    if (line.length !== DAT_LINE) throw fail(`line of ${line.length} characters, expected ${DAT_LINE} (truncated or not a GHCN-Monthly .dat file)`);
    counts.lines++;
    if (line.slice(15, 19) !== "TAVG") continue;
    const id = line.slice(0, 11);
    if (!/^[A-Z0-9]{11}$/.test(id)) throw fail(`station id "${id}" is not 11 letters and digits`);
    const year = Number(line.slice(11, 15));
    if (!Number.isInteger(year) || year < FIRST_YEAR || year > lastYear) throw fail(`year "${line.slice(11, 15)}" outside ${FIRST_YEAR}..${lastYear}`);
    const values = new Float64Array(12).fill(NaN);
    for (let m = 0; m < 12; m++) {
      const at = 19 + m * 8;
      const field = line.slice(at, at + 5);
      const raw = Number(field);
      if (field.trim() === "" || !Number.isInteger(raw)) throw fail(`month ${m + 1}: value "${field}" is not a whole number`);
      if (raw === -9999) continue;
      if (line[at + 6] !== " ") {
        counts.qcFlagged++;
        continue;
      }
      const c = raw / 100;
      if (Math.abs(c) > TAVG_LIMIT_C) throw fail(`month ${m + 1}: ${c} °C is not a monthly mean temperature`);
      values[m] = c;
      counts.values++;
    }
    let byYear = years.get(id);
    if (byYear === undefined) years.set(id, (byYear = new Map()));
    if (byYear.has(year)) throw fail(`station ${id}: year ${year} given twice`);
    byYear.set(year, values);
  }
  if (counts.lines === 0) throw new GhcnmInputError(file, 0, "no data line");
  const series = new Map<string, GhcnmSeries>();
  for (const [id, byYear] of years) {
    const ys = [...byYear.keys()].sort((a, b) => a - b);
    const first = ys[0];
    const tavg = new Float64Array((ys[ys.length - 1] - first + 1) * 12).fill(NaN);
    for (const y of ys) tavg.set(byYear.get(y)!, (y - first) * 12);
    series.set(id, { id, firstMonth: monthIndex(first, 1), tavg });
  }
  return { series, counts };
}
