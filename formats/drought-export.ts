// The drought exports of a published version (format: drought-export.md), for engines other than this service
// (DuckDB, Spark/Sedona, GDAL, pandas): the grid as GeoParquet (one row per cell and month, the cell's square as WKB)
// and the province summaries as Parquet, each also as gzip-compressed CSV. Written by the pipeline's build next to
// the binary artifacts (so they are checksummed and swapped with them); checked on load by formats/version-files.ts.
import { closeSync, createReadStream, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGunzip, gunzipSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { parquetMetadata, parquetRead, type FileMetaData } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { DroughtGrid } from "./drought-grid.ts";
import type { ConfidenceGrid } from "./confidence-grid.ts";
import type { ProvinceSummariesReader } from "./province-summaries.ts";
import { formatMonth } from "../lib/months.ts";
import { gridIdOf } from "../lib/drought/grid-id.ts";

export const EXPORT_FILES = {
  cellsParquet: "drought-cells.parquet",
  cellsCsv: "drought-cells.csv.gz",
  provincesParquet: "province-summaries.parquet",
  provincesCsv: "province-summaries.csv.gz",
} as const;

export const EXPORT_FILE_NAMES: readonly string[] = Object.values(EXPORT_FILES);

/** Columns before the index columns (one per index of the grid, e.g. spei1 … mcdi), then `valid` and geometry. */
export const CELL_COLUMNS = ["cell_id", "grid_id", "country", "lat", "lng", "month"] as const;
export const PROVINCE_COLUMNS = ["province_code", "country", "province", "province_th", "month"] as const;

const GEOPARQUET_VERSION = "1.1.0";

/** A cell's square (its centre ± half the resolution) as a WKB Polygon, little-endian, counter-clockwise. */
export function cellSquareWkb(lat: number, lng: number, resolutionDeg: number): Uint8Array {
  const h = resolutionDeg / 2;
  const ring: [number, number][] = [
    [lng - h, lat - h],
    [lng + h, lat - h],
    [lng + h, lat + h],
    [lng - h, lat + h],
    [lng - h, lat - h],
  ];
  const bytes = new Uint8Array(1 + 4 + 4 + 4 + ring.length * 16);
  const dv = new DataView(bytes.buffer);
  dv.setUint8(0, 1); // little-endian
  dv.setUint32(1, 3, true); // Polygon
  dv.setUint32(5, 1, true); // one ring
  dv.setUint32(9, ring.length, true);
  ring.forEach(([x, y], i) => {
    dv.setFloat64(13 + i * 16, x, true);
    dv.setFloat64(21 + i * 16, y, true);
  });
  return bytes;
}

function nullable(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/**
 * CSV values to 4 decimals (indices are z-scores; the Parquet columns hold the stored float32 values), the text of
 * each rounded value kept: an export repeats the same few tens of thousands of 4-decimal values millions of times,
 * and formatting a number is most of writing its row.
 */
function csvNumbers(): (x: number | null) => string {
  const texts = new Map<number, string>();
  return (x) => {
    if (x === null) return "";
    const k = Math.round(x * 1e4);
    let t = texts.get(k);
    if (t === undefined) texts.set(k, (t = String(k / 1e4)));
    return t;
  };
}

/** Stores a record's index values in the columns at row r; returns them as CSV fields (",v1,v2,…"). */
function putValues(values: (number | null)[][], r: number, rec: Float32Array, format: (x: number | null) => string): string {
  let fields = "";
  for (let k = 0; k < values.length; k++) {
    const v = nullable(rec[k]);
    values[k][r] = v;
    fields += "," + format(v);
  }
  return fields;
}

export interface CellExport {
  parquet: Uint8Array;
  csvGz: Uint8Array;
  rows: number;
}

/**
 * Every cell and month of the grid, month by month (so a month filter reads few row groups). Index values are
 * float32 as stored; NaN and ±Inf are null in Parquet and empty in CSV; `valid` is true where SPEI-1 has a value.
 */
export function writeCellExport(grid: DroughtGrid, gridBbox: [number, number, number, number], confidence?: ConfidenceGrid): CellExport {
  const n = grid.nCells * grid.nMonths;
  const cellId = new Int32Array(n);
  const gridId: string[] = new Array(n);
  const country: string[] = new Array(n);
  const lat = new Float64Array(n);
  const lng = new Float64Array(n);
  const month: string[] = new Array(n);
  const valid: boolean[] = new Array(n);
  const conf: (number | null)[] = new Array(n);
  const geometry: Uint8Array[] = new Array(n);
  const values = grid.indexNames.map(() => new Array<number | null>(n));
  const squares = Array.from({ length: grid.nCells }, (_, c) => cellSquareWkb(grid.cellLat(c), grid.cellLng(c), grid.resolutionDeg));
  const ids = Array.from({ length: grid.nCells }, (_, c) => gridIdOf(grid.resolutionDeg, grid.cellId(c), grid.countries));
  // The CSV leaves the geometry out: a cell is the square lat/lng ± resolution/2 (format document). Its text is
  // built a month at a time from each cell's constant fields, written once.
  const format = csvNumbers();
  const cellFields = Array.from({ length: grid.nCells }, (_, c) => `${grid.cellId(c)},${ids[c]},${grid.cellCountry(c)},${grid.cellLat(c)},${grid.cellLng(c)},`);
  const csv: string[] = [[...CELL_COLUMNS, ...grid.indexNames, "valid", "confidence"].join(",") + "\n"];
  const monthRows: string[] = new Array(grid.nCells);
  let r = 0;
  for (let m = 0; m < grid.nMonths; m++) {
    const monthText = formatMonth(grid.firstMonth + m);
    for (let c = 0; c < grid.nCells; c++, r++) {
      const rec = grid.record(c, m);
      cellId[r] = grid.cellId(c);
      gridId[r] = ids[c];
      country[r] = grid.cellCountry(c);
      lat[r] = grid.cellLat(c);
      lng[r] = grid.cellLng(c);
      month[r] = monthText;
      valid[r] = Number.isFinite(rec[0]);
      conf[r] = confidence ? confidence.cell(c, m) : null;
      geometry[r] = squares[c];
      monthRows[c] = `${cellFields[c]}${monthText}${putValues(values, r, rec, format)},${valid[r]},${format(conf[r])}\n`;
    }
    csv.push(monthRows.join(""));
  }
  const geo = {
    version: GEOPARQUET_VERSION,
    primary_column: "geometry",
    columns: { geometry: { encoding: "WKB", geometry_types: ["Polygon"], bbox: gridBbox } },
  };
  const parquet = parquetWriteBuffer({
    columnData: [
      { name: "cell_id", data: cellId, type: "INT32", nullable: false },
      { name: "grid_id", data: gridId, type: "STRING", nullable: false },
      { name: "country", data: country, type: "STRING", nullable: false },
      { name: "lat", data: lat, type: "DOUBLE", nullable: false },
      { name: "lng", data: lng, type: "DOUBLE", nullable: false },
      { name: "month", data: month, type: "STRING", nullable: false },
      ...grid.indexNames.map((name, k) => ({ name, data: values[k], type: "FLOAT" as const })),
      { name: "valid", data: valid, type: "BOOLEAN", nullable: false },
      { name: "confidence", data: conf, type: "FLOAT" },
      { name: "geometry", data: geometry, type: "BYTE_ARRAY", nullable: false },
    ],
    kvMetadata: [{ key: "geo", value: JSON.stringify(geo) }],
    rowGroupSize: grid.nCells * 12,
  });
  return { parquet: new Uint8Array(parquet), csvGz: gzipSync(csv.join(""), { level: 1 }), rows: n };
}

export interface ProvinceRow {
  code: string;
  country: string;
  nameEn: string;
  /** "" outside Thailand. */
  nameTh: string;
}

/** Every province and month of the summaries: means of the province's cells, and how many cells had a value. */
export function writeProvinceExport(summaries: ProvinceSummariesReader, provinces: readonly ProvinceRow[]): CellExport {
  const n = summaries.nProvinces * summaries.nMonths;
  const code: string[] = new Array(n);
  const country: string[] = new Array(n);
  const name: string[] = new Array(n);
  const nameTh: string[] = new Array(n);
  const month: string[] = new Array(n);
  const cellsUsed = new Int32Array(n);
  const values = summaries.indexNames.map(() => new Array<number | null>(n));
  const quoted = provinces.map((p) => [p.nameEn, p.nameTh].map((t) => (/[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t)));
  const format = csvNumbers();
  const csv: string[] = [[...PROVINCE_COLUMNS, ...summaries.indexNames, "cells_used"].join(",")];
  let r = 0;
  for (let m = 0; m < summaries.nMonths; m++) {
    const monthText = formatMonth(summaries.firstMonth + m);
    for (let p = 0; p < summaries.nProvinces; p++, r++) {
      const rec = summaries.record(p, m);
      code[r] = provinces[p].code;
      country[r] = provinces[p].country;
      name[r] = provinces[p].nameEn;
      nameTh[r] = provinces[p].nameTh;
      month[r] = monthText;
      cellsUsed[r] = summaries.cellsUsed(p, m);
      csv.push(`${code[r]},${country[r]},${quoted[p][0]},${quoted[p][1]},${monthText}${putValues(values, r, rec, format)},${cellsUsed[r]}`);
    }
  }
  const parquet = parquetWriteBuffer({
    columnData: [
      { name: "province_code", data: code, type: "STRING", nullable: false },
      { name: "country", data: country, type: "STRING", nullable: false },
      { name: "province", data: name, type: "STRING", nullable: false },
      { name: "province_th", data: nameTh, type: "STRING", nullable: false },
      { name: "month", data: month, type: "STRING", nullable: false },
      ...summaries.indexNames.map((k, i) => ({ name: k, data: values[i], type: "FLOAT" as const })),
      { name: "cells_used", data: cellsUsed, type: "INT32", nullable: false },
    ],
    rowGroupSize: summaries.nProvinces * 120,
  });
  return { parquet: new Uint8Array(parquet), csvGz: gzipSync(csv.join("\n") + "\n", { level: 1 }), rows: n };
}

/**
 * The last bytes of a Parquet file that hold its footer (metadata, its length, "PAR1"): the load-time check reads
 * only these, not the whole export.
 */
export function readParquetFooter(path: string): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(Math.min(size, 8));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const footer = tail.length === 8 ? tail.readUInt32LE(0) : 0;
    const want = Math.min(size, footer + 8);
    const out = Buffer.alloc(want);
    readSync(fd, out, 0, want, size - want);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } finally {
    closeSync(fd);
  }
}

/** The first bytes of a file (the CSV exports' check needs only the start of the gzip stream). */
export function readHead(path: string, bytes = 64 * 1024): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const out = Buffer.alloc(Math.min(bytes, fstatSync(fd).size));
    readSync(fd, out, 0, out.length, 0);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  } finally {
    closeSync(fd);
  }
}

