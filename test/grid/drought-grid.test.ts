import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DroughtGridFormatError,
  interleaveIndices,
  openDroughtGrid,
  openDroughtGridFile,
  writeDroughtGrid,
  type DroughtGridInput,
} from "../../formats/drought-grid.ts";
import { Z_MAX, Z_MIN } from "../../formats/index-range.ts";
import { monthIndex } from "../../lib/months.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { rng } from "../../bench/random.ts";
import { gridOf } from "./grid-of.ts";

// Deterministic PRNG (mulberry32) so failures reproduce.

/** 3 cells x 4 months x 2 indices, with NaN and the extremes of the value range in known places. */
function smallGrid(): DroughtGridInput {
  const nCells = 3;
  const nMonths = 4;
  const names = ["spei3", "spi1"];
  const values = new Float32Array(nCells * nMonths * names.length);
  for (let i = 0; i < values.length; i++) values[i] = i / 8 - 1; // exact in float32
  values[(0 * 4 + 3) * 2 + 0] = NaN; // cell 0, last month, spei3
  values[(1 * 4 + 3) * 2 + 0] = NaN;
  values[(1 * 4 + 3) * 2 + 1] = NaN; // cell 1, last month: whole record missing
  values[(2 * 4 + 3) * 2 + 0] = NaN;
  values[(2 * 4 + 3) * 2 + 1] = NaN; // cell 2, last month
  values[(2 * 4 + 1) * 2 + 0] = 8.2; // near Z_MAX, the largest z an index can give
  values[(2 * 4 + 1) * 2 + 1] = -38; // near Z_MIN
  return {
    firstMonth: monthIndex(1990, 11),
    nMonths,
    indexNames: names,
    baselineStart: monthIndex(1961, 1),
    baselineEnd: monthIndex(1990, 12),
    resolutionDeg: 0.25,
    cellIds: new Uint32Array([1001, 1002, 2001]),
    cellLats: new Float64Array([13.625, 13.875, 18.125]),
    cellLngs: new Float64Array([100.375, 100.375, 98.875]),
    countries: ["THA", "LAO"],
    cellCountry: new Uint8Array([0, 0, 1]),
    values,
  };
}

