// UN/LOCODE code list (geoapify/un-locode CSV, one file per country) → entries with the port function.
// About 600 rows in the mirror have a name with a comma written as `"""A"," B"""`: a CSV reader splits the name
// into pieces and the later columns shift. Such rows are repaired (pieces joined, function found by its shape,
// coordinates taken as the numbers after it) and counted, never silently dropped.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readCsv, type CsvRejection } from "../feeds/csv.ts";

export interface UnlocodeEntry {
  /** Five characters, e.g. "THLCH". */
  code: string;
  country: string;
  name: string;
  subdivision: string;
  status: string;
  function: string;
  /** NaN when the list has no coordinates. */
  lat: number;
  lng: number;
  /** The publisher geocoded the coordinates (not in the official list). */
  geocoded: boolean;
  /** The row was badly quoted and repaired. */
  repaired: boolean;
}

export interface UnlocodeResult {
  rows: number;
  /** Entries with the port function. */
  ports: UnlocodeEntry[];
  /** Every readable entry, whatever its function (airports, rail and road terminals…): a code named as a port by
   * the World Port Index or PortWatch, or a place that shares its name with a nearby port, is one of them. */
  entries: UnlocodeEntry[];
  repairedRows: number;
  /** Rows that could not be read even after repair. */
  rejectedRows: number;
  /** Where and why each of them was rejected. */
  rejected: CsvRejection[];
}

export const UNLOCODE_PATTERN = /^[A-Z]{2}[A-Z2-9]{3}$/;
const FUNCTION_PATTERN = /^[0-9B-]{8}$/;

/** True when the function classifier marks a port (first character "1"). */
export function isPortFunction(fn: string): boolean {
  return fn.charAt(0) === "1";
}

const unquote = (s: string) => s.replace(/^"+|"+$/g, "").trim();

/** One CSV row (header order country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded). */
export function readUnlocodeRow(f: string[]): UnlocodeEntry | undefined {
  let name = f[2] ?? "";
  let rest: string[];
  let repaired = false;
  if (name.startsWith('"')) {
    // Badly quoted: the name runs until a piece ending in a quote, then the same again for nameWoDiacritics.
    repaired = true;
    let i = 2;
    const pieces: string[] = [];
    while (i < f.length) {
      pieces.push(f[i]);
      if (f[i].endsWith('"')) break;
      i++;
    }
    name = pieces.map(unquote).join(", ");
    i++;
    if ((f[i] ?? "").startsWith('"')) {
      while (i < f.length && !f[i].endsWith('"')) i++;
      i++;
    } else i++;
    rest = f.slice(i);
    const fnAt = rest.findIndex((x) => FUNCTION_PATTERN.test(x));
    if (fnAt < 0) return undefined;
    const nums = rest.slice(fnAt + 1).filter((x) => x !== "" && Number.isFinite(Number(x)));
    return {
      code: (f[0] + f[1]).toUpperCase(),
      country: f[0],
      name,
      subdivision: fnAt > 0 ? rest[0] : "",
      status: fnAt > 1 ? rest[1] : "",
      function: rest[fnAt],
      lat: nums.length >= 2 ? Number(nums[0]) : NaN,
      lng: nums.length >= 2 ? Number(nums[1]) : NaN,
      geocoded: rest[rest.length - 1] === "true",
      repaired,
    };
  }
  if (f.length < 10 || !FUNCTION_PATTERN.test(f[6])) return undefined;
  const lat = f[8] === "" ? NaN : Number(f[8]);
  const lng = f[9] === "" ? NaN : Number(f[9]);
  return {
    code: (f[0] + f[1]).toUpperCase(),
    country: f[0],
    name,
    subdivision: f[4],
    status: f[5],
    function: f[6],
    lat,
    lng,
    geocoded: f[10] === "true",
    repaired,
  };
}

/** Port entries of one country file's text. Field counts vary on the badly quoted rows, so readUnlocodeRow checks them. */
export function parseUnlocodeCsv(text: string, file = "unlocode.csv"): UnlocodeResult {
  const csv = readCsv(text, file, { fieldCount: "any" });
  const rejected = [...csv.rejected];
  const out: UnlocodeResult = { rows: csv.rejected.length, ports: [], entries: [], repairedRows: 0, rejectedRows: csv.rejected.length, rejected };
  for (const row of csv.rows) {
    out.rows++;
    const e = readUnlocodeRow(row.fields);
    if (e === undefined || !UNLOCODE_PATTERN.test(e.code)) {
      out.rejectedRows++;
      rejected.push({ file, line: row.line, reason: "no function classifier or code where expected" });
      continue;
    }
    if (e.repaired) out.repairedRows++;
    out.entries.push(e);
    if (isPortFunction(e.function)) out.ports.push(e);
  }
  return out;
}

/** Every country file of a directory (DATA_DIR/ports/unlocode). */
export function readUnlocodeDir(dir: string): UnlocodeResult {
  const all: UnlocodeResult = { rows: 0, ports: [], entries: [], repairedRows: 0, rejectedRows: 0, rejected: [] };
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".csv")).sort()) {
    const r = parseUnlocodeCsv(readFileSync(join(dir, file), "utf8"), join(dir, file));
    all.rows += r.rows;
    all.repairedRows += r.repairedRows;
    all.rejectedRows += r.rejectedRows;
    all.rejected.push(...r.rejected);
    for (const p of r.ports) all.ports.push(p);
    for (const e of r.entries) all.entries.push(e);
  }
  return all;
}
