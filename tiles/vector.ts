// Vector tile sources (GeoJSON → geojson-vt → MVT 2.1 via vt-pbf): provinces with their drought values per
// precomputed month, the grid cells as squares with theirs, and Natural Earth country outlines (world-atlas).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon } from "geojson";
import { intersection, type Geom } from "polyclip-ts";
import { simplify } from "@turf/simplify";
import GeoJSONVT from "geojson-vt";
import { feature as topoFeature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { fromGeojsonVt } from "vt-pbf";
import type { DroughtGrid } from "../formats/drought-grid.ts";
import { formatMonth, type MonthIndex } from "../lib/months.ts";
import type { ProvinceMeta } from "../formats/province-index.ts";
import type { Province } from "../lib/geo/province-rings.ts";
import type { ProvinceRings } from "../lib/geo/province-rings.ts";
import { gridIdOf } from "../lib/drought/grid-id.ts";
import { validPolygonRings } from "./mvt-rings.ts";
import type { CellLattice, LatticeLand } from "./raster.ts";

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

type CellGrid = Pick<DroughtGrid, "nCells" | "cellLats" | "cellLngs" | "cellIds" | "resolutionDeg" | "countries">;

/** Douglas–Peucker tolerance of the coast that vector cells are cut to (~110 m; a z10 pixel is ~150 m). */
export const CELL_COAST_TOLERANCE_DEG = 0.001;

const square = (lng: number, lat: number, h: number): number[][][] => [[[lng - h, lat - h], [lng + h, lat - h], [lng + h, lat + h], [lng - h, lat + h], [lng - h, lat - h]]];

/**
 * Every cell's land: its square where the land mask covers it whole, else the square cut to the provinces that
 * overlap it (polyclip-ts), so a coastal cell is not drawn over the sea. Month-independent: made once per version.
 */
export function cellLand(grid: CellGrid, lattice: CellLattice, detailed: readonly Province[], land: LatticeLand): number[][][][][] {
  const h = grid.resolutionDeg / 2;
  // The coast to CELL_COAST_TOLERANCE_DEG: below what a z10 tile shows, and every tile's polygon union later
  // (validPolygonRings) works on a few vertices per coastal cell instead of the boundary file's full detail.
  const provinces = detailed.map((p) => ({ ...p, polygons: (simplify({ type: "MultiPolygon", coordinates: p.polygons } as MultiPolygon, { tolerance: CELL_COAST_TOLERANCE_DEG, highQuality: false }) as MultiPolygon).coordinates }));
  const boxes = provinces.map((p) => {
    const b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const poly of p.polygons) for (const [x, y] of poly[0]) { b[0] = Math.min(b[0], x); b[1] = Math.min(b[1], y); b[2] = Math.max(b[2], x); b[3] = Math.max(b[3], y); }
    return b;
  });
  const out: number[][][][][] = [];
  for (let c = 0; c < grid.nCells; c++) {
    const lng = grid.cellLngs[c];
    const lat = grid.cellLats[c];
    const sq = square(lng, lat, h);
    // Land throughout (latticeLand's per-cell flag): the square itself.
    const row = Math.round((lat - lattice.south) / lattice.resolutionDeg - 0.5);
    const col = Math.round((lng - lattice.west) / lattice.resolutionDeg - 0.5);
    if (land.coastal[row * lattice.nCols + col] === 0) {
      out.push([sq]);
      continue;
    }
    // The overlapping provinces' polygons cut to the square first (Sutherland–Hodgman, linear in their vertices),
    // so that polyclip works on a few hundred vertices, not on whole coastlines; its intersection then removes the
    // degenerate edges that rectangle clipping leaves along the square.
    const pieces: number[][][][] = [];
    provinces.forEach((p, i) => {
      const b = boxes[i];
      if (!(b[0] < lng + h && b[2] > lng - h && b[1] < lat + h && b[3] > lat - h)) return;
      for (const poly of p.polygons) {
        const rings = poly.map((r) => clipRing(r, lng - h, lat - h, lng + h, lat + h)).filter((r, k) => r.length >= 4 || k > 0);
        if (rings.length && rings[0].length >= 4) pieces.push(rings.filter((r) => r.length >= 4));
      }
    });
    out.push(pieces.length ? (intersection(sq as Geom, pieces as Geom) as number[][][][]) : []);
  }
  return out;
}

/** A ring cut to the box [w, s, e, n] (Sutherland–Hodgman), closed; fewer than 4 positions when nothing is left. */
function clipRing(ring: number[][], w: number, s: number, e: number, n: number): number[][] {
  let pts = ring.slice(0, -1);
  const edges: [(p: number[]) => boolean, (a: number[], b: number[]) => number[]][] = [
    [(p) => p[0] >= w, (a, b) => [w, a[1] + ((b[1] - a[1]) * (w - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= e, (a, b) => [e, a[1] + ((b[1] - a[1]) * (e - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= s, (a, b) => [a[0] + ((b[0] - a[0]) * (s - a[1])) / (b[1] - a[1]), s]],
    [(p) => p[1] <= n, (a, b) => [a[0] + ((b[0] - a[0]) * (n - a[1])) / (b[1] - a[1]), n]],
  ];
  for (const [inside, cross] of edges) {
    const next: number[][] = [];
    for (let i = 0; i < pts.length; i++) {
      const cur = pts[i];
      const prev = pts[(i + pts.length - 1) % pts.length];
      if (inside(cur)) {
        if (!inside(prev)) next.push(cross(prev, cur));
        next.push(cur);
      } else if (inside(prev)) next.push(cross(prev, cur));
    }
    pts = next;
    if (pts.length === 0) return [];
  }
  return pts.length >= 3 ? [...pts, pts[0]] : [];
}

/** Every cell as its land (cellLand) or, without one, its square (centre ± res/2); a cell without land is left out. */
export function cellsGeoJson(grid: CellGrid, mv: MonthValues, landOf?: readonly number[][][][][]): FeatureCollection<Polygon | MultiPolygon> {
  const h = grid.resolutionDeg / 2;
  const features: Feature<Polygon | MultiPolygon>[] = [];
  for (let c = 0; c < grid.nCells; c++) {
    const lat = grid.cellLats[c];
    const lng = grid.cellLngs[c];
    const geometry: Polygon | MultiPolygon = landOf ? { type: "MultiPolygon", coordinates: landOf[c] } : { type: "Polygon", coordinates: square(lng, lat, h) };
    if (landOf && landOf[c].length === 0) continue;
    features.push({ type: "Feature", id: c, geometry, properties: { cell: c, gridId: gridIdOf(grid.resolutionDeg, grid.cellIds[c], grid.countries), lat, lng, ...valueProps(c, mv) } });
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
  const features = tile.features.flatMap((f) => {
    if (f.type !== 3) return [f];
    const rings = validPolygonRings(f.geometry as unknown as number[][][]);
    return rings.length ? [{ ...f, geometry: rings as unknown as typeof f.geometry }] : [];
  });
  if (features.length === 0) return null;
  return fromGeojsonVt({ [layer]: { ...tile, features } }, { version: 2, extent: MVT_EXTENT });
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
    return { code: m.code, country: m.country, nameEn: m.nameEn, nameTh: m.nameTh, slug: m.slug, region: m.region, polygons: [...polygons.values()] };
  });
}
