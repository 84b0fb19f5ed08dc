// Search boxes for radius queries (the distance itself is lib/geo/sphere.ts haversineKm, the one great-circle distance).
const RAD = Math.PI / 180;

/** Half-widths in degrees of a box that contains every point within `km` of `lat` (for a kdbush range query). */
export function boxAround(lat: number, km: number): { dLat: number; dLng: number } {
  const dLat = km / 111.0;
  const cos = Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD);
  return { dLat, dLng: Math.min(180, km / (111.32 * Math.max(cos, 1e-6))) };
}
