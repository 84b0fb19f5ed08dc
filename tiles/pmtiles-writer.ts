// PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md). Tiles are added in any
// order; finish() sorts them by Hilbert tile id, stores identical contents once (runs of equal consecutive
// tiles become one entry with a run length), and lays the archive out as
//   header (127 B) | root directory | JSON metadata | leaf directories | tile data
// with gzip-compressed directories and metadata. Leaf directories are used only when the root directory
// would not fit in the first 16 KiB.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { zxyToTileId } from "pmtiles";
import type { BBox } from "./tile-math.ts";

export const PMTILES_HEADER_BYTES = 127;
const ROOT_LIMIT = 16384 - PMTILES_HEADER_BYTES;

export const COMPRESSION = { none: 1, gzip: 2 } as const;
export const TILE_TYPE = { mvt: 1, png: 2 } as const;

export interface PmtilesOptions {
  tileType: keyof typeof TILE_TYPE;
  /** How the tile bytes given to add() are compressed (they are stored as given). */
  tileCompression: keyof typeof COMPRESSION;
  bbox: BBox;
  minZoom: number;
  maxZoom: number;
  center?: [lng: number, lat: number, zoom: number];
  metadata: Record<string, unknown>;
}

export interface DirEntry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function writeVarint(out: number[], n: number): void {
  // Division instead of bit operations: tile ids and offsets may exceed 2^31.
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/** Directory bytes (uncompressed) of the spec's column layout. */
export function serializeDirectory(entries: readonly DirEntry[]): Uint8Array {
  const out: number[] = [];
  writeVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    writeVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) writeVarint(out, e.runLength);
  for (const e of entries) writeVarint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    writeVarint(out, i > 0 && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Uint8Array.from(out);
}

function gzip(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(bytes, { level: 9 }));
}

/** Root and leaf directories, leaves grown until the root fits in the first 16 KiB. */
function buildDirectories(entries: DirEntry[]): { root: Uint8Array; leaves: Uint8Array } {
  const whole = gzip(serializeDirectory(entries));
  if (whole.length <= ROOT_LIMIT) return { root: whole, leaves: new Uint8Array(0) };
  let leafSize = Math.max(4096, Math.ceil(entries.length / 3500));
  while (true) {
    const rootEntries: DirEntry[] = [];
    const leafParts: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = gzip(serializeDirectory(entries.slice(i, i + leafSize)));
      rootEntries.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      leafParts.push(leaf);
      offset += leaf.length;
    }
    const root = gzip(serializeDirectory(rootEntries));
    if (root.length <= ROOT_LIMIT) return { root, leaves: Buffer.concat(leafParts) };
    leafSize = Math.ceil(leafSize * 1.2);
  }
}

export class PmtilesWriter {
  private readonly tiles = new Map<number, Uint8Array>();

  constructor(private readonly opts: PmtilesOptions) {}

  get size(): number {
    return this.tiles.size;
  }

  add(z: number, x: number, y: number, bytes: Uint8Array): void {
    if (z < this.opts.minZoom || z > this.opts.maxZoom) throw new Error(`tile ${z}/${x}/${y} is outside zooms ${this.opts.minZoom}-${this.opts.maxZoom}`);
    const id = zxyToTileId(z, x, y);
    if (this.tiles.has(id)) throw new Error(`tile ${z}/${x}/${y} added twice`);
    this.tiles.set(id, bytes);
  }

  /** The complete archive. */
  finish(): Uint8Array {
    const ids = [...this.tiles.keys()].sort((a, b) => a - b);
    const entries: DirEntry[] = [];
    const parts: Uint8Array[] = [];
    const offsetOfContent = new Map<string, { offset: number; length: number }>();
    let dataLength = 0;
    for (const id of ids) {
      const bytes = this.tiles.get(id)!;
      const hash = createHash("sha1").update(bytes).digest("base64");
      let place = offsetOfContent.get(hash);
      if (place === undefined) {
        place = { offset: dataLength, length: bytes.length };
        offsetOfContent.set(hash, place);
        parts.push(bytes);
        dataLength += bytes.length;
      }
      const last = entries[entries.length - 1];
      if (last !== undefined && last.offset === place.offset && last.tileId + last.runLength === id) last.runLength++;
      else entries.push({ tileId: id, offset: place.offset, length: place.length, runLength: 1 });
    }
    const { root, leaves } = buildDirectories(entries);
    const metadata = gzip(new TextEncoder().encode(JSON.stringify(this.opts.metadata)));

    const rootOffset = PMTILES_HEADER_BYTES;
    const metadataOffset = rootOffset + root.length;
    const leavesOffset = metadataOffset + metadata.length;
    const dataOffset = leavesOffset + leaves.length;
    const out = new Uint8Array(dataOffset + dataLength);
    const dv = new DataView(out.buffer);
    out.set(new TextEncoder().encode("PMTiles"), 0);
    out[7] = 3;
    const u64 = (at: number, n: number) => dv.setBigUint64(at, BigInt(n), true);
    u64(8, rootOffset);
    u64(16, root.length);
    u64(24, metadataOffset);
    u64(32, metadata.length);
    u64(40, leavesOffset);
    u64(48, leaves.length);
    u64(56, dataOffset);
    u64(64, dataLength);
    u64(72, ids.length); // addressed tiles
    u64(80, entries.length); // tile entries
    u64(88, parts.length); // tile contents
    out[96] = 1; // clustered: contents are in tile-id order
    out[97] = COMPRESSION.gzip;
    out[98] = COMPRESSION[this.opts.tileCompression];
    out[99] = TILE_TYPE[this.opts.tileType];
    out[100] = this.opts.minZoom;
    out[101] = this.opts.maxZoom;
    const e7 = (deg: number) => Math.round(deg * 1e7);
    const [w, s, e, n] = this.opts.bbox;
    dv.setInt32(102, e7(w), true);
    dv.setInt32(106, e7(s), true);
    dv.setInt32(110, e7(e), true);
    dv.setInt32(114, e7(n), true);
    const center = this.opts.center ?? [(w + e) / 2, (s + n) / 2, this.opts.minZoom];
    out[118] = center[2];
    dv.setInt32(119, e7(center[0]), true);
    dv.setInt32(123, e7(center[1]), true);
    out.set(root, rootOffset);
    out.set(metadata, metadataOffset);
    out.set(leaves, leavesOffset);
    let at = dataOffset;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
