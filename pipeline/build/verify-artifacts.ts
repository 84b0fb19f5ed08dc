// The build's last step before it publishes a drought version: the staging directory read back in full and checked
// (issue 39). The server's load-time check (formats/version-files.ts) stays cheap — headers, footers, one pass over
// the typed arrays — so it cannot see a damaged page in the middle of an export or a tile; this step reads everything
// once, where time is cheap, and a version that fails is not published (the staging directory is discarded, `current`
// does not move, the build exits non-zero):
// - every file by the load-time check, and the version opened as the server opens it (drought-version.ts: value
//   ranges, NaN against cells used, latestValidMonth against the grid by the build's rule);
// - every PMTiles archive walked and every tile decoded (formats/pmtiles-archive.ts), each archive against
//   tiles-index.json (names, sizes, tile counts, tile types, zooms) and the index's months against the grid's default
//   month; every Parquet row group read and each value compared with the grid or the summaries it was made from,
//   every gzip stream read to its end with its row count (formats/drought-export.ts);
// - internal consistency: each grid cell in a covered square of the coverage mask;
// - with the build's inputs (`VerifyInputs`): provinces.json, province-index.bin and province-shapes.json equal to what
//   the boundary input makes, byte for byte; the summaries, the provinces' confidence and the coverage mask equal to
//   what the grid and its land cells give.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { log } from "../../lib/log.ts";
import { flattenRings, type Province } from "../../lib/geo/province-rings.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import type { ProvinceAliases } from "../../lib/province-names.ts";
import { writeCoverageMask, OUTSIDE } from "../../formats/coverage-mask.ts";
import { verifyCellExport, verifyCsvExport, verifyProvinceExport, EXPORT_FILES } from "../../formats/drought-export.ts";
import { DROUGHT_OPENED_FILES, openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { MANIFEST_FILE, type Manifest } from "../../formats/manifest.ts";
import { verifyPmtilesArchive } from "../../formats/pmtiles-archive.ts";
import { PROVINCE_SHAPES_FILE, writeProvinceShapes } from "../../formats/province-shapes.ts";
import { writeProvinceIndex, writeProvincesJson } from "../../formats/province-index.ts";
import { checkVersionFiles, DROUGHT_KIND, missingFiles } from "../../formats/version-files.ts";
import { droughtArchiveName, TILES_INDEX_FILE } from "../../tiles/build-tiles.ts";
import type { LandCells } from "../grid/land-cells.ts";
import { provinceMetadata } from "../provinces/metadata.ts";
import { summarizeProvinces } from "../provinces/summaries.ts";
import { coverageMask } from "./coverage.ts";
import { ARTIFACT_FILES } from "./layout.ts";

/** A check of the staged version failed: the build publishes nothing and fails (no fallback to another grid source). */
export class ArtifactVerificationError extends Error {
  constructor(readonly problems: string[]) {
    super(`the built version fails its verification, nothing published: ${problems.join("; ")}`);
    this.name = "ArtifactVerificationError";
  }
}

/** What the build made the version from, for the checks against it (all optional: a directory alone gets the rest). */
export interface VerifyInputs {
  /** The province boundaries (pipeline/provinces/region.ts loadRegion) and their aliases. */
  provinces?: { provinces: Province[]; aliases: readonly ProvinceAliases[] };
  /** The grid's land cells with their province weights. */
  cells?: LandCells;
}

/** The manifest fields the checks read (the body publishStaging is given). */
export type VerifyManifest = Pick<Manifest, "latestValidMonth" | "report" | "qc" | "settings"> & Partial<Pick<Manifest, "deferred" | "kind">>;

export interface VerifyReport {
  ms: number;
  files: number;
  archives: number;
  tiles: number;
  exportRows: number;
}

/** Verifies the drought version staged in `dir`; throws ArtifactVerificationError naming each file and check that fails. */
export async function verifyDroughtVersion(dir: string, body: VerifyManifest, inputs: VerifyInputs = {}): Promise<VerifyReport> {
  const t0 = performance.now();
  const artifacts = Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name !== MANIFEST_FILE)
      .sort()
      .map((name) => [name, { bytes: statSync(join(dir, name)).size, sha256: "" }]),
  );
  const manifest: Manifest = { builtAt: "", inputs: {}, ...body, manifestFormat: 1, version: basename(dir), artifacts };
  const problems = [...missingFiles(manifest, DROUGHT_KIND), ...checkVersionFiles(dir, manifest, DROUGHT_OPENED_FILES)];
  let a: DroughtArtifacts;
  try {
    a = openDroughtArtifacts(dir, manifest);
  } catch (err) {
    throw new ArtifactVerificationError([...problems, (err as Error).message]);
  }
  const report = { archives: 0, tiles: 0, exportRows: 0 };
  const check = async (what: string, fn: () => void | Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      const message = (err as Error).message;
      problems.push(message.startsWith(`${what}:`) ? message : `${what}: ${message}`);
    }
  };
  await check(ARTIFACT_FILES.coverage, () => coveredCells(a));
  if (inputs.cells) {
    const cells = inputs.cells;
    await check(ARTIFACT_FILES.coverage, () => sameBytes(join(dir, ARTIFACT_FILES.coverage), writeCoverageMask(coverageMask(cells, a.provinces.map((p) => p.country))), "the mask the land cells give"));
    await check(ARTIFACT_FILES.provinceSummaries, () => summariesOfGrid(a, cells));
    if (a.confidence) await check("confidence.bin", () => provinceConfidenceOfCells(a, cells));
  }
  if (inputs.provinces) {
    const { provinces, aliases } = inputs.provinces;
    await check(ARTIFACT_FILES.provinces, () => sameProvinces(a, provinceMetadata(provinces, aliases), writeProvincesJson(provinceMetadata(provinces, aliases)), join(dir, ARTIFACT_FILES.provinces)));
    await check(ARTIFACT_FILES.provinceIndex, () => sameRings(a, provinces, join(dir, ARTIFACT_FILES.provinceIndex)));
    await check(PROVINCE_SHAPES_FILE, () => sameBytes(join(dir, PROVINCE_SHAPES_FILE), Buffer.from(writeProvinceShapes(provinces)), "the outlines the boundary input gives"));
  }
  if (!a.deferred.includes("tiles")) {
    await check(TILES_INDEX_FILE, () => tilesIndexOfGrid(a, body, artifacts));
    for (const entry of a.tiles?.archives ?? []) await check(entry.name, () => verifyArchive(dir, a, entry, report));
  }
  if (!a.deferred.includes("exports")) {
    const cellRows = a.grid.nCells * a.grid.nMonths;
    const provinceRows = a.summaries.nProvinces * a.summaries.nMonths;
    await check(EXPORT_FILES.cellsParquet, async () => void (await verifyCellExport(join(dir, EXPORT_FILES.cellsParquet), a.grid, a.confidence)));
    await check(EXPORT_FILES.provincesParquet, async () => void (await verifyProvinceExport(join(dir, EXPORT_FILES.provincesParquet), a.summaries, a.provinces)));
    await check(EXPORT_FILES.cellsCsv, () => verifyCsvExport(join(dir, EXPORT_FILES.cellsCsv), EXPORT_FILES.cellsCsv, cellRows));
    await check(EXPORT_FILES.provincesCsv, () => verifyCsvExport(join(dir, EXPORT_FILES.provincesCsv), EXPORT_FILES.provincesCsv, provinceRows));
    report.exportRows = 2 * (cellRows + provinceRows);
  }
  if (problems.length > 0) throw new ArtifactVerificationError(problems);
  return { ms: Math.round(performance.now() - t0), files: Object.keys(artifacts).length, ...report };
}

