// One builder per feed risk type: fetch (URL when configured, else DATA_DIR), parse with the adapters, keep
// the events, write events.bin + snapshot.json, and report rejected rows and the score distribution over a
// grid of Thai locations. A builder throws when a feed fails to validate; build-snapshots.ts then keeps the
// previous snapshot.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { booleanPointInPolygon } from "@turf/turf";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { sha256Bytes, type FileChecksum } from "../../formats/manifest.ts";
import type { SnapshotInput } from "./publish-snapshot.ts";
import { EventIndex, writeEventIndex, type EventInput } from "../../formats/event-index.ts";
import { fetchFeed, type FetchOutcome } from "../feeds/fetch.ts";
import { countryChecker } from "../feeds/country-check.ts";
import { parseDfoArchive } from "../feeds/dfo.ts";
import { parseGdacsFloodTable, parseGdacsGeoJson } from "../feeds/gdacs.ts";
import { parseFirmsCsv, parseFirmsGeoJson } from "../feeds/firms.ts";
import { parseIbtracsCsv } from "../feeds/ibtracs.ts";
import { THAI_COASTLINE_CODES, linearTrend, parsePsmslFilelist, parseRlrAnnual } from "../feeds/psmsl.ts";
import { parseGlobalTemperature, parseOwidTemperature } from "../feeds/temperature.ts";
import type { AdapterResult, FeedRecord } from "../feeds/records.ts";
import { type FeedRiskType, type FeedSnapshot, type GaugeStat, type HeatTable, type SnapshotJson, type SnapshotMeta, type StationHeat, type StationHeatTable, type WetCell, type WetGridTable } from "../../formats/feed-snapshot.ts";
import { assess, NotCoveredError } from "../../lib/feed-risk/assess.ts";
import { YEAR_MS } from "../../lib/feed-risk/scoring.ts";
import { wetExtremes, monthlyBaseline } from "../../lib/feed-risk/climate-components.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { readManifest } from "../../formats/manifest.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { GHCND_SUBDIR, readGhcndStations, readStationIndex } from "../inputs/ghcnd/stations.ts";

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

/** Mainland South-East Asia around Thailand: where the event scores are calibrated and served. */
export const THAI_REGION: [number, number, number, number] = [92, 5, 110, 24];
const REGION_TEXT = "Thailand and neighbours, 92..110°E, 5..24°N";

// Feed files under DATA_DIR; also the names rejected rows are reported under (file:line).
const DFO_FILE = "feeds/dfo/FloodArchive.csv";
const GDACS_TABLE_FILE = "feeds/gdacs/latest_gdacs_flood_db.csv";
const FIRMS_CSV_FILE = "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv";
const IBTRACS_COMPACT_FILE = "feeds/ibtracs/ibtracs_last3years_clean.csv";
const IBTRACS_ACTIVE_FILE = "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv";
const PSMSL_FILELIST = "feeds/psmsl/filelist.txt";
const OWID_TEMPERATURE_FILE = "feeds/temperature/monthly-temperature-anomalies.csv";
const GLOBAL_TEMPERATURE_FILE = "feeds/temperature/global-monthly-gistemp-gcag.csv";

export const PARAMS = {
  flood: { radiusKm: 150, decayKm: 75, annualRateRef: 1.0, recentRef: 1.0 },
  wildfire: { radiusKm: 100, decayKm: 30, annualRateRef: 10, recentRef: 3 },
  storm: { radiusKm: 300, decayKm: 150, annualRateRef: 0.2, recentRef: 0.3 },
  sea_level_rise: { radiusKm: 300, rateRefMmYr: 10, coastDecayKm: 50 },
} as const;

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

const toEvent = (r: FeedRecord): EventInput => ({
  id: r.id, source: r.source, time: r.time, endTime: r.endTime, lng: r.lng, lat: r.lat, bbox: r.bbox, magnitude: r.magnitude, name: r.name, group: r.group,
});

