// The drought-grid artifact: monthly drought indices on the land cells of one regular grid, in ONE binary file
// that the server reads through typed-array views (no parsing of records). Writer and reader side by side;
// the byte layout is documented in formats/drought-grid.md.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import KDBush from "kdbush";
import { formatMonth, type MonthIndex } from "../lib/months.ts";
import { describeRange, indexRange, indexRanges, outOfRange, showFloat32 } from "./index-range.ts";
import { coverageTest, nearestCellSearch } from "./nearest-cell.ts";

export const DROUGHT_GRID_MAGIC = "DRGRID01";
export const DROUGHT_GRID_VERSION = 1;
/** Value encoding code 1: IEEE-754 float32, little-endian, NaN = missing (±Inf is out of range: index-range.ts). */
export const VALUE_ENCODING_FLOAT32 = 1;
export const INDEX_NAME_BYTES = 16;

const HEADER_BYTES = 72;
const KD_NODE_SIZE = 16;
const COUNTRY_CODE_RE = /^[A-Z]{3}$/;
const INDEX_NAME_RE = /^[A-Za-z0-9_.-]{1,16}$/;

/** What the pipeline hands to the writer. Values are cell-major: offset = (cell * nMonths + month) * nIndices. */
export interface DroughtGridInput {
  firstMonth: MonthIndex;
  nMonths: number;
  indexNames: string[];
  baselineStart: MonthIndex;
  baselineEnd: MonthIndex;
  resolutionDeg: number;
  cellIds: Uint32Array;
  cellLats: Float64Array;
  cellLngs: Float64Array;
  /** Code table of ISO 3166-1 alpha-3 codes (at most 256). */
  countries: string[];
  /** Per cell, an index into `countries`. */
  cellCountry: Uint8Array;
  values: Float32Array;
}

export class DroughtGridFormatError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "DroughtGridFormatError";
    this.code = code;
  }
}

function pad8(n: number): number {
  return (n + 7) & ~7;
}

interface Layout {
  indexNames: number;
  countries: number;
  cellIds: number;
  cellLats: number;
  cellLngs: number;
  cellCountry: number;
  kdIndex: number;
  monthAnyValid: number;
  monthIndexValid: number;
  values: number;
  fileBytes: number;
}

// Section offsets follow from the counts alone, so writer and reader share this one function.
function layout(nCells: number, nMonths: number, nIndices: number, nCountries: number, kdIndexBytes: number): Layout {
  let at = HEADER_BYTES;
  const next = (bytes: number): number => {
    const start = at;
    at = pad8(at + bytes);
    return start;
  };
  const l = {
    indexNames: next(nIndices * INDEX_NAME_BYTES),
    countries: next(nCountries * 4),
    cellIds: next(nCells * 4),
    cellLats: next(nCells * 8),
    cellLngs: next(nCells * 8),
    cellCountry: next(nCells),
    kdIndex: next(kdIndexBytes),
    monthAnyValid: next(nMonths * 4),
    monthIndexValid: next(nMonths * nIndices * 4),
    values: next(nCells * nMonths * nIndices * 4),
    fileBytes: 0,
  };
  l.fileBytes = at;
  return l;
}

function assertLittleEndian(): void {
  // Typed-array views use the platform byte order; the file is little-endian.
  if (endianness() !== "LE") throw new DroughtGridFormatError("ENDIAN", "drought-grid: big-endian platforms are not supported");
}

function writeAscii(target: Uint8Array, at: number, text: string): void {
  for (let i = 0; i < text.length; i++) target[at + i] = text.charCodeAt(i);
}

