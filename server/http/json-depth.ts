// Nesting depth of a JSON text, measured on its raw bytes before JSON.parse: a body nested thousands of levels
// deep is refused in one linear pass instead of being parsed into a tower of objects for every later walk.

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when the JSON text in `bytes` (UTF-8) opens more than `maxDepth` objects/arrays inside one another.
 * Brackets inside strings do not count (escapes are followed). Malformed JSON is not judged here: JSON.parse
 * reports it afterwards. Multi-byte UTF-8 sequences never contain bytes below 0x80, so a byte scan is exact.
 */
export function jsonDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