describe("drought-grid format round trip", () => {
  const data = smallGrid();
  const bytes = writeDroughtGrid(data);
  const grid = openDroughtGrid(bytes);

  it("has the documented size: 72-byte header plus 8-byte aligned sections", () => {
    // names 32 + countries 8 + ids 16 + lats 24 + lngs 24 + country 8 + kdbush 64 + anyValid 16 + indexValid 32 + values 96
    // kdbush: 8 header + 3 Uint16 ids (6, padded to 8) + 6 Float64 coords (48) = 64
    expect(bytes.byteLength).toBe(72 + 32 + 8 + 16 + 24 + 24 + 8 + 64 + 16 + 32 + 96);
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe("DRGRID01");
  });

  it("restores header fields", () => {
    expect(grid.formatVersion).toBe(1);
    expect(grid.valueEncoding).toBe(1);
    expect(grid.nCells).toBe(3);
    expect(grid.nMonths).toBe(4);
    expect(grid.nIndices).toBe(2);
    expect(grid.firstMonth).toBe(1990 * 12 + 10);
    expect(grid.lastMonth).toBe(1991 * 12 + 1);
    expect(grid.baselineStart).toBe(1961 * 12);
    expect(grid.baselineEnd).toBe(1990 * 12 + 11);
    expect(grid.resolutionDeg).toBe(0.25);
    expect(grid.indexNames).toEqual(["spei3", "spi1"]);
    expect(grid.countries).toEqual(["THA", "LAO"]);
    expect(grid.indexNo("spi1")).toBe(1);
    expect(grid.indexNo("spei12")).toBe(-1);
    expect(grid.monthOffset(monthIndex(1991, 1))).toBe(2);
    expect(grid.monthOffset(monthIndex(1990, 10))).toBe(-1);
    expect(grid.monthOffset(monthIndex(1991, 3))).toBe(-1);
  });

  it("restores cells exactly", () => {
    expect(Array.from(grid.cellIds)).toEqual([1001, 1002, 2001]);
    expect(grid.cellId(2)).toBe(2001);
    expect(grid.cellLat(1)).toBe(13.875);
    expect(grid.cellLng(2)).toBe(98.875);
    expect(grid.cellCountry(0)).toBe("THA");
    expect(grid.cellCountry(2)).toBe("LAO");
  });

  it("restores every value bit for bit, NaN and the range's extremes included", () => {
    expect(grid.values.length).toBe(data.values.length);
    for (let i = 0; i < data.values.length; i++) expect(Object.is(grid.values[i], data.values[i])).toBe(true);
    expect(grid.value(0, 0, 0)).toBe(-1);
    expect(grid.value(0, 0, 1)).toBe(-0.875);
    expect(grid.value(1, 2, 1)).toBe((1 * 4 + 2) * 2 / 8 - 1 + 1 / 8);
    expect(grid.value(2, 1, 0)).toBe(Math.fround(8.2));
    expect(grid.value(2, 1, 1)).toBe(-38);
    expect(Number.isNaN(grid.value(0, 3, 0))).toBe(true);
    expect(Array.from(grid.record(2, 1))).toEqual([Math.fround(8.2), -38]);
  });

  it("hands out views over the file bytes, not copies", () => {
    const rec = grid.record(1, 2);
    expect(rec.buffer).toBe(bytes.buffer);
    expect(grid.values.buffer).toBe(bytes.buffer);
    expect(grid.cellLats.buffer).toBe(bytes.buffer);
    const copy = bytes.slice();
    const g2 = openDroughtGrid(copy);
    g2.values[0] = 42;
    expect(new Float32Array(copy.buffer, copy.byteLength - 96, 1)[0]).toBe(42);
  });

  it("counts valid cells per month and the latest valid month", () => {
    expect([0, 1, 2, 3].map((m) => grid.monthValidCount(m))).toEqual([3, 3, 3, 1]);
    expect(grid.monthValidCount(3, 0)).toBe(0);
    expect(grid.monthValidCount(3, 1)).toBe(1);
    expect(grid.monthValidCount(1, 0)).toBe(3);
    expect(grid.latestValidMonth).toBe(monthIndex(1991, 2));
  });

  it("reads a file written to disk through readFileSync", () => {
    const dir = mkdtempSync(join(tmpdir(), "drgrid-"));
    try {
      const path = join(dir, "drought-grid.bin");
      writeFileSync(path, bytes);
      const g = openDroughtGrid(readFileSync(path));
      expect(g.value(2, 1, 0)).toBe(Math.fround(8.2));
      expect(g.nearestCell(18, 99).cell).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("copies once when the bytes are not 8-byte aligned", () => {
    const shifted = new Uint8Array(bytes.byteLength + 4);
    shifted.set(bytes, 4);
    const g = openDroughtGrid(shifted.subarray(4));
    expect(g.value(0, 0, 1)).toBe(-0.875);
    expect(g.values.buffer).not.toBe(shifted.buffer);
  });

  it("latestValidMonth is null when everything is NaN", () => {
    const d = smallGrid();
    d.values.fill(NaN);
    expect(openDroughtGrid(writeDroughtGrid(d)).latestValidMonth).toBe(null);
  });

  it("rejects out-of-range accessors", () => {
    expect(() => grid.record(3, 0)).toThrow("cell 3 is outside 0..2");
    expect(() => grid.record(0, 4)).toThrow("month offset 4 is outside 0..3");
    expect(() => grid.value(0, 0, 2)).toThrow("index number 2 is outside 0..1");
    expect(() => grid.nearestCell(91, 0)).toThrow("invalid coordinates");
  });
});

describe("drought-grid errors", () => {
  const bytes = writeDroughtGrid(smallGrid());
  const errorOf = (b: Uint8Array): DroughtGridFormatError => {
    try {
      openDroughtGrid(b);
    } catch (err) {
      return err as DroughtGridFormatError;
    }
    throw new Error("expected openDroughtGrid to throw");
  };

  it("wrong magic", () => {
    const b = bytes.slice();
    b[7] = 0x39; // "DRGRID09"
    const err = errorOf(b);
    expect(err).toBeInstanceOf(DroughtGridFormatError);
    expect(err.code).toBe("BAD_MAGIC");
    expect(err.message).toBe('drought-grid: wrong magic "DRGRID09", expected "DRGRID01"');
  });

  it("unsupported version", () => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(8, 2, true);
    const err = errorOf(b);
    expect(err.code).toBe("UNSUPPORTED_VERSION");
    expect(err.message).toBe("drought-grid: unsupported format version 2, this reader reads 1");
  });

  it("unsupported value encoding", () => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(12, 7, true);
    expect(errorOf(b).code).toBe("UNSUPPORTED_ENCODING");
  });

  it("truncated file and truncated header", () => {
    const err = errorOf(bytes.slice(0, bytes.byteLength - 8));
    expect(err.code).toBe("TRUNCATED");
    expect(err.message).toBe(`drought-grid: file has ${bytes.byteLength - 8} bytes, its header needs ${bytes.byteLength}`);
    expect(errorOf(bytes.slice(0, 40)).code).toBe("TRUNCATED");
  });

  it("inconsistent sizes: counts that do not match the declared length, trailing bytes", () => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(20, 5, true); // nMonths 4 -> 5
    const err = errorOf(b);
    expect(err.code).toBe("INCONSISTENT");
    expect(err.message).toBe("drought-grid: header says 392 bytes but its counts give 432");
    const longer = new Uint8Array(bytes.byteLength + 8);
    longer.set(bytes);
    expect(errorOf(longer).message).toBe("drought-grid: file has 8 bytes after the last section");
  });

  it("a damaged spatial index", () => {
    const b = bytes.slice();
    b[72 + 32 + 8 + 16 + 24 + 24 + 8] = 0; // kdbush magic byte 0xdb
    const err = errorOf(b);
    expect(err.code).toBe("BAD_INDEX");
  });

  it("the writer rejects inconsistent input", () => {
    const d = smallGrid();
    d.values = new Float32Array(5);
    expect(() => writeDroughtGrid(d)).toThrow("drought-grid: values has 5 numbers, expected nCells*nMonths*nIndices = 24");
    const e = smallGrid();
    e.countries = ["TH"];
    expect(() => writeDroughtGrid(e)).toThrow('country code "TH" is not 3 upper-case ASCII letters');
    const f = smallGrid();
    f.indexNames = ["spei3", "spei3"];
    expect(() => writeDroughtGrid(f)).toThrow("index names must be unique");
    const g = smallGrid();
    g.cellCountry[1] = 2;
    expect(() => writeDroughtGrid(g)).toThrow("cell 1 has country code number 2 outside the table");
  });
});

