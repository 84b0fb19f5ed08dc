// The one identifier of a drought grid cell, used by the API (location.gridId), the exports (grid_id) and the vector
// tiles (cells layer, gridId): the grid's area ("TH" for a grid of Thailand alone, "SEA" for the Southeast Asian
// region), the resolution in hundredths of a degree (3 digits), "-" and the cell id (row × columns + col of the
// grid), e.g. "TH025-756" for cell 756 of the 0.25° station grid, "SEA100-302" for Bangkok's 1° regional cell.
export function gridIdOf(resolutionDeg: number, cellId: number, countries: readonly string[]): string {
  const area = countries.length === 1 && countries[0] === "THA" ? "TH" : "SEA";
  return `${area}${String(Math.round(resolutionDeg * 100)).padStart(3, "0")}-${cellId}`;
}
