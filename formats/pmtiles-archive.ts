// A whole PMTiles v3 archive read back (the tile build's verification, pipeline/build/verify-artifacts.ts): the header
// (pmtiles-header.ts), the root and every leaf directory decompressed and parsed, the metadata parsed, and every tile
// read and decoded — a PNG tile by its chunks' CRCs and its inflated image data, an MVT tile gunzipped (gzip's CRC-32
// and length) and its protobuf walked. `checkTile` is also what the tiles route runs on a tile it reads from an
// archive (server/routes/tiles.ts), so a damaged tile answers 500 in the error envelope rather than 200 with a broken
// body. Tile layout of the archives: tiles/pmtiles-writer.ts.
import { readFileSync } from "node:fs";
import { crc32, gunzipSync, inflateSync } from "node:zlib";
import { readVarint, tileIdToZxy, type Header } from "pmtiles";
import { checkPmtilesHeader, PMTILES_HEADER_BYTES } from "./pmtiles-header.ts";

/** PMTiles compression and tile type codes (spec v3). */
const NONE = 1;
const GZIP = 2;
const MVT = 1;
const PNG = 2;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** A PNG read to its end: signature, every chunk's CRC, IHDR first and IEND last, the image data inflated to the size IHDR gives. */
export function checkPng(png: Uint8Array): void {
  if (png.length < 8 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) throw new Error("not a PNG (signature)");
  const dv = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const idat: Uint8Array[] = [];
  let width = 0;
  let height = 0;
  let rowBits = 0;
  let interlaced = false;
  let at = 8;
  let last = "";
  while (at < png.length) {
    if (at + 12 > png.length) throw new Error(`PNG chunk at ${at} is cut off`);
    const length = dv.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (at + 12 + length > png.length) throw new Error(`PNG chunk ${JSON.stringify(type)} at ${at} runs past the end`);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== dv.getUint32(at + 8 + length)) throw new Error(`PNG chunk ${JSON.stringify(type)} at ${at}: CRC mismatch`);
    const data = png.subarray(at + 8, at + 8 + length);
    if (last === "" && type !== "IHDR") throw new Error("PNG does not start with IHDR");
    if (type === "IHDR") {
      width = dv.getUint32(at + 8);
      height = dv.getUint32(at + 12);
      const bitDepth = data[8];
      const channels = PNG_CHANNELS[data[9]];
      if (channels === undefined || !(width > 0 && height > 0)) throw new Error(`PNG header: ${width}×${height}, colour type ${data[9]}`);
      rowBits = width * channels * bitDepth;
      interlaced = data[12] !== 0;
    } else if (type === "IDAT") idat.push(data);
    last = type;
    at += 12 + length;
    if (type === "IEND") break;
  }
  if (last !== "IEND" || at !== png.length) throw new Error("PNG does not end with IEND");
  let image: Buffer;
  try {
    image = inflateSync(Buffer.concat(idat));
  } catch (err) {
    throw new Error(`PNG image data: ${(err as Error).message}`);
  }
  if (!interlaced && image.length !== height * (1 + Math.ceil(rowBits / 8))) throw new Error(`PNG image data inflates to ${image.length} bytes, ${width}×${height} needs ${height * (1 + Math.ceil(rowBits / 8))}`);
}

/** Which fields of an MVT message are messages themselves (tile → layers → features and values). */
const MVT_MESSAGES: Record<string, Record<number, string>> = { tile: { 3: "layer" }, layer: { 2: "feature", 4: "value" }, feature: {}, value: {} };

/** Walks one protobuf message of the vector-tile schema to its end: every field's wire type and length inside it. */
function walkProtobuf(bytes: Uint8Array, start: number, end: number, message: string): void {
  const pos = { buf: bytes, pos: start };
  let layers = 0;
  while (pos.pos < end) {
    const key = readVarint(pos);
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (field === 0) throw new Error(`MVT ${message}: field number 0 at ${pos.pos}`);
    if (wire === 0) readVarint(pos);
    else if (wire === 1) pos.pos += 8;
    else if (wire === 5) pos.pos += 4;
    else if (wire === 2) {
      const length = readVarint(pos);
      const from = pos.pos;
      pos.pos += length;
      if (pos.pos > end) break;
      const inner = MVT_MESSAGES[message][field];
      if (inner !== undefined) walkProtobuf(bytes, from, pos.pos, inner);
      if (message === "tile" && field === 3) layers++;
    } else throw new Error(`MVT ${message}: wire type ${wire} at ${pos.pos}`);
  }
  if (pos.pos !== end) throw new Error(`MVT ${message}: a field runs past the end of the message`);
  if (message === "tile" && layers === 0) throw new Error("MVT tile without a layer");
}

/** An MVT tile (uncompressed) parsed to its end. */
export function checkMvt(mvt: Uint8Array): void {
  walkProtobuf(mvt, 0, mvt.length, "tile");
}

