// The tile settings of the suite's own drought build (test/global-setup.ts), which the tests that compare with it or
// reuse it unchanged build with too. Fewer months and zooms than production: the suite needs tiles, not all of them;
// zoom 7 (the map overzooms above it) instead of 8 takes three quarters of the tiles away.
export const SUITE_TILE_SETTINGS = { TILE_MONTHS: "2", TILE_MAX_ZOOM: "7" } as const;
