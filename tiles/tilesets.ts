// The tilesets the tiles routes serve, by name (server/routes/tiles.ts, documented in server/openapi.ts).

/** The drought indices that have raster tilesets (drought-{index}). */
export const TILE_INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;
/** The vector tilesets (MVT). */
export const VECTOR_TILESETS = ["provinces", "cells", "countries"] as const;
/** Deepest zoom rendered on request (0.25° cells are ~1800 px wide there: deeper tiles add nothing). */
export const MAX_RENDER_ZOOM = 14;
