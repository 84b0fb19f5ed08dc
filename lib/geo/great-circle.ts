// Search boxes for radius queries and the kdbush range query over them (the distance itself is lib/geo/sphere.ts
// haversineKm, the one great-circle distance).
import type KDBush from "kdbush";

const RAD = Math.PI / 180;

/** Half-widths in degrees of a box that contains every point within `km` of `lat` (for a kdbush range query). */
export function boxAround(lat: number, km: number): { dLat: number; dLng: number } {
  const dLat = km / 111.0;
  const cos = Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD);
  return { dLat, dLng: Math.min(180, km / (111.32 * Math.max(cos, 1e-6))) };
}

/**
 * Indices of the points of a kdbush index inside the box around (lat, lng) of half-size `km` (check distances after).
 * A box that crosses the antimeridian is queried on both sides (Fiji's ports lie on either side of 180°).
 */
export function within(idx: KDBush, lat: number, lng: number, km: number): number[] {
  const { dLat, dLng } = boxAround(lat, km);
  const [south, north, west, east] = [lat - dLat, lat + dLat, lng - dLng, lng + dLng];
  if (dLng >= 180) return idx.range(-180, south, 180, north);
  const out = idx.range(Math.max(-180, west), south, Math.min(180, east), north);
  if (west < -180) for (const i of idx.range(west + 360, south, 180, north)) out.push(i);
  if (east > 180) for (const i of idx.range(-180, south, east - 360, north)) out.push(i);
  return out;
}
