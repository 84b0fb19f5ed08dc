// The time fields a drought answer must carry (docs/methods/currency.md), written out here from the rule rather than
// from lib/currency.ts: the days of the month served, its last day as asOf, and whether that day is within the
// monthly horizon (92 days) of the service clock's day, counted in whole calendar days.
import { expect } from "vitest";

const DAY_MS = 86_400_000;

/** Today's date at UTC (YYYY-MM-DD), the day the server's own clock reads when CLOCK_TODAY is not set. */
export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/** The expected `details` time fields of an answer resting on the days from..to, asked on `today` (YYYY-MM-DD). */
export function timeOn(from: string, to: string, today: string) {
  const ageDays = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${to}T00:00:00Z`)) / DAY_MS;
  const current = ageDays <= 92;
  const note = current
    ? `current: the data reach ${to}, ${ageDays} day${ageDays === 1 ? "" : "s"} before ${today} (a monthly series is current for 92 days)`
    : `not current: the data end ${to}, ${ageDays} days before ${today} (a monthly series is current for 92 days)`;
  return { period: { from, to }, asOf: to, currency: { current, cadence: "monthly", horizonDays: 92, ageDays, note } };
}

/**
 * Asserts an answer's time fields against the real clock: the day is read before the request (`before`) and again
 * now, so an answer made across midnight UTC matches either day and no other.
 */
export function expectTimeToday(details: unknown, from: string, to: string, before: string, label?: string): void {
  const after = todayUtc();
  expect([timeOn(from, to, before), timeOn(from, to, after)], label).toContainEqual(details);
}