function readAscii(bytes: Uint8Array, at: number, maxLength: number): string {
  let s = "";
  for (let i = 0; i < maxLength; i++) {
    const c = bytes[at + i];
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

function validateData(g: DroughtGridInput): void {
  const nCells = g.cellIds.length;
  const bad = (msg: string): never => {
    throw new DroughtGridFormatError("INVALID_DATA", `drought-grid: ${msg}`);
  };
  if (nCells < 1) bad("at least one cell is required");
  if (!Number.isInteger(g.nMonths) || g.nMonths < 1) bad(`nMonths must be a positive integer, got ${g.nMonths}`);
  for (const m of [g.firstMonth, g.baselineStart, g.baselineEnd]) if (!Number.isInteger(m) || m < 0) bad(`months must be non-negative MonthIndex integers, got ${m}`);
  if (g.baselineEnd < g.baselineStart) bad("baselineEnd is before baselineStart");
  if (g.indexNames.length < 1) bad("at least one index name is required");
  for (const name of g.indexNames) if (!INDEX_NAME_RE.test(name)) bad(`index name "${name}" must be 1-16 ASCII letters, digits, '_', '.', '-'`);
  if (new Set(g.indexNames).size !== g.indexNames.length) bad("index names must be unique");
  if (g.countries.length > 256) bad("at most 256 country codes");
  for (const c of g.countries) if (!COUNTRY_CODE_RE.test(c)) bad(`country code "${c}" is not 3 upper-case ASCII letters`);
  if (g.cellLats.length !== nCells || g.cellLngs.length !== nCells || g.cellCountry.length !== nCells) bad("cell arrays differ in length");
  for (let i = 0; i < nCells; i++) {
    const lat = g.cellLats[i];
    const lng = g.cellLngs[i];
    if (!(lat >= -90 && lat <= 90) || !(lng >= -180 && lng <= 180)) bad(`cell ${i} has invalid coordinates ${lat}, ${lng}`);
    if (g.cellCountry[i] >= g.countries.length) bad(`cell ${i} has country code number ${g.cellCountry[i]} outside the table`);
  }
  if (!(g.resolutionDeg > 0)) bad(`resolutionDeg must be positive, got ${g.resolutionDeg}`);
  const expected = nCells * g.nMonths * g.indexNames.length;
  if (g.values.length !== expected) bad(`values has ${g.values.length} numbers, expected nCells*nMonths*nIndices = ${expected}`);
  // The writer refuses what every reader would refuse (see index-range.ts).
  const { min, max } = indexRanges(g.indexNames);
  const nIndices = g.indexNames.length;
  for (let i = 0; i < g.values.length; i++) {
    const k = i % nIndices;
    if (outOfRange(g.values[i], min[k], max[k])) {
      const record = (i - k) / nIndices;
      bad(`value ${showFloat32(g.values[i])} of ${g.indexNames[k]} at cell ${Math.floor(record / g.nMonths)} is outside ${describeRange(indexRange(g.indexNames[k]))}`);
    }
  }
}

/** Serialises a grid into the DRGRID01 layout. Validity counts are computed here, not trusted from the caller. */
export function writeDroughtGrid(g: DroughtGridInput): Uint8Array {
  assertLittleEndian();
  validateData(g);
  const nCells = g.cellIds.length;
  const nIndices = g.indexNames.length;
  const nMonths = g.nMonths;

  const kd = new KDBush(nCells, KD_NODE_SIZE, Float64Array);
  for (let i = 0; i < nCells; i++) kd.add(g.cellLngs[i], g.cellLats[i]);
  kd.finish();
  const kdBytes = new Uint8Array(kd.data as ArrayBuffer);

  const l = layout(nCells, nMonths, nIndices, g.countries.length, kdBytes.byteLength);
  const buffer = new ArrayBuffer(l.fileBytes);
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);

  writeAscii(bytes, 0, DROUGHT_GRID_MAGIC);
  view.setUint32(8, DROUGHT_GRID_VERSION, true);
  view.setUint32(12, VALUE_ENCODING_FLOAT32, true);
  view.setUint32(16, nCells, true);
  view.setUint32(20, nMonths, true);
  view.setInt32(24, g.firstMonth, true);
  view.setUint32(28, nIndices, true);
  view.setInt32(32, g.baselineStart, true);
  view.setInt32(36, g.baselineEnd, true);
  view.setFloat64(40, g.resolutionDeg, true);
  view.setUint32(48, g.countries.length, true);
  view.setUint32(52, KD_NODE_SIZE, true);
  view.setUint32(56, kdBytes.byteLength, true);
  view.setUint32(60, 0, true); // reserved
  view.setFloat64(64, l.fileBytes, true);

  g.indexNames.forEach((name, i) => writeAscii(bytes, l.indexNames + i * INDEX_NAME_BYTES, name));
  g.countries.forEach((code, i) => writeAscii(bytes, l.countries + i * 4, code));
  new Uint32Array(buffer, l.cellIds, nCells).set(g.cellIds);
  new Float64Array(buffer, l.cellLats, nCells).set(g.cellLats);
  new Float64Array(buffer, l.cellLngs, nCells).set(g.cellLngs);
  bytes.set(g.cellCountry, l.cellCountry);
  bytes.set(kdBytes, l.kdIndex);
  new Float32Array(buffer, l.values, g.values.length).set(g.values);

  // A record counts for a month when it is not NaN (±Inf is a valid, extreme value).
  const anyValid = new Uint32Array(buffer, l.monthAnyValid, nMonths);
  const indexValid = new Uint32Array(buffer, l.monthIndexValid, nMonths * nIndices);
  const v = g.values;
  for (let c = 0; c < nCells; c++) {
    for (let m = 0; m < nMonths; m++) {
      const base = (c * nMonths + m) * nIndices;
      let any = false;
      for (let k = 0; k < nIndices; k++) {
        if (!Number.isNaN(v[base + k])) {
          indexValid[m * nIndices + k]++;
          any = true;
        }
      }
      if (any) anyValid[m]++;
    }
  }
  return bytes;
}

/** Reorders per-index [cell][month] arrays (as interpolation produces them) into the file's [cell][month][index]. */
export function interleaveIndices(perIndex: Float32Array[], nCells: number, nMonths: number): Float32Array {
  const nIndices = perIndex.length;
  const records = nCells * nMonths;
  for (const a of perIndex) {
    if (a.length !== records) throw new Error(`interleaveIndices: array of ${a.length} values, expected ${records}`);
  }
  const out = new Float32Array(records * nIndices);
  for (let k = 0; k < nIndices; k++) {
    const a = perIndex[k];
    for (let r = 0; r < records; r++) out[r * nIndices + k] = a[r];
  }
  return out;
}

export interface NearestCell {
  cell: number;
  distanceKm: number;
}

export interface DroughtGrid {
  readonly formatVersion: number;
  readonly valueEncoding: number;
  readonly nCells: number;
  readonly nMonths: number;
  readonly nIndices: number;
  readonly firstMonth: MonthIndex;
  /** Last month of the file. */
  readonly lastMonth: MonthIndex;
  readonly baselineStart: MonthIndex;
  readonly baselineEnd: MonthIndex;
  readonly resolutionDeg: number;
  readonly indexNames: readonly string[];
  readonly countries: readonly string[];
  /** Latest month in which at least one cell has a non-NaN value, or null when every value is NaN. */
  readonly latestValidMonth: MonthIndex | null;
  /** Zero-copy views over the file bytes. */
  readonly cellIds: Uint32Array;
  readonly cellLats: Float64Array;
  readonly cellLngs: Float64Array;
  /** All values as one view; empty when the file was opened paged (openDroughtGridFile on a large file). */
  readonly values: Float32Array;
  cellId(cell: number): number;
  cellLat(cell: number): number;
  cellLng(cell: number): number;
  cellCountry(cell: number): string;
  /** Position of a month in the file (0..nMonths-1), or -1 when outside. */
  monthOffset(month: MonthIndex): number;
  /** Position of an index name, or -1. */
  indexNo(name: string): number;
  /** The nIndices values of one (cell, month), as a view (no copy). */
  record(cell: number, monthOffset: number): Float32Array;
  value(cell: number, monthOffset: number, indexNo: number): number;
  /** Cells with at least one non-NaN index value in the month (by offset); with indexNo, cells with that index non-NaN. */
  monthValidCount(monthOffset: number, indexNo?: number): number;
  /** True great-circle nearest cell (ties: lowest cell number), by a branch-and-bound walk of the kdbush tree. */
  nearestCell(lat: number, lng: number): NearestCell;
  /**
   * Constant-time test whether the point lies near the grid: true when a cell lies less than 2 grid steps away in
   * latitude and longitude, false when none lies within 3 (formats/drought-grid.md, "Nearest cell").
   */
  covers(lat: number, lng: number): boolean;
}

function formatError(code: string, message: string): never {
  throw new DroughtGridFormatError(code, `drought-grid: ${message}`);
}

/**
 * Opens a DRGRID01 file from its bytes (readFileSync Buffer or a mapped buffer). Only structural checks are made
 * (magic, version, encoding, sizes against the file length); content integrity is the manifest's sha256.
 * The bytes must start at an 8-byte aligned offset of their ArrayBuffer; otherwise they are copied once.
 */
export function openDroughtGrid(input: Uint8Array): DroughtGrid {
  return openParts(input);
}

/** Values kept on disk: reads `count` float32 values starting at value number `start`. */
type ValueReader = (start: number, count: number) => Float32Array;

/** Files up to this size are read whole; larger ones keep their values section on disk (see openDroughtGridFile). */
export const RESIDENT_LIMIT_BYTES = 256 * 1024 * 1024;

/**
 * Opens a grid file. Up to `residentLimitBytes` the file is read into memory and every section is a view; a larger
 * file reads only the sections before the values (header, cells, spatial index, month validity) and fetches each
 * record with one positioned read, so memory grows with the cells, not with cells × months × indices.
 */
export function openDroughtGridFile(path: string, opts: { residentLimitBytes?: number } = {}): DroughtGrid {
  const limit = opts.residentLimitBytes ?? RESIDENT_LIMIT_BYTES;
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size <= limit) {
      const whole = new Uint8Array(new ArrayBuffer(size));
      readFully(fd, whole, 0);
      return openParts(whole);
    }
    const head = new Uint8Array(HEADER_BYTES);
    readFully(fd, head, 0);
    const h = readHeader(head);
    const l = layout(h.nCells, h.nMonths, h.nIndices, h.nCountries, h.kdIndexBytes);
    if (size !== l.fileBytes) formatError(size < l.fileBytes ? "TRUNCATED" : "INCONSISTENT", `file has ${size} bytes, its header needs ${l.fileBytes}`);
    const prefix = new Uint8Array(new ArrayBuffer(l.values));
    readFully(fd, prefix, 0);
    const keep = openSync(path, "r");
    const reader: ValueReader = (start, count) => {
      const out = new Float32Array(count);
      const got = readSync(keep, new Uint8Array(out.buffer), 0, count * 4, l.values + start * 4);
      if (got !== count * 4) throw new Error(`drought-grid: short read at value ${start}`);
      return out;
    };
    return openParts(prefix, { fileBytes: l.fileBytes, read: reader });
  } finally {
    closeSync(fd);
  }
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new DroughtGridFormatError("TRUNCATED", "drought-grid: unexpected end of file");
    done += n;
  }
}

