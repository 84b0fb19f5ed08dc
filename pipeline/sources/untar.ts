// Members of a downloaded .tar.gz (NOAA's GHCN-Monthly release is one): gunzip with node:zlib, then the tar blocks
// read here, since no tar package is installed and the format is simple (POSIX ustar, IEEE 1003.1-1988: 512-byte
// header blocks — name 0..99, size 124..135 in octal, checksum 148..155, type 156, ustar prefix 345..499 — each
// followed by its data padded to 512 bytes, two zero blocks at the end). GNU long names (type "L") and pax "path"
// records (type "x") are honoured; other special members are skipped. A cut-short archive, a bad checksum or a member
// larger than allowed is a ContentError, so the previous copy stays.
import { gunzipSync } from "node:zlib";
import { ContentError } from "./content-check.ts";

const BLOCK = 512;

const text = (b: Uint8Array) => new TextDecoder("utf-8").decode(b.subarray(0, b.indexOf(0) < 0 ? b.length : b.indexOf(0)));

function octal(field: Uint8Array, what: string, at: number): number {
  const s = text(field).trim();
  if (!/^[0-7]+$/.test(s)) throw new ContentError(what, `tar header at byte ${at}: "${s}" is not an octal number`);
  return parseInt(s, 8);
}

/** The header's checksum: the sum of its bytes with the checksum field read as spaces. */
function checksumOk(h: Uint8Array, what: string, at: number): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  return sum === octal(h.subarray(148, 156), what, at);
}

/** Every regular file of an uncompressed tar whose path `wanted` accepts, by path; each at most `maxBytes`. */
export function untarMembers(tar: Uint8Array, wanted: (path: string) => boolean, maxBytes: number, what: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let at = 0;
  let longName: string | undefined;
  while (at + BLOCK <= tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return out;
    if (!checksumOk(h, what, at)) throw new ContentError(what, `tar header at byte ${at}: checksum mismatch (not a tar archive, or damaged)`);
    const size = octal(h.subarray(124, 136), what, at);
    const type = String.fromCharCode(h[156] || 0x30);
    const prefix = text(h.subarray(257, 263)).startsWith("ustar") ? text(h.subarray(345, 500)) : "";
    const path = longName ?? (prefix ? `${prefix}/${text(h.subarray(0, 100))}` : text(h.subarray(0, 100)));
    const start = at + BLOCK;
    if (start + size > tar.length) throw new ContentError(what, `tar member ${path} is cut short: ${tar.length - start} of ${size} bytes`);
    const data = tar.subarray(start, start + size);
    longName = undefined;
    if (type === "L") longName = text(data);
    else if (type === "x") longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text(data))?.[1];
    else if ((type === "0" || type === "7") && wanted(path)) {
      if (size > maxBytes) throw new ContentError(what, `the archive's ${path} is ${size} bytes, more than the ${maxBytes} allowed`);
      out.set(path, data);
    }
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  // No end-of-archive blocks: the archive stops inside (or right after) a member.
  throw new ContentError(what, "tar archive without its end blocks (truncated)");
}

/** The same for a gzip-compressed tar; the unpacked archive may be at most `maxBytes`. */
export function untarGzMembers(archive: Uint8Array, wanted: (path: string) => boolean, maxBytes: number, what: string): Map<string, Uint8Array> {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(archive, { maxOutputLength: maxBytes });
  } catch (err) {
    throw new ContentError(what, `not a complete gzip file (${(err as Error).message})`);
  }
  return untarMembers(tar, wanted, maxBytes, what);
}