/** Load-time check of a Parquet export (its footer, or the whole file): it parses and holds the expected columns. */
export function checkParquetExport(bytes: Uint8Array, name: string): FileMetaData {
  let meta: FileMetaData;
  try {
    meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch (err) {
    throw new Error(`${name}: not a readable Parquet file: ${(err as Error).message}`);
  }
  const columns = new Set(meta.schema.slice(1).map((s) => s.name));
  const need = name === EXPORT_FILES.cellsParquet ? [...CELL_COLUMNS, "valid", "geometry"] : [...PROVINCE_COLUMNS, "cells_used"];
  const missing = need.filter((c) => !columns.has(c));
  if (missing.length) throw new Error(`${name}: missing columns ${missing.join(", ")}`);
  if (!(Number(meta.num_rows) > 0)) throw new Error(`${name}: no rows`);
  if (name === EXPORT_FILES.cellsParquet) {
    const geo = meta.key_value_metadata?.find((kv) => kv.key === "geo");
    if (!geo?.value) throw new Error(`${name}: no GeoParquet "geo" metadata`);
    const parsed = JSON.parse(geo.value) as { primary_column?: string };
    if (parsed.primary_column !== "geometry") throw new Error(`${name}: geo metadata names no geometry column`);
  }
  return meta;
}

/**
 * Load-time check of a Parquet export file: "PAR1" at both ends, a footer that parses with the expected columns
 * (checkParquetExport), and every column chunk inside the data between the leading magic and the footer.
 */
export function checkParquetFile(path: string, name: string): FileMetaData {
  const head = readHead(path, 4);
  if (String.fromCharCode(...head) !== "PAR1") throw new Error(`${name}: does not start with the Parquet magic PAR1`);
  const footer = readParquetFooter(path);
  const meta = checkParquetExport(footer, name);
  const dataEnd = fstatSizeOf(path) - footer.length;
  for (const [g, group] of meta.row_groups.entries()) {
    for (const column of group.columns) {
      const m = column.meta_data;
      if (!m) continue;
      const start = Number(m.dictionary_page_offset ?? m.data_page_offset);
      const end = start + Number(m.total_compressed_size);
      if (!(start >= 4 && end <= dataEnd)) throw new Error(`${name}: row group ${g} column ${m.path_in_schema.join(".")} at ${start}..${end} lies outside the data (4..${dataEnd})`);
    }
  }
  return meta;
}

function fstatSizeOf(path: string): number {
  const fd = openSync(path, "r");
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

/** Load-time check of a CSV export: gzip that starts with the expected header (only the first block is inflated). */
export function checkCsvExport(bytes: Uint8Array, name: string): void {
  let head: string;
  try {
    head = gunzipSync(bytes.subarray(0, 64 * 1024), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString("utf8");
  } catch (err) {
    throw new Error(`${name}: not gzip: ${(err as Error).message}`);
  }
  const header = head.slice(0, head.indexOf("\n"));
  const first = name === EXPORT_FILES.cellsCsv ? CELL_COLUMNS.join(",") : PROVINCE_COLUMNS.join(",");
  if (!header.startsWith(first + ",")) throw new Error(`${name}: header "${header.slice(0, 80)}" does not start with ${first}`);
}

// ---- Read back in full (the build's verification, pipeline/build/verify-artifacts.ts) ----
// The load-time checks above read a footer and a first block; these read every row group and every gzip stream to
// its end and compare each value with the artifact it was made from, so a damaged page, a flipped value or a
// truncated stream fails the build instead of being published.

/** Every row group of a Parquet export, column chunk by column chunk: `expect(column, row, value)` says what is wrong, or undefined. */
async function readEveryRow(path: string, name: string, rows: number, columns: readonly string[], expect: (column: string, row: number, value: unknown) => string | undefined): Promise<void> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const seen = new Map<string, number>();
  let problem: string | undefined;
  try {
    await parquetRead({
      file,
      onChunk: ({ columnName, columnData, rowStart }) => {
        seen.set(columnName, (seen.get(columnName) ?? 0) + columnData.length);
        for (let i = 0; i < columnData.length && problem === undefined; i++) {
          const wrong = expect(columnName, rowStart + i, columnData[i]);
          if (wrong !== undefined) problem = `row ${rowStart + i} column ${columnName}: ${wrong}`;
        }
      },
    });
  } catch (err) {
    throw new Error(`${name}: cannot be read to its end: ${(err as Error).message}`);
  }
  if (problem !== undefined) throw new Error(`${name}: ${problem}`);
  for (const c of columns) if (seen.get(c) !== rows) throw new Error(`${name}: column ${c} has ${seen.get(c) ?? 0} rows, expected ${rows}`);
}

/** A stored float32 as the exports write it (null where NaN) against a value read back. */
function sameValue(expected: number, got: unknown): string | undefined {
  const finite = nullable(expected);
  const want = finite === null ? null : Math.fround(finite); // FLOAT columns: float32
  return got === want ? undefined : `${String(got)}, the source has ${String(want)}`;
}

/** drought-cells.parquet read back in full against the grid (and the confidence grid) it was written from. */
export async function verifyCellExport(path: string, grid: DroughtGrid, confidence?: ConfidenceGrid): Promise<number> {
  const rows = grid.nCells * grid.nMonths;
  const ids = Array.from({ length: grid.nCells }, (_, c) => gridIdOf(grid.resolutionDeg, grid.cellId(c), grid.countries));
  const k = new Map(grid.indexNames.map((n, i) => [n, i]));
  const h = grid.resolutionDeg / 2;
  let monthOf = -1;
  let monthText = "";
  const expect = (column: string, r: number, v: unknown): string | undefined => {
    const c = r % grid.nCells;
    const m = (r - c) / grid.nCells;
    if (m !== monthOf) [monthOf, monthText] = [m, formatMonth(grid.firstMonth + m)];
    const is = (want: unknown) => (v === want ? undefined : `${String(v)}, the grid has ${String(want)}`);
    switch (column) {
      case "cell_id": return is(grid.cellId(c));
      case "grid_id": return is(ids[c]);
      case "country": return is(grid.cellCountry(c));
      case "lat": return is(grid.cellLat(c));
      case "lng": return is(grid.cellLng(c));
      case "month": return is(monthText);
      case "valid": return is(Number.isFinite(grid.value(c, m, 0)));
      case "confidence": return sameValue(confidence?.cell(c, m) ?? NaN, v);
      case "geometry": {
        const ring = (v as { coordinates?: number[][][] } | null)?.coordinates?.[0];
        const [x, y] = [grid.cellLng(c), grid.cellLat(c)];
        const want = [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h], [x - h, y - h]];
        return ring?.length === 5 && ring.every((p, i) => p[0] === want[i][0] && p[1] === want[i][1]) ? undefined : `not the cell's square`;
      }
      default: {
        const index = k.get(column);
        return index === undefined ? `a column the export does not write` : sameValue(grid.value(c, m, index), v);
      }
    }
  };
  await readEveryRow(path, EXPORT_FILES.cellsParquet, rows, [...CELL_COLUMNS, ...grid.indexNames, "valid", "confidence", "geometry"], expect);
  return rows;
}

/** province-summaries.parquet read back in full against the summaries and provinces.json it was written from. */
export async function verifyProvinceExport(path: string, summaries: ProvinceSummariesReader, provinces: readonly ProvinceRow[]): Promise<number> {
  const rows = summaries.nProvinces * summaries.nMonths;
  const k = new Map(summaries.indexNames.map((n, i) => [n, i]));
  const expect = (column: string, r: number, v: unknown): string | undefined => {
    const p = r % summaries.nProvinces;
    const m = (r - p) / summaries.nProvinces;
    const is = (want: unknown) => (v === want ? undefined : `${String(v)}, the source has ${String(want)}`);
    switch (column) {
      case "province_code": return is(provinces[p].code);
      case "country": return is(provinces[p].country);
      case "province": return is(provinces[p].nameEn);
      case "province_th": return is(provinces[p].nameTh);
      case "month": return is(formatMonth(summaries.firstMonth + m));
      case "cells_used": return is(summaries.cellsUsed(p, m));
      default: {
        const index = k.get(column);
        return index === undefined ? `a column the export does not write` : sameValue(summaries.record(p, m)[index], v);
      }
    }
  };
  await readEveryRow(path, EXPORT_FILES.provincesParquet, rows, [...PROVINCE_COLUMNS, ...summaries.indexNames, "cells_used"], expect);
  return rows;
}

/** A CSV export gunzipped to its end (gzip's CRC-32 and length checked by zlib): its header and `rows` rows after it. */
export async function verifyCsvExport(path: string, name: string, rows: number): Promise<void> {
  let lines = 0;
  let head = "";
  let lastByte = -1;
  try {
    await pipeline(createReadStream(path), createGunzip(), async (inflated: AsyncIterable<Buffer>) => {
      for await (const chunk of inflated) {
        if (head.length < 4096) head += chunk.subarray(0, 4096).toString("utf8");
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        lastByte = chunk[chunk.length - 1];
      }
    });
  } catch (err) {
    throw new Error(`${name}: gzip stream cannot be read to its end: ${(err as Error).message}`);
  }
  const first = name === EXPORT_FILES.cellsCsv ? CELL_COLUMNS.join(",") : PROVINCE_COLUMNS.join(",");
  if (!head.startsWith(first + ",")) throw new Error(`${name}: header "${head.slice(0, 80)}" does not start with ${first}`);
  if (lastByte !== 10) throw new Error(`${name}: the last row does not end with a newline`);
  if (lines !== rows + 1) throw new Error(`${name}: ${lines - 1} rows after the header, expected ${rows}`);
}
