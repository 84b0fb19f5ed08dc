import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { PMTiles, TileType } from "pmtiles";
import { CLASS_RGBA, COLOUR_CLASSES, colourClassOf, legend } from "../../tiles/colour-scale.ts";
import { encodeIndexedPng } from "../../tiles/png-palette.ts";
import { PmtilesWriter } from "../../tiles/pmtiles-writer.ts";
import { BufferSource } from "../../tiles/pmtiles-source.ts";
import { cellClasses, cellLattice, encodeClassTilePng, renderClassTile } from "../../tiles/raster.ts";
import { latToTileY, lngToTileX, tileBBox, tileRange } from "../../tiles/tile-math.ts";
import { CELLS, FEB, JAN, writeFixture } from "./fixture.ts";

/** Tile and pixel over a point at zoom z. */
function pixelOf(lat: number, lng: number, z: number) {
  const fx = lngToTileX(lng, z);
  const fy = latToTileY(lat, z);
  const x = Math.floor(fx);
  const y = Math.floor(fy);
  return { x, y, px: Math.floor((fx - x) * 256), py: Math.floor((fy - y) * 256) };
}

describe("colour classes", () => {
  it("follow the D-level thresholds on the dry side and mirror them on the wet side", () => {
    const keyOf = (v: number) => COLOUR_CLASSES[colourClassOf(v)].key;
    expect([-2.0, -1.99, -1.6, -1.3, -0.8, -0.5, -0.49, 0.49, 0.5, 0.8, 1.3, 1.6, 2.0, -Infinity, Infinity].map(keyOf)).toEqual(
      ["D4", "D3", "D3", "D2", "D1", "D0", "N", "N", "W0", "W1", "W2", "W3", "W4", "D4", "W4"],
    );
    expect(colourClassOf(NaN)).toBe(0);
    expect(COLOUR_CLASSES[1].hex).toBe("#730000");
    expect(COLOUR_CLASSES[5].hex).toBe("#FFFF00");
    expect([...CLASS_RGBA.subarray(0, 8)]).toEqual([0, 0, 0, 0, 0x73, 0, 0, 255]);
    const l = legend(["spei1"]);
    expect(l.classes.map((c) => c.key)).toEqual(["none", "D4", "D3", "D2", "D1", "D0", "N", "W0", "W1", "W2", "W3", "W4"]);
    expect(l.classes[2]).toMatchObject({ min: -2.0, max: -1.6, rgba: [0xe6, 0, 0, 255] });
  });
});

describe("tile math", () => {
  it("inverts lng/lat ↔ tile coordinates and covers a bbox", () => {
    const [w, s, e, n] = tileBBox(8, 199, 120);
    expect(w).toBeCloseTo(99.84375, 10);
    expect(e).toBeCloseTo(101.25, 10);
    expect(latToTileY(n, 8)).toBeCloseTo(120, 9);
    expect(latToTileY(s, 8)).toBeCloseTo(121, 9);
    expect(tileRange([100, 13, 101.5, 14], 0)).toEqual({ minX: 0, maxX: 0, minY: 0, maxY: 0 });
    expect(tileRange([100, 13, 101.5, 14], 8)).toEqual({ minX: 199, maxX: 200, minY: 117, maxY: 118 });
  });
});

