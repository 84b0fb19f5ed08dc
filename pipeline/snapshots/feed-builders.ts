// One builder per feed risk type: fetch (URL when configured, else DATA_DIR), parse with the adapters, keep
// the events, write events.bin + snapshot.json, and report rejected rows and the score distribution over Thai
// and world locations. A builder throws when a feed fails to validate; build-snapshots.ts then keeps the previous
// snapshot. Coverage is where the inputs reach (docs/methods/feed-risks.md): flood on land worldwide, storm
// everywhere, sea level near the coast, heatwave in every country of the temperature table, wildfire in the extent
// of the fire files (everywhere once a refresh brought FIRMS' global near-real-time archive).
import { clockNow } from "../../lib/currency.ts";
import { gridSourceOf } from "../../lib/drought/grid-sources.ts";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { sha256Bytes, type FileChecksum } from "../../formats/manifest.ts";
import type { SnapshotInput } from "./publish-snapshot.ts";
import { EventIndex, writeEventIndex, type EventInput } from "../../formats/event-index.ts";
import { fetchFeed, type FetchOutcome } from "../feeds/fetch.ts";
import { countryChecker, countryNamesToIso3 } from "../feeds/country-check.ts";
import { parseDfoArchive } from "../feeds/dfo.ts";
import { dfoWorkbookAsCsv } from "../feeds/dfo-workbook.ts";
import { gdacsFloodAffectedAreas, parseGdacsFloodTable, parseGdacsGeoJson } from "../feeds/gdacs.ts";
import { readDfoFootprints, readGfdMappedEvents } from "../feeds/dfo-footprints.ts";
import { GDACS_GEOMETRY_DIR } from "../feeds/gdacs-geometry.ts";
import { FootprintIndex, writeFootprintIndex, type FootprintInput } from "../../formats/footprint-index.ts";
import { DFO_DISC_RADIUS_KM, FOOTPRINT_BUFFER_KM, GDACS_POINT_RADIUS_KM, floodEventWeight, footprintSpecificity } from "../../lib/feed-risk/flood.ts";
import { ringsAreaKm2 } from "../feeds/polygons.ts";
import { parseFirmsCsv, parseFirmsGeoJson } from "../feeds/firms.ts";
import { FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES } from "../feeds/firms-global.ts";
import { parseIbtracsCsv, type TrackPoint } from "../feeds/ibtracs.ts";
import { IBTRACS_WP_CSV_FILE, IBTRACS_WP_FILE, IBTRACS_WP_SOURCE, mergeTrackRecords, parseIbtracsWpCsv, readIbtracsParquet } from "../feeds/ibtracs-parquet.ts";
import { linearTrend, parsePsmslFilelist, parseRlrAnnual } from "../feeds/psmsl.ts";
import { GISTEMP_TABLE_FILE, parseGlobalTemperature, parseOwidTemperature } from "../feeds/temperature.ts";
import type { AdapterResult, FeedRecord } from "../feeds/records.ts";
import { FEED_SNAPSHOT_FORMAT, type CountryHeat, type EventRecord, type FeedRiskType, type FeedSnapshot, type GaugeStat, type HeatTable, type SnapshotJson, type SnapshotMeta, type DailyHeatStation, type DailyHeatTable, type WetCell, type WetGridTable } from "../../formats/feed-snapshot.ts";
import { assess } from "../../lib/feed-risk/assess.ts";
import { NotCoveredError, type Place } from "../../lib/feed-risk/answer.ts";
import { placeLocator, sharedGeography } from "../../lib/feed-risk/place.ts";
import { DAY_MS, YEAR_MS } from "../../lib/feed-risk/scoring.ts";
import { wetExtremes } from "../../lib/feed-risk/climate-components.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { readManifest } from "../../formats/manifest.ts";
import { formatMonth } from "../../lib/months.ts";
import { GHCND_SUBDIR, STATION_INDEX_FILE, readStationIndex } from "../inputs/ghcnd/stations.ts";
import { TEMP_LIMIT_C, epochDay, parseGhcndCsv, type DailySeries } from "../inputs/ghcnd/parse.ts";
import { HEAT_BY_YEAR_DIR, HEAT_STATIONS_DIR } from "../inputs/ghcnd/heat-network.ts";
import { calendarDayThresholds, heatwaveStats } from "../../lib/feed-risk/heatwave-days.ts";

export interface BuildContext {
  dataDir: string;
  /** Where the drought artifact is published (ARTIFACTS_DIR); its current/drought-grid.bin feeds the flood climate term. */
  artifactsDir?: string;
  env: NodeJS.ProcessEnv;
  now: Date;
}

/** What a snapshot builder hands to publishSnapshot: everything but where and under which name. */
export type BuiltSnapshot = Pick<SnapshotInput, "files" | "asOf" | "sources" | "inputs" | "qc" | "report"> & {
  /** Accepted rows per input feed, for the refusal rule (row-drop.ts). */
  acceptedRows: Record<string, number>;
};

/** The whole globe as a coverage box. */
export const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

// Feed files under DATA_DIR; also the names rejected rows are reported under (file:line).
const DFO_FILE = "feeds/dfo/FloodArchive.csv";
/** The publisher's workbook, linked into the inputs tree by `make refresh`: read instead of the CSV export when present. */
export const DFO_WORKBOOK_FILE = "feeds/dfo/FloodArchive.xlsx";
const GDACS_TABLE_FILE = "feeds/gdacs/latest_gdacs_flood_db.csv";
/** DFO flood-extent polygons (zipped shapefile) and the Global Flood Database's table of MODIS-mapped events. */
export const DFO_POLYGONS_FILE = "feeds/flood-footprints/dfo_polys_20191203.zip";
/** A GDACS flood whose point lies this close to a DFO footprint of overlapping dates is that DFO event. */
const SAME_EVENT_KM = 50;
export const GFD_TABLE_FILE = "feeds/flood-footprints/gfd_qcdatabase_2019_08_01.csv.gz";
const GDACS_GEOJSON_FILE = "feeds/gdacs/gdacs_20260530T1858Z.geojson";
/** The flood search API's archive (merged by event, nightly), linked into the inputs tree by `make refresh`; absent offline. */
export const GDACS_FLOOD_SEARCH_FILE = "feeds/gdacs/gdacs_floods.geojson";
const FIRMS_CSV_FILE = "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv";
const FIRMS_GEOJSON_FILE = "feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson";
const IBTRACS_COMPACT_FILE = "feeds/ibtracs/ibtracs_last3years_clean.csv";
/** NOAA's native last-3-years list, linked into the inputs tree by a refresh (registry: ibtracs_recent). */
export const IBTRACS_RECENT_FILE = "feeds/ibtracs/ibtracs.last3years.list.v04r01.csv";
const IBTRACS_ACTIVE_FILE = "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv";
const PSMSL_FILELIST = "feeds/psmsl/filelist.txt";
const PSMSL_DATA_DIR = "feeds/psmsl/data";
const OWID_TEMPERATURE_FILE = "feeds/temperature/monthly-temperature-anomalies.csv";
const GLOBAL_TEMPERATURE_FILE = "feeds/temperature/global-monthly-gistemp-gcag.csv";