describe("drought-grid value range (finite z within what an index can give, NaN missing, ±Inf refused)", () => {
  const valuesStart = (b: Uint8Array) => b.byteLength - 3 * 4 * 2 * 4; // the values are the last section
  const withValue = (record: number, k: number, v: number): Uint8Array => {
    const b = writeDroughtGrid(smallGrid()).slice();
    new DataView(b.buffer).setFloat32(valuesStart(b) + (record * 2 + k) * 4, v, true);
    return b;
  };

  it("the reader refuses 1e30, −39 and ±Inf with OUT_OF_RANGE, naming index, cell and month", () => {
    let err: unknown;
    try {
      openDroughtGrid(withValue(1 * 4 + 2, 1, 1e30)); // cell 1, 1991-01, spi1
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DroughtGridFormatError);
    expect((err as DroughtGridFormatError).code).toBe("OUT_OF_RANGE");
    expect((err as Error).message).toBe(
      "drought-grid: value 1e+30 of spi1 at cell 1 (id 1002), 1991-01 is outside [-38.4674, 8.2095] (the values its computation can give; NaN is missing, ±Inf never written)",
    );
    expect(() => openDroughtGrid(withValue(0, 0, -39))).toThrow(/value -39 of spei3 at cell 0 \(id 1001\), 1990-11 is outside \[-38\.4674, 8\.2095\]/);
    // Issue 39: a grid value of 30 or −Inf loaded under the old ±40 rule.
    expect(() => openDroughtGrid(withValue(0, 0, 30))).toThrow(/value 30 of spei3 .* is outside/);
    expect(() => openDroughtGrid(withValue(0, 1, -Infinity))).toThrow(/value -Infinity of spi1 .* is outside/);
    expect(() => openDroughtGrid(withValue(0, 1, Infinity))).toThrow(/value Infinity of spi1 .* is outside/);
  });

  it("accepts the range's ends as float32 stores them: Z_MIN and Z_MAX", () => {
    expect(openDroughtGrid(withValue(0, 0, Z_MIN)).value(0, 0, 0)).toBe(Math.fround(Z_MIN));
    expect(openDroughtGrid(withValue(0, 1, Z_MAX)).value(0, 0, 1)).toBe(Math.fround(Z_MAX));
  });

  it("refuses validity counts that do not match the values (they decide the latest valid month)", () => {
    const b = withValue(0 * 4 + 3, 0, 0.5); // cell 0's last month spei3 was NaN: now a value the counts miss
    expect(() => openDroughtGrid(b)).toThrow("drought-grid: valid-cell counts of 1991-02 do not match the values");
  });

  it("the writer refuses what the reader would refuse", () => {
    const d = smallGrid();
    d.values[5] = 1e30;
    expect(() => writeDroughtGrid(d)).toThrow("drought-grid: value 1e+30 of spi1 at cell 0 is outside [-38.4674, 8.2095]");
    d.values[5] = -Infinity;
    expect(() => writeDroughtGrid(d)).toThrow("drought-grid: value -Infinity of spi1 at cell 0 is outside [-38.4674, 8.2095]");
  });

  it("a paged open checks the values too", () => {
    const path = join(mkdtempSync(join(tmpdir(), "grid-range-")), "g.bin");
    writeFileSync(path, withValue(2 * 4, 0, -1e30));
    expect(() => openDroughtGridFile(path, { residentLimitBytes: 100 })).toThrow(/value -1e\+30 of spei3 at cell 2 \(id 2001\), 1990-11 is outside \[-38\.4674, 8\.2095\]/);
    rmSync(path);
  });
});

