// The 127-byte header of a PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md),
// checked when a version loads: magic, spec version, every section inside the file, zooms and bounds. The
// fields come from the pmtiles library's own parser (bytesToHeader); this adds the checks it leaves out.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { bytesToHeader, type Header } from "pmtiles";

export const PMTILES_HEADER_BYTES = 127;
const MAGIC = "PMTiles";

/** Reads and checks the header of the archive at `path`; throws with the reason. */
export function readPmtilesHeader(path: string): Header {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size < PMTILES_HEADER_BYTES) throw new Error(`file of ${size} bytes is shorter than the ${PMTILES_HEADER_BYTES}-byte header`);
    const head = new Uint8Array(PMTILES_HEADER_BYTES);
    readSync(fd, head, 0, PMTILES_HEADER_BYTES, 0);
    return checkPmtilesHeader(head, size);
  } finally {
    closeSync(fd);
  }
}

/** Checks header bytes against the archive size. */
export function checkPmtilesHeader(head: Uint8Array, size: number): Header {
  const magic = String.fromCharCode(...head.subarray(0, 7));
  if (magic !== MAGIC) throw new Error(`bad magic "${magic.replace(/[^\x20-\x7e]/g, "?")}", expected "${MAGIC}"`);
  if (head[7] !== 3) throw new Error(`PMTiles spec version ${head[7]}, this reader reads 3`);
  // A copy of exactly the header's bytes: `head` may be a view into a larger buffer (a Buffer's subarray, or a small
  // file's bytes in Node's shared pool), whose .buffer starts elsewhere, and a Buffer's slice() is a view too.
  const h = bytesToHeader(Uint8Array.from(head).buffer);
  const sections: Array<[string, number, number]> = [
    ["root directory", h.rootDirectoryOffset, h.rootDirectoryLength],
    ["metadata", h.jsonMetadataOffset, h.jsonMetadataLength],
    ["leaf directories", h.leafDirectoryOffset, h.leafDirectoryLength ?? 0],
    ["tile data", h.tileDataOffset, h.tileDataLength ?? 0],
  ];
  for (const [name, offset, length] of sections) {
    if (offset < PMTILES_HEADER_BYTES && length > 0) throw new Error(`${name} at offset ${offset} overlaps the header`);
    if (offset + length > size) throw new Error(`${name} (${offset}+${length}) ends beyond the file's ${size} bytes`);
  }
  if (h.rootDirectoryLength === 0) throw new Error("root directory is empty");
  if (!(h.minZoom <= h.maxZoom && h.maxZoom <= 30)) throw new Error(`zoom range ${h.minZoom}..${h.maxZoom} is invalid`);
  if (!(h.minLon >= -180 && h.minLon <= h.maxLon && h.maxLon <= 180 && h.minLat >= -90 && h.minLat <= h.maxLat && h.maxLat <= 90)) {
    throw new Error(`bounds ${h.minLon},${h.minLat},${h.maxLon},${h.maxLat} are invalid`);
  }
  return h;
}