/** The build's step: verifyDroughtVersion on the staging directory, logged with its time (a failure throws). */
export async function verifyStaged(dir: string, body: VerifyManifest, inputs: VerifyInputs): Promise<VerifyReport> {
  log.info({ stage: "verify" }, "verify…");
  const report = await verifyDroughtVersion(dir, body, inputs);
  log.info({ stage: "verify", ...report }, "verify done");
  return report;
}

/** Every cell of the grid lies in a square the coverage mask calls inside or mixed (else its point would answer 404). */
function coveredCells(a: DroughtArtifacts): void {
  const { grid, coverage } = a;
  for (let c = 0; c < grid.nCells; c++) {
    if (coverage.stateAt(grid.cellLat(c), grid.cellLng(c)) === OUTSIDE) throw new Error(`grid cell ${c} (id ${grid.cellId(c)}, ${grid.cellLat(c)}, ${grid.cellLng(c)}) lies in a square the mask calls outside`);
  }
}

function sameBytes(path: string, expected: Uint8Array, what: string): void {
  const got = readFileSync(path);
  if (got.equals(expected)) return;
  let at = 0;
  while (at < got.length && at < expected.length && got[at] === expected[at]) at++;
  throw new Error(`differs from ${what} (${got.length} bytes against ${expected.length}, first at byte ${at})`);
}