/** Thai locations every 1° (lat 6..20, lng 98..105) for the build report's score distribution. */
export function thaiGrid(): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (let lat = 6; lat <= 20; lat += 1) for (let lng = 98; lng <= 105; lng += 1) out.push({ lat, lng });
  return out;
}

function distribution(json: SnapshotJson, files: Record<string, Uint8Array | string>) {
  // Parse the bytes exactly as the server will read them.
  const bin = files["events.bin"];
  const snap: FeedSnapshot = { version: "build", meta: json.meta, heat: json.heat, gauges: json.gauges, climateGrid: json.climateGrid, stationHeat: json.stationHeat, events: bin instanceof Uint8Array ? new EventIndex(aligned(bin)) : undefined };
  const scores: number[] = [];
  let notCovered = 0;
  for (const p of thaiGrid()) {
    try {
      scores.push(assess(snap, { ...p, timeframe: "1y", includeHistorical: false }).riskScore);
    } catch (err) {
      if (!(err instanceof NotCoveredError)) throw err;
      notCovered++;
    }
  }
  scores.sort((x, y) => x - y);
  const q = (f: number) => (scores.length ? scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] : null);
  const levels = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const s of scores) levels[s >= 80 ? "critical" : s >= 60 ? "high" : s >= 30 ? "medium" : "low"]++;
  return { grid: "1° lat 6..20 × lng 98..105, timeframe 1y", locations: scores.length + notCovered, notCovered, min: q(0), p25: q(0.25), median: q(0.5), p75: q(0.75), max: scores.at(-1) ?? null, levels };
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
): BuiltSnapshot {
  const { adapters: adapterTable, acceptedRows } = adapterQc(adapters);
  const qc = { adapters: adapterTable, ...more };
  const json: SnapshotJson = { meta, ...extra };
  const files: Record<string, Uint8Array | string> = { "snapshot.json": JSON.stringify(json) };
  if (events) files["events.bin"] = writeEventIndex(events, { riskType: meta.riskType, unit: meta.unit });
  const report = { riskType: meta.riskType, asOf: meta.asOf, recordStart: meta.recordStart, events: events?.length ?? null, fetches: inputs.fetches, ...qc, scoreDistribution: distribution(json, files) };
  files["build-report.json"] = JSON.stringify(report, null, 2);
  return { files, asOf: meta.asOf, sources: meta.dataSources, inputs: inputs.checksums, qc: { ...qc, scoreDistribution: report.scoreDistribution }, report: "build-report.json", acceptedRows };
}

function eventMeta(riskType: FeedRiskType, events: EventInput[], asOf: number, dataSources: string[], unit: string, params: Record<string, number>): SnapshotMeta {
  const start = Math.min(...events.map((e) => e.time));
  return {
    riskType,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(start).toISOString(),
    recordYears: Math.max(1 / 365, (asOf - start) / YEAR_MS),
    coverage: { bbox: THAI_REGION, description: REGION_TEXT },
    dataSources,
    params,
    unit,
  };
}

