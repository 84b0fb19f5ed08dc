// A plain decimal ("-12.345") read straight from a byte buffer, for the bulk scorer's hot loop: no string is made.
// Exact: digits up to 15 give an integer mantissa below 2^53 and a power of ten up to 10^22 is exact too, so one
// IEEE division rounds correctly (Clinger's fast path) and the result equals Number() on the same text. Anything
// else (a sign other than "-", exponent, space, more digits, nothing) gives NaN: the caller then takes Number().

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

export function parseDecimalBytes(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = i < end && buf[i] === 45; /* - */
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 /* . */ && fraction < 0) fraction = 0;
    else return NaN;
  }
  if (digits === 0 || digits > 15) return NaN;
  const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
  return negative ? -value : value;
}
