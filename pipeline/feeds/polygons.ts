// GeoJSON polygons as the footprint index takes them: a flat list of rings (outer rings and holes, even-odd).

/** Rings of a GeoJSON Polygon or MultiPolygon as the shapefile reader returns it; rings under 3 vertices dropped. */
export function polygonRings(geometry: { type: string; coordinates: unknown } | null): number[][][] {
  if (!geometry) return [];
  const polys = geometry.type === "Polygon" ? [geometry.coordinates as number[][][]] : geometry.type === "MultiPolygon" ? (geometry.coordinates as number[][][][]) : [];
  const out: number[][][] = [];
  for (const poly of polys) for (const ring of poly) if (ring.length >= 3) out.push(ring.map((p) => [p[0], p[1]]));
  return out;
}

/**
 * Area of a footprint in km² (even-odd rings: holes subtract), each ring on the plane of its mean latitude. Within
 * a few per cent for the regional outlines it is used on (the footprint's specificity, lib/feed-risk/flood.ts).
 */
export function ringsAreaKm2(rings: number[][][]): number {
  let total = 0;
  let outer = 0;
  for (const ring of rings) {
    let lat0 = 0;
    for (const p of ring) lat0 += p[1];
    lat0 /= ring.length;
    const kx = 111.32 * Math.cos((lat0 * Math.PI) / 180);
    const ky = 110.574;
    let a = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += (ring[j][0] * kx) * (ring[i][1] * ky) - (ring[i][0] * kx) * (ring[j][1] * ky);
    a = Math.abs(a) / 2;
    // The largest ring is taken as outer; rings inside it are holes only when the data say so (shapefile order), so
    // count every ring: DFO multi-part outlines are separate parts far more often than holes.
    total += a;
    outer = Math.max(outer, a);
  }
  return Math.max(total, outer);
}
