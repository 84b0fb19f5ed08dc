// Each cell's latest month with SPEI-1 and that month's SPEI-1 (lib/drought/cell-latest.ts): the same from a resident
// grid, a paged one read in chunks, and value by value; equal to the grid's own value in that month.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDroughtGridFile, writeDroughtGrid } from "../../formats/drought-grid.ts";
import { latestByCell, NO_MONTH_AT_CELL } from "../../lib/drought/cell-latest.ts";

describe("latestByCell", () => {
  it("finds each cell's latest SPEI-1 month and value, resident, paged and value by value alike", () => {
    const n = 40;
    const nMonths = 6;
    const names = ["spei1", "spei3"];
    const values = new Float32Array(n * nMonths * names.length).map((_, i) => ((i * 7) % 23) / 10 - 1.1);
    const at = (cell: number, m: number, k: number) => (cell * nMonths + m) * names.length + k;
    for (let m = 3; m < nMonths; m++) values[at(1, m, 0)] = NaN; // cell 1: latest SPEI-1 in month 2
    for (let m = 0; m < nMonths; m++) values[at(2, m, 0)] = NaN; // cell 2: none (its SPEI-3 is there)
    values[at(3, nMonths - 1, 0)] = -Infinity; // ±Inf is a value
    const path = join(mkdtempSync(join(tmpdir(), "cell-latest-")), "g.bin");
    writeFileSync(path, writeDroughtGrid({
      firstMonth: 2000 * 12, nMonths, indexNames: names, baselineStart: 2000 * 12, baselineEnd: 2000 * 12 + 5,
      resolutionDeg: 0.5, cellIds: Uint32Array.from({ length: n }, (_, i) => i),
      cellLats: Float64Array.from({ length: n }, (_, i) => 5 + (i % 8) * 0.5), cellLngs: Float64Array.from({ length: n }, (_, i) => 97 + Math.floor(i / 8) * 0.5),
      countries: ["THA"], cellCountry: new Uint8Array(n), values,
    }));
    const whole = openDroughtGridFile(path);
    const paged = openDroughtGridFile(path, { residentLimitBytes: 100 });
    const resident = latestByCell(whole);
    expect(resident.offset[1]).toBe(2);
    expect(resident.offset[2]).toBe(NO_MONTH_AT_CELL);
    expect(resident.spei1[2]).toBeNaN();
    expect(resident.spei1[3]).toBe(-Infinity);
    for (let c = 0; c < n; c++) {
      if (resident.offset[c] >= 0) expect(resident.spei1[c]).toBe(whole.value(c, resident.offset[c], 0));
    }
    for (const other of [latestByCell(paged, path), latestByCell(paged)]) {
      expect(Array.from(other.offset)).toEqual(Array.from(resident.offset));
      expect(Array.from(other.spei1)).toEqual(Array.from(resident.spei1));
    }
    expect(latestByCell(paged, path).offset).toEqual(resident.offset);
  });
});
