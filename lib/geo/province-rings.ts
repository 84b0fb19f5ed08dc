// Province rings as flat typed arrays and a point-to-province locator: flatbush over ring bounding boxes, then
// even-odd ray casting on the candidate rings (their edges near the point's latitude: ring-bands.ts). Shared by the
// land-cell builder and the province-index file reader.
import Flatbush from "flatbush";
import { RingBands } from "./ring-bands.ts";

/** Polygon rings as GeoJSON positions [lng, lat]; a Polygon becomes a MultiPolygon with one part. */
export type MultiPolygonCoords = number[][][][];

/**
 * A first-level unit of the drought region with its boundary: a Thai province (pipeline/provinces/boundaries.ts), a
 * Vietnamese province or a Malaysian state (pipeline/provinces/region.ts); tiles draw them.
 */
export interface Province {
  code: string; // "TH-10", "VN-HN", "MY-14"
  /** ISO 3166-1 alpha-3 of the unit's country. */
  country: string;
  /** English name; for Vietnam and Malaysia the boundary file's name ("Hà Nội", "Penang"). */
  nameEn: string;
  /** Thai name; "" outside Thailand. */
  nameTh: string;
  slug: string;
  region: string;
  polygons: MultiPolygonCoords;
}

export interface ProvinceRings {
  /** Interleaved lng, lat of every ring vertex (rings closed: last vertex = first). */
  coords: Float64Array;
  /** Ring r spans vertices ringStart[r] .. ringStart[r + 1] - 1; length nRings + 1. */
  ringStart: Uint32Array;
  /** Province index (order of the province list) of each ring, outer rings and holes alike. */
  ringProvince: Uint16Array;
  nProvinces: number;
}

export function flattenRings(provinces: readonly { polygons: MultiPolygonCoords }[]): ProvinceRings {
  let nRings = 0;
  let nVertices = 0;
  for (const p of provinces) {
    for (const polygon of p.polygons) {
      for (const ring of polygon) {
        nRings++;
        nVertices += ring.length;
      }
    }
  }
  const coords = new Float64Array(nVertices * 2);
  const ringStart = new Uint32Array(nRings + 1);
  const ringProvince = new Uint16Array(nRings);
  let r = 0;
  let v = 0;
  provinces.forEach((p, pi) => {
    for (const polygon of p.polygons) {
      for (const ring of polygon) {
        ringStart[r] = v;
        ringProvince[r] = pi;
        for (const pos of ring) {
          coords[2 * v] = pos[0];
          coords[2 * v + 1] = pos[1];
          v++;
        }
        r++;
      }
    }
  });
  ringStart[nRings] = v;
  return { coords, ringStart, ringProvince, nProvinces: provinces.length };
}

/** Flatbush index over ring bounding boxes, item i = ring i. */
export function indexRings(rings: ProvinceRings): Flatbush {
  const nRings = rings.ringProvince.length;
  const index = new Flatbush(Math.max(nRings, 1));
  const c = rings.coords;
  for (let r = 0; r < nRings; r++) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let v = rings.ringStart[r]; v < rings.ringStart[r + 1]; v++) {
      const x = c[2 * v];
      const y = c[2 * v + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    index.add(minX, minY, maxX, maxY);
  }
  if (nRings === 0) index.add(0, 0, 0, 0); // flatbush needs one item; ring lookups below never match it
  index.finish();
  return index;
}

export class ProvinceLocator {
  readonly rings: ProvinceRings;
  readonly index: Flatbush;
  /** The rings' edges by latitude band: a ring test reads a few edges, not thousands (ring-bands.ts). */
  private readonly bands: RingBands;
  // Scratch state reused by every query so a lookup allocates nothing.
  private readonly parity: Uint8Array;
  private readonly touched: Uint16Array;

  constructor(rings: ProvinceRings, index: Flatbush = indexRings(rings)) {
    this.rings = rings;
    this.index = index;
    this.bands = new RingBands(rings);
    this.parity = new Uint8Array(rings.nProvinces);
    this.touched = new Uint16Array(rings.ringProvince.length);
  }

  /**
   * Province index containing the point, or -1. A point is inside a province when it is inside an odd number of
   * that province's rings (outer rings and holes); rings whose bbox misses the point cannot contain it.
   */
  provinceAt(lat: number, lng: number): number {
    if (!(Number.isFinite(lat) && Number.isFinite(lng))) return -1;
    const { ringProvince } = this.rings;
    const nRings = ringProvince.length;
    const parity = this.parity;
    const touched = this.touched;
    const bands = this.bands;
    let nTouched = 0;
    this.index.search(lng, lat, lng, lat, (r) => {
      if (r < nRings && bands.pointInRing(r, lng, lat)) {
        const p = ringProvince[r];
        if ((parity[p] & 2) === 0) {
          touched[nTouched++] = p;
          parity[p] = 2; // bit 2: listed in `touched`; bit 1: odd number of containing rings
        }
        parity[p] ^= 1;
      }
      return false;
    });
    let found = -1;
    for (let i = 0; i < nTouched; i++) {
      const p = touched[i];
      if (found < 0 && (parity[p] & 1) === 1) found = p;
      parity[p] = 0;
    }
    return found;
  }
}