/** Checks a tile as the archive's header types it (its bytes as stored, compression undone here). */
export function checkTile(stored: Uint8Array, tileType: number, tileCompression: number): void {
  let bytes = stored;
  if (tileCompression === GZIP) {
    try {
      bytes = gunzipSync(stored);
    } catch (err) {
      throw new Error(`tile gzip: ${(err as Error).message}`);
    }
  } else if (tileCompression !== NONE) throw new Error(`tile compression ${tileCompression} is not one this service writes`);
  if (tileType === PNG) checkPng(bytes);
  else if (tileType === MVT) checkMvt(bytes);
  else throw new Error(`tile type ${tileType} is not one this service writes`);
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function parseDirectory(bytes: Uint8Array): Entry[] {
  const pos = { buf: bytes, pos: 0 };
  const n = readVarint(pos);
  const entries: Entry[] = [];
  let id = 0;
  for (let i = 0; i < n; i++) {
    id += readVarint(pos);
    entries.push({ tileId: id, offset: 0, length: 0, runLength: 1 });
  }
  for (const e of entries) e.runLength = readVarint(pos);
  for (const e of entries) e.length = readVarint(pos);
  entries.forEach((e, i) => {
    const v = readVarint(pos);
    e.offset = v === 0 && i > 0 ? entries[i - 1].offset + entries[i - 1].length : v - 1;
  });
  if (pos.pos !== bytes.length) throw new Error(`${bytes.length - pos.pos} bytes after its ${n} entries`);
  return entries;
}

export interface ArchiveContents {
  header: Header;
  /** Tiles the directories address (run lengths counted), the tile-index's `tiles`. */
  tiles: number;
  metadata: Record<string, unknown>;
}

/** Reads the archive at `path` in full; throws naming the part and the tile that fails. */
export function verifyPmtilesArchive(path: string): ArchiveContents {
  const file = readFileSync(path);
  const header = checkPmtilesHeader(file.subarray(0, PMTILES_HEADER_BYTES), file.length);
  const section = (offset: number, length: number) => file.subarray(offset, offset + length);
  const internal = (what: string, bytes: Uint8Array): Uint8Array => {
    if (header.internalCompression === NONE) return bytes;
    if (header.internalCompression !== GZIP) throw new Error(`internal compression ${header.internalCompression} is not one this service writes`);
    try {
      return gunzipSync(bytes);
    } catch (err) {
      throw new Error(`${what}: ${(err as Error).message}`);
    }
  };
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(internal("metadata", section(header.jsonMetadataOffset, header.jsonMetadataLength))));
  } catch (err) {
    throw new Error(`metadata: ${(err as Error).message}`);
  }
  let tiles = 0;
  let entriesSeen = 0;
  const contents = new Map<number, number>();
  const walk = (what: string, bytes: Uint8Array, depth: number): void => {
    let entries: Entry[];
    try {
      entries = parseDirectory(internal(what, bytes));
    } catch (err) {
      throw new Error(`${what}: ${(err as Error).message}`);
    }
    if (entries.length === 0) throw new Error(`${what} is empty`);
    for (const e of entries) {
      if (e.runLength === 0) {
        if (depth >= 3) throw new Error(`${what}: leaf directories nest deeper than 3`);
        if (e.offset + e.length > (header.leafDirectoryLength ?? 0)) throw new Error(`${what}: leaf directory at ${e.offset}+${e.length} lies outside the leaf section`);
        walk(`leaf directory at ${e.offset}`, section(header.leafDirectoryOffset + e.offset, e.length), depth + 1);
        continue;
      }
      entriesSeen++;
      tiles += e.runLength;
      const [z, x, y] = tileIdToZxy(e.tileId);
      if (e.offset + e.length > (header.tileDataLength ?? 0)) throw new Error(`tile ${z}/${x}/${y}: data at ${e.offset}+${e.length} lies outside the tile data`);
      const known = contents.get(e.offset);
      if (known !== undefined) {
        if (known !== e.length) throw new Error(`tile ${z}/${x}/${y}: ${e.length} bytes at ${e.offset}, where another tile has ${known}`);
        continue;
      }
      contents.set(e.offset, e.length);
      try {
        checkTile(section(header.tileDataOffset + e.offset, e.length), header.tileType, header.tileCompression);
      } catch (err) {
        throw new Error(`tile ${z}/${x}/${y}: ${(err as Error).message}`);
      }
    }
  };
  walk("root directory", section(header.rootDirectoryOffset, header.rootDirectoryLength), 0);
  const contentBytes = [...contents.values()].reduce((a, b) => a + b, 0);
  const counts: Array<[string, number, number | undefined]> = [
    ["addressed tiles", tiles, header.numAddressedTiles],
    ["tile entries", entriesSeen, header.numTileEntries],
    ["tile contents", contents.size, header.numTileContents],
    ["bytes of tile data", contentBytes, header.tileDataLength],
  ];
  for (const [what, found, said] of counts) if (said !== undefined && found !== said) throw new Error(`the directories hold ${found} ${what}, the header says ${said}`);
  return { header, tiles, metadata };
}