/** The summaries equal to the area-weighted means of the grid over the land cells (pipeline/provinces/summaries.ts). */
function summariesOfGrid(a: DroughtArtifacts, cells: LandCells): void {
  const { grid, summaries } = a;
  if (grid.values.length === 0) return; // a paged grid: its summaries are checked by the exports alone
  const s = summarizeProvinces({
    values: grid.values,
    nCells: grid.nCells,
    nMonths: grid.nMonths,
    nIndices: grid.nIndices,
    cellLat: grid.cellLats,
    resolutionDeg: grid.resolutionDeg,
    weights: { cell: cells.weightCell, province: cells.weightProvince, fraction: cells.weightFraction },
    nProvinces: a.provinces.length,
  });
  for (let p = 0; p < summaries.nProvinces; p++) {
    for (let m = 0; m < summaries.nMonths; m++) {
      const rec = summaries.record(p, m);
      let used = 0;
      for (let k = 0; k < summaries.nIndices; k++) {
        const i = (p * summaries.nMonths + m) * summaries.nIndices + k;
        used = Math.max(used, s.cellsUsed[i]);
        if (!Object.is(rec[k], s.means[i])) throw new Error(`${summaries.indexNames[k]} of ${a.provinces[p].code}, ${formatMonth(summaries.firstMonth + m)} is ${rec[k]}, the grid's cells give ${s.means[i]}`);
      }
      if (summaries.cellsUsed(p, m) !== used) throw new Error(`${a.provinces[p].code}, ${formatMonth(summaries.firstMonth + m)}: ${summaries.cellsUsed(p, m)} cells used, the grid has ${used}`);
    }
  }
}

/** Each province's confidence the mean of its cells' (pipeline/build/coverage.ts provinceMeanConfidence), NaN only where none has one. */
function provinceConfidenceOfCells(a: DroughtArtifacts, cells: LandCells): void {
  const conf = a.confidence!;
  const sum = new Float64Array(conf.nProvinces * conf.nMonths);
  const count = new Uint32Array(conf.nProvinces * conf.nMonths);
  for (let e = 0; e < cells.weightCell.length; e++) {
    const c = cells.weightCell[e];
    const p = cells.weightProvince[e];
    for (let m = 0; m < conf.nMonths; m++) {
      const v = conf.cell(c, m);
      if (v === null) continue;
      sum[p * conf.nMonths + m] += v;
      count[p * conf.nMonths + m]++;
    }
  }
  for (let i = 0; i < sum.length; i++) {
    const p = Math.floor(i / conf.nMonths);
    const m = i % conf.nMonths;
    const want = count[i] ? Math.fround(sum[i] / count[i]) : null;
    const got = conf.province(p, m);
    if (got !== want) throw new Error(`confidence of ${a.provinces[p].code}, ${formatMonth(conf.firstMonth + m)} is ${got ?? "none (NaN)"}, its cells give ${want ?? "none"}`);
  }
}

/** provinces.json equal to the metadata the boundary input gives (names, codes, countries, boxes, areas). */
function sameProvinces(a: DroughtArtifacts, expected: ReturnType<typeof provinceMetadata>, text: string, path: string): void {
  if (readFileSync(path, "utf8") === text) return;
  if (a.provinces.length !== expected.length) throw new Error(`${a.provinces.length} provinces, the boundary input has ${expected.length}`);
  for (let p = 0; p < expected.length; p++) {
    const got = a.provinces[p] as unknown as Record<string, unknown>;
    const want = expected[p] as unknown as Record<string, unknown>;
    const field = Object.keys(want).find((k) => JSON.stringify(got[k]) !== JSON.stringify(want[k]));
    if (field) throw new Error(`province ${p} (${String(want.code)}): ${field} ${JSON.stringify(got[field])}, the boundary input has ${JSON.stringify(want[field])}`);
  }
  throw new Error("differs from the provinces the boundary input gives");
}

