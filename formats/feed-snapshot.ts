// The opened form of a feed snapshot (what the server holds per risk type) and how it is read from a
// published version directory: events.bin (formats/event-index.ts) + snapshot.json.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { EventIndex } from "./event-index.ts";
import { FootprintIndex } from "./footprint-index.ts";

export type FeedRiskType = "flood" | "wildfire" | "heatwave" | "storm" | "sea_level_rise";
export const FEED_RISK_TYPES: FeedRiskType[] = ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"];

/**
 * Layout version of snapshot.json. 2: global coverage (country heat table, every PSMSL gauge with a trend, event
 * records, storm track records, coverage surface). 3: flood snapshots carry footprints.bin (the area each event covered). The reader refuses any other, so a server never scores from a
 * snapshot it misreads; `make snapshots` republishes.
 */
export const FEED_SNAPSHOT_FORMAT = 3;

/**
 * Which points inside `coverage.bbox` a risk type answers: `any` (land and sea), `land` (land and coastal waters),
 * `country` (points in a country that has a series), `coast` (land and coastal waters, with a gauge in reach or
 * beyond the inland distance).
 */
export type CoverageSurface = "any" | "land" | "country" | "coast";

export interface SnapshotMeta {
  riskType: FeedRiskType;
  /** snapshot.json layout version, FEED_SNAPSHOT_FORMAT. */
  format: number;
  /** ISO time the data are current as of; timeframes count back from it. */
  asOf: string;
  recordStart: string;
  recordYears: number;
  /** Where the score is defined; outside → 404 naming `description`. */
  coverage: { bbox: [number, number, number, number]; surface: CoverageSurface; description: string };
  dataSources: string[];
  params: Record<string, number>;
  unit: string;
}

/** One country's monthly temperature anomalies (OWID, °C vs 1991–2020), null where missing. */
export interface CountryHeat {
  name: string;
  /** First month (MonthIndex) of `anomalyC`. */
  firstMonth: number;
  anomalyC: (number | null)[];
  /** The 90th percentile of the country's record: months at or above it are hot. */
  hotThresholdC: number;
}

export interface HeatTable {
  source: string;
  /** ISO 3166-1 alpha-3 (the geography's codes: OWID_KOS is stored as XKX) → the country's series. */
  countries: Record<string, CountryHeat>;
  /** Global series by name (GISTEMP: NASA GISTEMP v4, °C vs 1951–1980) from `globalFirstMonth`, null where missing. */
  globalFirstMonth: number;
  global: Record<string, (number | null)[]>;
}

/** A PSMSL tide gauge with ≥ 20 years of annual RLR data and its OLS trend. */
export interface GaugeStat {
  id: number;
  name: string;
  lat: number;
  lng: number;
  /** PSMSL coastline code (filelist.txt). */
  coastline: number;
  trendMmYr: number;
  seMmYr: number;
  years: number;
  firstYear: number;
  lastYear: number;
  lastValueMm: number | null;
  annual: [number, number][];
}

/**
 * One event record of a snapshot (a feed, or a track record). Storm track records also say where they answer:
 * a point inside `bbox` answers from the first record whose box holds it, counting only groups of `set`.
 */
export interface EventRecord {
  id: string;
  name: string;
  /** First and last event, YYYY-MM-DD. */
  start: string;
  end: string;
  /** Event groups (storms, floods, detections) in the record. */
  events: number;
  /** Storm records: where the record answers. */
  bbox?: [number, number, number, number];
  /** Storm records: the event-index set of the record's storms; absent = every storm in the record's period. */
  set?: string;
  /** Storm records: years of the record, for frequencies and return periods. */
  years?: number;
  /** Storm records: the wind-weighted rate counts storms from this day (YYYY-MM-DD) on, over windYears. */
  windStart?: string;
  windYears?: number;
  /** Storm records: storms with at least one reported wind. */
  eventsWithWind?: number;
  /** Fire records of one country (ISO 3166-1 alpha-3): answer only points in that country, not the whole box. */
  country?: string;
  /** Fire records: each sensor's detections (vegetation fires) with their first and last day. */
  sensors?: Partial<Record<"MODIS" | "VIIRS", FireSensorSpan>>;
}

/** One sensor's detections in a fire record. */
export interface FireSensorSpan {
  start: string;
  end: string;
  detections: number;
}

/** One drought-grid cell's wet extremes (flood snapshot); SPI values null where missing. */
export interface WetCell {
  lat: number;
  lng: number;
  validMonths: number;
  veryWetMonths: number;
  veryWetLatestYear: number;
  latestYearWetness: number;
  latestSpi1: number | null;
  latestSpi3: number | null;
  /** The very wet months (YYYY-MM) of the latest year. */
  latestYearVeryWet: string[];
}

