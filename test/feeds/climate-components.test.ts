// The drought grid's wet extremes reported beside the flood answer: hand-computed values, monotonicity on series built
// here, and real-data checks on the vitest-built drought artifact and the Bangkok GHCN-Daily station.
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { wetExtremes, wetTerm } from "../../lib/feed-risk/climate-components.ts";
import { wetGridTable } from "../../pipeline/snapshots/feed-builders.ts";

describe("wet extremes (SPI-3 ≥ 1.5)", () => {
  it("counts very wet months over the record and the latest 12, NaN skipped", () => {
    const spi3 = [1.5, 2.0, NaN, 0.3, ...new Array<number>(10).fill(0), 3.0, 1.49, NaN];
    const w = wetExtremes(spi3);
    expect(w).toEqual({ validMonths: 15, veryWetMonths: 3, veryWetLatestYear: 1, latestYearWetness: 2 });
    expect(wetTerm(w)).toBeCloseTo(2 / 3, 12);
  });
});

describe("real data", () => {
  it("the 2011 monsoon: SPI-3 ≥ 1.5 upstream of Bangkok (Phitsanulok's cell) in Sep–Oct 2011; the table counts what the grid holds", () => {
    const artifactsDir = inject("artifactsDir");
    const grid = openDroughtGridFile(join(artifactsDir, "current", "drought-grid.bin"));
    const { cell } = grid.nearestCell(16.8, 100.26);
    expect([grid.cellLat(cell), grid.cellLng(cell)]).toEqual([16.5, 100.5]);
    const i3 = grid.indexNo("spi3");
    const autumn = ["2011-08", "2011-09", "2011-10", "2011-11"].map((m) => grid.value(cell, grid.monthOffset(parseMonth(m)!), i3));
    expect(autumn[1]).toBeCloseTo(2.26, 2);
    expect(autumn[2]).toBeCloseTo(1.58, 2);
    expect(autumn.filter((v) => v >= 1.5)).toHaveLength(2);

    const { table, note } = wetGridTable({ dataDir: dataDir(), artifactsDir, env: {}, now: new Date() });
    expect(note).toBe("");
    expect(table!.gridMonth).toBe(formatMonth(grid.latestValidMonth!));
    const row = table!.cells.find((c) => c.lat === 16.5 && c.lng === 100.5)!;
    let valid = 0, wet = 0;
    const last = grid.monthOffset(grid.latestValidMonth!);
    for (let m = 0; m <= last; m++) {
      const v = grid.value(cell, m, i3);
      if (!Number.isNaN(v)) valid++;
      if (v >= 1.5) wet++;
    }
    expect(row.validMonths).toBe(valid);
    expect(row.veryWetMonths).toBe(wet);
    expect(row.veryWetMonths).toBeGreaterThan(0);
  });

  it("no drought artifact: the flood table is skipped with the reason", () => {
    const r = wetGridTable({ dataDir: dataDir(), artifactsDir: "/nonexistent-artifacts", env: {}, now: new Date() });
    expect(r.table).toBeUndefined();
    expect(r.note).toMatch(/^drought artifact not published \(.*drought-grid\.bin missing\)/);
  });
});
