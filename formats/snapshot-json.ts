// Shape checks for the JSON files of the feed and ports snapshots (snapshot.json, ports.json, ais.json,
// hazards.json) and the build reports, run when a version loads (formats/version-files.ts). They check what the
// server relies on — types, coordinates on the globe, times that parse, standardised values within
// MAX_ABS_INDEX — and let other fields through. The writers are in pipeline/snapshots/ and pipeline/ports/.
import { z } from "zod";
import { MAX_ABS_INDEX } from "./index-range.ts";
import { sourceStatusFile } from "./source-status.ts";

const lat = z.number().min(-90).max(90);
const lng = z.number().min(-180).max(180);
const finite = z.number(); // zod 4 numbers refuse NaN and ±Inf
const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 time");
const zValue = z.number().min(-MAX_ABS_INDEX).max(MAX_ABS_INDEX).nullable();
const bbox = z.tuple([lng, lat, lng, lat]).refine(([w, s, e, n]) => w <= e && s <= n, "bbox must be [west, south, east, north]");

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");

const feedSnapshot = z.object({
  meta: z.object({
    riskType: z.enum(["flood", "wildfire", "heatwave", "storm", "sea_level_rise"]),
    format: z.int(),
    asOf: isoTime,
    recordStart: isoTime,
    recordYears: finite.min(0),
    coverage: z.object({ bbox, surface: z.enum(["any", "land", "country", "coast"]), description: z.string() }),
    dataSources: z.array(z.string()),
    params: z.record(z.string(), finite),
    unit: z.string(),
  }),
  heat: z
    .object({
      countries: z.record(
        z.string(),
        z.object({ name: z.string(), firstMonth: z.int().min(0), anomalyC: z.array(finite.nullable()).min(1), hotThresholdC: finite }),
      ),
      globalFirstMonth: z.int().min(0),
      global: z.record(z.string(), z.array(finite.nullable())),
    })
    .optional(),
  gauges: z
    .array(
      z.object({
        id: z.int(),
        name: z.string(),
        lat,
        lng,
        trendMmYr: finite,
        seMmYr: finite.min(0),
        years: z.int().min(0),
        firstYear: z.int(),
        lastYear: z.int(),
        annual: z.array(z.tuple([z.int(), finite])),
      }),
    )
    .optional(),
  records: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        start: day,
        end: day,
        events: z.int().min(0),
        bbox: bbox.optional(),
        set: z.string().optional(),
        years: finite.positive().optional(),
        windStart: day.optional(),
        windYears: finite.positive().optional(),
      }),
    )
    .optional(),
  climateGrid: z
    .object({
      version: z.string(),
      gridMonth: z.string(),
      maxDistanceKm: finite.positive(),
      cells: z.array(z.object({ lat, lng, validMonths: z.int().min(0), latestSpi1: zValue, latestSpi3: zValue })),
    })
    .optional(),
  dailyHeat: z
    .object({
      maxDistanceKm: finite.positive(),
      stations: z.array(
        z.object({
          id: z.string(),
          lat,
          lng,
          from: day,
          to: day,
          daysWithData: z.int().min(0).max(366),
          baseYears: z.int().min(1),
          baseHeatwaveDaysMean: finite.min(0),
          baseHeatwaveDaysSd: finite.min(0),
          baseHotDaysMean: finite.min(0),
          heatwaves: z.int().min(0),
          heatwaveDays: z.int().min(0).max(366),
          longestDays: z.int().min(0).max(366),
          hottestPeakC: finite.nullable(),
          hotDays: z.int().min(0).max(366),
          events: z.array(z.tuple([day, z.int().min(3), finite])),
          byYear: z.array(z.tuple([z.int(), z.int().min(0), z.int().min(0).max(366), z.int().min(0).max(366)])),
        }),
      ),
    })
    .optional(),
  climateNote: z.string().optional(),
});

const portsJson = z.object({
  // A PortWatch port that no list gives a code has code null (found by coordinates only).
  ports: z.array(z.object({ code: z.string().nullable(), name: z.string(), country: z.string(), iso3: z.string().nullable(), lat: lat.nullable(), lng: lng.nullable(), portwatch: z.array(z.object({ lat, lng })) })),
  aliases: z.array(z.object({ code: z.string(), port: z.string(), distanceKm: finite.min(0) })),
  otherEntries: z.record(z.string(), z.tuple([z.string(), z.string()])),
  tankerCountries: z.record(z.string(), z.array(z.string())),
  chokepoints: z.array(z.object({ portid: z.string().regex(/^chokepoint\d+$/), name: z.string().min(1), lat: lat.nullable(), lng: lng.nullable() })).optional(),
});

const aisJson = z.object({
  sampleTime: isoTime.nullable(),
  // [lng, lat, navStatus, sogKnots, mmsi]
  fixes: z.array(z.tuple([lng, lat, finite.nullable(), finite.min(0).nullable(), z.string()])),
});

const hazardsJson = z.object({
  liveFeedAsOf: isoTime.nullable(),
  events: z.array(
    z.object({ id: z.string(), kind: z.string(), alertLevel: z.int().min(1).max(3), lat, lng, from: finite, to: finite }).refine((e) => e.to >= e.from, "to is before from"),
  ),
});

const reportJson = z.record(z.string(), z.unknown());

/** JSON files of a version that have a shape check, by file name. */
export const JSON_SHAPES: Record<string, z.ZodType> = {
  "snapshot.json": feedSnapshot,
  "ports.json": portsJson,
  "ais.json": aisJson,
  "hazards.json": hazardsJson,
  "build-report.json": reportJson,
  "report.json": reportJson,
  "sources.json": sourceStatusFile,
};
