// Does a feed row's point lie in the country the row names? Feeds geocode some events to the wrong place
// (GDACS flood table rows for Indonesia and Malaysia at Bangkok, rows at (0, 0)); such points create phantom
// events. Checked against Natural Earth 1:50m country polygons (world-atlas countries-50m, keyed by ISO 3166
// numeric id) with a tolerance, because event points are centroids of affected areas that can sit off a
// coast or across a border of a generalised 50m outline.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { booleanPointInPolygon, pointToLineDistance } from "@turf/turf";
import countries from "i18n-iso-countries";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { haversineKm as greatCircleKm } from "../../lib/geo/sphere.ts";

const require = createRequire(import.meta.url);
countries.registerLocale(require("i18n-iso-countries/langs/en.json") as countries.LocaleData);

/** Points farther than this from the named country are refused (centroids of coastal floods sit offshore). */
export const COUNTRY_TOLERANCE_KM = 50;

export const REASON_OUTSIDE = "coordinates outside the named country";
export const REASON_NULL_ISLAND = "null island";

const KM_PER_DEG = 111.32;

/** Misspellings and historical / regional names seen in the DFO archive → ISO alpha-3. */
const ALIASES: Record<string, string> = {
  alaska: "USA", texas: "USA", "usa.": "USA", usa: "USA", "united states": "USA", britain: "GBR", uk: "GBR", england: "GBR",
  scotland: "GBR", "northern ireland": "GBR", "unitd kingdom": "GBR", bangaldesh: "BGD", bangledesh: "BGD", boliva: "BOL",
  bosnia: "BIH", "bosnia and herzogovina": "BIH", "bosnia-herzegovenia": "BIH", "bosnia-herzegovina": "BIH",
  "burkino faso": "BFA", burma: "MMR", "burma/myanmar": "MMR", myanamar: "MMR", camaroun: "CMR", columbia: "COL",
  "comoros islands": "COM", congo: "COG", "congo republic": "COG", "dr congo": "COD", "democratic republic congo": "COD",
  "democratic republic of congo": "COD", "democratic republic of the congo": "COD", "east timor": "TLS", timor: "TLS",
  "el savador": "SLV", guatamala: "GTM", gutamala: "GTM", inda: "IND", inonesia: "IDN", "ivory coast": "CIV",
  kazahkstan: "KAZ", kazahkistan: "KAZ", laos: "LAO", macedonia: "MKD", malayasia: "MYS", moldava: "MDA", moldovo: "MDA",
  "papua new gunea": "PNG", philipines: "PHL", philippine: "PHL", phillipines: "PHL", phillippines: "PHL", russia: "RUS",
  siberia: "RUS", "saint vincent": "VCT", "south korea": "KOR", "north korea": "PRK", syria: "SYR", taiwan: "TWN",
  tajikstan: "TJK", tanzania: "TZA", tasmania: "AUS", thiland: "THA", tibet: "CHN", "the gambia": "GMB", tobago: "TTO",
  trinidad: "TTO", "united arab emerates": "ARE", "uruguay,": "URY", venezulea: "VEN", "viet nam": "VNM", vietnam: "VNM",
  "west germany": "DEU", zimbawe: "ZWE", iran: "IRN", gaza: "PSE", palestine: "PSE", antigua: "ATG", "azores islands": "PRT",
  "canary islands": "ESP", "serbia and montenegro": "SRB", "serbia-montenegro": "SRB", brunei: "BRN", moldova: "MDA",
  "russian fed.": "RUS", "congo, democratic republic of the": "COD", "congo, republic of the": "COG",
  "united states of america": "USA", "united kingdom": "GBR", zaire: "COD", "st. lucia": "LCA", "virgin islands": "VIR",
  herzegovina: "BIH",
  bolivia: "BOL", venezuela: "VEN", "cote d'ivoire": "CIV", "czech republic": "CZE", "kyrgyzstan": "KGZ",
};

/** Whether a code is a current ISO 3166-1 alpha-3 code (former states such as SCG are not). */
export function isIso3(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && countries.isValid(code);
}

/** A country name as a feed writes it → ISO alpha-3, or undefined (regions like "Africa", former states). */
export function countryNameToIso3(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  if (!key || key === "0") return undefined;
  return ALIASES[key] ?? countries.getAlpha3Code(name.trim(), "en");
}

