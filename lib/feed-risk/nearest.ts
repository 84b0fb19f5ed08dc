// The nearest of a small table of points (drought-grid cells, stations) to a query point, with a cheap box gate.
import { haversineKm } from "../geo/sphere.ts";

/** Nearest item by great-circle distance (brute force: the tables hold at most a few thousand points). */
export function nearest<T extends { lat: number; lng: number }>(items: T[], lat: number, lng: number): { item: T; distanceKm: number } | undefined {
  let best: { item: T; distanceKm: number } | undefined;
  for (const item of items) {
    const d = haversineKm(lat, lng, item.lat, item.lng);
    if (!best || d < best.distanceKm) best = { item, distanceKm: d };
  }
  return best;
}

/** Whether a point can be within `km` of any item: the items' box widened by km (cheap gate before `nearest`). */
const boxes = new WeakMap<object, [number, number, number, number]>();
export function mayBeNear(items: { lat: number; lng: number }[], lat: number, lng: number, km: number): boolean {
  let b = boxes.get(items);
  if (!b) {
    b = [Infinity, Infinity, -Infinity, -Infinity];
    for (const it of items) {
      b[0] = Math.min(b[0], it.lng); b[1] = Math.min(b[1], it.lat); b[2] = Math.max(b[2], it.lng); b[3] = Math.max(b[3], it.lat);
    }
    boxes.set(items, b);
  }
  const dLat = km / 110.5;
  const dLng = km / (111.0 * Math.max(0.01, Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180)));
  return lat >= b[1] - dLat && lat <= b[3] + dLat && lng >= b[0] - dLng && lng <= b[2] + dLng;
}
