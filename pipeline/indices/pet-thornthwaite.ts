// Thornthwaite (1948) potential evapotranspiration, mm/month, exactly as R SPEI 1.8.1 thornthwaite():
// heat index J from the monthly climatology of the series (negative means count as 0),
// PET = K·16·(10T/J)^q, K = (N/12)(days/30), N = day length from latitude and solar declination.
import { calendarMonthAt, midMonthDay, monthLength, type PetCalendar } from "./solar.ts";

/** Thornthwaite's empirical exponent q(J). */
export function thornthwaiteExponent(heatIndex: number): number {
  const j = heatIndex;
  return 6.75e-7 * j * j * j - 7.71e-5 * j * j + 0.01792 * j + 0.49239;
}

/** Heat index J = Σ over calendar months of (T̄/5)^1.514, T̄ = mean of the month's non-missing values, < 0 → 0. */
export function heatIndex(tmean: Float64Array, cal: PetCalendar): number {
  const sum = new Float64Array(12);
  const count = new Float64Array(12);
  for (let i = 0; i < tmean.length; i++) {
    if (Number.isNaN(tmean[i])) continue;
    const slot = calendarMonthAt(cal, i) - 1;
    sum[slot] += tmean[i];
    count[slot]++;
  }
  let j = 0;
  for (let m = 0; m < 12; m++) {
    if (count[m] === 0) return NaN; // a calendar month without data: J undefined
    j += Math.pow(Math.max(0, sum[m] / count[m]) / 5, 1.514);
  }
  return j;
}

/** Mean daylight hours N for a latitude (degrees) and day of year, with R's declination formula. */
export function daylightHours(latDeg: number, dayOfYear: number): number {
  const delta = 0.4093 * Math.sin((2 * Math.PI * dayOfYear) / 365 - 1.405);
  const x = -Math.tan(latDeg / 57.2957795) * Math.tan(delta);
  return (24 / Math.PI) * Math.acos(Math.min(1, Math.max(-1, x)));
}

/**
 * Monthly PET (mm) from mean temperature (°C, NaN = missing). `{ plain: true }` reproduces R on a plain vector
 * (January first, non-leap calendar); `{ firstMonth }` reproduces R on a dated ts (real month lengths).
 */
export function thornthwaite(tmean: Float64Array, lat: number, cal: PetCalendar): Float64Array {
  const j = heatIndex(tmean, cal);
  const q = thornthwaiteExponent(j);
  const out = new Float64Array(tmean.length);
  for (let i = 0; i < tmean.length; i++) {
    const t = Math.max(0, tmean[i]); // NaN stays NaN
    const k = (daylightHours(lat, midMonthDay(cal, i)) / 12) * (monthLength(cal, i) / 30);
    out[i] = k * 16 * Math.pow((10 * t) / j, q);
  }
  return out;
}
