import { describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import { extraterrestrialRadiation, hargreaves } from "../../pipeline/indices/pet-hargreaves.ts";
import { heatIndex, thornthwaite } from "../../pipeline/indices/pet-thornthwaite.ts";
import { midMonthDay } from "../../pipeline/indices/solar.ts";
import { expectSeriesClose, readReference } from "./reference.ts";

const LAT = 37.6475;
const pet = readReference("r_spei/generated/wichita_pet.csv");
const dated = { firstMonth: monthIndex(1980, 1) };

describe("Thornthwaite PET against R SPEI 1.8.1 (Wichita)", () => {
  it("plain vector within 1e-4 mm", () => {
    const n = expectSeriesClose(thornthwaite(pet.TMED, LAT, { plain: true }), pet.pet_thornthwaite_vector, 1e-4);
    expect(n).toBe(382);
    const up = readReference("r_spei/upstream_expected/thornthwaite_out.csv").value;
    expectSeriesClose(thornthwaite(pet.TMED, LAT, { plain: true }), up, 1e-4);
  });
  it("dated series (real month lengths, leap years) within 1e-4 mm", () => {
    expectSeriesClose(thornthwaite(pet.TMED, LAT, dated), pet.pet_thornthwaite_ts, 1e-4);
    const up = readReference("r_spei/upstream_expected/thornthwaite_out_ts.csv").value;
    expectSeriesClose(thornthwaite(pet.TMED, LAT, dated), up, 1e-4);
  });
  it("heat index ignores missing values and is NaN without a calendar month", () => {
    // 12 months at 15 °C: J = 12·3^1.514
    const t = new Float64Array(13).fill(15);
    t[12] = NaN;
    expect(heatIndex(t, { plain: true })).toBeCloseTo(12 * Math.pow(3, 1.514), 12);
    expect(heatIndex(t.subarray(0, 11), { plain: true })).toBeNaN();
  });
});

describe("Hargreaves PET against R SPEI 1.8.1 (Wichita)", () => {
  it("plain vector within 1e-4 mm", () => {
    const out = hargreaves(pet.TMIN, pet.TMAX, LAT, { plain: true });
    expectSeriesClose(out, pet.pet_hargreaves_vector, 1e-4);
    expectSeriesClose(out, readReference("r_spei/upstream_expected/hargreaves_out_lat.csv").value, 1e-4);
  });
  it("Droogers & Allen precipitation correction (plain vector) within 1e-4 mm", () => {
    const out = hargreaves(pet.TMIN, pet.TMAX, LAT, { plain: true }, pet.PRCP);
    expectSeriesClose(out, pet.pet_hargreaves_droogers_allen_pre, 1e-4);
    // 10 °C range, 1000 mm: bracket 10 − 12.3 < 0 → 0 (R: NaN power → 0)
    const wet = hargreaves(Float64Array.of(20), Float64Array.of(30), LAT, { plain: true }, Float64Array.of(1000));
    expect(wet[0]).toBe(0);
  });
  it("dated series within 1e-4 mm", () => {
    const out = hargreaves(pet.TMIN, pet.TMAX, LAT, dated);
    expectSeriesClose(out, pet.pet_hargreaves_ts, 1e-4);
    expectSeriesClose(out, readReference("r_spei/upstream_expected/hargreaves_out_ts.csv").value, 1e-4);
  });
  it("mid-month day: 15th, 14th of a non-leap February", () => {
    expect(midMonthDay({ firstMonth: monthIndex(1981, 2) }, 0)).toBe(45);
    expect(midMonthDay({ firstMonth: monthIndex(1980, 2) }, 0)).toBe(46);
    expect(midMonthDay({ firstMonth: monthIndex(1980, 2) }, 1)).toBe(75);
    expect(midMonthDay({ plain: true }, 13)).toBe(46);
  });
  it("extraterrestrial radiation: none in polar night", () => {
    expect(extraterrestrialRadiation(80, 349)).toBe(0);
    // FAO-56 example 8: 20°S on 3 September ≈ 32.2 MJ/m²/day (R's constants differ slightly)
    expect(extraterrestrialRadiation(-20, 246)).toBeCloseTo(32.2, 0);
  });
});
