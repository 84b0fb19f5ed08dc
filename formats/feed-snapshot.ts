// The opened form of a feed snapshot (what the server holds per risk type) and how it is read from a
// published version directory: events.bin (formats/event-index.ts) + snapshot.json.
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { EventIndex } from "./event-index.ts";

export type FeedRiskType = "flood" | "wildfire" | "heatwave" | "storm" | "sea_level_rise";
export const FEED_RISK_TYPES: FeedRiskType[] = ["flood", "wildfire", "heatwave", "storm", "sea_level_rise"];

export interface SnapshotMeta {
  riskType: FeedRiskType;
  /** ISO time the data are current as of; timeframes count back from it. */
  asOf: string;
  recordStart: string;
  recordYears: number;
  /** Where the score is defined; outside → 404. */
  coverage: { bbox: [number, number, number, number]; description: string };
  dataSources: string[];
  params: Record<string, number>;
  unit: string;
}

export interface HeatTable {
  country: string;
  /** First month (MonthIndex) of `anomalyC`. */
  firstMonth: number;
  anomalyC: number[];
  /** Global series (GISTEMP, gcag) on the same months, null where missing. */
  global: Record<string, (number | null)[]>;
  /** Land mask of the country on a grid: rows from mask.lat0 northwards, "1" = inside. */
  mask: { lng0: number; lat0: number; step: number; cols: number; rows: number; bits: string };
  hotThresholdC: number;
}

export interface GaugeStat {
  id: number;
  name: string;
  lat: number;
  lng: number;
  thai: boolean;
  trendMmYr: number | null;
  seMmYr: number | null;
  years: number;
  firstYear: number | null;
  lastYear: number | null;
  lastValueMm: number | null;
  annual?: [number, number][];
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

/** One GHCN-Daily station's monthly mean temperature: 1961–1990 baseline per calendar month and latest months. */
export interface StationHeat {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** 12 arrays (January first) of baseline monthly means, °C, ascending. */
  baseline: number[][];
  /** The station's latest months with data, oldest first: [MonthIndex, tmean °C]. */
  recent: [number, number][];
}

export interface StationHeatTable {
  source: string;
  baselineStart: string;
  baselineEnd: string;
  maxDistanceKm: number;
  stations: StationHeat[];
}

export interface FeedSnapshot {
  version: string;
  meta: SnapshotMeta;
  events?: EventIndex;
  heat?: HeatTable;
  gauges?: GaugeStat[];
  climateGrid?: WetGridTable;
  stationHeat?: StationHeatTable;
  /** Why a climate component is missing from this snapshot (e.g. the drought artifact was not published). */
  climateNote?: string;
}

export interface SnapshotJson {
  meta: SnapshotMeta;
  heat?: HeatTable;
  gauges?: GaugeStat[];
  climateGrid?: WetGridTable;
  stationHeat?: StationHeatTable;
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
  const eventsPath = join(dir, "events.bin");
  const events = existsSync(eventsPath) ? new EventIndex(readAligned(eventsPath)) : undefined;
  if (["flood", "wildfire", "storm", "sea_level_rise"].includes(json.meta.riskType) && !events) {
    throw new Error(`${json.meta.riskType} snapshot has no events.bin`);
  }
  return { version, meta: json.meta, events, heat: json.heat, gauges: json.gauges, climateGrid: json.climateGrid, stationHeat: json.stationHeat, climateNote: json.climateNote };
}