export async function buildFlood(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const dfo = parseDfoArchive(await inp.text(DFO_FILE, "DFO_ARCHIVE"), countryChecker(), DFO_FILE);
  const table = parseGdacsFloodTable(await inp.text(GDACS_TABLE_FILE, "GDACS_FLOOD_TABLE"), countryChecker(), GDACS_TABLE_FILE);
  const geo = parseGdacsGeoJson(await inp.text("feeds/gdacs/gdacs_20260530T1858Z.geojson", "GDACS_GEOJSON"));
  requireValid("DFO", dfo);
  requireValid("GDACS flood table", table);
  requireValid("GDACS GeoJSON", geo);
  // The live GeoJSON repeats floods of the table: one event per GDACS id, the live record winning.
  const gdacs = new Map<string, FeedRecord>();
  for (const r of table.records) gdacs.set(r.id, r);
  for (const r of geo.records.filter((r) => r.kind === "flood")) gdacs.set(r.id, r);
  const events = [...dfo.records, ...gdacs.values()].map(toEvent);
  const asOf = Math.max(...events.map((e) => e.time));
  const meta = eventMeta("flood", events, asOf, [
    "Dartmouth Flood Observatory Global Active Archive of Large Flood Events (Brakenridge)",
    "GDACS flood events (EC JRC / UN OCHA)",
  ], "DFO magnitude | GDACS alert score", { ...PARAMS.flood });
  const wet = wetGridTable(ctx, inp);
  if (wet.table) meta.dataSources.push(`${wet.table.source}, version ${wet.table.version}`);
  const extra = wet.table ? { climateGrid: wet.table } : { climateNote: wet.note };
  return finish(meta, events, extra, inp, { dfo, gdacsFloodTable: table, gdacsGeoJson: geo }, {
    climateGrid: wet.table ? { version: wet.table.version, gridMonth: wet.table.gridMonth, cells: wet.table.cells.length } : { skipped: wet.note },
  });
}

export async function buildWildfire(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const csv = parseFirmsCsv(await inp.text(FIRMS_CSV_FILE, "FIRMS_CSV"), FIRMS_CSV_FILE);
  const geo = parseFirmsGeoJson(await inp.text("feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson"));
  const gdacs = parseGdacsGeoJson(await inp.text("feeds/gdacs/gdacs_20260530T1858Z.geojson", "GDACS_GEOJSON"));
  requireValid("FIRMS CSV", csv);
  requireValid("FIRMS GeoJSON", geo);
  // The CSV holds the same detections as the GeoJSON; one event per detection id.
  const byId = new Map<string, FeedRecord>();
  for (const r of [...geo.records, ...csv.records]) byId.set(r.id, r);
  const events = [...byId.values()].map(toEvent);
  const asOf = Math.max(...events.map((e) => e.time));
  const meta = eventMeta("wildfire", events, asOf, ["NASA FIRMS MODIS C6 active fires, South-East Asia (Giglio et al. 2016)"], "FRP MW", { ...PARAMS.wildfire });
  const gdacsFires = gdacs.records.filter((r) => r.kind === "fire").length;
  return finish(meta, events, {}, inp, { firmsCsv: csv, firmsGeoJson: geo }, { gdacsWildfiresNotUsed: gdacsFires, note: "GDACS wildfires (2026) fall outside the FIRMS record window and are not mixed in" });
}

export async function buildStorm(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const compact = parseIbtracsCsv(await inp.text(IBTRACS_COMPACT_FILE), IBTRACS_COMPACT_FILE);
  const active = parseIbtracsCsv(await inp.text(IBTRACS_ACTIVE_FILE, "IBTRACS_ACTIVE"), IBTRACS_ACTIVE_FILE);
  requireValid("IBTrACS compact", compact);
  requireValid("IBTrACS ACTIVE", active);
  // The compact file has no storm id; active-list points at the same time and place replace them.
  const key = (r: FeedRecord) => `${r.time}|${r.lat.toFixed(1)}|${r.lng.toFixed(1)}`;
  const activeKeys = new Set(active.records.map(key));
  const points = [...compact.records.filter((r) => !activeKeys.has(key(r))), ...active.records];
  const events = points.map(toEvent);
  const asOf = Math.max(...events.map((e) => e.time));
  const meta = eventMeta("storm", events, asOf, ["NOAA IBTrACS v04r01 tropical cyclone best tracks (Knapp et al. 2010)"], "kt", { ...PARAMS.storm });
  return finish(meta, events, {}, inp, { ibtracsCompact: compact, ibtracsActive: active }, { storms: new Set(points.map((p) => p.group)).size });
}