/** province-index.bin: the boundary input's rings vertex for vertex, and the spatial index written over them. */
function sameRings(a: DroughtArtifacts, provinces: Province[], path: string): void {
  const want = flattenRings(provinces);
  const got = a.provinceIndex.rings;
  if (got.ringProvince.length !== want.ringProvince.length || got.coords.length !== want.coords.length) {
    throw new Error(`${got.ringProvince.length} rings of ${got.coords.length / 2} vertices, the boundary input has ${want.ringProvince.length} of ${want.coords.length / 2}`);
  }
  for (let v = 0; v < want.coords.length; v++) {
    if (!Object.is(got.coords[v], want.coords[v])) {
      let ring = 0;
      while (got.ringStart[ring + 1] <= v / 2) ring++;
      const p = want.ringProvince[ring];
      throw new Error(`vertex ${Math.floor(v / 2)} of province ${p} (${provinces[p].code}) is at ${got.coords[v - (v % 2)]}, ${got.coords[v - (v % 2) + 1]}, the boundary input has ${want.coords[v - (v % 2)]}, ${want.coords[v - (v % 2) + 1]}`);
    }
  }
  sameBytes(path, writeProvinceIndex(want), "the rings and index the boundary input gives");
}

/** tiles-index.json against the archives of the directory and the grid's months. */
function tilesIndexOfGrid(a: DroughtArtifacts, body: VerifyManifest, artifacts: Record<string, { bytes: number }>): void {
  const index = a.tiles;
  if (!index) throw new Error("missing");
  const listed = new Set(index.archives.map((x) => x.name));
  const unlisted = Object.keys(artifacts).filter((n) => /^tiles-[a-z0-9-]+\.pmtiles$/.test(n) && !listed.has(n));
  if (unlisted.length) throw new Error(`archives ${unlisted.join(", ")} are not in the index`);
  // The months: consecutive, ending at the version's default month, at most the build's TILE_MONTHS.
  const months = index.months;
  const last = body.latestValidMonth;
  if (last && months.at(-1) !== last) throw new Error(`its months end at ${months.at(-1)}, the version's latest valid month is ${last}`);
  const first = a.grid.monthOffset(a.defaultMonth) - months.length + 1;
  const want = Array.from({ length: months.length }, (_, i) => formatMonth(a.grid.firstMonth + first + i));
  if (first < 0 || months.join() !== want.join()) throw new Error(`months ${months.join(", ")} are not the ${months.length} grid months ending at ${formatMonth(a.defaultMonth)}`);
  const tileMonths = body.settings?.tileMonths;
  if (typeof tileMonths === "number" && months.length !== Math.min(tileMonths, a.grid.monthOffset(a.defaultMonth) + 1)) throw new Error(`${months.length} months, the build asked for ${tileMonths}`);
  const raster = index.indices.flatMap((i) => months.map((m) => droughtArchiveName(i, parseMonth(m)!)));
  const expected = [...raster, "tiles-provinces.pmtiles", "tiles-cells.pmtiles", "tiles-countries.pmtiles"];
  const missing = expected.filter((n) => !listed.has(n));
  const extra = [...listed].filter((n) => !expected.includes(n));
  if (missing.length || extra.length) throw new Error(`archives ${missing.length ? `missing ${missing.join(", ")}` : ""}${extra.length ? ` not of its indices and months: ${extra.join(", ")}` : ""}`);
}

/** One archive read in full (every directory and tile decoded), against its entry in tiles-index.json. */
function verifyArchive(dir: string, a: DroughtArtifacts, entry: { name: string; tiles: number }, report: { archives: number; tiles: number }): void {
  const contents = verifyPmtilesArchive(join(dir, entry.name));
  const vector = !entry.name.startsWith("tiles-drought-");
  const maxZoom = entry.name === "tiles-countries.pmtiles" ? a.tiles!.countriesMaxZoom : a.tiles!.maxZoom;
  if (contents.tiles !== entry.tiles) throw new Error(`${contents.tiles} tiles, ${TILES_INDEX_FILE} says ${entry.tiles}`);
  if (contents.header.tileType !== (vector ? 1 : 2)) throw new Error(`tile type ${contents.header.tileType}, expected ${vector ? "MVT (1)" : "PNG (2)"}`);
  if (contents.header.maxZoom !== maxZoom) throw new Error(`max zoom ${contents.header.maxZoom}, ${TILES_INDEX_FILE} says ${maxZoom}`);
  report.archives++;
  report.tiles += contents.tiles;
}
