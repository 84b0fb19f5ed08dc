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
const SMALL_OBJECT = 8;

export type JsonScanProblem = { reason: "too_deep" } | { reason: "duplicate_key"; path: string };

/** An open object (its keys so far as latin1 strings, the last one) or array (the index of the current item). */
interface Frame {
  /** Few keys are searched in an array (cheaper than a Set per object); past SMALL_OBJECT keys, a Set. */
  keys: string[] | Set<string> | undefined;
  key: string;
  index: number;
}

/** The path of `key` in the innermost object, keys turned back from latin1 to their UTF-8 text. */
function pathOf(frames: Frame[], key: string): string {
  const text = (k: string) => Buffer.from(k, "latin1").toString("utf8");
  const parts: Array<string | number> = frames.slice(0, -1).map((f) => (f.keys === undefined ? f.index : text(f.key)));
  return formatPath([...parts, text(key)]);
}

/**
 * A key as a string of its UTF-8 bytes read as latin1 (one char per byte: cheaper than decoding, and equal exactly
 * when the bytes are); a key with escapes is unescaped by JSON.parse first (undefined when invalid).
 */
function keyBytes(bytes: Buffer, start: number, end: number, escaped: boolean): string | undefined {
  if (!escaped) return bytes.toString("latin1", start, end);
  try {
    return Buffer.from(JSON.parse(bytes.toString("utf8", start - 1, end + 1)) as string, "utf8").toString("latin1");
  } catch {
    return undefined;
  }
}

function seen(keys: string[] | Set<string>, key: string): boolean {
  return Array.isArray(keys) ? keys.includes(key) : keys.has(key);
}

/** The first problem of the JSON text in `bytes` (UTF-8): more than `maxDepth` levels, or a repeated key. */
export function scanJson(bytes: Buffer, maxDepth: number): JsonScanProblem | undefined {
  const frames: Frame[] = [];
  let inString = false;
  let isKey = false;
  let escaped = false;
  let start = 0;
  let expectKey = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) {
        escaped = true;
        i++;
      } else if (b === QUOTE) {
        inString = false;
        const top = frames[frames.length - 1];
        if (isKey && top?.keys !== undefined) {
          const key = keyBytes(bytes, start, i, escaped);
          if (key === undefined) continue;
          if (seen(top.keys, key)) return { reason: "duplicate_key", path: pathOf(frames, key) };
          if (Array.isArray(top.keys) && top.keys.length >= SMALL_OBJECT) top.keys = new Set(top.keys);
          if (Array.isArray(top.keys)) top.keys.push(key);
          else top.keys.add(key);
          top.key = key;
        }
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
        if (frames.length >= maxDepth) return { reason: "too_deep" };
        frames.push({ keys: b === OPEN_BRACE ? [] : undefined, key: "", index: 0 });
        expectKey = b === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        frames.pop();
        expectKey = false;
        break;
      case COMMA: {
        const top = frames[frames.length - 1];
        if (top?.keys !== undefined) expectKey = true;
        else if (top !== undefined) top.index++;
        break;
      }
    }
  }
  return undefined;
}
