// Days as integers (UTC days since 1970-01-01), as the day series and the port answers count them.
export const dayOf = (isoDate: string): number => Math.floor(Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`) / 86400000);
export const isoOfDay = (day: number): string => new Date(day * 86400000).toISOString().slice(0, 10);

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;
/** The UTC day (YYYY-MM-DD) of an epoch-ms time. */
export const isoDay = (t: number): string => new Date(t).toISOString().slice(0, 10);