describe("interleaveIndices", () => {
  it("turns per-index [cell][month] arrays into [cell][month][index] records", () => {
    const a = new Float32Array([1, 2, 3, 4]);
    const b = new Float32Array([10, 20, 30, 40]);
    expect(Array.from(interleaveIndices([a, b], 2, 2))).toEqual([1, 10, 2, 20, 3, 30, 4, 40]);
    expect(() => interleaveIndices([a, new Float32Array(3)], 2, 2)).toThrow("array of 3 values, expected 4");
  });
});

describe("haversineKm", () => {
  it("one degree of latitude is 111.195 km on the mean-radius sphere", () => {
    expect(haversineKm(0, 100, 1, 100)).toBeCloseTo((6371.0088 * Math.PI) / 180, 9);
    // Bangkok Metropolis -> Chiang Mai stations, against the spherical law of cosines (fine at this distance)
    const r = Math.PI / 180;
    const cosines = 6371.0088 * Math.acos(Math.sin(13.733 * r) * Math.sin(18.783 * r) + Math.cos(13.733 * r) * Math.cos(18.783 * r) * Math.cos((100.567 - 98.983) * r));
    expect(haversineKm(13.733, 100.567, 18.783, 98.983)).toBeCloseTo(cosines, 6);
    expect(cosines).toBeCloseTo(586.4, 1);
  });
});

