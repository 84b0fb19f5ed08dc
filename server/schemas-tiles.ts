// The JSON answers of the tiles routes (server/routes/tiles.ts): the legend, the tiles index and TileJSON 3.0. The
// router's bodies are typed by these schemas and openapi.ts documents them; tiles themselves are PNG and MVT bytes.
import { z } from "zod";

export const legendData = z.object({
  title: z.string(),
  appliesTo: z.array(z.string()).describe("the indices the classes colour"),
  classes: z.array(
    z.object({
      id: z.int().describe("the class number a raster pixel carries"),
      key: z.string().describe("none, D4..D0, N, W0..W4"),
      label: z.string(),
      min: z.number().nullable().describe("wet classes: value ≥ min; null: open below"),
      max: z.number().nullable().describe("dry classes: value ≤ max; null: open above"),
      rgba: z.array(z.int().min(0).max(255)).length(4),
      hex: z.string(),
    }),
  ),
  notes: z.string(),
});

export const tilesIndexData = z.object({
  version: z.string().describe("the served drought version (tile URLs of TileJSON carry it)"),
  indices: z.array(z.string()),
  defaultMonth: z.string().describe("YYYY-MM: the month a drought tileset without ?month shows (the grid's latest valid month)"),
  firstMonth: z.string(),
  lastMonth: z.string(),
  precomputedMonths: z.array(z.string()).describe("months whose tiles are read from the version's archives; other months are rendered on request"),
  archivesDeferred: z.boolean().describe("true while the version was published without its tile archives (make serve's first run): every tile is rendered on request until the complete version is published"),
  tilesets: z.array(z.string()),
  catalog: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(["raster", "vector"]),
      format: z.enum(["png", "mvt"]),
      description: z.string(),
      tilejson: z.string().describe("absolute URL of the tileset's TileJSON"),
    }),
  ),
});

export const tileJson = z
  .object({
    tilejson: z.literal("3.0.0"),
    name: z.string().describe("the tileset, drought ones with their month (drought-spei1-2018-10)"),
    version: z.string(),
    attribution: z.string(),
    scheme: z.literal("xyz"),
    tiles: z.array(z.string()).describe("the versioned tile URL template: /tiles/v/{version}/{tileset}/{z}/{x}/{y}.png|mvt, immutable"),
    minzoom: z.int(),
    maxzoom: z.int(),
    bounds: z.array(z.number()).length(4),
    center: z.array(z.number()).length(3),
    description: z.string().optional().describe("raster tilesets"),
    vector_layers: z
      .array(z.object({ id: z.string(), fields: z.record(z.string(), z.enum(["String", "Number"])), minzoom: z.int(), maxzoom: z.int() }))
      .optional()
      .describe("vector tilesets: the layer and its properties"),
  })
  .describe("TileJSON 3.0.0 (https://github.com/mapbox/tilejson-spec)");

export type LegendData = z.infer<typeof legendData>;
export type TilesIndexData = z.infer<typeof tilesIndexData>;
export type TileJson = z.infer<typeof tileJson>;