/** Values scanned per read when the file is paged (16 MiB of float32). */
const CHECK_CHUNK_VALUES = 4 * 1024 * 1024;

interface ValueCheckContext {
  nCells: number;
  nMonths: number;
  nIndices: number;
  firstMonth: MonthIndex;
  indexNames: readonly string[];
  cellIds: Uint32Array;
  anyValid: Uint32Array;
  indexValid: Uint32Array;
}

/**
 * One pass over all values: every value NaN or finite within its index's range (`OUT_OF_RANGE`: ±Inf, or a finite
 * value no index computation gives; index-range.ts), and the validity counts
 * stored in the file equal to the counts of the values (`INCONSISTENT`; they decide the latest valid month).
 * `read` yields the values from value number `start` on, `count` of them (a view when resident).
 */
function checkValues(c: ValueCheckContext, read: ValueReader): void {
  const { nMonths, nIndices } = c;
  const recordsPerChunk = Math.max(1, Math.floor(CHECK_CHUNK_VALUES / nIndices));
  const nRecords = c.nCells * nMonths;
  const any = new Uint32Array(nMonths);
  const perIndex = new Uint32Array(nMonths * nIndices);
  const { min, max } = indexRanges(c.indexNames);
  for (let first = 0; first < nRecords; first += recordsPerChunk) {
    const records = Math.min(recordsPerChunk, nRecords - first);
    const chunk = read(first * nIndices, records * nIndices);
    let month = first % nMonths;
    let i = 0;
    for (let r = 0; r < records; r++) {
      let valid = false;
      const row = month * nIndices;
      for (let k = 0; k < nIndices; k++, i++) {
        const v = chunk[i];
        if (v !== v) continue; // NaN: missing
        if (!(v >= min[k] && v <= max[k])) {
          const cell = Math.floor((first + r) / nMonths);
          formatError(
            "OUT_OF_RANGE",
            `value ${showFloat32(v)} of ${c.indexNames[k]} at cell ${cell} (id ${c.cellIds[cell]}), ${formatMonth(c.firstMonth + month)} is outside ${describeRange(indexRange(c.indexNames[k]))} (the values its computation can give; NaN is missing, ±Inf never written)`,
          );
        }
        perIndex[row + k]++;
        valid = true;
      }
      if (valid) any[month]++;
      if (++month === nMonths) month = 0;
    }
  }
  for (let m = 0; m < nMonths; m++) {
    let same = any[m] === c.anyValid[m];
    for (let k = 0; k < nIndices && same; k++) same = perIndex[m * nIndices + k] === c.indexValid[m * nIndices + k];
    if (!same) formatError("INCONSISTENT", `valid-cell counts of ${formatMonth(c.firstMonth + m)} do not match the values`);
  }
}

