// The great-circle nearest grid cell by brute force (haversine's monotone part over every cell): the independent
// reference the end-to-end drought tests compare the service's KD-tree answer with.
import type { DroughtGrid } from "../../formats/drought-grid.ts";

export function bruteNearestCell(grid: DroughtGrid, lat: number, lng: number): number {
  let best = -1;
  let bestD = Infinity;
  const rad = Math.PI / 180;
  for (let c = 0; c < grid.nCells; c++) {
    const dLat = (grid.cellLat(c) - lat) * rad;
    const dLng = (grid.cellLng(c) - lng) * rad;
    const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat * rad) * Math.cos(grid.cellLat(c) * rad) * Math.sin(dLng / 2) ** 2;
    if (a < bestD) {
      bestD = a;
      best = c;
    }
  }
  return best;
}