export const PARAMS = {
  wildfire: { radiusKm: 100, decayKm: 30, annualRateRef: 10, recentRef: 3 },
  storm: { radiusKm: 300, decayKm: 150, annualRateRef: 0.2, recentRef: 0.3 },
  // inlandKm: three e-folding distances (exposure factor < 5 %); beyond it a point answers 0 with its distance.
  sea_level_rise: { radiusKm: 300, rateRefMmYr: 10, coastDecayKm: 50, inlandKm: 150, minYears: 20 },
} as const;

/**
 * The long West Pacific storm record answers points north of the equator between 100°E and 180°: the IBTrACS WP
 * basin (the CSVs' basin labels: WP fixes 100.7..179.9°E, North Indian fixes up to 99.7°E).
 */
export const WEST_PACIFIC_BOX: [number, number, number, number] = [100, 0, 180, 90];
/** WMO wind in the long record starts with RSMC Tokyo's best tracks in 1977 (ibtracs-parquet.ts notes). */
export const WEST_PACIFIC_WIND_START = "1977-01-01";

export class Inputs {
  readonly checksums: Record<string, FileChecksum> = {};
  readonly fetches: Record<string, Omit<FetchOutcome, "text">> = {};
  constructor(private readonly ctx: BuildContext) {}
  /** Text of a feed file (downloaded when FEED_URL_<name> is set), recorded with its checksum. */
  async text(rel: string, feedName?: string): Promise<string> {
    const path = join(this.ctx.dataDir, rel);
    let text: string;
    if (feedName) {
      const { text: t, ...outcome } = await fetchFeed({ name: feedName, fallbackPath: path }, { env: this.ctx.env });
      text = t;
      this.fetches[rel] = outcome;
    } else text = readFileSync(path, "utf8");
    const bytes = new TextEncoder().encode(text);
    this.checksums[rel] = { bytes: bytes.length, sha256: sha256Bytes(bytes) };
    return text;
  }
  /** Bytes of a file, recorded with its checksum. */
  bytes(rel: string): Buffer {
    const b = readFileSync(join(this.ctx.dataDir, rel));
    this.checksums[rel] = { bytes: b.length, sha256: sha256Bytes(b) };
    return b;
  }
  /** Texts of files of one folder, each recorded with its checksum (as `text` does, without a download). */
  folder(rel: string, names: string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const name of [...names].sort()) out.set(name, this.bytes(`${rel}/${name}`).toString("utf8"));
    return out;
  }
}

function rejections(r: AdapterResult<unknown>) {
  return { rows: r.rows, accepted: r.records.length, rejected: r.rejected, reasons: r.reasons, rejectedAt: r.rejectedAt };
}

/** The build report's adapter table and the accepted rows of each adapter's input. */
function adapterQc(adapters: Record<string, AdapterResult<unknown>>) {
  return {
    adapters: Object.fromEntries(Object.entries(adapters).map(([name, r]) => [name, rejections(r)])),
    acceptedRows: Object.fromEntries(Object.entries(adapters).map(([name, r]) => [name, r.records.length])),
  };
}

/** A feed with no usable rows, or mostly rejected rows, is a failed validation. */
function requireValid(name: string, r: AdapterResult<unknown>): void {
  if (r.records.length === 0) throw new Error(`${name}: no valid records`);
  if (r.rejected > 0.5 * r.rows) throw new Error(`${name}: ${r.rejected} of ${r.rows} rows rejected`);
}

const toEvent = (r: FeedRecord, set?: string): EventInput => ({
  id: r.id, source: r.source, time: r.time, endTime: r.endTime, lng: r.lng, lat: r.lat, bbox: r.bbox, magnitude: r.magnitude, name: r.name, group: r.group, ...(set === undefined ? {} : { set }),
});

const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Thai locations every 1° (lat 6..20, lng 98..105) for the build report's score distribution. */
export function thaiGrid(): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (let lat = 6; lat <= 20; lat += 1) for (let lng = 98; lng <= 105; lng += 1) out.push({ lat, lng });
  return out;
}

/** World locations every 10° (lat −50..70, lng −180..170) for the build report's score distribution. */
export function worldGrid(): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (let lat = -50; lat <= 70; lat += 10) for (let lng = -180; lng < 180; lng += 10) out.push({ lat, lng });
  return out;
}

function scoreDistribution(snap: FeedSnapshot, points: { lat: number; lng: number }[], locate: (lat: number, lng: number) => Place, grid: string) {
  const scores: number[] = [];
  let notCovered = 0;
  for (const p of points) {
    try {
      scores.push(assess(snap, { ...p, timeframe: "1y", includeHistorical: false }, locate(p.lat, p.lng)).riskScore);
    } catch (err) {
      if (!(err instanceof NotCoveredError)) throw err;
      notCovered++;
    }
  }
  scores.sort((x, y) => x - y);
  const q = (f: number) => (scores.length ? scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] : null);
  const levels = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const s of scores) levels[s >= 80 ? "critical" : s >= 60 ? "high" : s >= 30 ? "medium" : "low"]++;
  return { grid, locations: scores.length + notCovered, notCovered, min: q(0), p25: q(0.25), median: q(0.5), p75: q(0.75), max: scores.at(-1) ?? null, levels };
}

function distribution(json: SnapshotJson, files: Record<string, Uint8Array | string>) {
  // Parse the bytes exactly as the server will read them.
  const bin = files["events.bin"];
  const fp = files["footprints.bin"];
  const snap: FeedSnapshot = { version: "build", footprints: fp instanceof Uint8Array ? new FootprintIndex(aligned(fp)) : undefined, meta: json.meta, heat: json.heat, gauges: json.gauges, climateGrid: json.climateGrid, dailyHeat: json.dailyHeat, records: json.records, events: bin instanceof Uint8Array ? new EventIndex(aligned(bin)) : undefined };
  const locate = placeLocator();
  return {
    thailand: scoreDistribution(snap, thaiGrid(), locate, "1° lat 6..20 × lng 98..105, timeframe 1y"),
    world: scoreDistribution(snap, worldGrid(), locate, "10° lat −50..70 × lng −180..170, timeframe 1y"),
  };
}

function aligned(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(b.length));
  out.set(b);
  return out;
}

function finish(
  meta: SnapshotMeta,
  events: EventInput[] | undefined,
  extra: Omit<SnapshotJson, "meta">,
  inputs: Inputs,
  adapters: Record<string, AdapterResult<unknown>>,
  more: Record<string, unknown>,
  extraFiles: Record<string, Uint8Array> = {},
): BuiltSnapshot {
  refuseFutureData(meta, events, extra);
  const { adapters: adapterTable, acceptedRows } = adapterQc(adapters);
  const qc = { adapters: adapterTable, ...more };
  const json: SnapshotJson = { meta, ...extra };
  const files: Record<string, Uint8Array | string> = { "snapshot.json": JSON.stringify(json) };
  if (events) files["events.bin"] = writeEventIndex(events, { riskType: meta.riskType, unit: meta.unit });
  Object.assign(files, extraFiles);
  const report = { riskType: meta.riskType, asOf: meta.asOf, recordStart: meta.recordStart, coverage: meta.coverage, events: events?.length ?? null, fetches: inputs.fetches, ...qc, scoreDistribution: distribution(json, files) };
  files["build-report.json"] = JSON.stringify(report, null, 2);
  return { files, asOf: meta.asOf, sources: meta.dataSources, inputs: inputs.checksums, qc: { ...qc, scoreDistribution: report.scoreDistribution }, report: "build-report.json", acceptedRows };
}

