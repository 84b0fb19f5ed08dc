// Hargreaves & Samani (1985) reference evapotranspiration, mm/month, as R SPEI 1.8.1 hargreaves():
// ET0 = 0.0023·0.408·Ra·(T + 17.8)·√(Tmax − Tmin) per day, Ra from latitude (Allen et al. 1998, FAO-56 eq. 21–25
// with R's constants), times the month length.
import { midMonthDay, monthLength, type PetCalendar } from "./solar.ts";

/** Extraterrestrial radiation Ra (MJ m⁻² d⁻¹) at a latitude (degrees) on a day of year. */
export function extraterrestrialRadiation(latDeg: number, dayOfYear: number): number {
  const delta = 0.409 * Math.sin(0.0172 * dayOfYear - 1.39);
  const dr = 1 + 0.033 * Math.cos(0.0172 * dayOfYear);
  const latr = latDeg / 57.2957795;
  const sset = -Math.tan(latr) * Math.tan(delta);
  // polar day/night: R clamps the sunset hour angle to [0, π]
  const omega = sset > 1 ? 0 : sset < -1 ? Math.PI : Math.acos(sset);
  const ra =
    37.6 * dr * (omega * Math.sin(latr) * Math.sin(delta) + Math.cos(latr) * Math.cos(delta) * Math.sin(omega));
  return Math.max(0, ra);
}

/**
 * Monthly Hargreaves ET0 (mm) from monthly mean daily Tmin and Tmax (°C, NaN = missing). With monthly
 * precipitation (mm) it is the Droogers & Allen (2002) modified form, as R's `Pre=`:
 * 0.0013·0.408·Ra·(T + 17)·(Tmax − Tmin − 0.0123·P)^0.76, and 0 where the bracket is negative.
 */
export function hargreaves(
  tmin: Float64Array,
  tmax: Float64Array,
  lat: number,
  cal: PetCalendar,
  prcp?: Float64Array,
): Float64Array {
  if (tmin.length !== tmax.length) throw new RangeError("tmin and tmax differ in length");
  if (prcp && prcp.length !== tmin.length) throw new RangeError("prcp and tmin differ in length");
  const out = new Float64Array(tmin.length);
  for (let i = 0; i < tmin.length; i++) {
    const t = (tmin[i] + tmax[i]) / 2;
    const range = Math.max(0, tmax[i] - tmin[i]);
    const ra = extraterrestrialRadiation(lat, midMonthDay(cal, i));
    let daily: number;
    if (prcp) {
      const bracket = range - 0.0123 * prcp[i];
      daily = Number.isNaN(bracket) ? NaN : bracket < 0 ? 0 : 0.0013 * 0.408 * ra * (t + 17) * Math.pow(bracket, 0.76);
    } else {
      daily = 0.0023 * 0.408 * ra * (t + 17.8) * Math.sqrt(range);
    }
    out[i] = Number.isNaN(daily) ? NaN : Math.max(0, daily) * monthLength(cal, i);
  }
  return out;
}
