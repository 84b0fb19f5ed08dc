// Day series file (`*.dseries`): many daily series, each a set of Float32 columns on a gap-free day axis.
// Layout (little-endian): "DSER" | uint32 version (1) | uint32 header bytes H | header JSON (UTF-8, space-padded
// to a multiple of 4) | Float32 column blocks in header order. The reader returns zero-copy Float32Array views.
// See day-series.md.
export const DAY_SERIES_MAGIC = "DSER";
export const DAY_SERIES_VERSION = 1;

export interface DaySeriesEntry {
  key: string;
  /** Days since 1970-01-01 UTC of the first value. */
  firstDay: number;
  columns: Record<string, Float32Array>;
}

interface HeaderEntry {
  key: string;
  firstDay: number;
  days: number;
  columns: string[];
}

export function writeDaySeries(series: DaySeriesEntry[]): Uint8Array {
  const header: HeaderEntry[] = series.map((s) => {
    const names = Object.keys(s.columns);
    const days = names.length > 0 ? s.columns[names[0]].length : 0;
    for (const n of names) if (s.columns[n].length !== days) throw new Error(`series ${s.key}: column ${n} has ${s.columns[n].length} values, expected ${days}`);
    return { key: s.key, firstDay: s.firstDay, days, columns: names };
  });
  let json = JSON.stringify(header);
  while (Buffer.byteLength(json) % 4 !== 0) json += " ";
  const headerBytes = Buffer.from(json, "utf8");
  let floats = 0;
  for (const h of header) floats += h.days * h.columns.length;
  const out = new Uint8Array(12 + headerBytes.length + floats * 4);
  const view = new DataView(out.buffer);
  out.set(Buffer.from(DAY_SERIES_MAGIC, "ascii"), 0);
  view.setUint32(4, DAY_SERIES_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  let offset = 12 + headerBytes.length;
  for (let i = 0; i < series.length; i++) {
    for (const name of header[i].columns) {
      const col = series[i].columns[name];
      for (let d = 0; d < col.length; d++) view.setFloat32(offset + d * 4, col[d], true);
      offset += col.length * 4;
    }
  }
  return out;
}

export function readDaySeries(bytes: Uint8Array): DaySeriesEntry[] {
  if (bytes.length < 12 || Buffer.from(bytes.subarray(0, 4)).toString("ascii") !== DAY_SERIES_MAGIC) throw new Error("not a day series file (bad magic)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== DAY_SERIES_VERSION) throw new Error(`day series version ${version} is not supported`);
  const h = view.getUint32(8, true);
  const header = JSON.parse(Buffer.from(bytes.subarray(12, 12 + h)).toString("utf8")) as HeaderEntry[];
  // Float32Array views need a 4-byte aligned offset: copy once if the buffer is not aligned.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  let offset = aligned.byteOffset + 12 + h;
  const end = aligned.byteOffset + aligned.byteLength;
  const series = header.map((e) => {
    const columns: Record<string, Float32Array> = {};
    for (const name of e.columns) {
      if (offset + e.days * 4 > end) throw new Error(`day series file is truncated in ${e.key}.${name}`);
      const column = new Float32Array(aligned.buffer, offset, e.days);
      // NaN = no data that day; no series has an infinite value.
      const inf = column.findIndex((v) => v === Infinity || v === -Infinity);
      if (inf >= 0) throw new Error(`day series ${e.key}.${name}: value ${inf} is ${column[inf]}`);
      columns[name] = column;
      offset += e.days * 4;
    }
    return { key: e.key, firstDay: e.firstDay, columns };
  });
  if (offset !== end) throw new Error(`day series file has ${end - offset} bytes after the last series`);
  return series;
}