/**
 * The header's fields (formats/drought-grid.md), read and checked in one place for the whole-file and the paged open:
 * magic, version, value encoding and possible counts.
 */
function readHeader(input: Uint8Array) {
  if (input.byteLength < HEADER_BYTES) formatError("TRUNCATED", `file of ${input.byteLength} bytes is shorter than the ${HEADER_BYTES}-byte header`);
  const magic = readAscii(input, 0, 8);
  if (magic !== DROUGHT_GRID_MAGIC) formatError("BAD_MAGIC", `wrong magic "${magic}", expected "${DROUGHT_GRID_MAGIC}"`);
  const view = new DataView(input.buffer, input.byteOffset, HEADER_BYTES);
  const formatVersion = view.getUint32(8, true);
  if (formatVersion !== DROUGHT_GRID_VERSION) formatError("UNSUPPORTED_VERSION", `unsupported format version ${formatVersion}, this reader reads ${DROUGHT_GRID_VERSION}`);
  const valueEncoding = view.getUint32(12, true);
  if (valueEncoding !== VALUE_ENCODING_FLOAT32) formatError("UNSUPPORTED_ENCODING", `unsupported value encoding ${valueEncoding}`);
  const h = {
    formatVersion,
    valueEncoding,
    nCells: view.getUint32(16, true),
    nMonths: view.getUint32(20, true),
    firstMonth: view.getInt32(24, true),
    nIndices: view.getUint32(28, true),
    baselineStart: view.getInt32(32, true),
    baselineEnd: view.getInt32(36, true),
    resolutionDeg: view.getFloat64(40, true),
    nCountries: view.getUint32(48, true),
    kdIndexBytes: view.getUint32(56, true),
    declaredBytes: view.getFloat64(64, true),
  };
  if (h.nCells < 1 || h.nMonths < 1 || h.nIndices < 1 || h.nCountries > 256) {
    formatError("INCONSISTENT", `impossible counts nCells=${h.nCells} nMonths=${h.nMonths} nIndices=${h.nIndices} nCountries=${h.nCountries}`);
  }
  return h;
}

