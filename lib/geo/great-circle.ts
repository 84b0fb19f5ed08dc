// Great-circle distance, shared by the port matching and the service's radius searches.
const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Haversine distance in km between two lat/lng points (degrees). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Half-widths in degrees of a box that contains every point within `km` of `lat` (for a kdbush range query). */
export function boxAround(lat: number, km: number): { dLat: number; dLng: number } {
  const dLat = km / 111.0;
  const cos = Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD);
  return { dLat, dLng: Math.min(180, km / (111.32 * Math.max(cos, 1e-6))) };
}
