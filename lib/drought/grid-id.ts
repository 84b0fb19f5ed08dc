// The one identifier of a drought grid cell, used by the API (location.gridId), the exports (grid_id) and the vector
// tiles (cells layer, gridId): "TH" + the resolution in hundredths of a degree (3 digits) + "-" + the cell id
// (row × columns + col of the grid), e.g. "TH025-756" for cell 756 of the 0.25° grid.
export function gridIdOf(resolutionDeg: number, cellId: number): string {
  return `TH${String(Math.round(resolutionDeg * 100)).padStart(3, "0")}-${cellId}`;
}
