// One small read interface over NetCDF-3 (classic CDF-1 and 64-bit offset CDF-2, header parsed by netcdfjs) and
// NetCDF-4 (HDF5, through h5wasm). The format is chosen by the file's magic bytes, never by its name. Every error
// names the file, and the variable where there is one: "FILE: variable "VAR": reason", or for a file that cannot
// be opened at all "FILE: not a readable NetCDF file (truncated?): reason" — the libraries' own messages
// ("error - name not defined!", "Offset is outside the bounds of the DataView") say neither.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { NetCDFReader } from "netcdfjs";
// h5wasm is loaded on the first NetCDF-4 file: its 4 MB module (the HDF5 library as WebAssembly) took 4 s to import
// under tsx, for every pipeline command that only might read NetCDF (the sources status).
import type H5wasm from "h5wasm/node";
import type { Attributes, AttributeValue } from "./cf.ts";

export interface NcVariable {
  name: string;
  /** Dimension names, slowest-varying first. */
  dims: string[];
  shape: number[];
  /** Storage type: "byte" | "char" | "short" | "int" | "float" | "double" (NetCDF-3) or the HDF5 type name. */
  type: string;
  attributes: Attributes;
}

export interface NcDataset {
  path: string;
  format: "netcdf3" | "netcdf4";
  variables: Map<string, NcVariable>;
  globalAttributes: Attributes;
  /**
   * Raw stored values (not unpacked, fill values kept) of a variable, whole or the hyperslab start/count,
   * in row-major order of the slab.
   */
  read(name: string, start?: number[], count?: number[]): Float64Array;
  close(): void;
}

export type NetcdfFormat = "netcdf3" | "netcdf4";

/** Format from the first bytes: "CDF\x01"/"CDF\x02" → NetCDF-3, "\x89HDF\r\n\x1a\n" → NetCDF-4 (HDF5). */
export function detectFormat(head: Uint8Array, path: string): NetcdfFormat {
  const isCdf = head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46;
  if (isCdf && (head[3] === 1 || head[3] === 2)) return "netcdf3";
  if (isCdf && head[3] === 5) throw new Error(`${path}: NetCDF CDF-5 (64-bit data) files are not supported`);
  if (head[0] === 0x89 && head[1] === 0x48 && head[2] === 0x44 && head[3] === 0x46) return "netcdf4";
  // The CDS sends a ZIP of one NetCDF per step type when a request mixes them (pipeline/sources/era5-answer.ts).
  if (head[0] === 0x50 && head[1] === 0x4b) throw new Error(`${path}: a ZIP archive, not a NetCDF file (unpack it: the CDS zips one NetCDF per step type)`);
  throw new Error(`${path}: not a NetCDF file (unknown magic bytes ${Array.from(head.subarray(0, 4), hex).join(" ")})`);
}

function hex(b: number): string {
  return b.toString(16).padStart(2, "0");
}

/** The error of a file the reader cannot open at all (a cut-off header, a damaged superblock). */
export function unreadableFile(path: string, reason: string): Error {
  return new Error(`${path}: not a readable NetCDF file (truncated?): ${reason}`);
}

/** The error of reading one variable. */
export function variableError(path: string, name: string, reason: string): Error {
  return new Error(`${path}: variable "${name}": ${reason}`);
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function readHead(path: string): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const head = new Uint8Array(8);
    readSync(fd, head, 0, 8, 0);
    return head;
  } finally {
    closeSync(fd);
  }
}

export async function openNetcdf(path: string): Promise<NcDataset> {
  const format = detectFormat(readHead(path), path);
  return format === "netcdf3" ? openNetcdf3(path) : openNetcdf4(path);
}

/** Checks start/count against the shape and fills in defaults (whole variable). */
function resolveSlab(v: NcVariable, path: string, start?: number[], count?: number[]): [number[], number[]] {
  const s = start ?? v.shape.map(() => 0);
  const c = count ?? v.shape.map((n, i) => n - s[i]);
  if (s.length !== v.shape.length || c.length !== v.shape.length) {
    throw variableError(path, v.name, `has ${v.shape.length} dimensions, hyperslab has ${s.length}/${c.length}`);
  }
  for (let i = 0; i < s.length; i++) {
    if (s[i] < 0 || c[i] < 0 || s[i] + c[i] > v.shape[i]) {
      throw variableError(path, v.name, `hyperslab [${s}]+[${c}] is outside its shape [${v.shape}]`);
    }
  }
  return [s, c];
}

