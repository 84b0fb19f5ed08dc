// The climate components of the flood and heatwave scores: hand-computed values, monotonicity on series built
// here, and real-data checks on the vitest-built drought artifact and the Bangkok GHCN-Daily station.
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { combineHeat, hotExcess, monthlyBaseline, monthPercentiles, percentileOf, wetExtremes, wetTerm } from "../../lib/feed-risk/climate-components.ts";
import { eventScore } from "../../lib/feed-risk/scoring.ts";
import { PARAMS, wetGridTable } from "../../pipeline/snapshots/feed-builders.ts";
import { GHCND_SUBDIR, readStationIndex, readStationMonthly } from "../../pipeline/inputs/ghcnd/stations.ts";

describe("wet extremes (SPI-3 ≥ 1.5)", () => {
  it("counts very wet months over the record and the latest 12, NaN skipped", () => {
    const spi3 = [1.5, 2.0, NaN, 0.3, ...new Array<number>(10).fill(0), 3.0, 1.49, NaN];
    const w = wetExtremes(spi3);
    expect(w).toEqual({ validMonths: 15, veryWetMonths: 3, veryWetLatestYear: 1, latestYearWetness: 2 });
    expect(wetTerm(w)).toBeCloseTo(2 / 3, 12);
  });

  it("the flood score never drops when a month gets wetter or becomes very wet", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const p = PARAMS.flood;
    for (let trial = 0; trial < 300; trial++) {
      const spi3 = Array.from({ length: 24 }, () => (rnd() < 0.1 ? NaN : rnd() * 5 - 2.5));
      const before = eventScore(0.4, 0.2, p, wetTerm(wetExtremes(spi3)));
      const i = Math.floor(rnd() * 24);
      const wetter = [...spi3];
      wetter[i] = (Number.isFinite(spi3[i]) ? spi3[i] : -3) + rnd() * 3;
      expect(eventScore(0.4, 0.2, p, wetTerm(wetExtremes(wetter)))).toBeGreaterThanOrEqual(before);
    }
    // One very wet month in the latest year raises a feeds-only score of 33.0 (x = 0.4) to 100(1 − e^−(0.4 + 2/1.5/3)).
    expect(eventScore(0.4, 0, p, 0)).toBe(33);
    expect(eventScore(0.4, 0, p, wetTerm(wetExtremes([...new Array<number>(11).fill(0), 2])))).toBe(Math.round(1000 * (1 - Math.exp(-(0.4 + 2 / 1.5 / 3)))) / 10);
  });
});

describe("temperature percentiles", () => {
  it("mid-rank percentile against a baseline", () => {
    const base = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29];
    expect(percentileOf(29.5, base)).toBe(100);
    expect(percentileOf(29, base)).toBe(95);
    expect(percentileOf(24.5, base)).toBe(50);
    expect(percentileOf(19, base)).toBe(0);
    expect(percentileOf(NaN, base)).toBeNaN();
    expect(hotExcess([95, 100, 90, 50])).toBeCloseTo(1.5, 12);
    expect(combineHeat(50, 0, 12)).toBe(50);
    expect(combineHeat(50, 12, 12)).toBe(Math.round(1000 * (1 - 0.5 * Math.exp(-1))) / 10);
  });

  it("groups the baseline by calendar month and window-limits it", () => {
    const first = parseMonth("1960-01")!;
    const series = Float64Array.from({ length: 36 }, (_, i) => i); // 1960-01..1962-12
    const b = monthlyBaseline(series, first, parseMonth("1961-01")!, parseMonth("1962-12")!);
    expect(b.byCalendarMonth[0]).toEqual([12, 24]);
    expect(b.byCalendarMonth[11]).toEqual([23, 35]);
    const ps = monthPercentiles([parseMonth("1963-01")!], [30], b);
    expect(ps[0]).toEqual({ month: parseMonth("1963-01"), tmeanC: 30, percentile: 100, hot: true });
  });

  it("the heat score never drops when a month gets hotter", () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const base = monthlyBaseline(Float64Array.from({ length: 360 }, () => 25 + rnd() * 5), parseMonth("1961-01")!, parseMonth("1961-01")!, parseMonth("1990-12")!);
    const months = Array.from({ length: 12 }, (_, i) => parseMonth("2019-01")! + i);
    const score = (t: number[], country: number) => combineHeat(country, hotExcess(monthPercentiles(months, t, base).map((p) => p.percentile)), months.length);
    for (let trial = 0; trial < 300; trial++) {
      const t = months.map(() => 24 + rnd() * 8);
      const country = Math.round(rnd() * 1000) / 10;
      const hotter = [...t];
      hotter[Math.floor(rnd() * 12)] += rnd() * 2;
      expect(score(hotter, country)).toBeGreaterThanOrEqual(score(t, country));
      expect(score(t, country)).toBeGreaterThanOrEqual(country);
    }
  });
});

describe("real data", () => {
  it("the 2011 monsoon: SPI-3 ≥ 1.5 at the Bangkok cell in Aug–Sep 2011; the table counts what the grid holds", () => {
    const artifactsDir = inject("artifactsDir");
    const grid = openDroughtGridFile(join(artifactsDir, "current", "drought-grid.bin"));
    const { cell } = grid.nearestCell(13.75, 100.5);
    expect([grid.cellLat(cell), grid.cellLng(cell)]).toEqual([13.875, 100.375]);
    const i3 = grid.indexNo("spi3");
    const autumn = ["2011-08", "2011-09", "2011-10", "2011-11"].map((m) => grid.value(cell, grid.monthOffset(parseMonth(m)!), i3));
    expect(autumn[0]).toBeCloseTo(2.23, 2);
    expect(autumn[1]).toBeCloseTo(1.52, 2);
    expect(autumn.filter((v) => v >= 1.5)).toHaveLength(2);

    const { table, note } = wetGridTable({ dataDir: dataDir(), artifactsDir, env: {}, now: new Date() });
    expect(note).toBe("");
    expect(table!.gridMonth).toBe(formatMonth(grid.latestValidMonth!));
    const row = table!.cells.find((c) => c.lat === 13.875 && c.lng === 100.375)!;
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

  it("Bangkok: the hottest months of the record are April–May, 1998 and 2016 (El Niño) among them, all above the 1961–1990 range", async () => {
    const dir = join(dataDir(), GHCND_SUBDIR);
    const entry = (await readStationIndex(dir)).find((e) => e.id === "TH000048455")!;
    const st = await readStationMonthly(entry);
    const base = monthlyBaseline(st.tmean, st.firstMonth, parseMonth("1961-01")!, parseMonth("1990-12")!);
    const months = Array.from(st.tmean.keys(), (i) => st.firstMonth + i);
    const ps = monthPercentiles(months, st.tmean, base).filter((p) => Number.isFinite(p.tmeanC));
    const top = [...ps].sort((a, b) => b.tmeanC - a.tmeanC).slice(0, 5);
    expect(top.map((p) => formatMonth(p.month))).toEqual(["2004-04", "2016-05", "2019-04", "2016-04", "1998-04"]);
    for (const p of top) expect(p.percentile).toBe(100);
    expect(top[1].tmeanC).toBeCloseTo(31.81, 2);
  });
});
