// Distances on a sphere of the mean Earth radius: point to point (haversine) and point to an edge drawn straight
// in longitude/latitude, the way Natural Earth draws its polygon edges.

/** IUGG mean Earth radius R1 (Moritz 2000, Geodetic Reference System 1980), km. */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Longitude difference wrapped into [-180, 180). */
export function wrapLongitude(dLng: number): number {
  return dLng - 360 * Math.floor((dLng + 180) / 360);
}

/** Great-circle distance (haversine), km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const s1 = Math.sin(((lat2 - lat1) * RAD) / 2);
  const s2 = Math.sin(((lng2 - lng1) * RAD) / 2);
  const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Great-circle km from a point to the nearest point of the polyline `coords[2*from] .. coords[2*to]`
 * (interleaved lng, lat; edges straight in lng/lat, none stepping across the antimeridian). On each edge the
 * nearest point is chosen in an equirectangular projection centred on the query point (x scaled by the cosine of
 * the latitude midway between the point and the edge) and its distance measured by haversine. Every value is the
 * exact distance to a point of the polyline, so never below the true minimum; the planar choice of that point
 * costs at most 0.04 % (docs/methods/geography.md).
 */
export function polylineDistanceKm(lat: number, lng: number, coords: Float64Array, from: number, to: number): number {
  let best = haversineKm(lat, lng, coords[2 * from + 1], coords[2 * from]);
  for (let v = from + 1; v <= to; v++) {
    // Longitudes relative to the query point: the edge's start wrapped, its end carried along the edge.
    const ax = wrapLongitude(coords[2 * v - 2] - lng);
    const ay = coords[2 * v - 1] - lat;
    const ex = coords[2 * v] - coords[2 * v - 2];
    const ey = coords[2 * v + 1] - coords[2 * v - 1];
    const k = Math.cos((lat + (coords[2 * v - 1] + coords[2 * v + 1]) / 2) * (RAD / 2));
    const k2 = k * k;
    const len2 = ex * ex * k2 + ey * ey;
    let t = len2 > 0 ? -(ax * ex * k2 + ay * ey) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const d = haversineKm(lat, lng, lat + ay + t * ey, lng + ax + t * ex);
    if (d < best) best = d;
  }
  return best;
}