export async function buildSeaLevel(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const list = parsePsmslFilelist(await inp.text(PSMSL_FILELIST, "PSMSL_FILELIST"), PSMSL_FILELIST);
  requireValid("PSMSL filelist", list);
  const gauges: GaugeStat[] = [];
  const rejectedFiles: Record<string, string> = {};
  for (const st of list.records) {
    const thai = THAI_COASTLINE_CODES.has(st.coastline);
    let stat: GaugeStat = { id: st.id, name: st.name, lat: st.lat, lng: st.lng, thai, trendMmYr: null, seMmYr: null, years: 0, firstYear: null, lastYear: null, lastValueMm: null };
    if (thai) {
      const rel = `feeds/psmsl/data/${st.id}.rlrdata`;
      try {
        const rlr = parseRlrAnnual(await inp.text(rel), rel);
        const t = linearTrend(rlr.series.years, rlr.series.mm);
        const annual: [number, number][] = [];
        rlr.series.years.forEach((y, i) => { if (Number.isFinite(rlr.series.mm[i])) annual.push([y, rlr.series.mm[i]]); });
        // A trend needs 20 years of data (Douglas 1991: shorter records alias interannual variability).
        const ok = t.n >= 20;
        stat = { ...stat, trendMmYr: ok ? t.slope : null, seMmYr: ok ? t.se : null, years: t.n, firstYear: annual[0]?.[0] ?? null, lastYear: annual.at(-1)?.[0] ?? null, lastValueMm: annual.at(-1)?.[1] ?? null, annual };
        if (rlr.rejected) rejectedFiles[rel] = `${rlr.rejected} malformed lines`;
      } catch (err) {
        rejectedFiles[rel] = (err as Error).message;
      }
    }
    gauges.push(stat);
  }
  const thai = gauges.filter((g) => g.thai);
  const lastYear = Math.max(...thai.map((g) => g.lastYear ?? 0));
  const asOf = Date.UTC(lastYear, 11, 31);
  const events: EventInput[] = gauges.map((g) => ({ id: `PSMSL-${g.id}`, source: "PSMSL", time: Date.UTC(g.firstYear ?? lastYear, 0, 1), endTime: Date.UTC(g.lastYear ?? lastYear, 11, 31), lng: g.lng, lat: g.lat, magnitude: g.trendMmYr ?? NaN, name: g.name }));
  const meta: SnapshotMeta = {
    riskType: "sea_level_rise",
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(Math.min(...thai.map((g) => g.firstYear ?? lastYear)), 0, 1)).toISOString(),
    recordYears: lastYear - Math.min(...thai.map((g) => g.firstYear ?? lastYear)) + 1,
    coverage: { bbox: THAI_REGION, description: `within ${PARAMS.sea_level_rise.radiusKm} km of a Thai PSMSL tide gauge with ≥ 20 years of data` },
    dataSources: ["PSMSL annual RLR tide-gauge data (Holgate et al. 2013)"],
    params: { ...PARAMS.sea_level_rise },
    unit: "mm/yr",
  };
  const trends = Object.fromEntries(thai.map((g) => [`${g.id} ${g.name}`, g.trendMmYr === null ? `n=${g.years}, no trend` : `${g.trendMmYr.toFixed(2)} ± ${g.seMmYr!.toFixed(2)} mm/yr (n=${g.years})`]));
  return finish(meta, events, { gauges: gauges.map((g) => (g.thai ? g : { ...g, annual: undefined })) }, inp, { filelist: list }, { rejectedFiles, thaiGaugeTrends: trends });
}

const DROUGHT_GRID_FILE = "drought-grid.bin";

