// Distance to the coast: the coastline as polylines cut into short chunks, a flatbush over chunk bounding boxes,
// and geoflatbush's great-circle searches over it (they bound the distance from a point to a lng/lat box on the
// sphere, so the date line and the poles need no special case). Two searches per query: the chunk whose box is
// nearest gives an upper bound d (a real distance to a coast point); every chunk whose box lies within d is then
// measured. Both searches stop at d, so a point 2,000 km inland costs about as much as one on the shore.
import Flatbush from "flatbush";
import { around, within } from "geoflatbush";
import { boundsOf } from "./bounds.ts";
import { polylineDistanceKm } from "./sphere.ts";
import { POLE_ARTEFACT_DEG } from "./planar-rings.ts";

/** Edges per chunk: fewer chunks (faster tree searches) against more edges measured per chunk (measured: 16–64 alike). */
export const COAST_CHUNK_EDGES = 32;
/**
 * Second search: below this radius geoflatbush's `within` (depth-first, cheap bounds) is faster; beyond it its
 * bounds loosen and the best-first `around` with a distance limit expands fewer nodes.
 */
const WITHIN_MAX_KM = 1000;

export interface Coastline {
  /** Interleaved lng, lat of every polyline vertex, polylines one after the other. */
  coords: Float64Array;
  /** Chunk c is the polyline from vertex chunkFrom[c] to chunkTo[c] inclusive. */
  chunkFrom: Uint32Array;
  chunkTo: Uint32Array;
  /** Flatbush over chunk bounding boxes, item c = chunk c. */
  index: Flatbush;
  /** Number of coastline edges. */
  nEdges: number;
}

/**
 * Polylines of [lng, lat] positions → chunked coastline. An edge that crosses the antimeridian (|Δlng| > 180) is cut
 * at ±180 so that no chunk box wraps; polylines lying entirely within POLE_ARTEFACT_DEG of a pole are stitching
 * artefacts, not coast, and are left out.
 */
export function buildCoastline(lines: readonly (readonly (readonly number[])[])[], chunkEdges = COAST_CHUNK_EDGES): Coastline {
  const coords: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let nEdges = 0;
  let runStart = -1; // first vertex of the polyline being written
  const endRun = () => {
    const last = coords.length / 2 - 1;
    for (let s = runStart; s < last; s += chunkEdges) {
      from.push(s);
      to.push(Math.min(s + chunkEdges, last));
    }
    nEdges += Math.max(0, last - runStart);
    runStart = -1;
  };
  const put = (lng: number, lat: number) => {
    if (runStart < 0) runStart = coords.length / 2;
    coords.push(lng, lat);
  };
  for (const line of lines) {
    if (line.length < 2 || line.every((p) => 90 - Math.abs(p[1]) <= POLE_ARTEFACT_DEG)) continue;
    put(line[0][0], line[0][1]);
    for (let i = 1; i < line.length; i++) {
      const [x0, y0] = line[i - 1];
      const [x1, y1] = line[i];
      const d = x1 - x0;
      if (d > 180 || d < -180) {
        // Cut at the antimeridian: the side of x0 ends at ±180, the other side starts at ∓180.
        const edge = x0 > 0 ? 180 : -180;
        const x1u = x1 + (d > 180 ? -360 : 360);
        const yc = x1u === x0 ? y0 : y0 + ((edge - x0) * (y1 - y0)) / (x1u - x0);
        put(edge, yc);
        endRun();
        put(-edge, yc);
      }
      put(x1, y1);
    }
    endRun();
  }
  const index = new Flatbush(Math.max(from.length, 1));
  for (let c = 0; c < from.length; c++) {
    const b = boundsOf(coords, from[c], to[c]);
    index.add(b.x0, b.y0, b.x1, b.y1);
  }
  if (from.length === 0) index.add(0, 0, 0, 0); // flatbush needs one item; coastDistanceKm checks for it
  index.finish();
  return { coords: Float64Array.from(coords), chunkFrom: Uint32Array.from(from), chunkTo: Uint32Array.from(to), index, nEdges };
}

/** Great-circle km from the point to the nearest coastline point; Infinity for an empty coastline. */
export function coastDistanceKm(coast: Coastline, lat: number, lng: number): number {
  const { coords, chunkFrom, chunkTo, index } = coast;
  if (chunkFrom.length === 0) return Infinity;
  const [first] = around(index, lng, lat, 1);
  let best = polylineDistanceKm(lat, lng, coords, chunkFrom[first], chunkTo[first]);
  // geoflatbush measures on a 6,371 km sphere, a hair smaller than EARTH_RADIUS_KM: the same km are a slightly
  // larger angle there, so this search can only return more chunks than needed, never fewer.
  const candidates = best < WITHIN_MAX_KM ? within(index, lng, lat, best) : around(index, lng, lat, Infinity, best);
  for (const c of candidates) {
    if (c === first) continue;
    const d = polylineDistanceKm(lat, lng, coords, chunkFrom[c], chunkTo[c]);
    if (d < best) best = d;
  }
  return best;
}
