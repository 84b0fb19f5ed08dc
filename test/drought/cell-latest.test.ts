// Each cell's default month, that month's SPEI-1 and the rule that chose it (lib/drought/cell-latest.ts): the grid's
// default month where the cell has every answer index then (rule 0), else the cell's latest month with every index
// (rule 1), else its latest month with SPEI-1 (rule 2). The same from a resident grid, a paged one read in chunks, and
// value by value; the SPEI-1 equal to the grid's own value in that month.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDroughtGridFile, writeDroughtGrid } from "../../formats/drought-grid.ts";
import { ANSWER_INDICES, CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE, DEFAULT_RULES, GRID_DEFAULT_MONTH_RULE, latestByCell, NO_MONTH_AT_CELL } from "../../lib/drought/cell-latest.ts";

/** A grid file of `n` cells over `nMonths` months from 2000-01 with `names` (values cell-major), and its path. */
function gridFile(n: number, nMonths: number, names: string[], values: Float32Array): string {
  const path = join(mkdtempSync(join(tmpdir(), "cell-latest-")), "g.bin");
  writeFileSync(path, writeDroughtGrid({
    firstMonth: 2000 * 12, nMonths, indexNames: names, baselineStart: 2000 * 12, baselineEnd: 2000 * 12 + 5,
    resolutionDeg: 0.5, cellIds: Uint32Array.from({ length: n }, (_, i) => i),
    cellLats: Float64Array.from({ length: n }, (_, i) => -80 + (i % 320) * 0.5), cellLngs: Float64Array.from({ length: n }, (_, i) => -170 + Math.floor(i / 320) * 0.5),
    countries: ["THA"], cellCountry: new Uint8Array(n), values,
  }));
  return path;
}

/** The three rules by plain scans of one cell's record (`has(m, name)`: the cell has that index in month m). */
function expectedDefault(nMonths: number, has: (m: number, name: string) => boolean, gridDefault: number): { offset: number; rule: number } {
  const complete = (m: number) => ANSWER_INDICES.every((name) => has(m, name));
  if (gridDefault >= 0 && complete(gridDefault)) return { offset: gridDefault, rule: 0 };
  for (let m = nMonths - 1; m >= 0; m--) if (complete(m)) return { offset: m, rule: 1 };
  for (let m = nMonths - 1; m >= 0; m--) if (has(m, "spei1")) return { offset: m, rule: 2 };
  return { offset: NO_MONTH_AT_CELL, rule: 0 };
}

