// The rounding of numbers in answers: one helper for the whole project (issue 40). Half-way values round up
// (Math.round), as every answer has always rounded. The day of a time is lib/days.ts isoDay.

/** To one decimal. */
export const r1 = (x: number) => Math.round(x * 10) / 10;
/** To two decimals. */
export const r2 = (x: number) => Math.round(x * 100) / 100;
/** To three decimals. */
export const r3 = (x: number) => Math.round(x * 1000) / 1000;
