// tiles-index.json: what a drought version's tile build produced (tiles/build-tiles.ts writes it). Read and
// shape-checked when the version loads, so the tiles router never meets a broken index (docs/methods/tiles.md).
import { z } from "zod";
import type { TilesIndex } from "../tiles/build-tiles.ts";
import { checkJson } from "./json-shape.ts";

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM");
const zoom = z.int().min(0).max(30);
const lng = z.number().min(-180).max(180);
const lat = z.number().min(-90).max(90);

const tilesIndexSchema = z.object({
  version: z.literal(1),
  indices: z.array(z.string().regex(/^[a-z0-9]+$/)),
  months: z.array(month).min(1, "no month: a tile build with no month has nothing to serve"),
  maxZoom: zoom,
  countriesMaxZoom: zoom,
  bbox: z.tuple([lng, lat, lng, lat]).refine(([w, s, e, n]) => w <= e && s <= n, "bbox must be [west, south, east, north]"),
  archives: z.array(
    z.object({
      name: z.string().regex(/^tiles-[a-z0-9-]+\.pmtiles$/, "must be tiles-<name>.pmtiles"),
      tiles: z.int().min(0),
      bytes: z.int().min(0),
    }),
  ),
});

/**
 * Parses tiles-index.json; throws with the file name and the first problem. `artifacts` (the manifest's file
 * list with sizes) must hold every archive the index names, with the size the index gives.
 */
export function readTilesIndex(text: string, artifacts: Record<string, { bytes: number }>, source = "tiles-index.json"): TilesIndex {
  let index: z.infer<typeof tilesIndexSchema>;
  try {
    index = checkJson(text, tilesIndexSchema);
  } catch (err) {
    throw new Error(`${source}: ${(err as Error).message}`);
  }
  for (const a of index.archives) {
    const listed = artifacts[a.name];
    if (listed === undefined) throw new Error(`${source}: archive ${a.name} is not a file of the version`);
    if (listed.bytes !== a.bytes) throw new Error(`${source}: archive ${a.name} has ${listed.bytes} bytes, the index says ${a.bytes}`);
  }
  return index as TilesIndex;
}
