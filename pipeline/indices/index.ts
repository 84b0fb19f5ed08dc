// Public API of the drought indices (pure functions over Float64Array, NaN = missing).
export { accumulate } from "./accumulate.ts";
export { calendarSlot, referenceSamples, type StandardizeOptions } from "./calibration.ts";
export { logGamma, regularizedLowerGamma } from "./gamma-incomplete.ts";
export { lmoments, lmomentsOfSorted, type LMoments } from "./lmoments.ts";
export { MCDI_CLAMP, MCDI_CORRELATION, MCDI_MIN_WEIGHT, MCDI_WEIGHTS, mcdi, type McdiComponent } from "./mcdi.ts";
export { normalCdf, normalQuantile } from "./normal.ts";
export { extraterrestrialRadiation, hargreaves } from "./pet-hargreaves.ts";
export { daylightHours, heatIndex, thornthwaite } from "./pet-thornthwaite.ts";
export { midMonthDay, type PetCalendar } from "./solar.ts";
export {
  fitLogLogistic,
  logLogisticCdf,
  MIN_FIT_VALUES,
  spei,
  speiWithParams,
  type LogLogisticParams,
  type SpeiResult,
} from "./spei.ts";
export {
  fitGammaWithZeros,
  gammaFromLMoments,
  gammaMixtureCdf,
  spi,
  spiWithParams,
  type GammaParams,
  type SpiResult,
} from "./spi.ts";
export { computeStationIndices, type StationIndices, type StationInput } from "./station.ts";