function openParts(input: Uint8Array, external?: { fileBytes: number; read: ValueReader }): DroughtGrid {
  assertLittleEndian();
  const { formatVersion, valueEncoding, nCells, nMonths, firstMonth, nIndices, baselineStart, baselineEnd, resolutionDeg, nCountries, kdIndexBytes, declaredBytes } = readHeader(input);
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice();
  const buffer = bytes.buffer as ArrayBuffer;
  const base = bytes.byteOffset;
  const l = layout(nCells, nMonths, nIndices, nCountries, kdIndexBytes);
  if (declaredBytes !== l.fileBytes) formatError("INCONSISTENT", `header says ${declaredBytes} bytes but its counts give ${l.fileBytes}`);
  const available = external ? external.fileBytes : bytes.byteLength;
  if (available < l.fileBytes) formatError("TRUNCATED", `file has ${available} bytes, its header needs ${l.fileBytes}`);
  if (available > l.fileBytes) formatError("INCONSISTENT", `file has ${available - l.fileBytes} bytes after the last section`);
  if (external && bytes.byteLength !== l.values) formatError("INCONSISTENT", "paged open needs exactly the sections before the values");

  const indexNames: string[] = [];
  for (let i = 0; i < nIndices; i++) indexNames.push(readAscii(bytes, l.indexNames + i * INDEX_NAME_BYTES, INDEX_NAME_BYTES));
  const countries: string[] = [];
  for (let i = 0; i < nCountries; i++) countries.push(readAscii(bytes, l.countries + i * 4, 3));

  const cellIds = new Uint32Array(buffer, base + l.cellIds, nCells);
  const cellLats = new Float64Array(buffer, base + l.cellLats, nCells);
  const cellLngs = new Float64Array(buffer, base + l.cellLngs, nCells);
  const cellCountryNo = new Uint8Array(buffer, base + l.cellCountry, nCells);
  const anyValid = new Uint32Array(buffer, base + l.monthAnyValid, nMonths);
  const indexValid = new Uint32Array(buffer, base + l.monthIndexValid, nMonths * nIndices);
  const nValues = nCells * nMonths * nIndices;
  const values = external ? new Float32Array(0) : new Float32Array(buffer, base + l.values, nValues);
  const read: ValueReader = external ? external.read : (start, count) => values.subarray(start, start + count);

  // KDBush.from takes a whole ArrayBuffer, so its (small) section is copied once; the values stay zero-copy.
  let kd: KDBush;
  try {
    kd = KDBush.from(buffer.slice(base + l.kdIndex, base + l.kdIndex + kdIndexBytes));
  } catch (err) {
    return formatError("BAD_INDEX", `spatial index section is invalid: ${(err as Error).message}`);
  }
  if (kd.numItems !== nCells) formatError("INCONSISTENT", `spatial index holds ${kd.numItems} items, expected ${nCells}`);

  checkValues({ nCells, nMonths, nIndices, firstMonth, indexNames, cellIds, anyValid, indexValid }, read);

  let latestValidMonth: MonthIndex | null = null;
  for (let m = nMonths - 1; m >= 0; m--) {
    if (anyValid[m] > 0) {
      latestValidMonth = firstMonth + m;
      break;
    }
  }

  let nearestOf: ReturnType<typeof nearestCellSearch>;
  try {
    nearestOf = nearestCellSearch(kd, cellLats, cellLngs);
  } catch (err) {
    return formatError("BAD_INDEX", `spatial index section is invalid: ${(err as Error).message}`);
  }
  const nearestCell = (lat: number, lng: number): NearestCell => {
    if (!(lat >= -90 && lat <= 90) || !(lng >= -180 && lng <= 180)) {
      throw new RangeError(`nearestCell: invalid coordinates ${lat}, ${lng}`);
    }
    return nearestOf(lat, lng);
  };
  const nearGrid = coverageTest(cellLats, cellLngs, resolutionDeg);

  const checkCell = (cell: number): void => {
    if (!(cell >= 0 && cell < nCells) || !Number.isInteger(cell)) throw new RangeError(`cell ${cell} is outside 0..${nCells - 1}`);
  };
  const checkMonth = (m: number): void => {
    if (!(m >= 0 && m < nMonths) || !Number.isInteger(m)) throw new RangeError(`month offset ${m} is outside 0..${nMonths - 1}`);
  };

  return {
    formatVersion,
    valueEncoding,
    nCells,
    nMonths,
    nIndices,
    firstMonth,
    lastMonth: firstMonth + nMonths - 1,
    baselineStart,
    baselineEnd,
    resolutionDeg,
    indexNames,
    countries,
    latestValidMonth,
    cellIds,
    cellLats,
    cellLngs,
    values,
    cellId: (cell) => cellIds[cell],
    cellLat: (cell) => cellLats[cell],
    cellLng: (cell) => cellLngs[cell],
    cellCountry: (cell) => countries[cellCountryNo[cell]],
    monthOffset: (month) => (month >= firstMonth && month < firstMonth + nMonths ? month - firstMonth : -1),
    indexNo: (name) => indexNames.indexOf(name),
    record(cell, monthOffset) {
      checkCell(cell);
      checkMonth(monthOffset);
      return read((cell * nMonths + monthOffset) * nIndices, nIndices);
    },
    value(cell, monthOffset, indexNo) {
      checkCell(cell);
      checkMonth(monthOffset);
      if (!(indexNo >= 0 && indexNo < nIndices)) throw new RangeError(`index number ${indexNo} is outside 0..${nIndices - 1}`);
      return external ? read((cell * nMonths + monthOffset) * nIndices + indexNo, 1)[0] : values[(cell * nMonths + monthOffset) * nIndices + indexNo];
    },
    monthValidCount(monthOffset, indexNo) {
      checkMonth(monthOffset);
      if (indexNo === undefined) return anyValid[monthOffset];
      if (!(indexNo >= 0 && indexNo < nIndices)) throw new RangeError(`index number ${indexNo} is outside 0..${nIndices - 1}`);
      return indexValid[monthOffset * nIndices + indexNo];
    },
    nearestCell,
    covers: (lat, lng) => nearGrid(lat, lng),
  };
}