/**
 * Very wet months (SPI-3 ≥ 1.5) per cell of the published drought grid in THAI_REGION. No artifact, or no SPI
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
  const [w, s, e, n] = THAI_REGION;
  const fin = (v: number) => (Number.isNaN(v) ? null : Math.round(v * 1000) / 1000);
  const cells: WetCell[] = [];
  const spi3 = new Float64Array(last + 1);
  for (let c = 0; c < grid.nCells; c++) {
    const lat = grid.cellLat(c);
    const lng = grid.cellLng(c);
    if (lng < w || lng > e || lat < s || lat > n) continue;
    for (let m = 0; m <= last; m++) spi3[m] = grid.value(c, m, i3);
    const x = wetExtremes(spi3);
    if (x.validMonths === 0) continue;
    const latestYearVeryWet: string[] = [];
    for (let m = Math.max(0, last - 11); m <= last; m++) if (spi3[m] >= 1.5) latestYearVeryWet.push(formatMonth(grid.firstMonth + m));
    cells.push({ lat, lng, ...x, latestYearWetness: Math.round(x.latestYearWetness * 1000) / 1000, latestSpi1: fin(grid.value(c, last, i1)), latestSpi3: fin(spi3[last]), latestYearVeryWet });
  }
  if (cells.length === 0) return { note: `drought grid ${manifest.version} has no SPI-3 data in ${REGION_TEXT}: climate-grid component skipped` };
  return {
    note: "",
    table: {
      source: "Project drought grid (SPI-3/SPI-1 from GHCN-Daily station precipitation)",
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

export const HEAT_BASELINE = { start: "1961-01", end: "1990-12", minYears: 10, recentMonths: 12, maxDistanceKm: 150 } as const;

/**
 * Per GHCN-Daily station: the 1961–1990 monthly mean temperatures per calendar month and the latest 12 months
 * with data. Stations with fewer than 10 baseline years in any calendar month are left out.
 */
export async function stationHeatTable(ctx: BuildContext, inp?: Inputs): Promise<StationHeatTable> {
  const dir = join(ctx.dataDir, GHCND_SUBDIR);
  if (inp) {
    for (const entry of await readStationIndex(dir)) {
      const bytes = readFileSync(entry.path);
      inp.checksums[join(GHCND_SUBDIR, entry.path.slice(dir.length + 1))] = { bytes: bytes.length, sha256: sha256Bytes(bytes) };
    }
  }
  const stations = await readGhcndStations({ dir });
  const start = parseMonth(HEAT_BASELINE.start)!;
  const end = parseMonth(HEAT_BASELINE.end)!;
  const r3 = (v: number) => Math.round(v * 1000) / 1000;
  const out: StationHeat[] = [];
  for (const st of stations) {
    const base = monthlyBaseline(st.tmean, st.firstMonth, start, end);
    if (base.byCalendarMonth.some((a) => a.length < HEAT_BASELINE.minYears)) continue;
    const recent: [number, number][] = [];
    for (let i = st.tmean.length - 1; i >= 0 && recent.length < HEAT_BASELINE.recentMonths; i--) {
      if (Number.isFinite(st.tmean[i])) recent.unshift([st.firstMonth + i, r3(st.tmean[i])]);
    }
    if (recent.length === 0) continue;
    out.push({ id: st.id, name: st.name, lat: st.lat, lng: st.lng, baseline: base.byCalendarMonth.map((a) => a.map(r3)), recent });
  }
  if (out.length === 0) throw new Error("GHCN-Daily: no station with a 1961–1990 temperature baseline");
  return { source: "NOAA GHCN-Daily station monthly mean temperature (Menne et al. 2012)", baselineStart: HEAT_BASELINE.start, baselineEnd: HEAT_BASELINE.end, maxDistanceKm: HEAT_BASELINE.maxDistanceKm, stations: out };
}