function getVariable(variables: Map<string, NcVariable>, name: string, path: string): NcVariable {
  const v = variables.get(name);
  if (!v) throw new Error(`${path}: no variable "${name}"`);
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// NetCDF-3: netcdfjs parses the header; the data are read here straight from big-endian bytes (netcdfjs would
// build a JS array of boxed numbers, and it sizes records from the padded vsize).

const NC3_SIZE: Record<string, number> = { byte: 1, char: 1, short: 2, int: 4, float: 4, double: 8 };

function nc3Attributes(list: { name: string; value: unknown }[]): Attributes {
  const out: Attributes = {};
  for (const a of list) out[a.name] = attributeValue(a.value);
  return out;
}

function attributeValue(v: unknown): AttributeValue {
  if (typeof v === "string") return v;
  if (typeof v === "number") return [v];
  if (typeof v === "bigint") return [Number(v)];
  if (ArrayBuffer.isView(v) || Array.isArray(v)) return Array.from(v as ArrayLike<number | bigint>, Number);
  return String(v);
}

function openNetcdf3(path: string): NcDataset {
  const bytes = readFileSync(path);
  let reader: NetCDFReader;
  try {
    reader = new NetCDFReader(bytes);
  } catch (e) {
    throw unreadableFile(path, `NetCDF-3 header: ${messageOf(e)}`);
  }
  const dims = reader.dimensions;
  const recordId = reader.recordDimension.id;
  const numRecords = reader.recordDimension.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const variables = new Map<string, NcVariable>();
  const layout = new Map<string, { begin: number; record: boolean; size: number; perRecord: number }>();
  const recordVars = reader.variables.filter((v) => v.record);
  for (const v of reader.variables) {
    const shape = v.dimensions.map((d) => (d === recordId ? numRecords : dims[d].size));
    variables.set(v.name, {
      name: v.name,
      dims: v.dimensions.map((d) => dims[d].name),
      shape,
      type: v.type,
      attributes: nc3Attributes(v.attributes as { name: string; value: unknown }[]),
    });
    const size = NC3_SIZE[v.type];
    const perRecord = shape.slice(v.record ? 1 : 0).reduce((a, b) => a * b, 1) * size;
    layout.set(v.name, { begin: v.offset, record: v.record, size, perRecord });
  }
  // Record size: padded per-record sizes, except a lone record variable is not padded (NetCDF classic spec).
  const recordSize = recordVars.length === 1
    ? layout.get(recordVars[0].name)!.perRecord
    : recordVars.reduce((sum, v) => sum + Math.ceil(layout.get(v.name)!.perRecord / 4) * 4, 0);

  function readOne(type: string, offset: number): number {
    switch (type) {
      case "byte": return view.getInt8(offset);
      case "char": return view.getUint8(offset);
      case "short": return view.getInt16(offset, false);
      case "int": return view.getInt32(offset, false);
      case "float": return view.getFloat32(offset, false);
      default: return view.getFloat64(offset, false);
    }
  }

  return {
    path,
    format: "netcdf3",
    variables,
    globalAttributes: nc3Attributes(reader.globalAttributes as { name: string; value: unknown }[]),
    read(name, start, count) {
      const v = getVariable(variables, name, path);
      const [s, c] = resolveSlab(v, path, start, count);
      const L = layout.get(name)!;
      const rank = v.shape.length;
      const total = c.reduce((a, b) => a * b, 1);
      const out = new Float64Array(total);
      if (total === 0) return out;
      if (rank === 0) return Float64Array.of(readOne(v.type, L.begin));
      // Byte strides: the record dimension steps by whole records, the others within one record (or variable).
      const strides = new Array<number>(rank).fill(L.size);
      for (let i = rank - 2; i >= 0; i--) strides[i] = strides[i + 1] * v.shape[i + 1];
      if (L.record) strides[0] = recordSize;
      const last = rank - 1;
      const step = strides[last];
      if (L.begin + c.reduce((sum, n, i) => sum + (s[i] + n - 1) * strides[i], 0) + L.size > bytes.byteLength) {
        throw variableError(path, name, "data run past the end of the file (truncated?)");
      }
      const idx = s.slice();
      try {
        for (let o = 0; o < total;) {
          let first = L.begin;
          for (let i = 0; i < rank; i++) first += idx[i] * strides[i];
          for (let k = 0; k < c[last]; k++) out[o++] = readOne(v.type, first + k * step);
          // Next run: advance the multi-index over all but the last dimension.
          for (let d = last - 1; d >= 0; d--) {
            if (++idx[d] < s[d] + c[d]) break;
            idx[d] = s[d];
          }
        }
      } catch (e) {
        throw variableError(path, name, messageOf(e));
      }
      return out;
    },
    close() {},
  };
}

// ---------------------------------------------------------------------------------------------------------------
// NetCDF-4 (HDF5): datasets in the root group are variables; dimension names come from the attached dimension
// scales. Dimension-only scales written by the netCDF library are not variables.

const HDF5_INTERNAL_ATTRS = new Set(["CLASS", "NAME", "REFERENCE_LIST", "DIMENSION_LIST", "_Netcdf4Dimid",
  "_Netcdf4Coordinates", "_NCProperties", "_nc3_strict"]);

function h5Type(dtype: unknown): string {
  switch (dtype) {
    case "<f": case ">f": return "float";
    case "<d": case ">d": return "double";
    case "<h": case ">h": return "short";
    case "<i": case ">i": return "int";
    case "<b": case ">b": return "byte";
    case "<q": case ">q": return "int64";
    default: return String(dtype);
  }
}

interface Hdf5ErrorSwitch {
  activate_throwing_error_handler(): number;
  deactivate_throwing_error_handler(): number;
}

/**
 * Runs `fn` with HDF5's error handler switched to throwing: a failing HDF5 call then throws its error stack
 * instead of printing it to stderr and leaving h5wasm to fail later with "error - name not defined!".
 */
function withHdf5Errors<T>(lib: Hdf5ErrorSwitch, fn: () => T): T {
  lib.activate_throwing_error_handler();
  try {
    return fn();
  } finally {
    lib.deactivate_throwing_error_handler();
  }
}

/** The innermost cause of an HDF5 error stack ("#006: … in H5F__super_read(): truncated file: eof = 50, …"). */
export function hdf5Reason(e: unknown): string {
  const text = messageOf(e);
  const causes = [...text.matchAll(/#\d+: .* in [\w.]+\(\): (.*)/g)].map((m) => m[1].trim());
  return causes.at(-1) ?? text.split("\n")[0];
}

type H5Dataset = InstanceType<typeof H5wasm.Dataset>;

/** A dataset's variable description; dimension-only scales written by the netCDF library are not variables. */
function describeDataset(key: string, entity: H5Dataset): NcVariable | undefined {
  const attrs = entity.attrs;
  const nameAttr = attrs.NAME?.value;
  if (typeof nameAttr === "string" && nameAttr.startsWith("This is a netCDF dimension but not a netCDF variable")) return undefined;
  const shape = entity.shape ?? [];
  const dims = shape.map((_, i) => {
    let scales: string[] = [];
    try {
      scales = entity.get_attached_scales(i);
    } catch {
      scales = [];
    }
    if (scales.length > 0) return scales[0].replace(/^.*\//, "");
    if (attrs.CLASS?.value === "DIMENSION_SCALE" && shape.length === 1) return key;
    return `dim${i}`;
  });
  const attributes: Attributes = {};
  for (const [name, a] of Object.entries(attrs)) {
    if (HDF5_INTERNAL_ATTRS.has(name)) continue;
    attributes[name] = attributeValue(a.value);
  }
  return { name: key, dims, shape, type: h5Type(entity.dtype), attributes };
}

async function openNetcdf4(path: string): Promise<NcDataset> {
  const { default: h5wasm } = await import("h5wasm/node");
  const lib = (await h5wasm.ready) as unknown as Hdf5ErrorSwitch;
  let file: InstanceType<typeof H5wasm.File>;
  let keys: string[];
  try {
    [file, keys] = withHdf5Errors(lib, () => {
      const f = new h5wasm.File(path, "r");
      return [f, f.keys()] as const;
    });
  } catch (e) {
    throw unreadableFile(path, `HDF5: ${hdf5Reason(e)}`);
  }
  const variables = new Map<string, NcVariable>();
  const datasets = new Map<string, H5Dataset>();
  for (const key of keys) {
    try {
      const entity = withHdf5Errors(lib, () => file.get(key));
      if (!(entity instanceof h5wasm.Dataset)) continue;
      const v = withHdf5Errors(lib, () => describeDataset(key, entity));
      if (!v) continue;
      variables.set(key, v);
      datasets.set(key, entity);
    } catch (e) {
      file.close();
      throw variableError(path, key, `HDF5: ${hdf5Reason(e)}`);
    }
  }
  const globalAttributes: Attributes = {};
  for (const [name, a] of Object.entries(file.attrs)) {
    if (!HDF5_INTERNAL_ATTRS.has(name)) globalAttributes[name] = attributeValue(a.value);
  }
  return {
    path,
    format: "netcdf4",
    variables,
    globalAttributes,
    read(name, start, count) {
      const v = getVariable(variables, name, path);
      const [s, c] = resolveSlab(v, path, start, count);
      const ds = datasets.get(name)!;
      let data: ReturnType<H5Dataset["slice"]>;
      try {
        data = withHdf5Errors(lib, () => (v.shape.length === 0 ? ds.value : ds.slice(s.map((x, i) => [x, x + c[i]] as [number, number]))));
      } catch (e) {
        throw variableError(path, name, `HDF5: ${hdf5Reason(e)}`);
      }
      if (typeof data === "number" || typeof data === "bigint") return Float64Array.of(Number(data));
      if (!ArrayBuffer.isView(data) || data instanceof DataView) {
        throw variableError(path, name, `not numeric (type ${v.type})`);
      }
      return Float64Array.from(data as ArrayLike<number | bigint>, Number);
    },
    close() {
      file.close();
    },
  };
}
