// Land cells of the regular lat/lng grid over Thailand and, for each cell, the fraction of its area in each province.
// Fractions come from sub-sampling each cell on an n×n lattice of points and locating every point in a province.
import { flattenRings, ProvinceLocator } from "../../lib/geo/province-rings.ts";
import { provincesBox, type MultiPolygonCoords, type Province } from "../provinces/boundaries.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";

/** Mean Earth radius (IUGG), km — the same sphere as turf's area. */
import { EARTH_RADIUS_KM } from "../../lib/geo/sphere.ts";

export interface LandCellOptions {
  /** Grid spacing in degrees (default 0.25); cell edges lie on multiples of it, centres at +resolution/2. */
  resolutionDeg?: number;
  /** Sub-samples per cell side (default 10 → 100 points per cell). */
  samples?: number;
  /**
   * A point on a cell corner (default 0, 0): cell edges lie at origin + k × resolution. Native grids need it when
   * their edges are not multiples of the resolution (CRU TS 0.5° cells span .25–.75; ERA5 0.25° cells are centred
   * on multiples of 0.25, so their edges are at .125 + k/4).
   */
  origin?: { lng: number; lat: number };
}

export interface LandCells {
  resolutionDeg: number;
  samples: number;
  /** West and south edges of grid column 0 / row 0 and the grid size (the full grid, sea included). */
  west: number;
  south: number;
  nCols: number;
  nRows: number;
  /** Land cells, ordered south to north then west to east. */
  lat: Float64Array;
  lng: Float64Array;
  row: Uint16Array;
  col: Uint16Array;
  /** Spherical area of each whole cell, km². */
  areaKm2: Float64Array;
  /** Sparse cell × province weights: land-cell index, province index, fraction of the cell's area in that province. */
  weightCell: Uint32Array;
  weightProvince: Uint8Array;
  weightFraction: Float32Array;
  nProvinces: number;
}

/** Area of a lat/lng box on the sphere: R² Δλ (sin φ2 − sin φ1). */
export function cellAreaKm2(southDeg: number, northDeg: number, widthDeg: number): number {
  const rad = Math.PI / 180;
  return EARTH_RADIUS_KM * EARTH_RADIUS_KM * widthDeg * rad * (Math.sin(northDeg * rad) - Math.sin(southDeg * rad));
}

