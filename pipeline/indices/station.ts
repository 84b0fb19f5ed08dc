// All indices of one station, as the build uses them.
import { type MonthIndex } from "../../lib/months.ts";
import { type StandardizeOptions } from "./calibration.ts";
import { MCDI_WEIGHTS, mcdi } from "./mcdi.ts";
import { hargreaves } from "./pet-hargreaves.ts";
import { thornthwaite } from "./pet-thornthwaite.ts";
import { spei } from "./spei.ts";
import { spi } from "./spi.ts";

export interface StationInput {
  firstMonth: MonthIndex;
  /** monthly precipitation, mm (NaN = missing) */
  prcp: Float64Array;
  /** monthly mean, min and max temperature, °C */
  tmean?: Float64Array;
  tmin?: Float64Array;
  tmax?: Float64Array;
  /** latitude, degrees north */
  lat: number;
  refStart?: MonthIndex;
  refEnd?: MonthIndex;
}

export interface StationIndices {
  /** which PET method was used */
  petMethod: "thornthwaite" | "hargreaves";
  pet: Float64Array;
  balance: Float64Array;
  spei1: Float64Array;
  spei3: Float64Array;
  spei6: Float64Array;
  spei12: Float64Array;
  spei24: Float64Array;
  spi1: Float64Array;
  spi3: Float64Array;
  spi6: Float64Array;
  spi12: Float64Array;
  mcdi: Float64Array;
}

/**
 * PET: Hargreaves when both tmin and tmax are given (it uses the diurnal range, a proxy for radiation and
 * humidity, and is less biased than Thornthwaite in the humid tropics); otherwise Thornthwaite from tmean.
 * Throws when neither is available.
 */
export function computeStationIndices(input: StationInput): StationIndices {
  const n = input.prcp.length;
  const cal = { firstMonth: input.firstMonth };
  for (const [name, arr] of [["tmean", input.tmean], ["tmin", input.tmin], ["tmax", input.tmax]] as const) {
    if (arr && arr.length !== n) throw new RangeError(`${name} has ${arr.length} months, prcp has ${n}`);
  }
  let pet: Float64Array;
  let petMethod: StationIndices["petMethod"];
  if (input.tmin && input.tmax) {
    pet = hargreaves(input.tmin, input.tmax, input.lat, cal);
    petMethod = "hargreaves";
  } else if (input.tmean) {
    pet = thornthwaite(input.tmean, input.lat, cal);
    petMethod = "thornthwaite";
  } else {
    throw new Error("computeStationIndices needs tmean, or tmin and tmax, for PET");
  }
  const balance = input.prcp.map((p, i) => p - pet[i]);
  const opts = (scale: number): StandardizeOptions => ({
    scale,
    firstMonth: input.firstMonth,
    refStart: input.refStart,
    refEnd: input.refEnd,
  });
  const spei1 = spei(balance, opts(1));
  const spei3 = spei(balance, opts(3));
  const spei6 = spei(balance, opts(6));
  const spei12 = spei(balance, opts(12));
  const spi3 = spi(input.prcp, opts(3));
  const composite = mcdi([
    { values: spei1, weight: MCDI_WEIGHTS.spei1 },
    { values: spei3, weight: MCDI_WEIGHTS.spei3 },
    { values: spei6, weight: MCDI_WEIGHTS.spei6 },
    { values: spei12, weight: MCDI_WEIGHTS.spei12 },
    { values: spi3, weight: MCDI_WEIGHTS.spi3 },
  ]);
  return {
    petMethod,
    pet,
    balance,
    spei1,
    spei3,
    spei6,
    spei12,
    spei24: spei(balance, opts(24)),
    spi1: spi(input.prcp, opts(1)),
    spi3,
    spi6: spi(input.prcp, opts(6)),
    spi12: spi(input.prcp, opts(12)),
    mcdi: composite,
  };
}
