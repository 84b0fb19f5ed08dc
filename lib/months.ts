// Months are plain integers on hot paths: monthIndex = year * 12 + (month - 1). "YYYY-MM" only at the edges.

export type MonthIndex = number;

export function monthIndex(year: number, month: number): MonthIndex {
  return year * 12 + (month - 1);
}

export function yearOf(m: MonthIndex): number {
  return Math.floor(m / 12);
}

/** Calendar month 1..12. */
export function calendarMonthOf(m: MonthIndex): number {
  return (m % 12) + 1;
}

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Parses "YYYY-MM"; returns undefined for anything else (no Date parsing, no lenience). */
export function parseMonth(s: string): MonthIndex | undefined {
  const m = MONTH_RE.exec(s);
  if (!m) return undefined;
  return monthIndex(Number(m[1]), Number(m[2]));
}

export function formatMonth(m: MonthIndex): string {
  const y = yearOf(m);
  const mm = calendarMonthOf(m);
  return `${String(y).padStart(4, "0")}-${mm < 10 ? "0" : ""}${mm}`;
}

export function daysInMonth(m: MonthIndex): number {
  const y = yearOf(m);
  const mm = calendarMonthOf(m);
  if (mm === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return mm === 4 || mm === 6 || mm === 9 || mm === 11 ? 30 : 31;
}

/** The earliest and latest of the months added (YYYY-MM texts, which sort as months); null until one is. */
export class MonthSpan {
  from: string | null = null;
  to: string | null = null;

  add(month: string): void {
    if (this.from === null || month < this.from) this.from = month;
    if (this.to === null || month > this.to) this.to = month;
  }
}
