// Bounding box of a run of vertices in interleaved lng, lat coordinates.

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Box of vertices `from` .. `to` inclusive of `coords` (interleaved x, y). */
export function boundsOf(coords: ArrayLike<number>, from: number, to: number): Box {
  const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let v = from; v <= to; v++) {
    const x = coords[2 * v];
    const y = coords[2 * v + 1];
    if (x < b.x0) b.x0 = x;
    if (x > b.x1) b.x1 = x;
    if (y < b.y0) b.y0 = y;
    if (y > b.y1) b.y1 = y;
  }
  return b;
}

/**
 * Whether a point lies in a box [west, south, east, north] (degrees, edges included). west > east is a box across the
 * antimeridian: from west to 180° and from -180° to east.
 */
export function inLngLatBox([west, south, east, north]: readonly [number, number, number, number], lng: number, lat: number): boolean {
  if (lat < south || lat > north) return false;
  return west <= east ? lng >= west && lng <= east : lng >= west || lng <= east;
}
