// The rounding of numbers in answers and the day of a time: one of each for the whole project (issue 40). Half-way
// values round up (Math.round), as every answer has always rounded.

/** To one decimal. */
export const r1 = (x: number) => Math.round(x * 10) / 10;
/** To two decimals. */
export const r2 = (x: number) => Math.round(x * 100) / 100;
/** To three decimals. */
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
/** The UTC day (YYYY-MM-DD) of an epoch-ms time. */
export const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
