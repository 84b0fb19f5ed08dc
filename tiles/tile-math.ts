// Web Mercator (EPSG:3857) tile arithmetic of the XYZ scheme used by MapLibre, PMTiles and MVT.

export const TILE_SIZE = 256;
/** Web Mercator's latitude limit. */
export const MAX_LAT = 85.0511287798066;

export type BBox = [west: number, south: number, east: number, north: number];

export function lngToTileX(lng: number, z: number): number {
  return ((lng + 180) / 360) * 2 ** z;
}

export function latToTileY(lat: number, z: number): number {
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * 2 ** z;
}

/** Longitude of a fractional tile x. */
export function tileXToLng(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude of a fractional tile y. */
export function tileYToLat(y: number, z: number): number {
  const n = Math.PI * (1 - (2 * y) / 2 ** z);
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
}

export function tileBBox(z: number, x: number, y: number): BBox {
  return [tileXToLng(x, z), tileYToLat(y + 1, z), tileXToLng(x + 1, z), tileYToLat(y, z)];
}

export function isValidTile(z: number, x: number, y: number, maxZoom = 30): boolean {
  return Number.isInteger(z) && Number.isInteger(x) && Number.isInteger(y) && z >= 0 && z <= maxZoom && x >= 0 && y >= 0 && x < 2 ** z && y < 2 ** z;
}

/** Tile x and y ranges (inclusive) of the tiles at zoom z that touch a bbox. */
export function tileRange(bbox: BBox, z: number): { minX: number; minY: number; maxX: number; maxY: number } {
  const last = 2 ** z - 1;
  const clamp = (v: number) => Math.max(0, Math.min(last, Math.floor(v)));
  return {
    minX: clamp(lngToTileX(bbox[0], z)),
    maxX: clamp(lngToTileX(bbox[2], z) - 1e-9),
    minY: clamp(latToTileY(bbox[3], z)),
    maxY: clamp(latToTileY(bbox[1], z) - 1e-9),
  };
}

/** Every tile of zooms minZoom..maxZoom touching a bbox, in z, then x, then y order. */
export function* tilesCovering(bbox: BBox, minZoom: number, maxZoom: number): Generator<[number, number, number]> {
  for (let z = minZoom; z <= maxZoom; z++) {
    const r = tileRange(bbox, z);
    for (let x = r.minX; x <= r.maxX; x++) for (let y = r.minY; y <= r.maxY; y++) yield [z, x, y];
  }
}
