// The wildfire snapshot: one record per FIRMS file (its extent and period), the global near-real-time files first.
import { existsSync, readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import type { EventInput } from "../../../formats/event-index.ts";
import { parseGdacsGeoJson } from "../../feeds/gdacs.ts";
import { parseFirmsCsv, parseFirmsGeoJson, type FireRecord, type FireResult, type FirmsSensor } from "../../feeds/firms.ts";
import { FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES } from "../../feeds/firms-global.ts";
import { FIRMS_AREA_VIIRS_FILES } from "../../feeds/firms-area.ts";
import { FIRMS_COUNTRY_DIR, FIRMS_COUNTRY_PRODUCTS, firmsCountryCode, parseFirmsCountryFile } from "../../feeds/firms-country.ts";
import type { AdapterResult, FeedRecord } from "../../feeds/records.ts";
import type { EventRecord, FireSensorSpan } from "../../../formats/feed-snapshot.ts";
import { isoDay } from "../../../lib/days.ts";
import { MIN_OVERLAP_DAYS, measureSensorFactor, observedYears } from "../../../lib/feed-risk/wildfire.ts";
import { type BuildContext, type BuiltSnapshot, GDACS_GEOJSON_FILE, Inputs, PARAMS, WORLD, eventMeta, finish, latest, recordOf, requireValid, toEvent } from "./common.ts";

export const FIRMS_CSV_FILE = "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv";
export const FIRMS_GEOJSON_FILE = "feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson";

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

/** FIRMS archive downloads (gzip CSV) in the data directory, each its own record with its own extent; a country's
 *  download answers only inside that country (`country`, ISO 3166-1 alpha-3). */
export const FIRMS_ARCHIVES: readonly { file: string; id: string; name: string; country?: string }[] = [
  { file: "feeds/firms-archive/fire_archive_M6_96619.csv.gz", id: "firms-australia-2019", name: "NASA FIRMS MODIS C6 archive, Australia" },
  { file: "feeds/firms-archive/fire_archive_SV-C2_740981.csv.gz", id: "firms-rhodes-2023", name: "NASA FIRMS VIIRS archive, Rhodes (Suomi NPP, NOAA-20)" },
  { file: "feeds/firms-archive/fire_archive_J1V-C2_740979.csv.gz", id: "firms-rhodes-2023", name: "NASA FIRMS VIIRS archive, Rhodes (Suomi NPP, NOAA-20)" },
  { file: "feeds/firms-archive/fire_archive_M-C61_214279_greece_2000_2021.csv.gz", id: "firms-greece-2000-2021", name: "NASA FIRMS MODIS C6.1 archive, Greece", country: "GRC" },
  { file: "feeds/firms-archive/fire_archive_M-C61_214285_israel_2000_2021.csv.gz", id: "firms-israel-2000-2021", name: "NASA FIRMS MODIS C6.1 archive, Israel", country: "ISR" },
  { file: "feeds/firms-archive/fire_archive_M-C61_214281_tunisia_2000_2021.csv.gz", id: "firms-tunisia-2000-2021", name: "NASA FIRMS MODIS C6.1 archive, Tunisia", country: "TUN" },
  { file: "feeds/firms-archive/fire_archive_M-C61_581934_malaysia_2023_2024.csv.gz", id: "firms-malaysia-2023-2024", name: "NASA FIRMS MODIS C6.1 archive, Malaysia", country: "MYS" },
];

/** A country's year files of one product (source firms_country), as the inputs tree links them in. */
export interface CountryYears {
  country: string;
  iso3: string;
  product: (typeof FIRMS_COUNTRY_PRODUCTS)[number];
  /** The consecutive years joined into the record, ending at the latest one present. */
  years: { year: number; file: string }[];
  /** Years present but left out: older than a missing year (a record's period must hold every year it spans). */
  leftOut: number[];
}

/**
 * The yearly country files under feeds/firms-country/<Country>/, grouped by country and product: the longest run of
 * consecutive years that ends at the latest year present (a gap would make the record's period claim years it does not
 * hold, and lower its rate). Folders whose name is not a country (no ISO code) are listed as such.
 */
export function countryYearFiles(dataDir: string): { groups: CountryYears[]; notCountries: string[] } {
  const root = join(dataDir, FIRMS_COUNTRY_DIR);
  const groups: CountryYears[] = [];
  const notCountries: string[] = [];
  if (!existsSync(root)) return { groups, notCountries };
  for (const country of readdirSync(root).sort()) {
    const iso3 = firmsCountryCode(country);
    if (!iso3) {
      notCountries.push(country);
      continue;
    }
    const files = readdirSync(join(root, country)).map((f) => ({ f, parsed: parseFirmsCountryFile(f) })).filter((x) => x.parsed?.country === country);
    for (const product of FIRMS_COUNTRY_PRODUCTS) {
      const years = files.filter((x) => x.parsed!.product === product).map((x) => ({ year: x.parsed!.year, file: join(FIRMS_COUNTRY_DIR, country, x.f) })).sort((a, b) => a.year - b.year);
      if (years.length === 0) continue;
      let from = years.length - 1;
      while (from > 0 && years[from - 1].year === years[from].year - 1) from--;
      groups.push({ country, iso3, product, years: years.slice(from), leftOut: years.slice(0, from).map((y) => y.year) });
    }
  }
  return { groups, notCountries };
}

/** Each sensor's detections in a record, with their first and last day. */
function sensorSpans(detections: readonly FireRecord[]): Partial<Record<FirmsSensor, FireSensorSpan>> {
  const out: Partial<Record<FirmsSensor, { first: number; last: number; n: number }>> = {};
  for (const d of detections) {
    const s = (out[d.sensor] ??= { first: Infinity, last: -Infinity, n: 0 });
    s.first = Math.min(s.first, d.time);
    s.last = Math.max(s.last, d.time);
    s.n++;
  }
  const spans: Partial<Record<FirmsSensor, FireSensorSpan>> = {};
  for (const k of Object.keys(out).sort() as FirmsSensor[]) spans[k] = { start: isoDay(out[k]!.first), end: isoDay(out[k]!.last), detections: out[k]!.n };
  return spans;
}

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
  const archives: Record<string, AdapterResult<unknown>> = {};
  // The area API's VIIRS files (source firms, where a refresh linked them in): the same South-East Asia record, on the
  // MODIS scale through the sensor factor below. MODIS is ending; VIIRS carries the record on.
  const areaViirs: string[] = [];
  for (const file of FIRMS_AREA_VIIRS_FILES) {
    if (!existsSync(join(ctx.dataDir, file))) continue;
    const r = parseFirmsCsv(await inp.text(file), file);
    requireValid(file, r);
    archives[file] = r;
    areaViirs.push(file);
    for (const x of r.records) byId.set(x.id, x);
  }
  const events = [...byId.values()].map((r) => toEvent(r, nrtSet));
  type Spec = { id: string; name: string; events: EventInput[]; detections: FireRecord[]; bbox?: [number, number, number, number]; country?: string };
  const seaName = areaViirs.length > 0 ? "NASA FIRMS South-East Asia area API (VIIRS and MODIS NRT) with the 2018 MODIS C6 sample" : "NASA FIRMS MODIS C6 South-East Asia 48 h sample";
  const recordSpecs: Spec[] = [{ id: nrtSet, name: seaName, events: [...events], detections: [...byId.values()] as FireRecord[] }];
  // The archive downloads: each a record of its own, answering inside its own extent.
  for (const a of FIRMS_ARCHIVES) {
    if (!existsSync(join(ctx.dataDir, a.file))) continue;
    const r = parseFirmsCsv(gunzipSync(inp.bytes(a.file)).toString("utf8"), a.file);
    requireValid(a.file, r);
    archives[a.file] = r;
    const evs = r.records.map((x) => toEvent(x, a.id));
    events.push(...evs);
    const spec = recordSpecs.find((x) => x.id === a.id);
    if (spec) {
      spec.events.push(...evs);
      spec.detections.push(...r.records);
    } else recordSpecs.push({ id: a.id, name: a.name, events: evs, detections: [...r.records], ...(a.country ? { country: a.country } : {}) });
  }
  // The yearly country files (source firms_country), where a refresh linked them in: a country's years joined into one
  // record per sensor, answering inside that country as the archive downloads do (the longer record wins there).
  const countries = countryYearFiles(ctx.dataDir);
  const countryRecords: { id: string; years: string; leftOut: number[] }[] = [];
  for (const g of countries.groups) {
    const id = `firms-country-${g.country.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${g.product.product}`;
    const spec: Spec = { id, name: `NASA FIRMS ${g.product.sensor} yearly country files, ${g.country.replace(/_/g, " ")}`, events: [], detections: [], country: g.iso3 };
    for (const y of g.years) {
      const r = parseFirmsCsv(await inp.text(y.file), y.file);
      requireValid(y.file, r);
      archives[y.file] = r;
      for (const x of r.records) {
        const e = toEvent(x, id);
        events.push(e);
        spec.events.push(e);
        spec.detections.push(x);
      }
    }
    if (spec.events.length === 0) continue;
    recordSpecs.push(spec);
    countryRecords.push({ id, years: `${g.years[0].year}..${g.years.at(-1)!.year}`, leftOut: g.leftOut });
  }
  // The global near-real-time archives (source firms_global), where a refresh linked them in: one worldwide record,
  // listed first so it answers every point (the fixed files answer only without it).
  const global = FIRMS_GLOBAL_FILES.map((f) => join(FIRMS_GLOBAL_DIR, f.file)).filter((f) => existsSync(join(ctx.dataDir, f)));
  const globalSet = "firms-global-nrt";
  const globalEvents: EventInput[] = [];
  const globalDetections: FireRecord[] = [];
  for (const file of global) {
    const r = parseFirmsCsv(await inp.text(file), file);
    requireValid(file, r);
    archives[file] = r;
    for (const x of r.records) {
      globalEvents.push(toEvent(x, globalSet));
      globalDetections.push(x);
    }
  }
  if (globalEvents.length > 0) {
    for (const e of globalEvents) events.push(e);
    recordSpecs.unshift({ id: globalSet, name: "NASA FIRMS global near-real-time fires (MODIS C6.1, VIIRS S-NPP, NOAA-20 and NOAA-21)", events: globalEvents, detections: globalDetections, bbox: WORLD });
  }
  // One scale across sensors: VIIRS detections over MODIS ones where both saw the same record's area on the same days.
  const factor = measureSensorFactor(recordSpecs.map((x) => ({ id: x.id, detections: x.detections.map((d) => ({ sensor: d.sensor, time: d.time, frp: d.magnitude })) })));
  const records: EventRecord[] = recordSpecs.map((x) => {
    const rec = recordOf(x.id, x.name, x.events);
    // The years observed: first to last detection, less any year-long gap without one (lib/feed-risk/wildfire.ts).
    const years = observedYears(x.events.map((e) => e.time));
    // The files carry no product region: a record answers inside the extent of its detections, rounded out to whole degrees.
    return { ...rec, bbox: x.bbox ?? extentOf(x.events), set: x.id, years, ...(x.country ? { country: x.country } : {}), sensors: sensorSpans(x.detections) };
  });
  const asOf = latest(events);
  const bbox = globalEvents.length > 0 ? WORLD : extentOf(events);
  const coverage = { bbox, surface: "any" as const, description: `${globalEvents.length > 0 ? "everywhere (the global record first); " : ""}the extents of the fire files present: ${records.map((r) => `${r.name} ${r.start}..${r.end} (${degrees(r.bbox!)})`).join("; ")}` };
  const meta = eventMeta("wildfire", events, asOf, coverage, ["NASA FIRMS MODIS C6 / VIIRS active fires (Giglio et al. 2016; Schroeder et al. 2014)"], "FRP MW", { ...PARAMS.wildfire, ...(factor ? { viirsPerModis: factor.viirsPerModis } : {}) });
  const gdacsFires = gdacs.records.filter((r) => r.kind === "fire").length;
  return finish(meta, events, { records }, inp, { firmsCsv: csv, ...(geo ? { firmsGeoJson: geo } : {}), ...archives }, {
    records,
    ...(areaViirs.length ? { areaViirsFiles: areaViirs } : {}),
    sensorFactor: factor ?? `not measured: no record holds MODIS and VIIRS detections over ${MIN_OVERLAP_DAYS} common days or more`,
    ...(countryRecords.length || countries.notCountries.length ? { countryFiles: { records: countryRecords, notCountries: countries.notCountries } } : {}),
    notVegetation: Object.fromEntries(Object.entries(archives).map(([f, r]) => [f, (r as FireResult).notVegetation])),
    gdacsWildfiresNotUsed: gdacsFires,
    note: "GDACS wildfires (2026) fall outside the FIRMS record windows and are not mixed in",
  });
}
