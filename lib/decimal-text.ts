// A coordinate's text read without slicing it out of its line or body: the bulk route reads two a row, a million rows
// a request (server/bulk/bulk-input.ts), the batch route two a location (server/routes/batch-json.ts). Pure. The
// value is Number(text)'s and the syntax the query strings' (a plain decimal, blanks around it allowed); `canonical`
// says the text is already the value's JavaScript text (String(value)), so an answer can echo the row's own id and
// coordinates instead of writing two numbers back to text (a fifth of the bulk route's time).
//
// Fast path, exact: at most 15 significant digits and 22 decimals. The digits as an integer m (< 10^15, exact in a
// double) divided by 10^k (exact for k ≤ 22) is one correctly rounded division, the double nearest the decimal: Number's
// answer (Clinger 1990, "How to read floating point numbers accurately"). Two decimals of at most 15 significant digits
// never round to one double (DBL_DIG), so String(value) gives back those digits: the text is canonical when it has no
// '+', no leading zero before a digit, no trailing zero after the point, is not a negative zero, and is in String's
// fixed range (|value| ≥ 1e-6). Anything else (blanks, more digits) goes through the regular expression and Number.

/** A coordinate as the query strings take it: a plain decimal, blanks around it allowed. */
export const DECIMAL = /^\s*[+-]?\d+(\.\d+)?\s*$/;

/** Significant digits and decimals of a decimal whose value is one exact division. */
const MAX_DIGITS = 15;
const MAX_DECIMALS = 22;
/** 10^k, exact for k ≤ MAX_DECIMALS. */
const POW10: readonly number[] = Array.from({ length: MAX_DECIMALS + 1 }, (_, k) => 10 ** k);

/**
 * Reads decimals; after a read, `canonical` tells about the text just read and `end` where it stopped. A scratch
 * object (its fields are the last read's), so one reader serves a whole synchronous loop without allocating.
 */
export class DecimalReader {
  canonical = false;
  end = 0;

  /** The value of text[from, to), or NaN when it is not a plain decimal (blanks around it allowed). */
  read(text: string, from: number, to: number): number {
    const value = this.scan(text, from, to);
    if (this.end === to && value === value) return value;
    this.canonical = false;
    const s = text.slice(from, to);
    return DECIMAL.test(s) ? Number(s) : NaN;
  }

  /**
   * The plain decimal ([+-]?\d+(\.\d+)?) that starts at `from` and ends before `to` or the first character that cannot
   * go on it (`end`); NaN when none starts there (no digit, or a point without one after it).
   */
  scan(text: string, from: number, to: number): number {
    this.canonical = false;
    let i = from;
    const c = i < to ? text.charCodeAt(i) : 0;
    const negative = c === 45; // '-'
    let canonical = c !== 43; // '+'
    if (negative || c === 43) i++;
    let mantissa = 0;
    let digits = 0; // significant digits: from the first non-zero one
    const intStart = i;
    for (; i < to; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      if (digits > 0 || d !== 0) digits++;
    }
    this.end = i;
    const intDigits = i - intStart;
    if (intDigits === 0) return NaN;
    if (intDigits > 1 && text.charCodeAt(intStart) === 48) canonical = false; // a leading zero
    let decimals = 0;
    let leadingZeros = 0; // zeros right after the point, before any other digit, when the integer part is 0
    if (i < to && text.charCodeAt(i) === 46) {
      // '.'
      i++;
      const fracStart = i;
      for (; i < to; i++) {
        const d = text.charCodeAt(i) - 48;
        if (d < 0 || d > 9) break;
        mantissa = mantissa * 10 + d;
        if (digits > 0 || d !== 0) digits++;
        else leadingZeros++;
      }
      this.end = i;
      decimals = i - fracStart;
      if (decimals === 0) return NaN;
      if (text.charCodeAt(i - 1) === 48) canonical = false; // a trailing zero
    }
    // More digits than one exact division takes: Number of the text (its syntax is checked above), not canonical.
    if (digits > MAX_DIGITS || decimals > MAX_DECIMALS) return Number(text.slice(from, i));
    const magnitude = mantissa / POW10[decimals];
    // -0 is written 0; below 1e-6 (0. and six zeros) String writes an exponent.
    if (magnitude === 0 ? negative : leadingZeros > 5) canonical = false;
    this.canonical = canonical;
    return negative ? -magnitude : magnitude;
  }
}