/** Data dated more than this after the build's clock are impossible: a wrong date in the feed, not a forecast. */
const FUTURE_SLACK_MS = 2 * 86_400_000;

/**
 * An answer whose data end in the future would present a wrong date as the present: a snapshot whose as-of, events,
 * records or station years lie after today (with two days' slack for time zones) is refused, as other impossible
 * values are, and the previous snapshot keeps serving.
 */
export function refuseFutureData(meta: SnapshotMeta, events: EventInput[] | undefined, extra: Omit<SnapshotJson, "meta">, now = clockNow()): void {
  const limit = now + FUTURE_SLACK_MS;
  const bad = (what: string, t: number) => {
    throw new Error(`${meta.riskType} snapshot refused: ${what} ${new Date(t).toISOString().slice(0, 10)} lies after today (${new Date(now).toISOString().slice(0, 10)}): a wrong date in the feed`);
  };
  const asOf = Date.parse(meta.asOf);
  if (asOf > limit) bad("its data end", asOf);
  for (const e of events ?? []) if (e.time > limit) bad(`event ${e.id} starts`, e.time);
  for (const r of extra.records ?? []) if (Date.parse(r.end) > limit) bad(`record ${r.id} ends`, Date.parse(r.end));
  for (const st of extra.dailyHeat?.stations ?? []) if (Date.parse(st.to) > limit) bad(`station ${st.id}'s year ends`, Date.parse(st.to));
  for (const g of extra.gauges ?? []) if (g.lastYear !== null && Date.UTC(g.lastYear, 0, 1) > limit) bad(`gauge ${g.id}'s last year begins`, Date.UTC(g.lastYear, 0, 1));
}

function eventMeta(riskType: FeedRiskType, events: EventInput[], asOf: number, coverage: SnapshotMeta["coverage"], dataSources: string[], unit: string, params: Record<string, number>): SnapshotMeta {
  let start = Infinity;
  for (const e of events) if (e.time < start) start = e.time;
  return {
    riskType,
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(start).toISOString(),
    recordYears: Math.max(1 / 365, (asOf - start) / YEAR_MS),
    coverage,
    dataSources,
    params,
    unit,
  };
}

function latest(events: { time: number }[]): number {
  let t = -Infinity;
  for (const e of events) if (e.time > t) t = e.time;
  return t;
}

/** One record of a feed: its first and last event and its event groups. */
function recordOf(id: string, name: string, events: EventInput[]): EventRecord {
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e.time < first) first = e.time;
    if (e.time > last) last = e.time;
  }
  return { id, name, start: isoDay(first), end: isoDay(last), events: new Set(events.map((e) => e.group ?? e.id)).size };
}

