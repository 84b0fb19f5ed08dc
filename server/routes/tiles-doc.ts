// The OpenAPI operations of the tiles routes (server/routes/tiles.ts registers their handlers on its own router; a
// test checks that the router's paths and these agree): a key in X-API-Key but for the legend and the index, never
// rate-limited.
import { errorResponses, ok, type Operation } from "../openapi-parts.ts";
import { successEnvelope } from "../schemas.ts";
import { legendData, tileJson, tilesIndexData } from "../schemas-tiles.ts";
import { MAX_RENDER_ZOOM, TILE_INDICES } from "../../tiles/tilesets.ts";

const TILESET_PATTERN = `^(drought-(${TILE_INDICES.join("|")})(-\\d{4}-(0[1-9]|1[0-2]))?|provinces|cells|countries)$`;
const tileParameters = [
  {
    name: "tileset",
    in: "path",
    required: true,
    description:
      `drought-{index} (raster PNG; index ${TILE_INDICES.join(", ")}; month from ?month, default the data's latest valid month), ` +
      "drought-{index}-{YYYY-MM} (the month in the name, as TileJSON tile URLs give it), or the vector tilesets provinces, cells, countries (MVT)",
    schema: { type: "string", pattern: TILESET_PATTERN },
  },
  { name: "z", in: "path", required: true, description: `zoom: 0–${MAX_RENDER_ZOOM} for rasters, 0–22 for vector tiles`, schema: { type: "integer", minimum: 0, maximum: 22 } },
  { name: "x", in: "path", required: true, description: "column, 0..2^z-1 (XYZ scheme, Web Mercator)", schema: { type: "integer", minimum: 0 } },
  { name: "y", in: "path", required: true, description: "row, 0..2^z-1 from the north", schema: { type: "integer", minimum: 0 } },
  { name: "ext", in: "path", required: true, description: "png for drought tilesets, mvt for vector ones; the other is 404", schema: { type: "string", enum: ["png", "mvt"] } },
  { name: "month", in: "query", required: false, description: "YYYY-MM for a month-less drought tileset; another format is 400, a month without data 404", schema: { type: "string", pattern: "^\\d{4}-\\d{2}$" } },
];
const TILE_ERRORS = ["400", "401", "404", "405", "408", "431", "500", "503"] as const;
const TILE_404 =
  "NOT_FOUND: unknown tileset (details.tilesets lists them), a month without data (details.firstMonth, lastMonth), or the " +
  "other extension than the tileset's";
const tileResponses = (versioned: boolean) => ({
  "200": {
    description: "the tile: PNG (drought) or MVT 2.1 (vector; Content-Encoding gzip when accepted); ETag",
    headers: { "Cache-Control": { schema: { type: "string" }, description: versioned ? "private, max-age=31536000, immutable" : "private, no-cache (revalidate by ETag)" } },
    content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } }, "application/vnd.mapbox-vector-tile": { schema: { type: "string", contentMediaType: "application/vnd.mapbox-vector-tile" } } },
  },
  "204": { description: "no data in this tile (outside the grid, or sea)" },
  "304": { description: "not modified (If-None-Match)" },
  ...errorResponses(TILE_ERRORS, {
    "404": versioned ? `${TILE_404}; or a data version no longer served (details.current names the served one)` : TILE_404,
    "400": "VALIDATION_ERROR: z, x or y outside the zoom's range, or a month that is not YYYY-MM",
    "503": "SERVICE_UNAVAILABLE: drought data not loaded yet, or (with Retry-After) too many tiles rendered on request at once",
  }),
});

/** The tiles routes by OpenAPI path. */
function tileOperations(): Record<string, { get: Operation }> {
  const keyed = { security: [{ ApiKey: [] }], "x-rate-limited": false };
  const notModified = { "304": { description: "not modified (If-None-Match)" } };
  return {
    "/tiles/legend.json": {
      get: {
        operationId: "tilesLegend",
        summary: "The colour classes of the drought tiles (no key)",
        security: [],
        responses: { "200": ok("Legend", { "application/json": successEnvelope(legendData) }), ...notModified, ...errorResponses(["405", "408", "431", "500"]) },
      },
    },
    "/tiles/index.json": {
      get: {
        operationId: "tilesIndex",
        summary: "The tilesets of the served version: indices, months (default, first, last, precomputed) and a catalog with each TileJSON URL (no key)",
        security: [],
        responses: { "200": ok("Tiles index", { "application/json": successEnvelope(tilesIndexData) }), ...notModified, ...errorResponses(["405", "408", "431", "500", "503"]) },
      },
    },
    "/tiles/{tileset}.json": {
      get: {
        operationId: "tileJson",
        summary: "TileJSON 3.0 of a tileset: versioned tile URLs, zooms, bounds and centre from the archive, attribution, vector layers",
        ...keyed,
        parameters: [tileParameters[0], tileParameters[5]],
        responses: {
          "200": ok("TileJSON", { "application/json": tileJson }),
          ...notModified,
          ...errorResponses(TILE_ERRORS, { "404": TILE_404.replace(", or the other extension than the tileset's", ""), "400": "VALIDATION_ERROR: a month that is not YYYY-MM" }),
        },
      },
    },
    "/tiles/{tileset}/{z}/{x}/{y}.{ext}": {
      get: {
        operationId: "tile",
        summary: "A tile of the served version (revalidated: no-cache and ETag)",
        description:
          "Precomputed months are read from the version's PMTiles archives, other months rendered on request (up to zoom " +
          `${MAX_RENDER_ZOOM}; those wait for an admission slot, 503 with Retry-After past the queue). Tiles are not counted against the plan.`,
        ...keyed,
        parameters: tileParameters,
        responses: tileResponses(false),
      },
    },
    "/tiles/v/{version}/{tileset}/{z}/{x}/{y}.{ext}": {
      get: {
        operationId: "tileVersioned",
        summary: "A tile of a named data version (immutable; TileJSON tile URLs use this form)",
        ...keyed,
        parameters: [{ name: "version", in: "path", required: true, description: "the data version (GET /tiles/index.json, X-Data-Version)", schema: { type: "string" } }, ...tileParameters],
        responses: tileResponses(true),
      },
    },
    "/tiles/archives/{file}": {
      get: {
        operationId: "tileArchive",
        summary: "A PMTiles archive of the served version, for clients that read PMTiles themselves (HTTP Range)",
        description: "Range → 206, outside the file → 416; If-None-Match → 304; If-Match that does not hold → 412. ETag from the file's size and time.",
        ...keyed,
        parameters: [
          { name: "file", in: "path", required: true, description: "an archive the tiles index lists (tiles-provinces.pmtiles, tiles-drought-spei1-2018-10.pmtiles, …)", schema: { type: "string", pattern: "^tiles-[a-z0-9-]+\\.pmtiles$" } },
          { name: "Range", in: "header", required: false, schema: { type: "string" }, description: "bytes=START-END" },
        ],
        responses: {
          "200": { description: "the archive", content: { "application/vnd.pmtiles": { schema: { type: "string", contentMediaType: "application/vnd.pmtiles" } } } },
          "206": { description: "the requested byte range" },
          ...notModified,
          ...errorResponses([...TILE_ERRORS, "412", "416"], { "404": "NOT_FOUND: no such archive in the served version" }),
        },
      },
    },
  };
}

export const TILE_OPERATIONS = tileOperations();
