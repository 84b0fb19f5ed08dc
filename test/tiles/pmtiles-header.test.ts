// The header check reads the header's own bytes even when they are a view into a larger buffer (a Buffer's subarray;
// readFileSync puts a file under 4 KiB in Node's shared pool at some offset): the nightly's verify of a small raster
// archive read the pool's first bytes instead and refused the archive ("spec version 49").
import { describe, expect, it } from "vitest";
import { checkPmtilesHeader, PMTILES_HEADER_BYTES } from "../../formats/pmtiles-header.ts";
import { PmtilesWriter } from "../../tiles/pmtiles-writer.ts";

describe("checkPmtilesHeader", () => {
  it("reads the same header from an archive at offset 0 and inside a larger buffer", () => {
    const w = new PmtilesWriter({ tileType: "png", tileCompression: "none", bbox: [100, 13, 101.5, 14], minZoom: 0, maxZoom: 3, metadata: { name: "t" } });
    w.add(0, 0, 0, new TextEncoder().encode("zero"));
    w.add(3, 6, 3, new TextEncoder().encode("deep"));
    const archive = w.finish();
    const alone = checkPmtilesHeader(archive.subarray(0, PMTILES_HEADER_BYTES), archive.length);
    const big = Buffer.alloc(archive.length + 1000, 0x31); // "1": what the pool held before the archive
    big.set(archive, 1000);
    const view = big.subarray(1000, 1000 + archive.length);
    const inside = checkPmtilesHeader(view.subarray(0, PMTILES_HEADER_BYTES), view.length);
    expect(inside).toEqual(alone);
    expect(inside).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 3, numAddressedTiles: 2 });
  });
});
