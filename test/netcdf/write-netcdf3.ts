// A tiny NetCDF-3 classic (CDF-1, or CDF-2 with 64-bit offsets) writer for tests: header (dim_list, gatt_list, var_list), then the
// non-record data, then the records, all big-endian (NetCDF Classic Format Specification).
import { writeFileSync } from "node:fs";

export type Nc3Type = "byte" | "char" | "short" | "int" | "float" | "double";
export type Nc3Attr = string | { type: Nc3Type; values: number[] };

export interface Nc3Variable {
  name: string;
  dims: string[];
  type: Nc3Type;
  attrs?: Record<string, Nc3Attr>;
  /** Row-major values; for a record variable, record after record. */
  data: ArrayLike<number>;
}

export interface Nc3File {
  /** size 0 marks the record (unlimited) dimension; its length is the number of records. */
  dims: { name: string; size: number }[];
  numRecords?: number;
  /** 1 = classic (CDF-1, default), 2 = 64-bit offset (CDF-2: begin offsets are 8 bytes). */
  version?: 1 | 2;
  globalAttrs?: Record<string, Nc3Attr>;
  variables: Nc3Variable[];
}

const TYPE_CODE: Record<Nc3Type, number> = { byte: 1, char: 2, short: 3, int: 4, float: 5, double: 6 };
const TYPE_SIZE: Record<Nc3Type, number> = { byte: 1, char: 1, short: 2, int: 4, float: 4, double: 8 };

class Writer {
  bytes: number[] = [];
  int(n: number) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    this.bytes.push(...b);
  }
  pad() {
    while (this.bytes.length % 4) this.bytes.push(0);
  }
  name(s: string) {
    const b = Buffer.from(s, "utf8");
    this.int(b.length);
    this.bytes.push(...b);
    this.pad();
  }
  value(type: Nc3Type, v: number) {
    const b = Buffer.alloc(TYPE_SIZE[type]);
    if (type === "byte") b.writeInt8(v);
    else if (type === "char") b.writeUInt8(v);
    else if (type === "short") b.writeInt16BE(v);
    else if (type === "int") b.writeInt32BE(v);
    else if (type === "float") b.writeFloatBE(v);
    else b.writeDoubleBE(v);
    this.bytes.push(...b);
  }
  attrs(list: Record<string, Nc3Attr> | undefined) {
    const entries = Object.entries(list ?? {});
    if (entries.length === 0) {
      this.int(0);
      this.int(0);
      return;
    }
    this.int(0x0c);
    this.int(entries.length);
    for (const [name, a] of entries) {
      this.name(name);
      if (typeof a === "string") {
        const b = Buffer.from(a, "utf8");
        this.int(TYPE_CODE.char);
        this.int(b.length);
        this.bytes.push(...b);
      } else {
        this.int(TYPE_CODE[a.type]);
        this.int(a.values.length);
        for (const v of a.values) this.value(a.type, v);
      }
      this.pad();
    }
  }
}

export function encodeNetcdf3(file: Nc3File): Buffer {
  const recordDim = file.dims.findIndex((d) => d.size === 0);
  const numRecords = file.numRecords ?? 0;
  const dimIndex = new Map(file.dims.map((d, i) => [d.name, i]));
  const isRecord = (v: Nc3Variable) => recordDim >= 0 && dimIndex.get(v.dims[0]) === recordDim;
  const perRecordBytes = (v: Nc3Variable) =>
    v.dims.slice(isRecord(v) ? 1 : 0).reduce((n, d) => n * file.dims[dimIndex.get(d)!].size, 1) * TYPE_SIZE[v.type];
  const vsize = (v: Nc3Variable) => Math.ceil(perRecordBytes(v) / 4) * 4;

  // Header twice: the first pass measures it so that the variables' begin offsets can be filled in.
  const header = (begins: number[]) => {
    const w = new Writer();
    w.bytes.push(0x43, 0x44, 0x46, file.version ?? 1);
    w.int(numRecords);
    w.int(0x0a);
    w.int(file.dims.length);
    for (const d of file.dims) {
      w.name(d.name);
      w.int(d.size);
    }
    w.attrs(file.globalAttrs);
    w.int(0x0b);
    w.int(file.variables.length);
    file.variables.forEach((v, i) => {
      w.name(v.name);
      w.int(v.dims.length);
      for (const d of v.dims) w.int(dimIndex.get(d)!);
      w.attrs(v.attrs);
      w.int(TYPE_CODE[v.type]);
      w.int(vsize(v));
      if (file.version === 2) w.int(0);
      w.int(begins[i] ?? 0);
    });
    return w;
  };
  const headerLength = header([]).bytes.length;
  const fixed = file.variables.filter((v) => !isRecord(v));
  const records = file.variables.filter(isRecord);
  const begins: number[] = [];
  let at = headerLength;
  for (const v of fixed) {
    begins[file.variables.indexOf(v)] = at;
    at += vsize(v);
  }
  const recordSize = records.length === 1 ? perRecordBytes(records[0]) : records.reduce((n, v) => n + vsize(v), 0);
  let inRecord = 0;
  for (const v of records) {
    begins[file.variables.indexOf(v)] = at + inRecord;
    inRecord += vsize(v);
  }
  const w = header(begins);
  for (const v of fixed) {
    for (let i = 0; i < v.data.length; i++) w.value(v.type, v.data[i]);
    w.pad();
  }
  for (let r = 0; r < numRecords; r++) {
    const start = w.bytes.length;
    for (const v of records) {
      const n = perRecordBytes(v) / TYPE_SIZE[v.type];
      for (let i = 0; i < n; i++) w.value(v.type, v.data[r * n + i]);
      if (records.length > 1) w.pad();
    }
    while (w.bytes.length < start + recordSize) w.bytes.push(0);
  }
  return Buffer.from(w.bytes);
}

export function writeNetcdf3(path: string, file: Nc3File): void {
  writeFileSync(path, encodeNetcdf3(file));
}

export function shortAttr(...values: number[]): Nc3Attr {
  return { type: "short", values };
}

export function floatAttr(...values: number[]): Nc3Attr {
  return { type: "float", values };
}

export function doubleAttr(...values: number[]): Nc3Attr {
  return { type: "double", values };
}
