// GDACS (EC JRC / UN OCHA): the live event GeoJSON (one feature per centroid / polygon / track line, we keep the
// event centroids and give each the bbox of its polygons), the native RSS (one <item> per event), and the
// derived flood table latest_gdacs_flood_db.csv. Magnitude is the GDACS alert score (Green 1, Orange 2, Red 3;
// https://www.gdacs.org/Knowledge/overview.aspx).
import { num, readCsvRecords } from "./csv.ts";
import { REASON_NULL_ISLAND, countryChecker, countryNamesToIso3, type CountryChecker } from "./country-check.ts";
import { RejectCounter, validLatLng, type AdapterResult, type FeedRecord } from "./records.ts";
import { polygonRings } from "./polygons.ts";

const KIND: Record<string, string> = { FL: "flood", TC: "cyclone", WF: "fire", DR: "drought", EQ: "earthquake", VO: "volcano" };
const ALERT_SCORE: Record<string, number> = { green: 1, orange: 2, red: 3 };

/** "13 May 2026 01:00:00" or RFC 822 "Sun, 29 Dec 2019 12:00:00 GMT" or ISO → ms UTC. */
export function parseGdacsDate(s: string | undefined): number {
  if (!s) return NaN;
  const t = s.trim();
  const iso = /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(t) ? Date.parse(t.length === 10 ? t + "T00:00:00Z" : t + "Z") : NaN;
  if (Number.isFinite(iso)) return iso;
  const v = Date.parse(/GMT|Z$|[+-]\d{4}$/.test(t) ? t : t + " UTC");
  return Number.isFinite(v) ? v : NaN;
}

function alertMagnitude(level: string | undefined, score: string | undefined): number {
  const s = num(score);
  if (Number.isFinite(s) && s > 0) return s;
  return ALERT_SCORE[(level ?? "").toLowerCase()] ?? NaN;
}

type Position = number[];
function extendBbox(b: [number, number, number, number], coords: unknown): void {
  if (Array.isArray(coords) && typeof coords[0] === "number") {
    const p = coords as Position;
    b[0] = Math.min(b[0], p[0]); b[1] = Math.min(b[1], p[1]); b[2] = Math.max(b[2], p[0]); b[3] = Math.max(b[3], p[1]);
  } else if (Array.isArray(coords)) for (const c of coords) extendBbox(b, c);
}

interface GeoJsonFeature { type: string; geometry: { type: string; coordinates: unknown } | null; properties: Record<string, unknown> | null }

/**
 * The scalar properties as strings: the event list writes them as strings ("alertscore": "0", "eventid": "1542825"),
 * the search API as JSON numbers (1, 1103990); nested objects and arrays are not read.
 */
function scalarProps(p: Record<string, unknown> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p ?? {})) if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = String(v);
  return out;
}

// Kinds whose GDACS point should lie in the event's country. Cyclone and earthquake points are often at sea,
// and drought points are centroids of multi-country regions, so those are not checked.
const COUNTRY_CHECKED_KINDS = new Set(["FL", "WF"]);

/** GDACS country fields: an iso3 code when present, else the names ("Japan|Philippines", "A, B"). */
function gdacsIso3s(iso3: string | undefined, country: string | undefined): string[] {
  const codes = countryNamesToIso3(country ?? "");
  const first = (iso3 ?? "").trim().toUpperCase();
  return /^[A-Z]{3}$/.test(first) && !codes.includes(first) ? [first, ...codes] : codes;
}

/** `checker` null skips the country check (tests of other fields). */
export function parseGdacsGeoJson(text: string, checker: CountryChecker | null = countryChecker()): AdapterResult {
  const fc = JSON.parse(text) as { type?: string; features?: GeoJsonFeature[] };
  if (fc.type !== "FeatureCollection" || !Array.isArray(fc.features)) throw new Error("GDACS GeoJSON: not a FeatureCollection");
  const rc = new RejectCounter();
  // Polygons (affected areas, wind buffers) of an event widen its bbox; the centroid feature carries the event.
  const boxes = new Map<string, [number, number, number, number]>();
  for (const f of fc.features) {
    const p = scalarProps(f.properties);
    if (!f.geometry || f.geometry.type === "Point") continue;
    const key = `${p.eventtype}-${p.eventid}`;
    const b = boxes.get(key) ?? [Infinity, Infinity, -Infinity, -Infinity];
    extendBbox(b, f.geometry.coordinates);
    boxes.set(key, b);
  }
  const out: FeedRecord[] = [];
  for (const f of fc.features) {
    if (f.geometry?.type !== "Point") continue;
    rc.rows++;
    const p = scalarProps(f.properties);
    const [lng, lat] = f.geometry.coordinates as Position;
    const time = parseGdacsDate(p.fromdate);
    const mag = alertMagnitude(p.alertlevel, p.alertscore);
    if (!validLatLng(lat, lng)) { rc.reject("bad coordinates"); continue; }
    if (!Number.isFinite(time)) { rc.reject("bad fromdate"); continue; }
    if (!KIND[p.eventtype]) { rc.reject("unknown event type"); continue; }
    if (!Number.isFinite(mag)) { rc.reject("no alert level"); continue; }
    if (lng === 0 && lat === 0) { rc.reject(REASON_NULL_ISLAND); continue; }
    if (checker && COUNTRY_CHECKED_KINDS.has(p.eventtype)) {
      const c = checker.check(lng, lat, gdacsIso3s(p.iso3, p.country));
      if (c !== "ok" && c !== "unchecked") { rc.reject(c); continue; }
    }
    const end = parseGdacsDate(p.todate);
    const b = boxes.get(`${p.eventtype}-${p.eventid}`);
    out.push({
      id: `${p.eventtype}-${p.eventid}`,
      source: "GDACS",
      kind: KIND[p.eventtype],
      time,
      endTime: Number.isFinite(end) && end >= time ? end : time,
      lng,
      lat,
      ...(b && Number.isFinite(b[0]) ? { bbox: b } : {}),
      magnitude: mag,
      unit: "GDACS alert score",
      name: p.name || p.eventname || p.eventtype,
    });
  }
  return rc.result(out);
}