/** SPI wet extremes per cell of the published drought grid, for the flood score's climate term. */
export interface WetGridTable {
  source: string;
  /** Version of the drought artifact the table was taken from. */
  version: string;
  /** The grid's latest valid month (YYYY-MM); the "latest year" ends with it. */
  gridMonth: string;
  recordStart: string;
  baseline: string;
  resolutionDeg: number;
  /** A location farther than this from every cell has no grid data. */
  maxDistanceKm: number;
  cells: WetCell[];
}

/**
 * One GHCN-Daily station's heatwaves (Perkins & Alexander 2013) over its latest calendar year with 300 days of data, against its
 * base years (1981–2010; lib/feed-risk/heatwave-days.ts).
 */
export interface DailyHeatStation {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** The latest year with 300 days of data (YYYY-MM-DD, inclusive) and the days with a maximum temperature in it. */
  from: string;
  to: string;
  daysWithData: number;
  /** Base years used (≥ 300 days of data each); the base years' mean and SD of heatwave days, mean days ≥ 35 °C. */
  baseYears: number;
  baseHeatwaveDaysMean: number;
  baseHeatwaveDaysSd: number;
  baseHotDaysMean: number;
  heatwaves: number;
  heatwaveDays: number;
  longestDays: number;
  hottestPeakC: number | null;
  hotDays: number;
  /** Heatwaves of that year: [first day YYYY-MM-DD, days, peak °C]. */
  events: [string, number, number][];
  /** Every year with 300 days of data: [year, heatwaves, heatwave days, days ≥ 35 °C]. */
  byYear: [number, number, number, number][];
}

export interface DailyHeatTable {
  source: string;
  baseStart: number;
  baseEnd: number;
  maxDistanceKm: number;
  stations: DailyHeatStation[];
}

export interface FeedSnapshot {
  version: string;
  meta: SnapshotMeta;
  events?: EventIndex;
  /** Flood: the footprint of each event of `events`, same order (formats/footprint-index.ts). */
  footprints?: FootprintIndex;
  heat?: HeatTable;
  gauges?: GaugeStat[];
  climateGrid?: WetGridTable;
  dailyHeat?: DailyHeatTable;
  records?: EventRecord[];
  /** Why a climate component is missing from this snapshot (e.g. the drought artifact was not published). */
  climateNote?: string;
}

export interface SnapshotJson {
  meta: SnapshotMeta;
  heat?: HeatTable;
  gauges?: GaugeStat[];
  climateGrid?: WetGridTable;
  dailyHeat?: DailyHeatTable;
  records?: EventRecord[];
  climateNote?: string;
}

function readAligned(path: string): Uint8Array {
  const bytes = readFileSync(path);
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

export function openFeedSnapshot(dir: string, version: string): FeedSnapshot {
  const json = JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8")) as SnapshotJson;
  if (!json.meta || !FEED_RISK_TYPES.includes(json.meta.riskType)) throw new Error("snapshot.json: no meta.riskType");
  if (json.meta.format !== FEED_SNAPSHOT_FORMAT) {
    throw new Error(`snapshot.json: layout ${json.meta.format ?? 1}, this server reads ${FEED_SNAPSHOT_FORMAT} (run make snapshots)`);
  }
  const eventsPath = join(dir, "events.bin");
  const events = existsSync(eventsPath) ? new EventIndex(readAligned(eventsPath)) : undefined;
  if (["flood", "wildfire", "storm", "sea_level_rise"].includes(json.meta.riskType) && !events) {
    throw new Error(`${json.meta.riskType} snapshot has no events.bin`);
  }
  const footprintsPath = join(dir, "footprints.bin");
  const footprints = existsSync(footprintsPath) ? new FootprintIndex(readAligned(footprintsPath)) : undefined;
  if (json.meta.riskType === "flood" && (!footprints || footprints.n !== events!.n)) {
    throw new Error(`flood snapshot: footprints.bin ${footprints ? `holds ${footprints.n} footprints for ${events!.n} events` : "is missing"}`);
  }
  if (json.meta.riskType === "sea_level_rise" && events!.n !== (json.gauges?.length ?? -1)) {
    throw new Error(`sea_level_rise snapshot: events.bin has ${events!.n} gauges, snapshot.json ${json.gauges?.length ?? 0}`);
  }
  if (json.meta.riskType === "heatwave" && !json.heat) throw new Error("heatwave snapshot has no heat table");
  return { version, meta: json.meta, events, footprints, heat: json.heat, gauges: json.gauges, climateGrid: json.climateGrid, dailyHeat: json.dailyHeat, records: json.records, climateNote: json.climateNote };
}
