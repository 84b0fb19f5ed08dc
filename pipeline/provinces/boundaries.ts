// Loads and validates the 77 Thai provinces (geoBoundaries gbOpen ADM1, normalised copy in the data mirror).
// Provinces come back sorted by ISO 3166-2 code: that order is the province index used by every artifact.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../lib/config.ts";

import type { MultiPolygonCoords, Province } from "../../lib/geo/province-rings.ts";
import type { BBox } from "../inputs/netcdf/index.ts";

export type { MultiPolygonCoords, Province };

/** The 77 ISO 3166-2:TH province codes (Bangkok TH-10 … Narathiwat TH-96, Bueng Kan TH-38 since 2011). */
export const PROVINCE_CODES: readonly string[] = [
  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
  43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 67, 70, 71, 72, 73, 74, 75, 76,
  77, 80, 81, 82, 83, 84, 85, 86, 90, 91, 92, 93, 94, 95, 96,
].map((n) => `TH-${n}`);

export const PROVINCES_FILE = join("boundaries", "geoboundaries-tha-adm1", "thailand-provinces.geojson");

export function provincesPath(dir: string = dataDir()): string {
  return join(dir, PROVINCES_FILE);
}

/** Reads and validates the province GeoJSON; every error names the file. */
export function loadProvinces(path: string = provincesPath()): Province[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`${path}: cannot read province boundaries (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseProvinces(json, path);
}

const STRING_FIELDS = ["code", "nameEn", "nameTh", "slug", "region"] as const;

/** Validates a parsed FeatureCollection (pure); `source` names the file in errors. */
export function parseProvinces(json: unknown, source: string): Province[] {
  const fc = json as { type?: unknown; features?: unknown };
  if (!fc || fc.type !== "FeatureCollection" || !Array.isArray(fc.features)) {
    throw new Error(`${source}: expected a GeoJSON FeatureCollection with a features array`);
  }
  const byCode = new Map<string, Province>();
  fc.features.forEach((f: unknown, i: number) => {
    const feature = f as { properties?: Record<string, unknown>; geometry?: { type?: unknown; coordinates?: unknown } };
    const props = feature?.properties ?? {};
    const where = `${source}: feature ${i}${typeof props.code === "string" ? ` (${props.code})` : ""}`;
    for (const field of STRING_FIELDS) {
      const v = props[field];
      if (typeof v !== "string" || v.trim() === "") throw new Error(`${where}: missing property "${field}"`);
    }
    const code = props.code as string;
    if (!PROVINCE_CODES.includes(code)) throw new Error(`${where}: unknown province code "${code}"`);
    if (byCode.has(code)) throw new Error(`${where}: duplicate province code "${code}"`);
    byCode.set(code, {
      code,
      country: "THA",
      nameEn: (props.nameEn as string).trim(),
      nameTh: (props.nameTh as string).trim(),
      slug: (props.slug as string).trim(),
      region: (props.region as string).trim(),
      polygons: readGeometry(feature.geometry, where),
    });
  });
  const missing = PROVINCE_CODES.filter((c) => !byCode.has(c));
  if (missing.length > 0) {
    throw new Error(`${source}: expected ${PROVINCE_CODES.length} provinces, missing ${missing.join(", ")}`);
  }
  return PROVINCE_CODES.map((c) => byCode.get(c)!);
}

export function readGeometry(geometry: { type?: unknown; coordinates?: unknown } | undefined, where: string): MultiPolygonCoords {
  if (!geometry) throw new Error(`${where}: missing geometry`);
  let polygons: MultiPolygonCoords;
  if (geometry.type === "Polygon") polygons = [geometry.coordinates as number[][][]];
  else if (geometry.type === "MultiPolygon") polygons = geometry.coordinates as MultiPolygonCoords;
  else throw new Error(`${where}: geometry must be Polygon or MultiPolygon, got ${String(geometry.type)}`);
  if (!Array.isArray(polygons) || polygons.length === 0) throw new Error(`${where}: empty geometry`);
  for (const polygon of polygons) {
    if (!Array.isArray(polygon) || polygon.length === 0) throw new Error(`${where}: polygon without rings`);
    for (const ring of polygon) {
      if (!Array.isArray(ring) || ring.length < 4) throw new Error(`${where}: ring with fewer than 4 positions`);
      for (const pos of ring) {
        if (!Array.isArray(pos) || !Number.isFinite(pos[0]) || !Number.isFinite(pos[1])) {
          throw new Error(`${where}: non-finite coordinate`);
        }
      }
    }
  }
  return polygons;
}

/** Bounding box of every province's rings, degrees. */
export function provincesBox(provinces: readonly Province[]): BBox {
  const b: BBox = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  for (const p of provinces) {
    for (const polygon of p.polygons) {
      for (const ring of polygon) {
        for (const [x, y] of ring) {
          if (x < b.west) b.west = x;
          if (x > b.east) b.east = x;
          if (y < b.south) b.south = y;
          if (y > b.north) b.north = y;
        }
      }
    }
  }
  return b;
}
