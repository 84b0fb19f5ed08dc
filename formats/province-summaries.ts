// province-summaries.bin: monthly area-weighted index means per province. Writer and reader side by side; the
// reader only makes typed-array views over the bytes (see province-summaries.md for the layout).
import { formatMonth, type MonthIndex } from "../lib/months.ts";
import { describeRange, indexRange, indexRanges, outOfRange, showFloat32 } from "./index-range.ts";

export const SUMMARIES_MAGIC = "THPSUM01";
export const SUMMARIES_VERSION = 1;

export interface SummariesContent {
  /** Index names in record order, e.g. ["spei1", "spei3", "spi3"]. */
  indexNames: string[];
  nProvinces: number;
  nMonths: number;
  firstMonth: MonthIndex;
  /** values[(province * nMonths + month) * nIndices + k], NaN = missing. */
  values: Float32Array;
  /** Cells used per province and month (one count per record). */
  cellsUsed: Uint16Array;
}

const FIXED_HEADER = 32; // magic 8, version, nProvinces, nMonths, firstMonth, nIndices, dataOffset (u32/i32 each)

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Record stride in float32 slots: the values, then one slot holding uint16 cellsUsed + uint16 zero padding. */
function recordSlots(nIndices: number): number {
  return nIndices + 1;
}

export function writeProvinceSummaries(c: SummariesContent): Uint8Array {
  const nIndices = c.indexNames.length;
  const nRecords = c.nProvinces * c.nMonths;
  if (c.values.length !== nRecords * nIndices) {
    throw new Error(`values has ${c.values.length} entries, expected ${nRecords * nIndices}`);
  }
  if (c.cellsUsed.length !== nRecords) throw new Error(`cellsUsed has ${c.cellsUsed.length} entries, expected ${nRecords}`);
  const { min, max } = indexRanges(c.indexNames);
  const outside = c.values.findIndex((v, i) => outOfRange(v, min[i % nIndices], max[i % nIndices]));
  if (outside >= 0) throw new Error(`value ${showFloat32(c.values[outside])} of ${c.indexNames[outside % nIndices]} is outside ${describeRange(indexRange(c.indexNames[outside % nIndices]))}`);
  for (let r = 0; r < nRecords; r++) {
    const values = c.values.subarray(r * nIndices, (r + 1) * nIndices).some((v) => v === v);
    if ((c.cellsUsed[r] > 0) !== values) throw new Error(`record ${r} has ${values ? "values" : "no value"} but ${c.cellsUsed[r]} cells used`);
  }
  const names = c.indexNames.map((n) => new TextEncoder().encode(n));
  for (const [i, b] of names.entries()) {
    if (b.length === 0 || b.length > 255) throw new Error(`index name ${i} must be 1..255 UTF-8 bytes`);
  }
  const namesLen = names.reduce((s, b) => s + 1 + b.length, 0);
  const dataOffset = align4(FIXED_HEADER + namesLen);
  const slots = recordSlots(nIndices);
  const bytes = new Uint8Array(dataOffset + nRecords * slots * 4);
  const dv = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(SUMMARIES_MAGIC), 0);
  dv.setUint32(8, SUMMARIES_VERSION, true);
  dv.setUint32(12, c.nProvinces, true);
  dv.setUint32(16, c.nMonths, true);
  dv.setInt32(20, c.firstMonth, true);
  dv.setUint32(24, nIndices, true);
  dv.setUint32(28, dataOffset, true);
  let o = FIXED_HEADER;
  for (const b of names) {
    bytes[o++] = b.length;
    bytes.set(b, o);
    o += b.length;
  }
  for (let r = 0; r < nRecords; r++) {
    const base = dataOffset + r * slots * 4;
    for (let k = 0; k < nIndices; k++) dv.setFloat32(base + 4 * k, c.values[r * nIndices + k], true);
    dv.setUint16(base + 4 * nIndices, c.cellsUsed[r], true);
  }
  return bytes;
}

export class ProvinceSummariesReader {
  readonly indexNames: string[];
  readonly nProvinces: number;
  readonly nMonths: number;
  readonly firstMonth: MonthIndex;
  readonly nIndices: number;
  private readonly f32: Float32Array;
  private readonly u16: Uint16Array;
  private readonly slots: number;

