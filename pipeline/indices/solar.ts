// Calendar helpers shared by the PET methods: mid-month day of year and month length, as R SPEI 1.8.1 uses them.
import { calendarMonthOf, daysInMonth, type MonthIndex } from "../../lib/months.ts";

/** Plain vectors (no dates): fixed mid-month days of a non-leap year and non-leap month lengths. */
const PLAIN_MID_DAY = [15, 46, 74, 105, 135, 166, 196, 227, 258, 288, 319, 349];
const PLAIN_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export type PetCalendar = { firstMonth: MonthIndex } | { plain: true };

/** Month of element i: plain vectors start in January (R's ts() default). */
function monthAt(cal: PetCalendar, i: number): MonthIndex {
  return "plain" in cal ? i : cal.firstMonth + i;
}

export function calendarMonthAt(cal: PetCalendar, i: number): number {
  return calendarMonthOf(monthAt(cal, i));
}

/**
 * Day of year used for the solar geometry. Dated series: the 15th of the month, except the 14th of a non-leap
 * February — that is what R SPEI 1.8.1 produces for dated input (reverse-engineered from its output,
 * r_spei/generated/wichita_pet.csv and upstream hargreaves_out_ts.csv; exact to 1e-12).
 */
export function midMonthDay(cal: PetCalendar, i: number): number {
  if ("plain" in cal) return PLAIN_MID_DAY[i % 12];
  const m = cal.firstMonth + i;
  const cm = calendarMonthOf(m);
  let before = 0;
  for (let k = 0; k < cm - 1; k++) before += daysInMonth(m - (cm - 1) + k);
  const feb = daysInMonth(m - (cm - 1) + 1);
  return before + (cm === 2 && feb === 28 ? 14 : 15);
}

export function monthLength(cal: PetCalendar, i: number): number {
  return "plain" in cal ? PLAIN_DAYS[i % 12] : daysInMonth(cal.firstMonth + i);
}
