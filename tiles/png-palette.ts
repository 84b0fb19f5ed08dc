// A minimal PNG encoder for class tiles: 8-bit indexed colour (colour type 3) with a PLTE of the colour classes
// and a tRNS chunk for their alpha. One class byte per pixel goes straight into the image data (filter 0), so
// encoding is one deflate of ~64 KiB: about 4× faster than RGBA through sharp and ~2× smaller files
// (PNG spec: https://www.w3.org/TR/png-3/). Tests decode the output with sharp (libspng) independently.
import { crc32, deflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** PNG of a width × height class image with the given palette (4 bytes RGBA per class). */
export function encodeIndexedPng(classes: Uint8Array, width: number, height: number, paletteRgba: Uint8Array): Buffer {
  if (classes.length !== width * height) throw new Error(`expected ${width * height} pixels, got ${classes.length}`);
  const nColours = paletteRgba.length / 4;
  if (!Number.isInteger(nColours) || nColours < 1 || nColours > 256) throw new Error(`palette must hold 1-256 RGBA colours`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // indexed colour
  const plte = new Uint8Array(nColours * 3);
  const trns = new Uint8Array(nColours);
  for (let i = 0; i < nColours; i++) {
    plte[i * 3] = paletteRgba[i * 4];
    plte[i * 3 + 1] = paletteRgba[i * 4 + 1];
    plte[i * 3 + 2] = paletteRgba[i * 4 + 2];
    trns[i] = paletteRgba[i * 4 + 3];
  }
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(classes.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([SIGNATURE, chunk("IHDR", ihdr), chunk("PLTE", plte), chunk("tRNS", trns), chunk("IDAT", deflateSync(raw, { level: 6 })), chunk("IEND", new Uint8Array(0))]);
}
