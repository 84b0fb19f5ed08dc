// Raster drought tiles: each pixel takes the colour class of the grid cell whose square (centre ± res/2)
// contains the pixel centre, where that centre is on land (tiles/land-mask.ts). Cells are found through a dense row/column lookup over the grid's extent, so a
// 256×256 tile costs one array read per pixel. Pure functions.
import type { DroughtGrid } from "../formats/drought-grid.ts";
import { CLASS_RGBA, colourClassOf } from "./colour-scale.ts";
import { encodeIndexedPng } from "./png-palette.ts";
import { isLand, type LandMask } from "./land-mask.ts";
import { TILE_SIZE, tileXToLng, tileYToLat, type BBox } from "./tile-math.ts";

/** Cell numbers on a dense rows × cols lattice (−1 = no cell); row 0 is the southernmost. */
export interface CellLattice {
  west: number;
  south: number;
  resolutionDeg: number;
  nRows: number;
  nCols: number;
  cellAt: Int32Array;
  /** Outer bounds of all cell squares. */
  bbox: BBox;
}

export function cellLattice(grid: Pick<DroughtGrid, "nCells" | "cellLats" | "cellLngs" | "resolutionDeg">): CellLattice {
  const res = grid.resolutionDeg;
  let minLat = Infinity, maxLat = -Infinity, minLng = Infinity, maxLng = -Infinity;
  for (let c = 0; c < grid.nCells; c++) {
    minLat = Math.min(minLat, grid.cellLats[c]);
    maxLat = Math.max(maxLat, grid.cellLats[c]);
    minLng = Math.min(minLng, grid.cellLngs[c]);
    maxLng = Math.max(maxLng, grid.cellLngs[c]);
  }
  const west = minLng - res / 2;
  const south = minLat - res / 2;
  const nCols = Math.round((maxLng - minLng) / res) + 1;
  const nRows = Math.round((maxLat - minLat) / res) + 1;
  const cellAt = new Int32Array(nRows * nCols).fill(-1);
  for (let c = 0; c < grid.nCells; c++) {
    const row = Math.round((grid.cellLats[c] - minLat) / res);
    const col = Math.round((grid.cellLngs[c] - minLng) / res);
    cellAt[row * nCols + col] = c;
  }
  return { west, south, resolutionDeg: res, nRows, nCols, cellAt, bbox: [west, south, west + nCols * res, south + nRows * res] };
}

/** Colour class of every cell for one month and index (0 where the value is missing). */
export function cellClasses(grid: DroughtGrid, monthOffset: number, indexPos: number): Uint8Array {
  const out = new Uint8Array(grid.nCells);
  const { nMonths, nIndices, values } = grid;
  for (let c = 0; c < grid.nCells; c++) out[c] = colourClassOf(values[(c * nMonths + monthOffset) * nIndices + indexPos]);
  return out;
}

/**
 * Class number of each pixel of tile z/x/y (row-major from the north-west corner), or null when no pixel
 * has data (the tile is then not written, and served as 204). With a land mask, a pixel whose centre is not on land
 * stays transparent: coastal cells are drawn over their land only.
 */
export function renderClassTile(lattice: CellLattice, classes: Uint8Array, z: number, x: number, y: number, land?: LatticeLand): Uint8Array | null {
  const { west, south, resolutionDeg: res, nRows, nCols, cellAt } = lattice;
  const colOf = new Int32Array(TILE_SIZE);
  const lngOf = new Float64Array(TILE_SIZE);
  let anyCol = false;
  for (let px = 0; px < TILE_SIZE; px++) {
    lngOf[px] = tileXToLng(x + (px + 0.5) / TILE_SIZE, z);
    const col = Math.floor((lngOf[px] - west) / res);
    colOf[px] = col >= 0 && col < nCols ? col : -1;
    if (colOf[px] >= 0) anyCol = true;
  }
  if (!anyCol) return null;
  const out = new Uint8Array(TILE_SIZE * TILE_SIZE);
  let any = false;
  let prevRow = -1;
  let prevMaskRow = -1;
  for (let py = 0; py < TILE_SIZE; py++) {
    const lat = tileYToLat(y + (py + 0.5) / TILE_SIZE, z);
    const row = Math.floor((lat - south) / res);
    if (row < 0 || row >= nRows) {
      prevRow = -1;
      continue;
    }
    const maskRow = land ? Math.floor((lat - land.south) / land.res) : -1;
    const line = py * TILE_SIZE;
    // At deep zooms a cell (and a mask row) spans many pixel rows: a row in the same ones repeats the line above.
    if (row === prevRow && maskRow === prevMaskRow) {
      out.copyWithin(line, line - TILE_SIZE, line);
      continue;
    }
    prevRow = row;
    prevMaskRow = maskRow;
    const base = row * nCols;
    for (let px = 0; px < TILE_SIZE; px++) {
      const col = colOf[px];
      if (col < 0) continue;
      const cell = cellAt[base + col];
      if (cell < 0) continue;
      // Only a cell that is not land throughout needs the per-pixel test.
      if (land && land.coastal[base + col] === 1 && !isLand(land, lngOf[px], lat)) continue;
      const k = classes[cell];
      out[line + px] = k;
      if (k !== 0) any = true;
    }
  }
  return any ? out : null;
}

/** A land mask with, per lattice position, whether its cell is coastal (1: some mask cell in its square is not land). */
export interface LatticeLand extends LandMask {
  coastal: Uint8Array;
}

export function latticeLand(lattice: CellLattice, land: LandMask): LatticeLand {
  const coastal = new Uint8Array(lattice.nRows * lattice.nCols);
  const { west, south, resolutionDeg: res } = lattice;
  for (let r = 0; r < lattice.nRows; r++) {
    for (let c = 0; c < lattice.nCols; c++) {
      if (lattice.cellAt[r * lattice.nCols + c] < 0) continue;
      outer: for (let y = south + r * res + land.res / 2; y < south + (r + 1) * res; y += land.res) {
        for (let x = west + c * res + land.res / 2; x < west + (c + 1) * res; x += land.res) {
          if (!isLand(land, x, y)) {
            coastal[r * lattice.nCols + c] = 1;
            break outer;
          }
        }
      }
    }
  }
  return { ...land, coastal };
}

/** PNG of a class tile: indexed colour with the class palette (tiles/png-palette.ts). */
export function encodeClassTilePng(classTile: Uint8Array): Buffer {
  return encodeIndexedPng(classTile, TILE_SIZE, TILE_SIZE, CLASS_RGBA);
}