export async function buildFlood(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const dfo = existsSync(join(ctx.dataDir, DFO_WORKBOOK_FILE))
    ? parseDfoArchive(await dfoWorkbookAsCsv(inp.bytes(DFO_WORKBOOK_FILE)), countryChecker(), DFO_WORKBOOK_FILE)
    : parseDfoArchive(await inp.text(DFO_FILE, "DFO_ARCHIVE"), countryChecker(), DFO_FILE);
  const table = parseGdacsFloodTable(await inp.text(GDACS_TABLE_FILE, "GDACS_FLOOD_TABLE"), countryChecker(), GDACS_TABLE_FILE);
  const geoText = await inp.text(GDACS_GEOJSON_FILE, "GDACS_GEOJSON");
  const geo = parseGdacsGeoJson(geoText);
  const searchText = existsSync(join(ctx.dataDir, GDACS_FLOOD_SEARCH_FILE)) ? await inp.text(GDACS_FLOOD_SEARCH_FILE) : undefined;
  const search = searchText === undefined ? undefined : parseGdacsGeoJson(searchText);
  requireValid("DFO", dfo);
  requireValid("GDACS flood table", table);
  requireValid("GDACS GeoJSON", geo);
  if (search) requireValid("GDACS flood search", search);
  // Footprints: DFO's drawn polygons and the Global Flood Database's list of MODIS-mapped events, where present.
  const polygons = existsSync(join(ctx.dataDir, DFO_POLYGONS_FILE)) ? await readDfoFootprints(inp.bytes(DFO_POLYGONS_FILE), DFO_POLYGONS_FILE) : undefined;
  if (polygons) requireValid("DFO polygons", polygons);
  const gfd = existsSync(join(ctx.dataDir, GFD_TABLE_FILE)) ? readGfdMappedEvents(inp.bytes(GFD_TABLE_FILE), GFD_TABLE_FILE) : undefined;
  if (gfd) requireValid("Global Flood Database table", gfd);
  const polygonOf = new Map((polygons?.records ?? []).map((f) => [f.id, f.rings]));
  const mappedIds = new Set(gfd?.records ?? []);
  const affected = gdacsFloodAffectedAreas(geoText);
  const geometryRejected: Record<string, string> = {};
  if (searchText !== undefined) for (const [id, rings] of gdacsFloodAffectedAreas(searchText)) if (!affected.has(id)) affected.set(id, rings);
  // Each recent flood's geometry from GDACS' API, where a refresh brought it (feeds/gdacs/geometry/FL-<id>.geojson).
  const geometryDir = join(ctx.dataDir, GDACS_GEOMETRY_DIR);
  const geometryFiles = existsSync(geometryDir) ? readdirSync(geometryDir).filter((f) => /^FL-\d+\.geojson$/.test(f)) : [];
  for (const [f, text] of inp.folder(GDACS_GEOMETRY_DIR, geometryFiles)) {
    try {
      for (const [id, rings] of gdacsFloodAffectedAreas(text)) if (!affected.has(id)) affected.set(id, rings);
    } catch (err) {
      geometryRejected[f] = (err as Error).message;
    }
  }
  // The live GeoJSON files repeat floods of the table: one event per GDACS id, the newer record winning (the search
  // archive over the table, the current event list over both).
  const gdacs = new Map<string, FeedRecord & { iso3?: string }>();
  for (const r of table.records) gdacs.set(r.id, r);
  for (const r of search?.records.filter((r) => r.kind === "flood") ?? []) gdacs.set(r.id, { ...r, iso3: gdacs.get(r.id)?.iso3 });
  for (const r of geo.records.filter((r) => r.kind === "flood")) gdacs.set(r.id, { ...r, iso3: gdacs.get(r.id)?.iso3 });
  const locate = placeLocator();
  const events: EventInput[] = [];
  const footprints: FootprintInput[] = [];
  const kinds = { dfoPolygon: 0, dfoDisc: 0, gdacsPolygon: 0, gdacsDisc: 0, gdacsSameAsDfo: 0 };
  // DFO: the drawn polygon of the event, else a disc of the event's area within its country.
  const dfoSpans: { from: number; to: number }[] = [];
  for (const r of dfo.records) {
    const iso3 = countryNamesToIso3(r.country);
    const rings = polygonOf.get(r.id);
    const eventWeight = floodEventWeight({ source: "DFO", severity: r.severity, dead: r.dead, displaced: r.displaced });
    if (rings) {
      const weight = eventWeight * footprintSpecificity(ringsAreaKm2(rings));
      footprints.push({ rings, countries: [], weight, mapped: mappedIds.has(r.id) });
      kinds.dfoPolygon++;
    } else {
      const radiusKm = Math.min(DFO_DISC_RADIUS_KM.max, Math.max(DFO_DISC_RADIUS_KM.min, Math.sqrt((Number.isFinite(r.areaKm2) ? r.areaKm2 : 0) / Math.PI)));
      const weight = eventWeight * footprintSpecificity(Math.PI * radiusKm ** 2);
      footprints.push({ disc: { lng: r.lng, lat: r.lat, radiusKm }, countries: iso3, weight, mapped: mappedIds.has(r.id) });
      kinds.dfoDisc++;
    }
    events.push(toEvent(r));
    dfoSpans.push({ from: r.time - 3 * DAY_MS, to: r.endTime + 3 * DAY_MS });
  }
  // GDACS: an event DFO also records (a DFO footprint within 50 km of its point, overlapping dates) counts once, as
  // DFO's footprint.
  const dfoIndex = new FootprintIndex(aligned(writeFootprintIndex(footprints)));
  for (const r of [...gdacs.values()].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1))) {
    // The disc's countries: the one GDACS names and the one its point lies in (GDACS names Bahrain for a point in Dubai).
    const here = locate(r.lat, r.lng).country;
    const iso3 = [...new Set([...(r.iso3 && /^[A-Z]{3}$/.test(r.iso3) ? [r.iso3] : []), ...(here ? [here] : [])])];
    const near = dfoIndex.covering(r.lat, r.lng, SAME_EVENT_KM, iso3[0] ?? null);
    let same = false;
    for (let k = 0; k < near.count && !same; k++) same = dfoSpans[near.index[k]].from <= r.endTime && dfoSpans[near.index[k]].to >= r.time;
    if (same) { kinds.gdacsSameAsDfo++; continue; }
    const eventWeight = floodEventWeight({ source: "GDACS", severity: r.magnitude });
    const rings = affected.get(r.id);
    if (rings) {
      footprints.push({ rings, countries: [], weight: eventWeight * footprintSpecificity(ringsAreaKm2(rings)) });
      kinds.gdacsPolygon++;
    } else {
      footprints.push({ disc: { lng: r.lng, lat: r.lat, radiusKm: GDACS_POINT_RADIUS_KM }, countries: iso3, weight: eventWeight });
      kinds.gdacsDisc++;
    }
    events.push(toEvent(r));
  }
  const dfoEvents = events.filter((e) => e.source === "DFO");
  const gdacsEvents = events.filter((e) => e.source === "GDACS");
  const records = [recordOf("dfo", "DFO Global Active Archive of Large Flood Events", dfoEvents), recordOf("gdacs", "GDACS flood events", gdacsEvents)];
  const asOf = latest(events);
  const coverage = {
    bbox: WORLD,
    surface: "land" as const,
    description: `land worldwide (Natural Earth 1:${sharedGeography().scale}; open sea 404): ${records.map((r) => `${r.name} ${r.start.slice(0, 4)}–${r.end.slice(0, 4)}`).join(", ")}`,
  };
  const meta = eventMeta("flood", events, asOf, coverage, [
    "Dartmouth Flood Observatory Global Active Archive of Large Flood Events and its flood-extent polygons (Brakenridge)",
    ...(gfd ? ["Global Flood Database v1 (Tellman et al. 2021, Nature 596:80-86): MODIS-mapped DFO events"] : []),
    "GDACS flood events and affected areas (EC JRC / UN OCHA)",
  ], "DFO magnitude | GDACS alert score", { bufferKm: FOOTPRINT_BUFFER_KM, gdacsPointRadiusKm: GDACS_POINT_RADIUS_KM, dfoDiscMinKm: DFO_DISC_RADIUS_KM.min, dfoDiscMaxKm: DFO_DISC_RADIUS_KM.max });
  const wet = wetGridTable(ctx, inp);
  if (wet.table) meta.dataSources.push(`${wet.table.source}, version ${wet.table.version} (reported, not scored)`);
  const extra = wet.table ? { climateGrid: wet.table, records } : { climateNote: wet.note, records };
  const fpBytes = writeFootprintIndex(footprints, { riskType: "flood" });
  return finish(meta, events, extra, inp, { dfo, gdacsFloodTable: table, gdacsGeoJson: geo, ...(search ? { gdacsFloodSearch: search } : {}), ...(polygons ? { dfoPolygons: polygons } : {}), ...(gfd ? { gfdTable: gfd } : {}) }, {
    records,
    footprints: kinds,
    gdacsGeometry: { files: geometryFiles.length, rejected: geometryRejected },
    climateGrid: wet.table ? { version: wet.table.version, gridMonth: wet.table.gridMonth, cells: wet.table.cells.length, scored: false } : { skipped: wet.note },
  }, { "footprints.bin": fpBytes });
}

/** Outward-rounded bounding box of points, whole degrees. */
function extentOf(points: { lat: number; lng: number }[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    b[0] = Math.min(b[0], p.lng); b[1] = Math.min(b[1], p.lat); b[2] = Math.max(b[2], p.lng); b[3] = Math.max(b[3], p.lat);
  }
  return [Math.floor(b[0]), Math.floor(b[1]), Math.ceil(b[2]), Math.ceil(b[3])];
}

const degrees = (b: [number, number, number, number]) => {
  const lng = (x: number) => `${Math.abs(x)}°${x < 0 ? "W" : "E"}`;
  const lat = (y: number) => `${Math.abs(y)}°${y < 0 ? "S" : "N"}`;
  return `${lng(b[0])}–${lng(b[2])}, ${lat(b[1])}–${lat(b[3])}`;
};

/** FIRMS archive downloads (gzip CSV) in the data directory, each its own record with its own extent. */
export const FIRMS_ARCHIVES = [
  { file: "feeds/firms-archive/fire_archive_M6_96619.csv.gz", id: "firms-australia-2019", name: "NASA FIRMS MODIS C6 archive, Australia" },
  { file: "feeds/firms-archive/fire_archive_SV-C2_740981.csv.gz", id: "firms-rhodes-2023", name: "NASA FIRMS VIIRS archive, Rhodes (Suomi NPP, NOAA-20)" },
  { file: "feeds/firms-archive/fire_archive_J1V-C2_740979.csv.gz", id: "firms-rhodes-2023", name: "NASA FIRMS VIIRS archive, Rhodes (Suomi NPP, NOAA-20)" },
] as const;

