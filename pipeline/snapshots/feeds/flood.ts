// The flood snapshot (docs/methods/feed-risks.md#flood): DFO and GDACS events with their footprints (DFO polygons, GDACS
// affected areas, discs around point events), and the drought grid's wet extremes reported beside them.
import { gridSourceOf } from "../../../lib/drought/grid-sources.ts";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { EventInput } from "../../../formats/event-index.ts";
import { countryChecker, countryNamesToIso3 } from "../../feeds/country-check.ts";
import { parseDfoArchive } from "../../feeds/dfo.ts";
import { dfoWorkbookAsCsv } from "../../feeds/dfo-workbook.ts";
import { gdacsFloodAffectedAreas, parseGdacsFloodTable, parseGdacsGeoJson } from "../../feeds/gdacs.ts";
import { readDfoFootprints, readGfdMappedEvents } from "../../feeds/dfo-footprints.ts";
import { GDACS_GEOMETRY_DIR } from "../../feeds/gdacs-geometry.ts";
import { FootprintIndex, writeFootprintIndex, type FootprintInput } from "../../../formats/footprint-index.ts";
import { DFO_DISC_RADIUS_KM, FOOTPRINT_BUFFER_KM, GDACS_POINT_RADIUS_KM, floodEventWeight, footprintSpecificity } from "../../../lib/feed-risk/flood.ts";
import { ringsAreaKm2 } from "../../feeds/polygons.ts";
import type { FeedRecord } from "../../feeds/records.ts";
import type { WetCell, WetGridTable } from "../../../formats/feed-snapshot.ts";
import { placeLocator, sharedGeography } from "../../../lib/feed-risk/place.ts";
import { DAY_MS } from "../../../lib/feed-risk/scoring.ts";
import { wetExtremes } from "../../../lib/feed-risk/climate-components.ts";
import { openDroughtGridFile } from "../../../formats/drought-grid.ts";
import { readManifest } from "../../../formats/manifest.ts";
import { formatMonth } from "../../../lib/months.ts";
import { type BuildContext, type BuiltSnapshot, GDACS_GEOJSON_FILE, Inputs, WORLD, aligned, eventMeta, finish, latest, recordOf, requireValid, toEvent } from "./common.ts";

// Feed files under DATA_DIR; also the names rejected rows are reported under (file:line).
export const DFO_FILE = "feeds/dfo/FloodArchive.csv";
/** The publisher's workbook, linked into the inputs tree by `make refresh`: read instead of the CSV export when present. */
export const DFO_WORKBOOK_FILE = "feeds/dfo/FloodArchive.xlsx";
export const GDACS_TABLE_FILE = "feeds/gdacs/latest_gdacs_flood_db.csv";
/** DFO flood-extent polygons (zipped shapefile) and the Global Flood Database's table of MODIS-mapped events. */
export const DFO_POLYGONS_FILE = "feeds/flood-footprints/dfo_polys_20191203.zip";
/** A GDACS flood whose point lies this close to a DFO footprint of overlapping dates is that DFO event. */
export const SAME_EVENT_KM = 50;
export const GFD_TABLE_FILE = "feeds/flood-footprints/gfd_qcdatabase_2019_08_01.csv.gz";
/** The flood search API's archive (merged by event, nightly), linked into the inputs tree by `make refresh`; absent offline. */
export const GDACS_FLOOD_SEARCH_FILE = "feeds/gdacs/gdacs_floods.geojson";

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