  /** Views over `bytes` (copied once only when not 4-byte aligned, e.g. a pooled small Buffer). */
  constructor(bytes: Uint8Array, source = "province-summaries.bin") {
    if (bytes.length < FIXED_HEADER) throw new Error(`${source}: truncated header (${bytes.length} bytes)`);
    const magic = new TextDecoder().decode(bytes.subarray(0, 8));
    if (magic !== SUMMARIES_MAGIC) throw new Error(`${source}: bad magic "${magic.replace(/[^\x20-\x7e]/g, "?")}", expected ${SUMMARIES_MAGIC}`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = dv.getUint32(8, true);
    if (version !== SUMMARIES_VERSION) throw new Error(`${source}: unsupported version ${version}, expected ${SUMMARIES_VERSION}`);
    this.nProvinces = dv.getUint32(12, true);
    this.nMonths = dv.getUint32(16, true);
    this.firstMonth = dv.getInt32(20, true);
    this.nIndices = dv.getUint32(24, true);
    const dataOffset = dv.getUint32(28, true);
    if (dataOffset % 4 !== 0 || dataOffset > bytes.length) throw new Error(`${source}: bad data offset ${dataOffset}`);
    this.indexNames = [];
    let o = FIXED_HEADER;
    for (let k = 0; k < this.nIndices; k++) {
      const len = bytes[o];
      if (o + 1 + len > dataOffset) throw new Error(`${source}: index names overrun the header`);
      this.indexNames.push(new TextDecoder().decode(bytes.subarray(o + 1, o + 1 + len)));
      o += 1 + len;
    }
    this.slots = recordSlots(this.nIndices);
    const expected = dataOffset + this.nProvinces * this.nMonths * this.slots * 4;
    if (bytes.length !== expected) {
      throw new Error(`${source}: size ${bytes.length} bytes, expected ${expected} (${bytes.length < expected ? "truncated" : "trailing bytes"})`);
    }
    let buf = bytes;
    if ((bytes.byteOffset + dataOffset) % 4 !== 0) buf = bytes.slice();
    const nSlots = (expected - dataOffset) / 4;
    this.f32 = new Float32Array(buf.buffer, buf.byteOffset + dataOffset, nSlots);
    this.u16 = new Uint16Array(buf.buffer, buf.byteOffset + dataOffset, nSlots * 2);
    this.checkValues(source);
  }

  /**
   * Means of standardised indices obey the grid's range (index-range.ts): finite, within the index's range. NaN (missing)
   * agrees with cellsUsed: a record with cells has a value of some index, a record without cells has none (a NaN
   * written over a province's record would otherwise make it answer "no data").
   */
  private checkValues(source: string): void {
    const f32 = this.f32;
    const where = (r: number) => `province ${Math.floor(r / this.nMonths)}, ${formatMonth(this.firstMonth + (r % this.nMonths))}`;
    const { min, max } = indexRanges(this.indexNames);
    for (let r = 0, at = 0; r < this.nProvinces * this.nMonths; r++, at += this.slots) {
      let values = 0;
      for (let k = 0; k < this.nIndices; k++) {
        const v = f32[at + k];
        if (v === v) values++;
        if (outOfRange(v, min[k], max[k])) throw new Error(`${source}: value ${showFloat32(v)} of ${this.indexNames[k]} for ${where(r)} is outside ${describeRange(indexRange(this.indexNames[k]))}`);
      }
      const cells = this.u16[(at + this.nIndices) * 2];
      if ((cells > 0) !== (values > 0)) throw new Error(`${source}: ${where(r)} has ${values} index values (the others NaN) but ${cells} cells used`);
    }
  }

  /** Offset of a MonthIndex from firstMonth, or -1 when the file does not cover it. */
  monthOffset(m: MonthIndex): number {
    const off = m - this.firstMonth;
    return Number.isInteger(off) && off >= 0 && off < this.nMonths ? off : -1;
  }

  private recordIndex(provinceIdx: number, month: number): number {
    if (!(provinceIdx >= 0 && provinceIdx < this.nProvinces && Number.isInteger(provinceIdx))) {
      throw new RangeError(`province index ${provinceIdx} out of range 0..${this.nProvinces - 1}`);
    }
    if (!(month >= 0 && month < this.nMonths && Number.isInteger(month))) {
      throw new RangeError(`month offset ${month} out of range 0..${this.nMonths - 1}`);
    }
    return provinceIdx * this.nMonths + month;
  }

  /** Index values of one province and month (month = offset from firstMonth); a view, not a copy. */
  record(provinceIdx: number, month: number): Float32Array {
    const start = this.recordIndex(provinceIdx, month) * this.slots;
    return this.f32.subarray(start, start + this.nIndices);
  }

  cellsUsed(provinceIdx: number, month: number): number {
    const slot = this.recordIndex(provinceIdx, month) * this.slots + this.nIndices;
    return this.u16[slot * 2]; // little-endian: the low half of the slot
  }
}
