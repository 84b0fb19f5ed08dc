// Public API of the CF NetCDF grid input (docs/methods/netcdf-input.md).
export { readMonthlyClimateGrid, guessVariable, type ClimateGridOptions, type ClimateKind } from "./climate-grid.ts";
export { readSpeibase, scaleFromFileName, scaleFromAttributes, type SpeiGrid, type SpeibaseOptions } from "./speibase.ts";
export { readMonthlyVariable, seriesOffset, timeAxisMonths, type BBox, type MonthlyGrid, type RawMonthlyGrid } from "./monthly-grid.ts";
export { openNetcdf, detectFormat, type NcDataset, type NcVariable, type NetcdfFormat } from "./open.ts";
export {
  unpackInPlace, timeToMonths, parseTimeUnits, parseCalendar, calendarDaysInMonth, assertConsecutiveMonths,
  precipitationConversion, temperatureOffset, normalizeUnits, normalizeLongitudes, ascendingLatitudes,
  type Attributes, type AttributeValue, type Calendar, type PrecipitationConversion, type TimeUnits,
} from "./cf.ts";
