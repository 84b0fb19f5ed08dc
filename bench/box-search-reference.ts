// The nearest-cell search the grid reader used before the tree walk (commit 833436c), kept as the reference that
// test/grid/nearest-cell.test.ts checks the new search against and bench/grid-lookup.bench.ts times beside it: grow
// a lat/lng box until it holds a cell, then check every cell in the bounding box of the spherical cap through that
// cell. Exact, but its cost grows with (distance / resolution)².
import KDBush from "kdbush";
import { EARTH_RADIUS_KM, haversineKm } from "../lib/geo/sphere.ts";

const RAD = Math.PI / 180;

export function boxSearchReference(cellLats: Float64Array, cellLngs: Float64Array, resolutionDeg: number) {
  const kd = new KDBush(cellLats.length, 16, Float64Array);
  for (let i = 0; i < cellLats.length; i++) kd.add(cellLngs[i], cellLats[i]);
  kd.finish();
  const initialRadiusDeg = Math.max(resolutionDeg, 0.01);
  let best = -1;
  let bestKm = Infinity;

  const scan = (lat: number, lng: number, minLat: number, maxLat: number, minLng: number, maxLng: number): void => {
    const ids = kd.range(minLng, minLat, maxLng, maxLat);
    for (const c of ids) {
      const d = haversineKm(lat, lng, cellLats[c], cellLngs[c]);
      if (d < bestKm || (d === bestKm && c < best)) {
        best = c;
        bestKm = d;
      }
    }
  };
  const scanBox = (lat: number, lng: number, radiusLatDeg: number, radiusLngDeg: number): void => {
    const minLat = lat - radiusLatDeg;
    const maxLat = lat + radiusLatDeg;
    if (radiusLngDeg >= 180) return scan(lat, lng, minLat, maxLat, -180, 180);
    const minLng = lng - radiusLngDeg;
    const maxLng = lng + radiusLngDeg;
    scan(lat, lng, minLat, maxLat, Math.max(minLng, -180), Math.min(maxLng, 180));
    if (minLng < -180) scan(lat, lng, minLat, maxLat, minLng + 360, 180);
    if (maxLng > 180) scan(lat, lng, minLat, maxLat, -180, maxLng - 360);
  };

  return (lat: number, lng: number): { cell: number; distanceKm: number } => {
    best = -1;
    bestKm = Infinity;
    for (let r = initialRadiusDeg; best < 0; r *= 2) {
      const cosLat = Math.cos(lat * RAD);
      scanBox(lat, lng, r, cosLat > 1e-9 ? Math.min(180, r / cosLat) : 180);
      if (r > 360) break;
    }
    const capRad = bestKm / EARTH_RADIUS_KM;
    const latRad = lat * RAD;
    const capDeg = capRad / RAD + 1e-9;
    let lngRadiusDeg = 180;
    if (Math.abs(latRad) + capRad < Math.PI / 2 - 1e-12) {
      lngRadiusDeg = Math.asin(Math.min(1, Math.sin(capRad) / Math.cos(latRad))) / RAD + 1e-9;
    }
    scanBox(lat, lng, capDeg, lngRadiusDeg);
    return { cell: best, distanceKm: bestKm };
  };
}
