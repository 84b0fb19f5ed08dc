// One linear pass over a JSON text's raw bytes before JSON.parse, for what JSON.parse does not refuse:
// - nesting deeper than a limit: a body nested thousands of levels deep is refused here instead of being parsed
//   into a tower of objects for every later walk;
// - a key repeated in one object (`{"lat":-95,"lat":13.75}`): JSON.parse keeps the last silently, so what was
//   validated might not be what the client meant (RFC 8259 §4: names SHOULD be unique).
// Malformed JSON is not judged here: JSON.parse reports it afterwards. Multi-byte UTF-8 sequences never contain
// bytes below 0x80, so a byte scan finds every bracket, quote and comma exactly.
import { formatPath } from "./validate.ts";

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COMMA = 0x2c; // ,
/** Past this many keys an object's keys go into a Set (a duplicate search by bytes is quadratic). */
const SMALL_OBJECT = 16;

/** 1 for a byte that changes no state in either mode: anything but a quote, backslash, bracket, brace or comma. */
const PLAIN = new Uint8Array(256).fill(1);
for (const b of [QUOTE, BACKSLASH, OPEN_BRACE, OPEN_BRACKET, CLOSE_BRACE, CLOSE_BRACKET, COMMA]) PLAIN[b] = 0;

export type JsonScanProblem = { reason: "too_deep" } | { reason: "duplicate_key"; path: string };

/** A key's text: its bytes as UTF-8, or, with escapes, as JSON.parse reads it (undefined when invalid). */
function keyText(bytes: Buffer, start: number, end: number, escaped: boolean): string | undefined {
  if (!escaped) return bytes.toString("utf8", start, end);
  try {
    return JSON.parse(bytes.toString("utf8", start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * A key as a Set member: its UTF-8 bytes read as latin1 (one char per byte, equal exactly when the bytes are, even
 * for invalid UTF-8); with escapes, the UTF-8 bytes of what JSON.parse reads (undefined when invalid).
 */
function keyMember(bytes: Buffer, start: number, end: number, escaped: boolean): string | undefined {
  if (!escaped) return bytes.toString("latin1", start, end);
  const text = keyText(bytes, start, end, true);
  return text === undefined ? undefined : Buffer.from(text, "utf8").toString("latin1");
}

function sameBytes(bytes: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (bytes[aStart + i] !== bytes[bStart + i]) return false;
  return true;
}

/**
 * The first problem of the JSON text in `bytes` (UTF-8): more than `maxDepth` levels, or a repeated key.
 * Flat state, no string per key: the open containers are a stack of typed arrays, and the keys of the open
 * objects are byte ranges on one stack (an object's keys sit above its parent's, dropped when it closes), compared
 * byte by byte. An object past SMALL_OBJECT keys, or with an escaped key, compares decoded texts in a Set instead.
 */
export function scanJson(bytes: Buffer, maxDepth: number): JsonScanProblem | undefined {
  const isObject = new Uint8Array(maxDepth);
  const firstKey = new Int32Array(maxDepth); // where the container's keys start on the key stack
  const index = new Int32Array(maxDepth); // an array's current item
  const lastStart = new Int32Array(maxDepth); // an object's current key, for the path
  const lastEnd = new Int32Array(maxDepth);
  const lastEscaped = new Uint8Array(maxDepth);
  const sets: Array<Set<string> | undefined> = new Array(maxDepth);
  let keyStart = new Int32Array(64);
  let keyEnd = new Int32Array(64);
  let keys = 0;
  let depth = 0;
  let inString = false;
  let isKey = false;
  let escaped = false;
  let start = 0;
  let expectKey = false;

  const pathTo = (text: string): string => {
    const parts: Array<string | number> = [];
    for (let d = 0; d < depth - 1; d++) parts.push(isObject[d] ? (keyText(bytes, lastStart[d], lastEnd[d], lastEscaped[d] === 1) ?? "") : index[d]);
    parts.push(text);
    return formatPath(parts);
  };

  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    // Digits, letters, blanks, colons outside strings and most bytes inside them change nothing (most of a body).
    if (PLAIN[b] === 1) continue;
    if (inString) {
      if (b === BACKSLASH) {
        escaped = true;
        i++;
      } else if (b === QUOTE) {
        inString = false;
        const d = depth - 1;
        if (!isKey || d < 0 || !isObject[d]) continue;
        lastStart[d] = start;
        lastEnd[d] = i;
        lastEscaped[d] = escaped ? 1 : 0;
        let set = sets[d];
        if (set === undefined && (escaped || keys - firstKey[d] >= SMALL_OBJECT)) {
          set = new Set();
          for (let k = firstKey[d]; k < keys; k++) set.add(bytes.toString("latin1", keyStart[k], keyEnd[k]));
          sets[d] = set;
        }
        if (set !== undefined) {
          const member = keyMember(bytes, start, i, escaped);
          if (member === undefined) continue; // JSON.parse refuses the body afterwards
          if (set.has(member)) return { reason: "duplicate_key", path: pathTo(Buffer.from(member, "latin1").toString("utf8")) };
          set.add(member);
          continue;
        }
        for (let k = firstKey[d]; k < keys; k++) {
          if (sameBytes(bytes, keyStart[k], keyEnd[k], start, i)) return { reason: "duplicate_key", path: pathTo(bytes.toString("utf8", start, i)) };
        }
        if (keys === keyStart.length) {
          const grownStart = new Int32Array(keys * 2);
          const grownEnd = new Int32Array(keys * 2);
          grownStart.set(keyStart);
          grownEnd.set(keyEnd);
          keyStart = grownStart;
          keyEnd = grownEnd;
        }
        keyStart[keys] = start;
        keyEnd[keys] = i;
        keys++;
      }
      continue;
    }
    switch (b) {
      case QUOTE:
        inString = true;
        isKey = expectKey;
        expectKey = false;
        escaped = false;
        start = i + 1;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (depth >= maxDepth) return { reason: "too_deep" };
        isObject[depth] = b === OPEN_BRACE ? 1 : 0;
        firstKey[depth] = keys;
        index[depth] = 0;
        sets[depth] = undefined;
        depth++;
        expectKey = b === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (depth > 0) {
          depth--;
          keys = firstKey[depth];
          sets[depth] = undefined;
        }
        expectKey = false;
        break;
      case COMMA:
        if (depth > 0) {
          if (isObject[depth - 1]) expectKey = true;
          else index[depth - 1]++;
        }
        break;
    }
  }
  return undefined;
}