export async function buildWildfire(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const csv = parseFirmsCsv(await inp.text(FIRMS_CSV_FILE, "FIRMS_CSV"), FIRMS_CSV_FILE);
  // The GeoJSON is the mirror's conversion of the same detections: a data directory without it has the CSV alone.
  const geo = existsSync(join(ctx.dataDir, FIRMS_GEOJSON_FILE)) ? parseFirmsGeoJson(await inp.text(FIRMS_GEOJSON_FILE)) : undefined;
  const gdacs = parseGdacsGeoJson(await inp.text(GDACS_GEOJSON_FILE, "GDACS_GEOJSON"));
  requireValid("FIRMS CSV", csv);
  if (geo) requireValid("FIRMS GeoJSON", geo);
  // The CSV holds the same detections as the GeoJSON; one event per detection id.
  const byId = new Map<string, FeedRecord>();
  for (const r of [...(geo?.records ?? []), ...csv.records]) byId.set(r.id, r);
  const nrtSet = "firms-sea-2018";
  const events = [...byId.values()].map((r) => toEvent(r, nrtSet));
  const recordSpecs: { id: string; name: string; events: EventInput[]; bbox?: [number, number, number, number] }[] = [{ id: nrtSet, name: "NASA FIRMS MODIS C6 South-East Asia 48 h sample", events: [...events] }];
  const archives: Record<string, AdapterResult<unknown>> = {};
  // The archive downloads: each a record of its own, answering inside its own extent.
  for (const a of FIRMS_ARCHIVES) {
    if (!existsSync(join(ctx.dataDir, a.file))) continue;
    const r = parseFirmsCsv(gunzipSync(inp.bytes(a.file)).toString("utf8"), a.file);
    requireValid(a.file, r);
    archives[a.file] = r;
    const evs = r.records.map((x) => toEvent(x, a.id));
    events.push(...evs);
    const spec = recordSpecs.find((x) => x.id === a.id);
    if (spec) spec.events.push(...evs);
    else recordSpecs.push({ id: a.id, name: a.name, events: evs });
  }
  // The global near-real-time archives (source firms_global), where a refresh linked them in: one worldwide record,
  // listed first so it answers every point (the fixed files answer only without it).
  const global = FIRMS_GLOBAL_FILES.map((f) => join(FIRMS_GLOBAL_DIR, f.file)).filter((f) => existsSync(join(ctx.dataDir, f)));
  const globalSet = "firms-global-nrt";
  const globalEvents: EventInput[] = [];
  for (const file of global) {
    const r = parseFirmsCsv(await inp.text(file), file);
    requireValid(file, r);
    archives[file] = r;
    for (const x of r.records) globalEvents.push(toEvent(x, globalSet));
  }
  if (globalEvents.length > 0) {
    for (const e of globalEvents) events.push(e);
    recordSpecs.unshift({ id: globalSet, name: "NASA FIRMS global near-real-time fires (MODIS C6.1, VIIRS S-NPP and NOAA-20)", events: globalEvents, bbox: WORLD });
  }
  const records: EventRecord[] = recordSpecs.map((x) => {
    const rec = recordOf(x.id, x.name, x.events);
    // A loop, not Math.min(...): a global record holds millions of detections.
    let first = Infinity;
    for (const e of x.events) first = Math.min(first, e.time);
    const last = latest(x.events);
    // The files carry no product region: a record answers inside the extent of its detections, rounded out to whole degrees.
    return { ...rec, bbox: x.bbox ?? extentOf(x.events), set: x.id, years: Math.max(1 / 365.2425, (last - first) / YEAR_MS) };
  });
  const asOf = latest(events);
  const bbox = globalEvents.length > 0 ? WORLD : extentOf(events);
  const coverage = { bbox, surface: "any" as const, description: `${globalEvents.length > 0 ? "everywhere (the global record first); " : ""}the extents of the fire files present: ${records.map((r) => `${r.name} ${r.start}..${r.end} (${degrees(r.bbox!)})`).join("; ")}` };
  const meta = eventMeta("wildfire", events, asOf, coverage, ["NASA FIRMS MODIS C6 / VIIRS active fires (Giglio et al. 2016; Schroeder et al. 2014)"], "FRP MW", { ...PARAMS.wildfire });
  const gdacsFires = gdacs.records.filter((r) => r.kind === "fire").length;
  return finish(meta, events, { records }, inp, { firmsCsv: csv, ...(geo ? { firmsGeoJson: geo } : {}), ...archives }, { records, gdacsWildfiresNotUsed: gdacsFires, note: "GDACS wildfires (2026) fall outside the FIRMS record windows and are not mixed in" });
}

/**
 * The storm snapshot: the long West Pacific record (Parquet, 1884–2025) merged by SID with the recent and active
 * CSV tracks (every basin, 2022–2025). A storm is in the West Pacific set when the long record holds it or a CSV
 * labels any of its fixes WP; the others are in the global set. Two track records say where each answers.
 */
export async function buildStorm(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  // The recent tracks: NOAA's own last-3-years list when a refresh brought it, else the mirror's compact table.
  const recentFile = existsSync(join(ctx.dataDir, IBTRACS_RECENT_FILE)) ? IBTRACS_RECENT_FILE : IBTRACS_COMPACT_FILE;
  const compact = parseIbtracsCsv(await inp.text(recentFile), recentFile);
  const active = parseIbtracsCsv(await inp.text(IBTRACS_ACTIVE_FILE, "IBTRACS_ACTIVE"), IBTRACS_ACTIVE_FILE);
  // The long record: NOAA's own WP list when a refresh brought it, else the mirror's Parquet extract.
  let long: AdapterResult<TrackPoint>;
  if (existsSync(join(ctx.dataDir, IBTRACS_WP_CSV_FILE))) long = parseIbtracsWpCsv(await inp.text(IBTRACS_WP_CSV_FILE), IBTRACS_WP_CSV_FILE);
  else {
    inp.bytes(IBTRACS_WP_FILE);
    long = await readIbtracsParquet(join(ctx.dataDir, IBTRACS_WP_FILE));
  }
  requireValid(recentFile === IBTRACS_RECENT_FILE ? "IBTrACS last 3 years" : "IBTrACS compact", compact);
  requireValid("IBTrACS ACTIVE", active);
  requireValid("IBTrACS West Pacific", long);
  // The compact file has no storm id (the native list has): active-list points at the same time and place replace them.
  const key = (r: FeedRecord) => `${r.time}|${r.lat.toFixed(1)}|${r.lng.toFixed(1)}`;
  const activeKeys = new Set(active.records.map(key));
  const recent = [...compact.records.filter((r) => !activeKeys.has(key(r))), ...active.records];
  const merged = mergeTrackRecords(long.records, recent);
  const stormOf = (p: TrackPoint) => p.group ?? p.id;
  const westPacific = new Set<string>();
  for (const p of merged.records) if (p.source === IBTRACS_WP_SOURCE || p.basin === "WP") westPacific.add(stormOf(p));
  const WP = "west-pacific";
  const GLOBAL = "global";
  const events = merged.records.map((p) => toEvent(p, westPacific.has(stormOf(p)) ? WP : GLOBAL));
  const asOf = latest(events);
  const wpEvents = events.filter((e) => e.set === WP);
  const wp = recordOf(WP, "IBTrACS West Pacific record", wpEvents);
  const wpStart = Date.parse(wp.start);
  const windStart = Date.parse(WEST_PACIFIC_WIND_START);
  const withWind = new Set(wpEvents.filter((e) => Number.isFinite(e.magnitude)).map((e) => e.group));
  const recentStart = Math.min(...recent.map((r) => r.time));
  const global = recordOf(GLOBAL, "IBTrACS global recent and active tracks", events.filter((e) => e.time >= recentStart));
  const records: EventRecord[] = [
    { ...wp, end: isoDay(asOf), bbox: WEST_PACIFIC_BOX, set: WP, years: (asOf - wpStart) / YEAR_MS, windStart: WEST_PACIFIC_WIND_START, windYears: (asOf - windStart) / YEAR_MS, eventsWithWind: withWind.size },
    { ...global, end: isoDay(asOf), bbox: WORLD, years: (asOf - recentStart) / YEAR_MS },
  ];
  const coverage = {
    bbox: WORLD,
    surface: "any" as const,
    description: `everywhere: the ${wp.name} ${wp.start}..${isoDay(asOf)} north of the equator between 100°E and 180°, the ${global.name} ${global.start}..${isoDay(asOf)} elsewhere`,
  };
  const meta = eventMeta("storm", events, asOf, coverage, [
    "NOAA IBTrACS v04r01 tropical cyclone best tracks (Knapp et al. 2010)",
    "NOAA IBTrACS v04r01 West Pacific best tracks 1884–2025, Parquet extract (Knapp et al. 2010)",
  ], "kt", { ...PARAMS.storm });
  return finish(meta, events, { records }, inp, { ibtracsCompact: compact, ibtracsActive: active, ibtracsWestPacific: long }, {
    records,
    storms: merged.storms,
    westPacificStorms: westPacific.size,
    merge: { overlappingSids: merged.overlappingSids, replacedPoints: merged.replacedPoints, resolvedGroups: Object.keys(merged.resolvedGroups).length },
  });
}