describe("latestByCell", () => {
  it("finds each cell's latest SPEI-1 month and value, resident, paged and value by value alike", () => {
    const n = 40;
    const nMonths = 6;
    const names = ["spei1", "spei3"];
    const values = new Float32Array(n * nMonths * names.length).map((_, i) => ((i * 7) % 23) / 10 - 1.1);
    const at = (cell: number, m: number, k: number) => (cell * nMonths + m) * names.length + k;
    for (let m = 3; m < nMonths; m++) values[at(1, m, 0)] = NaN; // cell 1: latest SPEI-1 in month 2
    for (let m = 0; m < nMonths; m++) values[at(2, m, 0)] = NaN; // cell 2: none (its SPEI-3 is there)
    values[at(3, nMonths - 1, 0)] = -38; // near the range's lower end
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
    expect(resident.spei1[3]).toBe(-38);
    for (let c = 0; c < n; c++) {
      if (resident.offset[c] >= 0) expect(resident.spei1[c]).toBe(whole.value(c, resident.offset[c], 0));
    }
    for (const other of [latestByCell(paged, path), latestByCell(paged)]) {
      expect(Array.from(other.offset)).toEqual(Array.from(resident.offset));
      expect(Array.from(other.spei1)).toEqual(Array.from(resident.spei1));
    }
    expect(latestByCell(paged, path).offset).toEqual(resident.offset);
  });

  it("the rules are numbered as DEFAULT_RULES names them", () => {
    expect(DEFAULT_RULES).toEqual([GRID_DEFAULT_MONTH_RULE, CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE]);
  });

  describe("with the grid's default month", () => {
    // The six answer indices and one more (SPEI-24) that no rule asks for; 6 months, the grid's default month 3.
    const names = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "mcdi"];
    const nMonths = 6;
    const DEFAULT = 3;
    const n = 8;
    const values = new Float32Array(n * nMonths * names.length).map((_, i) => ((i * 11) % 29) / 10 - 1.4);
    const at = (cell: number, m: number, name: string) => (cell * nMonths + m) * names.length + names.indexOf(name);
    const hole = (cell: number, months: number[], name: string) => months.forEach((m) => (values[at(cell, m, name)] = NaN));
    // 0: every index in every month, no SPEI-24 at all (not an answer index): the grid's month, rule 0.
    hole(0, [0, 1, 2, 3, 4, 5], "spei24");
    // 1: no MCDI in the default month, every index in month 5: its latest complete month, 5, after the default (rule 1).
    hole(1, [3], "mcdi");
    // 2: no SPEI-12 in months 3..5: its latest complete month, 2, before the default (rule 1).
    hole(2, [3, 4, 5], "spei12");
    // 3: never SPI-1, SPEI-1 to month 4: its latest month with SPEI-1 (rule 2).
    hole(3, [0, 1, 2, 3, 4, 5], "spi1");
    hole(3, [5], "spei1");
    // 4: no SPEI-1 at all: no month.
    hole(4, [0, 1, 2, 3, 4, 5], "spei1");
    // 5: SPEI-1 only in month 1, every other index elsewhere: rule 2, month 1.
    for (const name of names) if (name !== "spei1") hole(5, [1], name);
    hole(5, [0, 2, 3, 4, 5], "spei1");
    // 6: complete only in month 0 (SPEI-3 missing from month 1 on): rule 1, month 0.
    hole(6, [1, 2, 3, 4, 5], "spei3");
    // 7: every index in the default month but not in the last one: the default month, rule 0.
    hole(7, [5], "spei6");
    const path = gridFile(n, nMonths, names, values);

    it("rule 0 where the default month is complete, 1 for the cell's latest complete month, 2 for its latest SPEI-1 month", () => {
      const whole = openDroughtGridFile(path);
      const got = latestByCell(whole, undefined, DEFAULT);
      const table = Array.from({ length: n }, (_, c) => [got.offset[c], got.rule[c]]);
      expect(table).toEqual([[3, 0], [5, 1], [2, 1], [4, 2], [NO_MONTH_AT_CELL, 0], [1, 2], [0, 1], [3, 0]]);
      for (let c = 0; c < n; c++) {
        const has = (m: number, name: string) => !Number.isNaN(values[at(c, m, name)]);
        expect({ offset: got.offset[c], rule: got.rule[c] }, `cell ${c}`).toEqual(expectedDefault(nMonths, has, DEFAULT));
        if (got.offset[c] >= 0) expect(got.spei1[c], `cell ${c}`).toBe(whole.value(c, got.offset[c], 0));
        else expect(got.spei1[c]).toBeNaN();
      }
      // The names of those rules, as a point answer's monthReason gives them.
      expect(Array.from(got.rule.slice(0, 4), (r) => DEFAULT_RULES[r])).toEqual([GRID_DEFAULT_MONTH_RULE, CELL_COMPLETE_MONTH_RULE, CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE]);
    });

    it("without a default month inside the grid every cell falls back to its own", () => {
      const whole = openDroughtGridFile(path);
      for (const gridDefault of [-1, nMonths]) {
        const got = latestByCell(whole, undefined, gridDefault);
        expect(Array.from({ length: n }, (_, c) => [got.offset[c], got.rule[c]])).toEqual([[5, 1], [5, 1], [2, 1], [4, 2], [NO_MONTH_AT_CELL, 0], [1, 2], [0, 1], [4, 1]]);
      }
    });

    it("resident, paged in chunks and value by value agree on month, SPEI-1 and rule", () => {
      const resident = latestByCell(openDroughtGridFile(path), undefined, DEFAULT);
      const paged = openDroughtGridFile(path, { residentLimitBytes: 100 });
      expect(paged.values.length).toBe(0);
      for (const other of [latestByCell(paged, path, DEFAULT), latestByCell(paged, undefined, DEFAULT)]) {
        expect(Array.from(other.offset)).toEqual(Array.from(resident.offset));
        expect(Array.from(other.spei1)).toEqual(Array.from(resident.spei1));
        expect(Array.from(other.rule)).toEqual(Array.from(resident.rule));
      }
    });
  });

  it("resident and paged reads agree over a grid of several read chunks, cell by cell as the rules say", () => {
    // 15,000 cells × 6 months × 6 indices × 4 bytes = 2.2 MB: three 1 MiB chunks of whole cells, so the paged read
    // crosses chunk boundaries. Holes at pseudo-random cell-months and indices, denser in the later months.
    const names: string[] = [...ANSWER_INDICES];
    const n = 15_000;
    const nMonths = 6;
    const values = new Float32Array(n * nMonths * names.length);
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < values.length; i++) {
      const m = Math.floor(i / names.length) % nMonths;
      values[i] = rand() < 0.04 + 0.06 * m ? NaN : rand() * 4 - 2;
    }
    expect(values.length * 4).toBeGreaterThan(2 * (1 << 20));
    const path = gridFile(n, nMonths, names, values);
    const DEFAULT = 4;
    const resident = latestByCell(openDroughtGridFile(path), undefined, DEFAULT);
    const paged = latestByCell(openDroughtGridFile(path, { residentLimitBytes: 100 }), path, DEFAULT);
    expect(Array.from(paged.offset)).toEqual(Array.from(resident.offset));
    expect(Array.from(paged.spei1)).toEqual(Array.from(resident.spei1));
    expect(Array.from(paged.rule)).toEqual(Array.from(resident.rule));
    const seen = [0, 0, 0, 0];
    for (let c = 0; c < n; c++) {
      const has = (m: number, name: string) => !Number.isNaN(values[(c * nMonths + m) * names.length + names.indexOf(name)]);
      const want = expectedDefault(nMonths, has, DEFAULT);
      if (resident.offset[c] !== want.offset || resident.rule[c] !== want.rule) expect({ cell: c, offset: resident.offset[c], rule: resident.rule[c] }).toEqual({ cell: c, ...want });
      seen[want.offset < 0 ? 3 : want.rule]++;
    }
    // Every rule occurs (and a cell without SPEI-1 is rare enough not to be asked for).
    expect(seen.slice(0, 3).every((k) => k > 0)).toBe(true);
  });
});
