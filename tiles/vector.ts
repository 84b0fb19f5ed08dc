// Vector tile sources (GeoJSON → geojson-vt → MVT 2.1 via vt-pbf): provinces with their drought values per
// precomputed month, the grid cells as squares with theirs, and Natural Earth country outlines (world-atlas).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon } from "geojson";
import GeoJSONVT from "geojson-vt";
import { feature as topoFeature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { fromGeojsonVt } from "vt-pbf";
import type { DroughtGrid } from "../formats/drought-grid.ts";
import { formatMonth, type MonthIndex } from "../lib/months.ts";
import type { ProvinceMeta } from "../formats/province-index.ts";
import type { Province } from "../lib/geo/province-rings.ts";
import type { ProvinceRings } from "../lib/geo/province-rings.ts";

export const MVT_EXTENT = 4096;

/** Property key of an index value in a month, e.g. `spei1_2019-07`. */
export function valueKey(index: string, month: MonthIndex): string {
  return `${index}_${formatMonth(month)}`;
}

/** Values rounded to 3 decimals (enough for the 0.1-wide classes); NaN is left out, ±Inf kept as ±99. */
function roundValue(v: number): number {
  if (v === Infinity) return 99;
  if (v === -Infinity) return -99;
  return Math.round(v * 1000) / 1000;
}

export interface MonthValues {
  indices: readonly string[];
  months: readonly MonthIndex[];
  /** Value of item `i` (province or cell), index `index`, month `month`; NaN = missing. */
  value: (i: number, index: string, month: MonthIndex) => number;
}

function valueProps(i: number, mv: MonthValues): Record<string, number> {
  const out: Record<string, number> = {};
  for (const month of mv.months) {
    for (const index of mv.indices) {
      const v = mv.value(i, index, month);
      if (!Number.isNaN(v)) out[valueKey(index, month)] = roundValue(v);
    }
  }
  return out;
}

export function provincesGeoJson(provinces: readonly Province[], mv: MonthValues): FeatureCollection<MultiPolygon> {
  return {
    type: "FeatureCollection",
    features: provinces.map((p, i) => ({
      type: "Feature",
      id: i,
      geometry: { type: "MultiPolygon", coordinates: p.polygons },
      properties: { code: p.code, nameEn: p.nameEn, nameTh: p.nameTh, ...valueProps(i, mv) },
    })),
  };
}

/** Every cell as its square (centre ± res/2). */
export function cellsGeoJson(grid: Pick<DroughtGrid, "nCells" | "cellLats" | "cellLngs" | "cellIds" | "resolutionDeg">, mv: MonthValues): FeatureCollection<Polygon> {
  const h = grid.resolutionDeg / 2;
  const features: Feature<Polygon>[] = [];
  for (let c = 0; c < grid.nCells; c++) {
    const lat = grid.cellLats[c];
    const lng = grid.cellLngs[c];
    features.push({
      type: "Feature",
      id: c,
      geometry: { type: "Polygon", coordinates: [[[lng - h, lat - h], [lng + h, lat - h], [lng + h, lat + h], [lng - h, lat + h], [lng - h, lat - h]]] },
      properties: { cell: c, gridId: String(grid.cellIds[c]), lat, lng, ...valueProps(c, mv) },
    });
  }
  return { type: "FeatureCollection", features };
}

/** Natural Earth 1:50m countries (world-atlas, public domain) with name and ISO 3166-1 numeric id. */
export function countriesGeoJson(): FeatureCollection<Geometry> {
  const path = createRequire(import.meta.url).resolve("world-atlas/countries-50m.json");
  const topo = JSON.parse(readFileSync(path, "utf8")) as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const fc = topoFeature(topo, topo.objects.countries) as FeatureCollection<Geometry, { name: string }>;
  return {
    type: "FeatureCollection",
    features: fc.features.map((f) => ({ type: "Feature", geometry: f.geometry, properties: { name: f.properties?.name ?? "", id: String(f.id ?? "") } })),
  };
}

export function vectorIndex(fc: FeatureCollection, maxZoom: number): GeoJSONVT {
  return new GeoJSONVT(fc, { maxZoom, indexMaxZoom: Math.min(5, maxZoom), extent: MVT_EXTENT, buffer: 64, tolerance: 3 });
}

/** MVT bytes of one layer of tile z/x/y, or null when the tile has no feature. */
export function encodeVectorTile(index: GeoJSONVT, layer: string, z: number, x: number, y: number): Uint8Array | null {
  const tile = index.getTile(z, x, y);
  if (tile === null || tile.features.length === 0) return null;
  return fromGeojsonVt({ [layer]: tile }, { version: 2, extent: MVT_EXTENT });
}

function ringContains(coords: Float64Array, from: number, to: number, lng: number, lat: number): boolean {
  let inside = false;
  for (let i = from, j = to - 1; i < to; j = i++) {
    const xi = coords[2 * i], yi = coords[2 * i + 1];
    const xj = coords[2 * j], yj = coords[2 * j + 1];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Province polygons back from the flat rings of province-index.bin (the server has no GeoJSON): a ring inside
 * an odd number of its province's other rings is a hole of the first ring that contains it.
 */
export function provincesFromRings(rings: ProvinceRings, meta: readonly ProvinceMeta[]): Province[] {
  const byProvince: number[][] = Array.from({ length: rings.nProvinces }, () => []);
  rings.ringProvince.forEach((p, r) => byProvince[p].push(r));
  const ringCoords = (r: number) => {
    const out: number[][] = [];
    for (let v = rings.ringStart[r]; v < rings.ringStart[r + 1]; v++) out.push([rings.coords[2 * v], rings.coords[2 * v + 1]]);
    return out;
  };
  return meta.map((m, p) => {
    const own = byProvince[p] ?? [];
    const containers = (r: number) => {
      const v = rings.ringStart[r];
      return own.filter((o) => o !== r && ringContains(rings.coords, rings.ringStart[o], rings.ringStart[o + 1], rings.coords[2 * v], rings.coords[2 * v + 1]));
    };
    const polygons = new Map<number, number[][][]>();
    const holes: Array<[number, number]> = [];
    for (const r of own) {
      const c = containers(r);
      if (c.length % 2 === 0) polygons.set(r, [ringCoords(r)]);
      else holes.push([r, c[0]]);
    }
    for (const [r, outer] of holes) polygons.get(outer)?.push(ringCoords(r));
    return { code: m.code, nameEn: m.nameEn, nameTh: m.nameTh, slug: m.slug, region: m.region, polygons: [...polygons.values()] };
  });
}