describe("raster tiles", () => {
  const fx = writeFixture();
  const lattice = cellLattice(fx.grid);
  const feb = cellClasses(fx.grid, fx.grid.monthOffset(FEB), 0);

  it("builds the cell lattice over the cell squares", () => {
    expect(lattice).toMatchObject({ west: 100, south: 13, nRows: 2, nCols: 3, bbox: [100, 13, 101.5, 14] });
    expect([...lattice.cellAt]).toEqual([0, 1, 4, 2, 3, 5]);
    expect([...feb]).toEqual([1, 2, 3, 4, 6, 11]);
    expect([...cellClasses(fx.grid, fx.grid.monthOffset(JAN), 0)]).toEqual([6, 6, 6, 6, 6, 6]);
  });

  it("gives the pixel over each cell that cell's class, and PNG colour, decoded by sharp", async () => {
    for (let c = 0; c < CELLS.length; c++) {
      const { x, y, px, py } = pixelOf(CELLS[c][0], CELLS[c][1], 9);
      const tile = renderClassTile(lattice, feb, 9, x, y)!;
      expect(tile[py * 256 + px]).toBe(feb[c]);
      const { data, info } = await sharp(encodeClassTilePng(tile)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      expect(info).toMatchObject({ width: 256, height: 256, channels: 4 });
      const o = (py * 256 + px) * 4;
      expect([...data.subarray(o, o + 4)]).toEqual([...COLOUR_CLASSES[feb[c]].rgba]);
    }
    // Cell 0 (SPEI-1 −2.5) is D4 #730000; a pixel west of the data is transparent.
    const { x, y, px, py } = pixelOf(13.25, 100.25, 6);
    const { data } = await sharp(encodeClassTilePng(renderClassTile(lattice, feb, 6, x, y)!)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray((py * 256 + px) * 4, (py * 256 + px) * 4 + 4)]).toEqual([0x73, 0, 0, 255]);
    const west = pixelOf(13.25, 99.9, 6);
    expect(west.x).toBe(x);
    expect(data[(west.py * 256 + west.px) * 4 + 3]).toBe(0);
  });

  it("returns null for a tile without data", () => {
    expect(renderClassTile(lattice, feb, 8, 10, 10)).toBeNull();
  });

  it("rejects a PNG whose pixel count does not match", () => {
    expect(() => encodeIndexedPng(new Uint8Array(10), 4, 4, CLASS_RGBA)).toThrow("expected 16 pixels, got 10");
  });
});

describe("PMTiles writer", () => {
  it("writes an archive that the pmtiles reader reads back: header, metadata, tiles, runs of equal tiles", async () => {
    const w = new PmtilesWriter({ tileType: "png", tileCompression: "none", bbox: [100, 13, 101.5, 14], minZoom: 0, maxZoom: 3, metadata: { name: "t", answer: 42 } });
    const bytes = (s: string) => new TextEncoder().encode(s);
    w.add(0, 0, 0, bytes("zero"));
    w.add(1, 0, 1, bytes("same")); // Hilbert ids 1/0/0 = 1, 1/0/1 = 2: one entry with run length 2
    w.add(1, 0, 0, bytes("same"));
    w.add(3, 6, 3, bytes("deep"));
    expect(() => w.add(4, 0, 0, bytes("x"))).toThrow("tile 4/0/0 is outside zooms 0-3");
    expect(() => w.add(0, 0, 0, bytes("x"))).toThrow("tile 0/0/0 added twice");
    const archive = w.finish();
    const p = new PMTiles(new BufferSource(archive));
    const h = await p.getHeader();
    expect(h).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 3, tileType: TileType.Png, numAddressedTiles: 4, numTileEntries: 3, numTileContents: 3, clustered: true });
    expect(h.minLon).toBeCloseTo(100, 6);
    expect(h.maxLat).toBeCloseTo(14, 6);
    expect(await p.getMetadata()).toEqual({ name: "t", answer: 42 });
    const text = async (z: number, x: number, y: number) => {
      const t = await p.getZxy(z, x, y);
      return t ? new TextDecoder().decode(t.data) : null;
    };
    expect([await text(0, 0, 0), await text(1, 0, 0), await text(1, 0, 1), await text(3, 6, 3), await text(1, 1, 0)]).toEqual(["zero", "same", "same", "deep", null]);
  });

  it("moves entries into leaf directories when the root would pass 16 KiB", async () => {
    const w = new PmtilesWriter({ tileType: "mvt", tileCompression: "none", bbox: [-180, -85, 180, 85], minZoom: 8, maxZoom: 8, metadata: {} });
    // 30 000 distinct tiles with pseudo-random lengths defeat the directory compression.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 30000; i++) {
      const b = new Uint8Array(1 + Math.floor(rand() * 300));
      new DataView(b.buffer).setUint8(0, i % 251);
      b[b.length - 1] = i >> 8;
      w.add(8, i % 256, Math.floor(i / 256), b);
    }
    const archive = w.finish();
    const dv = new DataView(archive.buffer);
    const rootLength = Number(dv.getBigUint64(16, true));
    const leavesLength = Number(dv.getBigUint64(48, true));
    expect(127 + rootLength).toBeLessThanOrEqual(16384);
    expect(leavesLength).toBeGreaterThan(0);
    const p = new PMTiles(new BufferSource(archive));
    for (const i of [0, 1, 12345, 29999]) {
      const t = await p.getZxy(8, i % 256, Math.floor(i / 256));
      expect(t).toBeDefined();
      const b = new Uint8Array(t!.data);
      expect([b[0], b[b.length - 1]]).toEqual([i % 251, (i >> 8) & 255]);
    }
  });
});