describe("nearestCell is the true great-circle nearest", () => {
  function bruteForce(lats: Float64Array, lngs: Float64Array, lat: number, lng: number): { cell: number; distanceKm: number } {
    let best = -1;
    let bestKm = Infinity;
    for (let i = 0; i < lats.length; i++) {
      const d = haversineKm(lat, lng, lats[i], lngs[i]);
      if (d < bestKm) {
        bestKm = d;
        best = i;
      }
    }
    return { cell: best, distanceKm: bestKm };
  }

  it("on a 0.25° Thai-like grid with holes, for 1,000 random points in and around it", () => {
    const rand = rng(7);
    const lats: number[] = [];
    const lngs: number[] = [];
    for (let lat = 5.625; lat < 20.5; lat += 0.25) {
      for (let lng = 97.375; lng < 105.7; lng += 0.25) if (rand() < 0.6) { lats.push(lat); lngs.push(lng); }
    }
    const la = Float64Array.from(lats);
    const ln = Float64Array.from(lngs);
    const grid = gridOf(la, ln, 0.25);
    for (let i = 0; i < 1000; i++) {
      const lat = 2 + rand() * 22;
      const lng = 94 + rand() * 15;
      const got = grid.nearestCell(lat, lng);
      const want = bruteForce(la, ln, lat, lng);
      expect(got.distanceKm).toBe(want.distanceKm);
      expect(got.cell).toBe(want.cell);
    }
  });

  it("on scattered global cells, near the poles and across the antimeridian", () => {
    const rand = rng(11);
    const n = 300;
    const la = Float64Array.from({ length: n }, () => Math.asin(2 * rand() - 1) / (Math.PI / 180));
    const ln = Float64Array.from({ length: n }, () => -180 + 360 * rand());
    const grid = gridOf(la, ln, 0.25);
    for (let i = 0; i < 1000; i++) {
      const lat = i < 100 ? (i % 2 ? 1 : -1) * (85 + 5 * rand()) : Math.asin(2 * rand() - 1) / (Math.PI / 180);
      const lng = i >= 100 && i < 200 ? (i % 2 ? 179.9 : -179.9) : -180 + 360 * rand();
      const got = grid.nearestCell(lat, lng);
      const want = bruteForce(la, ln, lat, lng);
      expect(got.distanceKm).toBe(want.distanceKm);
      expect(got.cell).toBe(want.cell);
    }
  });
});

describe("openDroughtGridFile", () => {
  it("reads small files whole and large files paged, with the same answers", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { openDroughtGridFile, writeDroughtGrid: write } = await import("../../formats/drought-grid.ts");
    const n = 50;
    const nMonths = 7;
    const names = ["spei1", "spi1"];
    const values = new Float32Array(n * nMonths * names.length).map((_, i) => (i % 13) - 6 + i / 1000);
    values[6] = -38;
    values[5] = NaN;
    const bytes = write({
      firstMonth: 2000 * 12, nMonths, indexNames: names, baselineStart: 2000 * 12, baselineEnd: 2000 * 12 + 6,
      resolutionDeg: 0.5, cellIds: Uint32Array.from({ length: n }, (_, i) => i),
      cellLats: Float64Array.from({ length: n }, (_, i) => 5 + (i % 10) * 0.5), cellLngs: Float64Array.from({ length: n }, (_, i) => 97 + Math.floor(i / 10) * 0.5),
      countries: ["THA"], cellCountry: new Uint8Array(n), values,
    });
    const path = join(mkdtempSync(join(tmpdir(), "grid-file-")), "g.bin");
    writeFileSync(path, bytes);
    const whole = openDroughtGridFile(path);
    const paged = openDroughtGridFile(path, { residentLimitBytes: 100 });
    expect(whole.values.length).toBe(values.length);
    expect(paged.values.length).toBe(0);
    for (let c = 0; c < n; c++) {
      for (let m = 0; m < nMonths; m++) {
        expect(Array.from(paged.record(c, m))).toEqual(Array.from(whole.record(c, m)));
        expect(paged.value(c, m, 1)).toEqual(whole.value(c, m, 1));
      }
    }
    expect(paged.nearestCell(7.1, 98.2)).toEqual(whole.nearestCell(7.1, 98.2));
    expect(paged.monthValidCount(0)).toBe(whole.monthValidCount(0));
    writeFileSync(path, bytes.subarray(0, bytes.length - 4));
    expect(() => openDroughtGridFile(path, { residentLimitBytes: 100 })).toThrow(/TRUNCATED|needs/);
  });
});