/** Every gauge of the filelist whose rlrdata file is present, with its trend where it has ≥ 20 years of data. */
export async function buildSeaLevel(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const list = parsePsmslFilelist(await inp.text(PSMSL_FILELIST, "PSMSL_FILELIST"), PSMSL_FILELIST);
  requireValid("PSMSL filelist", list);
  const present = new Set(readdirSync(join(ctx.dataDir, PSMSL_DATA_DIR)).filter((f) => f.endsWith(".rlrdata")));
  const texts = inp.folder(PSMSL_DATA_DIR, list.records.map((st) => `${st.id}.rlrdata`).filter((f) => present.has(f)));
  const gauges: GaugeStat[] = [];
  const rejectedFiles: Record<string, string> = {};
  const missingFiles: number[] = [];
  let shortRecords = 0;
  for (const st of list.records) {
    const rel = `${PSMSL_DATA_DIR}/${st.id}.rlrdata`;
    const text = texts.get(`${st.id}.rlrdata`);
    if (text === undefined) { missingFiles.push(st.id); continue; }
    try {
      const rlr = parseRlrAnnual(text, rel);
      if (rlr.rejected) rejectedFiles[rel] = `${rlr.rejected} malformed lines`;
      const t = linearTrend(rlr.series.years, rlr.series.mm);
      // A trend needs 20 years of data (Douglas 1991: shorter records alias interannual variability).
      if (t.n < PARAMS.sea_level_rise.minYears) { shortRecords++; continue; }
      const annual: [number, number][] = [];
      rlr.series.years.forEach((y, i) => { if (Number.isFinite(rlr.series.mm[i])) annual.push([y, rlr.series.mm[i]]); });
      gauges.push({ id: st.id, name: st.name, lat: st.lat, lng: st.lng, coastline: st.coastline, trendMmYr: t.slope, seMmYr: t.se, years: t.n, firstYear: t.firstYear, lastYear: t.lastYear, lastValueMm: annual.at(-1)?.[1] ?? null, annual });
    } catch (err) {
      rejectedFiles[rel] = (err as Error).message;
    }
  }
  if (gauges.length === 0) throw new Error("PSMSL: no gauge with 20 years of data");
  const lastYear = Math.max(...gauges.map((g) => g.lastYear));
  const firstYear = Math.min(...gauges.map((g) => g.firstYear));
  const asOf = Date.UTC(lastYear, 11, 31);
  const events: EventInput[] = gauges.map((g) => ({ id: `PSMSL-${g.id}`, source: "PSMSL", time: Date.UTC(g.firstYear, 0, 1), endTime: Date.UTC(g.lastYear, 11, 31), lng: g.lng, lat: g.lat, magnitude: g.trendMmYr, name: g.name }));
  const p = PARAMS.sea_level_rise;
  const meta: SnapshotMeta = {
    riskType: "sea_level_rise",
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(firstYear, 0, 1)).toISOString(),
    recordYears: lastYear - firstYear + 1,
    coverage: {
      bbox: WORLD,
      surface: "coast",
      description: `land and coastal waters within ${p.radiusKm} km of one of ${gauges.length} PSMSL tide gauges with ≥ ${p.minYears} years of annual data (${firstYear}–${lastYear}); land beyond ${p.inlandKm} km from the coast scores 0`,
    },
    dataSources: ["PSMSL annual RLR tide-gauge data (Holgate et al. 2013)", `${sharedGeography().source.replace("admin-0 countries", "coastline")} (distance to the coast)`],
    params: { ...p },
    unit: "mm/yr",
  };
  return finish(meta, events, { gauges }, inp, { filelist: list }, {
    gauges: { listed: list.records.length, filesPresent: list.records.length - missingFiles.length, withTrend: gauges.length, shorterThan20Years: shortRecords, rejectedFiles: Object.keys(rejectedFiles).length },
    missingFiles,
    rejectedFiles,
  });
}

const DROUGHT_GRID_FILE = "drought-grid.bin";

/**
 * Very wet months (SPI-3 ≥ 1.5) per cell of the published drought grid (Thailand's land cells). No artifact, or no SPI
 * indices in it → no table and the reason (the flood score then uses the feeds alone).
 */
export function wetGridTable(ctx: BuildContext, inp?: Inputs): { table?: WetGridTable; note: string } {
  if (!ctx.artifactsDir) return { note: "no ARTIFACTS_DIR given: climate-grid component skipped" };
  const dir = join(ctx.artifactsDir, "current");
  const path = join(dir, DROUGHT_GRID_FILE);
  if (!existsSync(path)) return { note: `drought artifact not published (${path} missing): climate-grid component skipped` };
  const manifest = readManifest(dir);
  const grid = openDroughtGridFile(path);
  const i1 = grid.indexNo("spi1");
  const i3 = grid.indexNo("spi3");
  if (i1 < 0 || i3 < 0 || grid.latestValidMonth === null) return { note: `drought grid ${manifest.version} has no SPI-1/SPI-3 data: climate-grid component skipped` };
  const checksum = manifest.artifacts[DROUGHT_GRID_FILE];
  if (inp && checksum) inp.checksums[`artifact:${DROUGHT_GRID_FILE}`] = checksum;
  const last = grid.monthOffset(grid.latestValidMonth);
  const fin = (v: number) => (Number.isNaN(v) ? null : Math.round(v * 1000) / 1000);
  const cells: WetCell[] = [];
  const spi3 = new Float64Array(last + 1);
  for (let c = 0; c < grid.nCells; c++) {
    const lat = grid.cellLat(c);
    const lng = grid.cellLng(c);
    for (let m = 0; m <= last; m++) spi3[m] = grid.value(c, m, i3);
    const x = wetExtremes(spi3);
    if (x.validMonths === 0) continue;
    const latestYearVeryWet: string[] = [];
    for (let m = Math.max(0, last - 11); m <= last; m++) if (spi3[m] >= 1.5) latestYearVeryWet.push(formatMonth(grid.firstMonth + m));
    cells.push({ lat, lng, ...x, latestYearWetness: Math.round(x.latestYearWetness * 1000) / 1000, latestSpi1: fin(grid.value(c, last, i1)), latestSpi3: fin(spi3[last]), latestYearVeryWet });
  }
  if (cells.length === 0) return { note: `drought grid ${manifest.version} has no SPI-3 data: climate-grid component skipped` };
  return {
    note: "",
    table: {
      source: `Project drought grid (SPI-3/SPI-1 from ${gridSourceOf(manifest.settings).precipitation})`,
      version: manifest.version,
      gridMonth: formatMonth(grid.latestValidMonth),
      recordStart: formatMonth(grid.firstMonth),
      baseline: `${formatMonth(grid.baselineStart)}..${formatMonth(grid.baselineEnd)}`,
      resolutionDeg: grid.resolutionDeg,
      // One cell width: beyond it the nearest cell describes somewhere else.
      maxDistanceKm: Math.round(grid.resolutionDeg * 111.32 * 10) / 10,
      cells,
    },
  };
}

