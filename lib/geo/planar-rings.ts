// Spherical rings → planar rings in longitude/latitude. world-atlas stitches Natural Earth's cuts away, so a ring
// may step across the antimeridian (Fiji, Chukotka) or run once around a pole (Antarctica). Here every ring becomes
// one or more ordinary planar rings whose union, clipped to [-180, 180], covers the same ground.

/** An open ring as interleaved lng, lat (the closing vertex is not repeated). */
export type FlatRing = number[];

/** Pole-encircling rings lying entirely this close to the pole are stitching artefacts (50m Antarctica). */
export const POLE_ARTEFACT_DEG = 0.01;

/**
 * The planar rings standing for one spherical ring given as [lng, lat] positions (closed or open):
 * - longitudes are unwrapped so no edge jumps by more than 180°;
 * - a ring that winds once around a pole is closed along that pole (the pole of its hemisphere);
 *   one that lies entirely within POLE_ARTEFACT_DEG of the pole is dropped;
 * - a ring reaching beyond ±180 after unwrapping is repeated shifted by ∓360 so that clipping to the
 *   world box keeps both sides.
 */
export function planarRings(positions: readonly (readonly number[])[]): FlatRing[] {
  let n = positions.length;
  if (n > 1 && positions[0][0] === positions[n - 1][0] && positions[0][1] === positions[n - 1][1]) n--;
  if (n < 3) return [];
  const ring: FlatRing = [];
  let lng = positions[0][0];
  let minLat = Infinity;
  let maxLat = -Infinity;
  let sumLat = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      let d = positions[i][0] - positions[i - 1][0];
      if (d > 180) d -= 360;
      else if (d < -180) d += 360;
      lng += d;
    }
    const lat = positions[i][1];
    ring.push(lng, lat);
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    sumLat += lat;
  }
  // The closing edge, unwrapped the same way, tells whether the ring winds around a pole.
  let close = positions[0][0] - positions[n - 1][0];
  if (close > 180) close -= 360;
  else if (close < -180) close += 360;
  const net = lng + close - positions[0][0];
  if (Math.abs(net) > 180) {
    const pole = sumLat >= 0 ? 90 : -90;
    if (Math.abs(pole - minLat) <= POLE_ARTEFACT_DEG && Math.abs(pole - maxLat) <= POLE_ARTEFACT_DEG) return [];
    ring.push(lng + close, positions[0][1], lng + close, pole, positions[0][0], pole);
  }
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    if (ring[i] < minLng) minLng = ring[i];
    if (ring[i] > maxLng) maxLng = ring[i];
  }
  const out: FlatRing[] = [];
  for (const shift of [-360, 0, 360]) {
    if (minLng + shift < 180 && maxLng + shift > -180) out.push(shift === 0 ? ring : ring.map((v, i) => (i % 2 === 0 ? v + shift : v)));
  }
  return out;
}
