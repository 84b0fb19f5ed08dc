// What a drought version holds: the names of its core files and the index layers of the grid, the summaries and the answers.

/** Index layers of the grid, in record order. */
export const GRID_INDICES = ["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"] as const;
/** Index layers of the province summaries. */
export const PROVINCE_INDICES = GRID_INDICES;
/** The indices a drought answer carries: the default month has all of them (latestServedMonth). */
export const SERVED_INDICES = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;

export const ARTIFACT_FILES = {
  grid: "drought-grid.bin",
  provinceSummaries: "province-summaries.bin",
  provinceIndex: "province-index.bin",
  provinces: "provinces.json",
  coverage: "coverage-mask.bin",
  report: "build-report.json",
} as const;