/**
 * A country field → ISO alpha-3 codes: the whole text first, else its parts split on "|", ",", ";", "/" or " and "
 * ("Canada and USA", GDACS "Japan|Philippines"); unresolvable parts are left out.
 */
export function countryNamesToIso3(text: string): string[] {
  const whole = countryNameToIso3(text);
  if (whole) return [whole];
  const out: string[] = [];
  for (const part of text.split(/[|,;/]| and /)) {
    const c = countryNameToIso3(part);
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

interface CountryShape {
  /** [minLng, minLat, maxLng, maxLat] */
  bbox: [number, number, number, number];
  feature: Feature<Polygon | MultiPolygon>;
  /** Each polygon's rings, exterior first. */
  polygons: Ring[][];
}

interface Ring {
  /** lng,lat pairs, flat. */
  coords: Float64Array;
  /** Each segment's great-circle length. */
  segmentKm: Float64Array;
  /** The ring alone, for turf's point-in-polygon. */
  polygon: Polygon;
}

/** Slack on the segment lower bound against rounding: far below any distance the check compares. */
const BOUND_SLACK_KM = 1e-6;

export type CheckOutcome = "ok" | "unchecked" | typeof REASON_OUTSIDE | typeof REASON_NULL_ISLAND;

function bboxOf(coords: unknown, b: [number, number, number, number]): void {
  if (Array.isArray(coords) && typeof coords[0] === "number") {
    const [x, y] = coords as number[];
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  } else if (Array.isArray(coords)) for (const c of coords) bboxOf(c, b);
}

function shapeDistanceKm(s: CountryShape, lng: number, lat: number, toleranceKm: number): number {
  // Cheap bbox prefilter: a point well outside the bbox is at least that far away (longitude degrees shrink
  // with latitude, so use the smallest scale over the box, floored near the poles). Skipped for shapes that
  // cross the antimeridian (their bbox spans the globe).
  if (s.bbox[2] - s.bbox[0] < 180) {
    const cos = Math.max(0.05, Math.cos((Math.max(Math.abs(lat), Math.abs(s.bbox[1]), Math.abs(s.bbox[3])) * Math.PI) / 180));
    const dx = Math.max(s.bbox[0] - lng, 0, lng - s.bbox[2]) * KM_PER_DEG * cos;
    const dy = Math.max(s.bbox[1] - lat, 0, lat - s.bbox[3]) * KM_PER_DEG;
    const lower = Math.hypot(dx, dy);
    if (lower > toleranceKm) return lower;
  }
  if (booleanPointInPolygon([lng, lat], s.feature)) return 0;
  return outsideDistanceKm(s, lng, lat, toleranceKm);
}

/**
 * km from a point outside the shape to its boundary, as turf's pointToPolygonDistance measures it there, without its
 * per-segment work on segments that cannot be within the tolerance. Per polygon turf measures the exterior ring,
 * or, for a point inside the exterior (so in a hole), the holes that contain it (the farthest of them); the nearest
 * polygon counts. For a point on a segment's arc, d(P,Q) ≥ (d(P,A) + d(P,B) − |AB|) / 2 (triangle inequality), so
 * a segment whose bound exceeds the tolerance is skipped and turf measures the others. The answer is exact when it
 * is within the tolerance, and a lower bound above the tolerance otherwise (as the bbox prefilter's is).
 */
function outsideDistanceKm(s: CountryShape, lng: number, lat: number, toleranceKm: number): number {
  let best = Infinity;
  for (const rings of s.polygons) {
    const exterior = rings[0];
    let d: number;
    if (rings.length === 1 || !booleanPointInPolygon([lng, lat], exterior.polygon)) d = ringDistanceKm(exterior, lng, lat, toleranceKm);
    else {
      d = -Infinity;
      for (let h = 1; h < rings.length; h++) if (booleanPointInPolygon([lng, lat], rings[h].polygon)) d = Math.max(d, ringDistanceKm(rings[h], lng, lat, toleranceKm));
      if (d === -Infinity) d = ringDistanceKm(exterior, lng, lat, toleranceKm);
    }
    if (d < best) best = d;
  }
  return best;
}

/** km from a point to a ring's nearest segment: exact within the tolerance, else a lower bound above it. */
function ringDistanceKm({ coords, segmentKm }: Ring, lng: number, lat: number, toleranceKm: number): number {
  let best = Infinity;
  let dPrev = greatCircleKm(lat, lng, coords[1], coords[0]);
  for (let i = 0; i < segmentKm.length; i++) {
    const ax = coords[2 * i], ay = coords[2 * i + 1], bx = coords[2 * i + 2], by = coords[2 * i + 3];
    const dNext = greatCircleKm(lat, lng, by, bx);
    const bound = (dPrev + dNext - segmentKm[i]) / 2 - BOUND_SLACK_KM;
    dPrev = dNext;
    if (bound >= best) continue;
    const d = bound > toleranceKm ? bound : pointToLineDistance([lng, lat], { type: "LineString", coordinates: [[ax, ay], [bx, by]] }, { units: "kilometers" });
    if (d < best) best = d;
  }
  return best;
}

/** Each polygon's rings (exterior first), flat, with their segments' lengths. */
function polygonsOf(geometry: Polygon | MultiPolygon): Ring[][] {
  const polygons = geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates;
  return polygons.map((polygon) =>
    polygon.map((ring) => {
      const coords = new Float64Array(ring.length * 2);
      ring.forEach(([x, y], i) => ((coords[2 * i] = x), (coords[2 * i + 1] = y)));
      const segmentKm = new Float64Array(Math.max(0, ring.length - 1));
      for (let i = 0; i < segmentKm.length; i++) segmentKm[i] = greatCircleKm(coords[2 * i + 1], coords[2 * i], coords[2 * i + 3], coords[2 * i + 2]);
      return { coords, segmentKm, polygon: { type: "Polygon", coordinates: [ring] } satisfies Polygon };
    }),
  );
}

export class CountryChecker {
  // Several Natural Earth units can share one ISO numeric id (Australia and Ashmore and Cartier Is. are both 036).
  private readonly shapes = new Map<string, CountryShape[]>();

  constructor(features: Feature<Polygon | MultiPolygon>[], readonly toleranceKm = COUNTRY_TOLERANCE_KM) {
    for (const f of features) {
      if (f.id === undefined || !f.geometry) continue;
      const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      bboxOf(f.geometry.coordinates, bbox);
      const id = String(f.id).padStart(3, "0");
      const list = this.shapes.get(id) ?? [];
      list.push({ bbox, feature: f, polygons: polygonsOf(f.geometry) });
      this.shapes.set(id, list);
    }
  }

  /** Whether the checker has a polygon for this ISO alpha-3 code. */
  knows(iso3: string): boolean {
    return this.shape(iso3) !== undefined;
  }

  private shape(iso3: string): CountryShape[] | undefined {
    const n = countries.alpha3ToNumeric(iso3.trim().toUpperCase());
    return n ? this.shapes.get(n) : undefined;
  }

  /**
   * km from the point to the country (0 inside); NaN when the country has no polygon. Exact within the tolerance;
   * beyond it, a lower bound that is itself beyond the tolerance (all the check needs).
   */
  distanceKm(lng: number, lat: number, iso3: string): number {
    const shapes = this.shape(iso3);
    if (!shapes) return NaN;
    let best = Infinity;
    for (const s of shapes) best = Math.min(best, shapeDistanceKm(s, lng, lat, this.toleranceKm));
    return best;
  }

  /**
   * Null island is always refused. Otherwise the point must lie within the tolerance of at least one of the
   * named countries that has a polygon; rows naming no known country are "unchecked" (kept).
   */
  check(lng: number, lat: number, iso3s: readonly string[]): CheckOutcome {
    if (lng === 0 && lat === 0) return REASON_NULL_ISLAND;
    let known = false;
    for (const c of iso3s) {
      const d = this.distanceKm(lng, lat, c);
      if (Number.isNaN(d)) continue;
      known = true;
      if (d <= this.toleranceKm) return "ok";
    }
    return known ? REASON_OUTSIDE : "unchecked";
  }
}

let shared: CountryChecker | undefined;

/** The checker over Natural Earth 50m countries from world-atlas, loaded once per process. */
export function countryChecker(): CountryChecker {
  if (!shared) {
    const topo = JSON.parse(readFileSync(require.resolve("world-atlas/countries-50m.json"), "utf8")) as Topology<{ countries: GeometryCollection }>;
    const fc = feature(topo, topo.objects.countries) as unknown as { features: Feature<Polygon | MultiPolygon>[] };
    shared = new CountryChecker(fc.features);
  }
  return shared;
}