/** 0.1° mask of the provinces' polygons, dilated by one cell so the coast is inside. */
function countryMask(geojson: { features: Feature<Polygon | MultiPolygon>[] }, step = 0.1) {
  const [lng0, lat0, lng1, lat1] = [97.3, 5.5, 105.7, 20.5];
  const cols = Math.round((lng1 - lng0) / step);
  const rows = Math.round((lat1 - lat0) / step);
  const inside = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    const pt: [number, number] = [lng0 + (c + 0.5) * step, lat0 + (r + 0.5) * step];
    inside[r * cols + c] = geojson.features.some((f) => booleanPointInPolygon(pt, f)) ? 1 : 0;
  }
  const bits: string[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    let v = 0;
    for (let dr = -1; dr <= 1 && !v; dr++) for (let dc = -1; dc <= 1 && !v; dc++) {
      const rr = r + dr, cc = c + dc;
      if (rr >= 0 && cc >= 0 && rr < rows && cc < cols) v = inside[rr * cols + cc];
    }
    bits.push(v ? "1" : "0");
  }
  return { lng0, lat0, step, cols, rows, bits: bits.join("") };
}

export async function buildHeatwave(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const owid = parseOwidTemperature(await inp.text(OWID_TEMPERATURE_FILE, "OWID_TEMPERATURE"), OWID_TEMPERATURE_FILE);
  const glob = parseGlobalTemperature(await inp.text(GLOBAL_TEMPERATURE_FILE, "GLOBAL_TEMPERATURE"), GLOBAL_TEMPERATURE_FILE);
  requireValid("OWID temperature", owid);
  requireValid("global temperature", glob);
  const rows = owid.records.filter((r) => r.code === "THA").sort((a, b) => a.month - b.month);
  if (rows.length < 60) throw new Error(`OWID temperature: only ${rows.length} months for Thailand`);
  const first = rows[0].month;
  const anomalyC = new Array<number>(rows.at(-1)!.month - first + 1).fill(NaN);
  for (const r of rows) anomalyC[r.month - first] = r.anomalyC;
  if (anomalyC.some((a) => !Number.isFinite(a))) throw new Error("OWID temperature: gaps in the Thailand series");
  const global: Record<string, (number | null)[]> = {};
  for (const r of glob.records) {
    const i = r.month - first;
    if (i < 0 || i >= anomalyC.length) continue;
    (global[r.series] ??= new Array<number | null>(anomalyC.length).fill(null))[i] = r.anomalyC;
  }
  const sorted = [...anomalyC].sort((a, b) => a - b);
  const hotThresholdC = sorted[Math.floor(0.9 * sorted.length)];
  const provinces = JSON.parse(await inp.text("boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson")) as { features: Feature<Polygon | MultiPolygon>[] };
  const heat: HeatTable = { country: "Thailand", firstMonth: first, anomalyC, global, mask: countryMask(provinces), hotThresholdC };
  const last = first + anomalyC.length - 1;
  const asOf = Date.UTC(Math.floor(last / 12), (last % 12) + 1, 0, 23, 59, 59);
  const meta: SnapshotMeta = {
    riskType: "heatwave",
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(Math.floor(first / 12), first % 12, 1)).toISOString(),
    recordYears: anomalyC.length / 12,
    coverage: { bbox: [97.3, 5.5, 105.7, 20.5], description: "Thailand (OWID country table; province polygons + 0.1° margin)" },
    dataSources: ["Our World in Data monthly temperature anomalies by country (Copernicus ERA5)", "NASA GISTEMP v4 and NOAA GCAG global monthly anomalies"],
    params: { hotQuantile: 0.9 },
    unit: "°C",
  };
  const stationHeat = await stationHeatTable(ctx, inp);
  meta.dataSources.push(stationHeat.source);
  const stationReport = { stations: stationHeat.stations.length, latestMonth: formatMonth(Math.max(...stationHeat.stations.map((s) => s.recent.at(-1)![0]))) };
  return finish(meta, undefined, { heat, stationHeat }, inp, { owid, global: glob }, { thailandMonths: anomalyC.length, hotThresholdC, stationRecord: stationReport });
}

export const FEED_BUILDERS: Record<FeedRiskType, (ctx: BuildContext) => Promise<BuiltSnapshot>> = {
  flood: buildFlood,
  wildfire: buildWildfire,
  heatwave: buildHeatwave,
  storm: buildStorm,
  sea_level_rise: buildSeaLevel,
};