export const HEAT_BASE = { startYear: 1981, endYear: 2010, minYears: 10, minDaysPerYear: 300, maxDistanceKm: 100 } as const;

type TmaxSeries = Pick<DailySeries, "station" | "name" | "lat" | "lng" | "firstDay" | "tmax">;
const r2 = (v: number) => Math.round(v * 100) / 100;
const epochIso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);

/**
 * One station's heatwave record: Perkins & Alexander heatwaves in its latest calendar year with ≥ 300 days of TMAX,
 * against the 1981–2010 base years; or why it is left out.
 */
function stationHeat(st: TmaxSeries): DailyHeatStation | string {
  const th = calendarDayThresholds(st.tmax, st.firstDay, HEAT_BASE.startYear, HEAT_BASE.endYear);
  if (th.some((v) => Number.isNaN(v))) return `too few ${HEAT_BASE.startYear}–${HEAT_BASE.endYear} maximum temperatures for the calendar-day thresholds`;
  const base: { hwf: number; hot: number }[] = [];
  const byYear: [number, number, number, number][] = [];
  const y0 = new Date(st.firstDay * 86_400_000).getUTCFullYear();
  const y1 = new Date((st.firstDay + st.tmax.length - 1) * 86_400_000).getUTCFullYear();
  for (let y = y0; y <= y1; y++) {
    const h = heatwaveStats(st.tmax, st.firstDay, th, Date.UTC(y, 0, 1) / 86_400_000, Date.UTC(y, 11, 31) / 86_400_000);
    if (h.daysWithData < HEAT_BASE.minDaysPerYear) continue;
    byYear.push([y, h.heatwaves, h.heatwaveDays, h.hotDays]);
    if (y >= HEAT_BASE.startYear && y <= HEAT_BASE.endYear) base.push({ hwf: h.heatwaveDays, hot: h.hotDays });
  }
  if (base.length < HEAT_BASE.minYears) return `${base.length} complete base years`;
  // The latest calendar year with 300 days of data (P&A's metrics are annual); a later, thinner year is left aside.
  let from = 0;
  let to = 0;
  let h: ReturnType<typeof heatwaveStats> | undefined;
  for (let y = y1; y > HEAT_BASE.endYear && !h; y--) {
    from = Date.UTC(y, 0, 1) / 86_400_000;
    to = Date.UTC(y, 11, 31) / 86_400_000;
    const x = heatwaveStats(st.tmax, st.firstDay, th, from, to);
    if (x.daysWithData >= HEAT_BASE.minDaysPerYear) h = x;
  }
  if (!h) return `no year after ${HEAT_BASE.endYear} with ${HEAT_BASE.minDaysPerYear} days of maximum temperature`;
  const mean = base.reduce((a, b) => a + b.hwf, 0) / base.length;
  const sd = Math.sqrt(base.reduce((a, b) => a + (b.hwf - mean) ** 2, 0) / Math.max(1, base.length - 1));
  return {
    id: st.station, name: st.name, lat: st.lat, lng: st.lng, from: epochIso(from), to: epochIso(to), daysWithData: h.daysWithData,
    baseYears: base.length, baseHeatwaveDaysMean: r2(mean), baseHeatwaveDaysSd: r2(sd), baseHotDaysMean: r2(base.reduce((a, b) => a + b.hot, 0) / base.length),
    heatwaves: h.heatwaves, heatwaveDays: h.heatwaveDays, longestDays: h.longestDays, hottestPeakC: h.hottestPeakC, hotDays: h.hotDays,
    events: h.events.map((e) => [epochIso(e.start), e.days, e.peakC]),
    byYear,
  };
}

/** TMAX rows of the yearly files a refresh kept (climate/ghcnd-world/by_year/<YEAR>.csv), per station: [epoch day, °C]. */
function byYearTmax(ctx: BuildContext, read: (rel: string) => Buffer): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  const dir = join(ctx.dataDir, HEAT_BY_YEAR_DIR);
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).filter((f) => /^\d{4}\.csv$/.test(f)).sort()) {
    for (const line of read(join(HEAT_BY_YEAR_DIR, name)).toString("utf8").split("\n")) {
      const f = line.split(",");
      if (f[2] !== "TMAX" || (f[5] ?? "") !== "" || !/^\d{8}$/.test(f[1] ?? "")) continue;
      const day = epochDay(Number(f[1].slice(0, 4)), Number(f[1].slice(4, 6)), Number(f[1].slice(6)));
      const c = Number(f[3]) / 10;
      if (day === undefined || f[3].trim() === "" || !(Math.abs(c) <= TEMP_LIMIT_C)) continue;
      let rows = out.get(f[0]);
      if (!rows) out.set(f[0], (rows = []));
      rows.push([day, c]);
    }
  }
  return out;
}

/** The station's series with the yearly files' days it lacks (those after its file's end, and its gaps). */
function withYearlyDays(st: DailySeries, rows: [number, number][] | undefined): DailySeries {
  if (!rows || rows.length === 0) return st;
  let last = st.firstDay + st.tmax.length - 1;
  for (const [d] of rows) if (d > last) last = d;
  const tmax = new Float64Array(last - st.firstDay + 1).fill(NaN);
  tmax.set(st.tmax);
  for (const [d, c] of rows) if (d >= st.firstDay && Number.isNaN(tmax[d - st.firstDay])) tmax[d - st.firstDay] = c;
  return { ...st, tmax };
}

/**
 * Per GHCN-Daily station: Perkins & Alexander heatwaves in its latest calendar year with ≥ 300 days of TMAX,
 * against the 1981–2010 base years (WMO's previous standard normal, so a warmed climate is not every year's heatwave; ≥ 10 with 300 days each; calendar-day thresholds on every day). Stations that
 * miss either are left out and counted in the report. The data directory's stations (Thailand's in the mirror), and
 * where a refresh brought it the worldwide network (source ghcnd_heat: climate/ghcnd-world/, each station's file
 * completed by the yearly files' days); a station in both is taken from the network.
 */
