// A drought grid of one month and one index over the given cells (numbered in the given order), for search tests.
import { openDroughtGrid, writeDroughtGrid, type DroughtGrid } from "../../formats/drought-grid.ts";

export function gridOf(lats: Float64Array, lngs: Float64Array, resolutionDeg: number): DroughtGrid {
  const n = lats.length;
  return openDroughtGrid(
    writeDroughtGrid({
      firstMonth: 0, nMonths: 1, indexNames: ["spei1"], baselineStart: 0, baselineEnd: 0, resolutionDeg,
      cellIds: Uint32Array.from({ length: n }, (_, i) => i), cellLats: lats, cellLngs: lngs,
      countries: ["THA"], cellCountry: new Uint8Array(n), values: new Float32Array(n),
    }),
  );
}