function tag(item: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(item);
  return m ? m[1].replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1").trim() : undefined;
}

export function parseGdacsRss(text: string): AdapterResult {
  if (!/<rss[\s>]/.test(text)) throw new Error("GDACS RSS: no <rss> element");
  const rc = new RejectCounter();
  const out: FeedRecord[] = [];
  for (const m of text.matchAll(/<item>([\s\S]*?)<\/item>/g)) {
    rc.rows++;
    const item = m[1];
    const lat = num(tag(item, "geo:lat"));
    const lng = num(tag(item, "geo:long"));
    const type = tag(item, "gdacs:eventtype") ?? "";
    const time = parseGdacsDate(tag(item, "gdacs:fromdate"));
    const mag = alertMagnitude(tag(item, "gdacs:alertlevel"), tag(item, "gdacs:alertscore"));
    if (!validLatLng(lat, lng)) { rc.reject("bad coordinates"); continue; }
    if (!Number.isFinite(time)) { rc.reject("bad fromdate"); continue; }
    if (!KIND[type]) { rc.reject("unknown event type"); continue; }
    if (!Number.isFinite(mag)) { rc.reject("no alert level"); continue; }
    const end = parseGdacsDate(tag(item, "gdacs:todate"));
    // gdacs:bbox is "lonmin lonmax latmin latmax".
    const bb = (tag(item, "gdacs:bbox") ?? "").split(/\s+/).map(Number);
    out.push({
      id: `${type}-${tag(item, "gdacs:eventid")}`,
      source: "GDACS",
      kind: KIND[type],
      time,
      endTime: Number.isFinite(end) && end >= time ? end : time,
      lng,
      lat,
      ...(bb.length === 4 && bb.every(Number.isFinite) ? { bbox: [bb[0], bb[2], bb[1], bb[3]] as [number, number, number, number] } : {}),
      magnitude: mag,
      unit: "GDACS alert score",
      name: tag(item, "gdacs:eventname") || tag(item, "title") || type,
    });
  }
  return rc.result(out);
}

/** The derived GDACS flood table: geometry is a Python-repr point "{'type': 'Point', 'coordinates': [x, y]}". */
export function parseGdacsFloodTable(
  text: string,
  checker: CountryChecker | null = countryChecker(),
  file = "latest_gdacs_flood_db.csv",
): AdapterResult<FeedRecord & { iso3: string }> {
  const csv = readCsvRecords(text, file, { trim: true, required: ["eventid", "alertlevel", "fromdate", "todate", "geometry", "iso3"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: (FeedRecord & { iso3: string })[] = [];
  for (const [i, r] of csv.records.entries()) {
    const reject = (reason: string) => rc.reject(reason, file, csv.lines[i]);
    rc.rows++;
    const m = /'Point',\s*'coordinates':\s*\[\s*([-\d.eE]+)\s*,\s*([-\d.eE]+)\s*\]/.exec(r.geometry);
    const lng = m ? Number(m[1]) : NaN;
    const lat = m ? Number(m[2]) : NaN;
    const time = parseGdacsDate(r.fromdate);
    const mag = alertMagnitude(r.alertlevel, r.alertscore);
    if (!validLatLng(lat, lng)) { reject("bad point geometry"); continue; }
    if (!Number.isFinite(time)) { reject("bad fromdate"); continue; }
    if (!Number.isFinite(mag)) { reject("no alert level"); continue; }
    if (lng === 0 && lat === 0) { reject(REASON_NULL_ISLAND); continue; }
    if (checker) {
      const c = checker.check(lng, lat, gdacsIso3s(r.iso3, r.country));
      if (c !== "ok" && c !== "unchecked") { reject(c); continue; }
    }
    const end = parseGdacsDate(r.todate);
    out.push({
      id: `FL-${r.eventid}`,
      source: "GDACS",
      kind: "flood",
      time,
      endTime: Number.isFinite(end) && end >= time ? end : time,
      lng,
      lat,
      magnitude: mag,
      unit: "GDACS alert score",
      name: `${r.country} flood`,
      iso3: r.iso3,
    });
  }
  return rc.result(out);
}

/**
 * The affected-area polygons of the floods in a GDACS event GeoJSON ("Poly_Affected" features; the "Poly_Global"
 * area is the whole region GDACS watches, not what was flooded), by event id "FL-<eventid>". Polygon features
 * carry no eventid of their own: it is read from their report link.
 */
export function gdacsFloodAffectedAreas(text: string): Map<string, number[][][]> {
  const fc = JSON.parse(text) as { type?: string; features?: GeoJsonFeature[] };
  if (fc.type !== "FeatureCollection" || !Array.isArray(fc.features)) throw new Error("GDACS GeoJSON: not a FeatureCollection");
  const out = new Map<string, number[][][]>();
  for (const f of fc.features) {
    const p = scalarProps(f.properties);
    if (p.eventtype !== "FL" || p.Class !== "Poly_Affected" || !f.geometry) continue;
    const id = p.eventid ?? /[?&]eventid=(\d+)/.exec(p.link ?? p.url ?? "")?.[1];
    if (!id) continue;
    const rings = polygonRings(f.geometry);
    if (rings.length) out.set(`FL-${id}`, [...(out.get(`FL-${id}`) ?? []), ...rings]);
  }
  return out;
}