export async function dailyHeatTable(ctx: BuildContext, inp?: Inputs): Promise<{ table: DailyHeatTable; leftOut: Record<string, string>; network: number }> {
  const out: DailyHeatStation[] = [];
  const leftOut: Record<string, string> = {};
  const read = (rel: string) => (inp ? inp.bytes(rel) : readFileSync(join(ctx.dataDir, rel)));
  const worldDir = join(ctx.dataDir, HEAT_STATIONS_DIR);
  const world = existsSync(join(worldDir, STATION_INDEX_FILE)) ? await readStationIndex(worldDir) : [];
  const inNetwork = new Set(world.map((e) => e.id));
  const dir = join(ctx.dataDir, GHCND_SUBDIR);
  for (const entry of (await readStationIndex(dir)).filter((e) => !inNetwork.has(e.id))) {
    const st = parseGhcndCsv(read(join(GHCND_SUBDIR, entry.path.slice(dir.length + 1))).toString("utf8"), entry.path);
    const h = stationHeat(st);
    if (typeof h === "string") leftOut[st.station] = h;
    else out.push(h);
  }
  const yearly = world.length > 0 ? byYearTmax(ctx, read) : new Map<string, [number, number][]>();
  let network = 0;
  for (const entry of world) {
    let h: DailyHeatStation | string;
    try {
      const st = parseGhcndCsv(read(join(HEAT_STATIONS_DIR, entry.path.slice(worldDir.length + 1))).toString("utf8"), entry.path);
      h = stationHeat(withYearlyDays(st, yearly.get(entry.id)));
    } catch (err) {
      h = (err as Error).message;
    }
    if (typeof h === "string") {
      leftOut[entry.id] = h;
      continue;
    }
    out.push(h);
    network++;
  }
  if (out.length === 0) throw new Error("GHCN-Daily: no station with base years and a complete latest year of maximum temperatures");
  return {
    table: { source: "NOAA GHCN-Daily station daily maximum temperature (Menne et al. 2012); heatwaves after Perkins & Alexander (2013)", baseStart: HEAT_BASE.startYear, baseEnd: HEAT_BASE.endYear, maxDistanceKm: HEAT_BASE.maxDistanceKm, stations: out },
    leftOut,
    network,
  };
}

/** Months a country series needs to enter the table (five years: a 12-month mean needs a distribution). */
const MIN_COUNTRY_MONTHS = 60;

/** OWID's own codes → the geography's (lib/geo: Kosovo is XKX, as at the EC, IMF and World Bank). */
const OWID_CODES: Record<string, string> = { OWID_KOS: "XKX" };

/**
 * The OWID table by country code: every row with a code except the world aggregate (regions and oceans carry
 * none). A series needs 60 months and its latest 12 months present; others are left out and reported.
 */
export function countryHeatTable(rows: { series: string; code: string; month: number; anomalyC: number }[]): { countries: Record<string, CountryHeat>; leftOut: Record<string, string> } {
  const byCode = new Map<string, { name: string; rows: { month: number; anomalyC: number }[] }>();
  for (const r of rows) {
    if (!r.code || r.code === "OWID_WRL") continue;
    const code = OWID_CODES[r.code] ?? r.code;
    let c = byCode.get(code);
    if (!c) byCode.set(code, (c = { name: r.series, rows: [] }));
    c.rows.push(r);
  }
  const countries: Record<string, CountryHeat> = {};
  const leftOut: Record<string, string> = {};
  for (const [code, c] of [...byCode].sort(([a], [b]) => (a < b ? -1 : 1))) {
    c.rows.sort((a, b) => a.month - b.month);
    const first = c.rows[0].month;
    const anomalyC: (number | null)[] = new Array<number | null>(c.rows.at(-1)!.month - first + 1).fill(null);
    for (const r of c.rows) anomalyC[r.month - first] = r.anomalyC;
    const finite = anomalyC.filter((v): v is number => v !== null);
    if (finite.length < MIN_COUNTRY_MONTHS) { leftOut[code] = `${finite.length} months`; continue; }
    if (anomalyC.slice(-12).some((v) => v === null)) { leftOut[code] = "gaps in the latest 12 months"; continue; }
    const sorted = [...finite].sort((a, b) => a - b);
    countries[code] = { name: c.name, firstMonth: first, anomalyC, hotThresholdC: sorted[Math.floor(0.9 * sorted.length)] };
  }
  return { countries, leftOut };
}

export async function buildHeatwave(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const owid = parseOwidTemperature(await inp.text(OWID_TEMPERATURE_FILE, "OWID_TEMPERATURE"), OWID_TEMPERATURE_FILE);
  const globalFile = existsSync(join(ctx.dataDir, GISTEMP_TABLE_FILE)) ? GISTEMP_TABLE_FILE : GLOBAL_TEMPERATURE_FILE;
  const glob = parseGlobalTemperature(await inp.text(globalFile, "GLOBAL_TEMPERATURE"), globalFile);
  requireValid("OWID temperature", owid);
  requireValid("global temperature", glob);
  const { countries, leftOut } = countryHeatTable(owid.records);
  const codes = Object.keys(countries);
  if (!countries.THA) throw new Error(`OWID temperature: no usable series for Thailand${leftOut.THA ? ` (${leftOut.THA})` : ""}`);
  const first = Math.min(...codes.map((c) => countries[c].firstMonth));
  const last = Math.max(...codes.map((c) => countries[c].firstMonth + countries[c].anomalyC.length - 1));
  const global: Record<string, (number | null)[]> = {};
  for (const r of glob.records) {
    const i = r.month - first;
    if (i < 0 || i > last - first) continue;
    (global[r.series] ??= new Array<number | null>(last - first + 1).fill(null))[i] = r.anomalyC;
  }
  const heat: HeatTable = { source: "OWID monthly temperature anomalies", countries, globalFirstMonth: first, global };
  const asOf = Date.UTC(Math.floor(last / 12), (last % 12) + 1, 0, 23, 59, 59);
  const meta: SnapshotMeta = {
    riskType: "heatwave",
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(Math.floor(first / 12), first % 12, 1)).toISOString(),
    recordYears: (last - first + 1) / 12,
    coverage: {
      bbox: WORLD,
      surface: "country",
      description: `within ${HEAT_BASE.maxDistanceKm} km of a GHCN-Daily station with daily maximum temperatures whose latest full year is current (heatwave days; Thailand offline)`,
    },
    dataSources: ["Our World in Data monthly temperature anomalies by country (Copernicus ERA5)", "NASA GISTEMP v4 global monthly anomalies (vs 1951–1980)"],
    params: { hotQuantile: 0.9 },
    unit: "°C",
  };
  const daily = await dailyHeatTable(ctx, inp);
  meta.dataSources.push(daily.table.source);
  if (daily.network > 0) meta.coverage.description += `; worldwide, ${daily.network} stations of NOAA's GHCN-Daily network (one per cell, the current year from NOAA's yearly files)`;
  const stationReport = { stations: daily.table.stations.length, ...(daily.network > 0 ? { worldNetwork: daily.network } : {}), latestDay: daily.table.stations.map((s) => s.to).sort().at(-1), leftOut: daily.leftOut };
  // Countries the geography can return that have no series answer 404 naming the table: listed in the report.
  const withoutSeries = sharedGeography().countryCodes.filter((c) => !countries[c]);
  const notInGeography = codes.filter((c) => !sharedGeography().countryCodes.includes(c));
  return finish(meta, undefined, { heat, dailyHeat: daily.table }, inp, { owid, global: glob }, { countries: codes.length, leftOut, geographyCountriesWithoutSeries: withoutSeries, seriesWithoutGeographyCountry: notInGeography, thailandMonths: countries.THA.anomalyC.length, thailandHotThresholdC: countries.THA.hotThresholdC, stationRecord: stationReport });
}

export const FEED_BUILDERS: Record<FeedRiskType, (ctx: BuildContext) => Promise<BuiltSnapshot>> = {
  flood: buildFlood,
  wildfire: buildWildfire,
  heatwave: buildHeatwave,
  storm: buildStorm,
  sea_level_rise: buildSeaLevel,
};
