// GET /api/risk-map/stations: the measuring sites behind two feed scores inside a box, as GeoJSON, for the map's
// heatwave and sea-level layers (GHCN-Daily stations with their heatwaves, PSMSL tide gauges with their trends), a
// page at a time as the other map-layer collections.
import { z } from "zod";
import { bboxText, MAX_EVENTS } from "./schemas-events.ts";
import { cursorText, pageFields } from "./schemas-paging.ts";
import { queryInteger } from "./schemas-common.ts";

export const STATION_RISK_TYPES = ["heatwave", "sea_level_rise"] as const;

export const stationsQuery = z.object({
  riskType: z
    .enum(STATION_RISK_TYPES)
    .describe("heatwave: the GHCN-Daily stations of the heatwave score; sea_level_rise: the PSMSL tide gauges of the sea-level score"),
  bbox: bboxText,
  limit: queryInteger(z.int().min(1).max(MAX_EVENTS)).default(500).describe(`sites per page (1–${MAX_EVENTS}, default 500), by id`),
  cursor: cursorText,
});
export type StationsQuery = z.output<typeof stationsQuery>;

const heatwaveProps = z.object({
  id: z.string().describe("GHCN-Daily station id"),
  name: z.string(),
  from: z.string().describe("first day of the station's latest year with 300 days of data, YYYY-MM-DD"),
  to: z.string().describe("last day of that year"),
  daysWithData: z.int(),
  heatwaves: z.int().describe("heatwaves in that year (Perkins & Alexander 2013: ≥ 3 days above the calendar-day 90th percentile)"),
  heatwaveDays: z.int().describe("days in those heatwaves"),
  longestDays: z.int(),
  hottestPeakC: z.number().nullable(),
  hotDays: z.int().describe("days at or above 35 °C"),
  baseYears: z.int(),
  baseHeatwaveDaysMean: z.number().describe("mean heatwave days a year over the base years"),
});

const gaugeProps = z.object({
  id: z.string().describe("PSMSL station id"),
  name: z.string(),
  trendMmYr: z.number().describe("least-squares trend of the annual RLR mean sea level, mm/yr (includes vertical land motion)"),
  seMmYr: z.number(),
  years: z.int(),
  firstYear: z.int(),
  lastYear: z.int(),
});

export const stationsCollection = z.object({
  type: z.literal("FeatureCollection"),
  riskType: z.enum(STATION_RISK_TYPES),
  asOf: z.string().describe("the snapshot's as-of time"),
  snapshotVersion: z.string().describe("the snapshot version the sites and the page order come from"),
  ...pageFields,
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string(),
      geometry: z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) }),
      properties: z.union([heatwaveProps, gaugeProps]),
    }),
  ),
});
export type StationsCollection = z.infer<typeof stationsCollection>;