export function buildLandCells(
  provinces: readonly { polygons: MultiPolygonCoords }[],
  options: LandCellOptions = {},
): LandCells {
  const res = options.resolutionDeg ?? 0.25;
  const n = options.samples ?? 10;
  if (!(res > 0)) throw new Error(`resolutionDeg must be > 0, got ${res}`);
  if (!Number.isInteger(n) || n < 1 || n > 255) throw new Error(`samples must be an integer in 1..255, got ${n}`);
  if (provinces.length > 255) throw new Error(`at most 255 provinces fit a Uint8 province index, got ${provinces.length}`);

  const rings = flattenRings(provinces);
  const locator = new ProvinceLocator(rings);
  const { minX, minY, maxX, maxY } = locator.index;
  // Reduce the origin to the corner nearest 0 so that the snapping below stays as exact as with origin 0.
  const ox = options.origin ? options.origin.lng - Math.round(options.origin.lng / res) * res : 0;
  const oy = options.origin ? options.origin.lat - Math.round(options.origin.lat / res) * res : 0;
  if (!Number.isFinite(ox) || !Number.isFinite(oy)) throw new Error(`origin must be finite, got ${JSON.stringify(options.origin)}`);
  // Snap the bbox outward to the grid; the small epsilon keeps exact multiples from gaining an empty column.
  const west = ox + Math.floor((minX - ox) / res + 1e-9) * res;
  const south = oy + Math.floor((minY - oy) / res + 1e-9) * res;
  const nCols = Math.ceil((maxX - ox) / res - 1e-9) - Math.round((west - ox) / res);
  const nRows = Math.ceil((maxY - oy) / res - 1e-9) - Math.round((south - oy) / res);

  const nP = provinces.length;
  const counts = new Uint16Array(nP);
  const lat: number[] = [];
  const lng: number[] = [];
  const rowOf: number[] = [];
  const colOf: number[] = [];
  const area: number[] = [];
  const wCell: number[] = [];
  const wProv: number[] = [];
  const wFrac: number[] = [];
  const step = res / n;
  const total = n * n;
  const nRings = rings.ringProvince.length;

  for (let r = 0; r < nRows; r++) {
    const s = south + r * res;
    for (let c = 0; c < nCols; c++) {
      const w = west + c * res;
      // Cells whose box touches no ring bbox are sea or foreign land: skip the n² point tests.
      if (locator.index.search(w, s, w + res, s + res, (i) => i < nRings).length === 0) continue;
      counts.fill(0);
      let any = false;
      for (let i = 0; i < n; i++) {
        const y = s + (i + 0.5) * step;
        for (let j = 0; j < n; j++) {
          const p = locator.provinceAt(y, w + (j + 0.5) * step);
          if (p >= 0) {
            counts[p]++;
            any = true;
          }
        }
      }
      if (!any) continue;
      const cell = lat.length;
      lat.push(s + res / 2);
      lng.push(w + res / 2);
      rowOf.push(r);
      colOf.push(c);
      area.push(cellAreaKm2(s, s + res, res));
      for (let p = 0; p < nP; p++) {
        if (counts[p] > 0) {
          wCell.push(cell);
          wProv.push(p);
          wFrac.push(counts[p] / total);
        }
      }
    }
  }
  return {
    resolutionDeg: res,
    samples: n,
    west,
    south,
    nCols,
    nRows,
    lat: Float64Array.from(lat),
    lng: Float64Array.from(lng),
    row: Uint16Array.from(rowOf),
    col: Uint16Array.from(colOf),
    areaKm2: Float64Array.from(area),
    weightCell: Uint32Array.from(wCell),
    weightProvince: Uint8Array.from(wProv),
    weightFraction: Float32Array.from(wFrac),
    nProvinces: nP,
  };
}

/** A province no land cell with data touches, answered by the nearest cell that has data. */
export interface NearestCellProvince {
  code: string;
  cellLat: number;
  cellLng: number;
  distanceKm: number;
}

/**
 * Weight entries for provinces that no cell touches (a small island off a coarse grid, such as Côn Đảo off CPC's
 * 1° land cells): each gets the cell nearest to its bounding box's centre, with a weight too small (1e-6) to move
 * the cell's other provinces' summaries or its coverage share, so that its summary is that cell's values.
 */
export function attachNearestCells(cells: LandCells, provinces: readonly Province[]): { cells: LandCells; attached: NearestCellProvince[] } {
  const seen = new Uint8Array(provinces.length);
  for (let e = 0; e < cells.weightProvince.length; e++) seen[cells.weightProvince[e]] = 1;
  const attached: NearestCellProvince[] = [];
  const wCell = Array.from(cells.weightCell);
  const wProv = Array.from(cells.weightProvince);
  const wFrac = Array.from(cells.weightFraction);
  provinces.forEach((p, i) => {
    if (seen[i] || cells.lat.length === 0) return;
    const b = provincesBox([p]);
    const lat = (b.south + b.north) / 2;
    const lng = (b.west + b.east) / 2;
    let best = 0;
    let bestKm = Infinity;
    for (let c = 0; c < cells.lat.length; c++) {
      const d = haversineKm(lat, lng, cells.lat[c], cells.lng[c]);
      if (d < bestKm) {
        bestKm = d;
        best = c;
      }
    }
    wCell.push(best);
    wProv.push(i);
    wFrac.push(1e-6);
    attached.push({ code: p.code, cellLat: cells.lat[best], cellLng: cells.lng[best], distanceKm: Math.round(bestKm * 10) / 10 });
  });
  if (attached.length === 0) return { cells, attached };
  return { cells: { ...cells, weightCell: Uint32Array.from(wCell), weightProvince: Uint8Array.from(wProv), weightFraction: Float32Array.from(wFrac) }, attached };
}
