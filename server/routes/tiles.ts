// Map tiles over HTTP (docs/methods/tiles.md):
//   GET /tiles/legend.json                              colour classes (public)
//   GET /tiles/index.json                               tilesets, indices, months, default month (public)
//   GET /tiles/{tileset}.json                           TileJSON 3.0; tile URLs carry the data version
//   GET /tiles/{tileset}/{z}/{x}/{y}.{png|mvt}          current version, revalidated (no-cache + ETag)
//   GET /tiles/v/{version}/{tileset}/{z}/{x}/{y}.{ext}  versioned, immutable
//   GET /tiles/archives/{name}.pmtiles                  the PMTiles archives, with HTTP Range (206/416) and conditions
// Tilesets: drought-{index} (month from ?month=YYYY-MM, default the data's latest month), drought-{index}-{YYYY-MM},
// provinces, cells, countries. Precomputed drought tiles come from the version's PMTiles archives; other months
// are rendered on request. Both are kept in one bounded LRU cache of tile bytes.
// Auth: every tile, TileJSON and archive request needs the X-API-Key header (never a query parameter, so keys
// stay out of URLs and logs); the map page adds it with MapLibre's transformRequest.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { PMTiles } from "pmtiles";
import type { Logger } from "../../lib/log.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { intSetting } from "../../lib/config.ts";
import { ApiError } from "../errors.ts";
import { acceptsGzip, ifNoneMatchHits } from "../http/respond.ts";
import { statEtag } from "../http/file-etag.ts";
import { sendDiskFile } from "../http/send-file.ts";
import { Admission, type AdmissionLimits } from "../http/admission.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import type GeoJSONVT from "geojson-vt";
import { droughtAttribution } from "../../lib/drought/grid-sources.ts";
import { COUNTRIES_ATTRIBUTION, COUNTRIES_MAX_ZOOM, DEFAULT_MAX_ZOOM, droughtArchiveName, TILE_INDICES, type TilesIndex } from "../../tiles/build-tiles.ts";
import { cellLand, cellsGeoJson, countriesGeoJson, encodeVectorTile, provincesFromRings, provincesGeoJson, vectorIndex, type MonthValues } from "../../tiles/vector.ts";
import { legend } from "../../tiles/colour-scale.ts";
import { LocalFileSource } from "../../tiles/pmtiles-source.ts";
import { checkMvt, checkPng } from "../../formats/pmtiles-archive.ts";
import { landMask } from "../../tiles/land-mask.ts";
import { cellClasses, cellLattice, encodeClassTilePng, latticeLand, renderClassTile, type CellLattice, type LatticeLand } from "../../tiles/raster.ts";
import { isValidTile } from "../../tiles/tile-math.ts";
import { LRUCache } from "lru-cache";
import type { LegendData, TileJson, TilesIndexData } from "../schemas-tiles.ts";
import { MAX_RENDER_ZOOM, VECTOR_TILESETS } from "../../tiles/tilesets.ts";

const IMMUTABLE = "private, max-age=31536000, immutable";
const REVALIDATE = "private, no-cache";
const CORS_ALLOW_HEADERS = "X-API-Key, If-None-Match, Range, Accept-Encoding";
const CORS_EXPOSE_HEADERS = "ETag, Content-Range, Accept-Ranges, Content-Length, Content-Encoding, X-Data-Version";

export interface CurrentTiles {
  version: string;
  dir: string;
  data: DroughtArtifacts;
}

export interface TilesRouterDeps {
  current: () => CurrentTiles | undefined;
  /** Checks an API key (e.g. KeyStore#authenticate); undefined = tiles are public. */
  auth?: (apiKey: string | undefined) => { id: string } | undefined;
  logger: Logger;
  /** Tiles rendered on request at once and waiting (http/admission.ts); past them 503. */
  admission?: AdmissionLimits;
  /** Tiles kept in memory (default 4096, env TILE_CACHE_ENTRIES) and their byte budget (default 64 MiB). */
  cacheEntries?: number;
  cacheBytes?: number;
}

export interface CachedTile {
  /** Tile bytes as stored (MVT: gzip); null = no data here (204). */
  bytes: Buffer | null;
  etag: string;
  gzip: boolean;
}

type Tileset =
  | { kind: "drought"; name: string; index: string; month: MonthIndex }
  | { kind: "vector"; name: (typeof VECTOR_TILESETS)[number] };

/** Per-version state: tiles index, open archives, raster lookups. Replaced when the version changes. */
interface VersionState {
  version: string;
  dir: string;
  data: DroughtArtifacts;
  index: TilesIndex | undefined;
  archives: Map<string, PMTiles>;
  sources: LocalFileSource[];
  lattice: CellLattice | undefined;
  /** Land of the grid's extent, made on the first tile rendered on demand (tiles/land-mask.ts). */
  land: LatticeLand | undefined;
  classes: Map<string, Uint8Array>;
  /** Vector tile indexes built in memory for a version without archives (see vectorFallback). */
  vectors: Map<string, GeoJSONVT>;
}

function etagOf(bytes: Uint8Array | null, key: string): string {
  const h = createHash("sha1").update(key);
  if (bytes) h.update(bytes);
  return `"${h.digest("base64url").slice(0, 22)}"`;
}

function validation(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError("VALIDATION_ERROR", message, details);
}

/** Parses a tileset name; month-less drought tilesets take `month` (query) or the default month. */
function parseTileset(name: string, month: string | undefined, data: DroughtArtifacts): Tileset {
  if ((VECTOR_TILESETS as readonly string[]).includes(name)) return { kind: "vector", name: name as (typeof VECTOR_TILESETS)[number] };
  const m = /^drought-([a-z0-9]+)(?:-(\d{4}-\d{2}))?$/.exec(name);
  if (m === null || !(TILE_INDICES as readonly string[]).includes(m[1]) || !data.grid.indexNames.includes(m[1])) {
    throw new ApiError("NOT_FOUND", `Unknown tileset "${name}"`, {
      tilesets: [...TILE_INDICES.map((i) => `drought-${i}`), ...VECTOR_TILESETS],
    });
  }
  const monthText = m[2] ?? month;
  let monthIndex = data.defaultMonth;
  if (monthText !== undefined) {
    const parsed = /^\d{4}-\d{2}$/.test(monthText) ? parseMonth(monthText) : undefined;
    if (parsed === undefined) throw validation("month must be YYYY-MM", { month: monthText });
    if (data.grid.monthOffset(parsed) < 0) {
      throw new ApiError("NOT_FOUND", `No drought data for ${monthText}`, {
        firstMonth: formatMonth(data.grid.firstMonth),
        lastMonth: formatMonth(data.grid.lastMonth),
      });
    }
    monthIndex = parsed;
  }
  return { kind: "drought", name: `drought-${m[1]}-${formatMonth(monthIndex)}`, index: m[1], month: monthIndex };
}

const VECTOR_DESCRIPTIONS: Record<(typeof VECTOR_TILESETS)[number], string> = {
  provinces: "the 77 provinces with their monthly drought summaries",
  cells: "the 0.25° land cells with their monthly indices",
  countries: "country outlines (Natural Earth) for the map's background",
};

/** The metrics' route label of a tileset: its name without the month (a bounded set: one per index and layer). */
function tilesetFamily(ts: Tileset): string {
  return ts.kind === "drought" ? `drought-${ts.index}` : ts.name;
}

function parseTileCoords(zs: string, xs: string, ys: string, maxZoom: number): [number, number, number] {
  const z = /^\d{1,2}$/.test(zs) ? Number(zs) : NaN;
  const x = /^\d{1,10}$/.test(xs) ? Number(xs) : NaN;
  const y = /^\d{1,10}$/.test(ys) ? Number(ys) : NaN;
  if (!isValidTile(z, x, y, maxZoom)) {
    throw validation(`Invalid tile ${zs}/${xs}/${ys}: z must be 0-${maxZoom}, x and y 0..2^z-1`, { z: zs, x: xs, y: ys, maxZoom });
  }
  return [z, x, y];
}

function baseUrl(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

/**
 * The tiles kept in memory: least recently used out first, past `maxEntries` tiles or `maxBytes` bytes (a tile's
 * bytes, its key and 64 for the rest); a tile larger than the whole budget is not kept. lru-cache (maxSize with
 * sizeCalculation): a hit or a set costs the same as the hand-written Map LRU it replaced (bench/RESULTS.md
 * "HTTP plumbing").
 */
export function createTileCache(maxEntries: number, maxBytes: number): LRUCache<string, CachedTile> {
  if (!(maxEntries >= 1) || !(maxBytes >= 1)) throw new Error("cache limits must be at least 1");
  return new LRUCache<string, CachedTile>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (tile, key) => (tile.bytes?.length ?? 0) + key.length + 64 });
}

/** The tiles routes, and `close()`: the PMTiles files the router opened, closed at shutdown. */
export type TilesRouter = Router & { close(): Promise<void> };

export function createTilesRouter(deps: TilesRouterDeps): TilesRouter {
  const router = express.Router();
  const retiring = new Set<VersionState>();
  const cache = createTileCache(deps.cacheEntries ?? intSetting(process.env, "TILE_CACHE_ENTRIES", 4096), deps.cacheBytes ?? 64 * 1024 * 1024);
  let state: VersionState | undefined;
  const legendBody = JSON.stringify({ success: true, data: legend(TILE_INDICES) satisfies LegendData });

  function currentState(): VersionState {
    const cur = deps.current();
    if (cur === undefined) throw new ApiError("SERVICE_UNAVAILABLE", "Drought data is not loaded yet");
    if (state === undefined || state.version !== cur.version) {
      const old = state;
      state = {
        version: cur.version,
        dir: cur.dir,
        data: cur.data,
        // Read and checked with the version, before it served (formats/drought-version.ts).
        index: cur.data.tiles,
        archives: new Map(),
        sources: [],
        lattice: undefined,
        land: undefined,
        classes: new Map(),
        vectors: new Map(),
      };
      // Requests still reading the old version keep its archives open for a while.
      if (old) {
        retiring.add(old);
        setTimeout(() => {
          retiring.delete(old);
          void closeSources(old);
        }, 30_000).unref();
      }
      deps.logger.info({ version: cur.version, precomputed: state.index?.months.length ?? 0 }, "tiles: serving data version");
    }
    return state;
  }

  function archive(s: VersionState, name: string): PMTiles | undefined {
    if (!s.index?.archives.some((a) => a.name === name)) return undefined;
    let p = s.archives.get(name);
    if (p === undefined) {
      const source = new LocalFileSource(join(s.dir, name));
      s.sources.push(source);
      p = new PMTiles(source);
      s.archives.set(name, p);
    }
    return p;
  }

  const renderAdmission = new Admission("tile rendering", deps.admission);

  /** A tile from the cache, a PMTiles archive, or rendered (raster or vector) in an admission slot of `res`. */
  async function loadTile(res: Response, s: VersionState, ts: Tileset, z: number, x: number, y: number): Promise<CachedTile> {
    const key = `${s.version}/${ts.name}/${z}/${x}/${y}`;
    const hit = cache.get(key);
    if (hit) return hit;
    let bytes: Buffer | null = null;
    let gzip = false;
    if (ts.kind === "vector") {
      const a = archive(s, `tiles-${ts.name}.pmtiles`);
      if (a !== undefined) {
        // pmtiles decompresses tiles on read; stored gzip again to send as Content-Encoding: gzip.
        bytes = await archiveTile(s, `tiles-${ts.name}.pmtiles`, a, z, x, y, checkMvt);
      } else {
        const name = ts.name;
        const mvt = await renderAdmission.run(res, () => encodeVectorTile(vectorFallback(s, name), name, z, x, y));
        bytes = mvt ? Buffer.from(mvt) : null;
      }
    } else {
      const a = archive(s, droughtArchiveName(ts.index, ts.month));
      if (a !== undefined && z <= (s.index?.maxZoom ?? -1)) {
        bytes = await archiveTile(s, droughtArchiveName(ts.index, ts.month), a, z, x, y, checkPng);
      } else {
        bytes = await renderAdmission.run(res, () => renderDroughtTile(s, ts.index, ts.month, z, x, y));
      }
    }
    if (bytes && ts.kind === "vector") {
      bytes = gzipSync(bytes);
      gzip = true;
    }
    const tile: CachedTile = { bytes, etag: etagOf(bytes, key), gzip };
    cache.set(key, tile);
    return tile;
  }

  /**
   * A tile of an archive, decoded before it is sent (formats/pmtiles-archive.ts: a PNG's CRCs and image data, an MVT's
   * protobuf; pmtiles has gunzipped it, checking gzip's CRC): a tile that cannot be read — a damaged directory or tile
   * — is a server fault, answered 500 INTERNAL_ERROR in the envelope and logged by the error handler with the archive
   * and the tile, never sent as a 200 with a broken body. Checked once per tile: the cache keeps what passed.
   */
  async function archiveTile(s: VersionState, name: string, a: PMTiles, z: number, x: number, y: number, check: (tile: Uint8Array) => void): Promise<Buffer | null> {
    try {
      const t = await a.getZxy(z, x, y);
      if (!t) return null;
      const bytes = Buffer.from(t.data);
      check(bytes);
      return bytes;
    } catch (err) {
      throw new Error(`tiles: ${name} of data version ${s.version}: tile ${z}/${x}/${y} cannot be read: ${(err as Error).message}`, { cause: err });
    }
  }

  function renderDroughtTile(s: VersionState, index: string, month: MonthIndex, z: number, x: number, y: number): Buffer | null {
    const ck = `${index}/${month}`;
    let classes = s.classes.get(ck);
    if (classes === undefined) {
      classes = cellClasses(s.data.grid, s.data.grid.monthOffset(month), s.data.grid.indexNo(index));
      s.classes.set(ck, classes);
    }
    const classTile = renderClassTile(latticeOf(s), classes, z, x, y, landOf(s));
    return classTile ? encodeClassTilePng(classTile) : null;
  }

  function latticeOf(s: VersionState): CellLattice {
    s.lattice ??= cellLattice(s.data.grid);
    return s.lattice;
  }

  /** The version's land mask, made on first use. */
  function landOf(s: VersionState): LatticeLand {
    const lattice = latticeOf(s);
    s.land ??= latticeLand(lattice, landMask(s.data.provinceIndex.rings, lattice.bbox, s.data.grid.resolutionDeg));
    return s.land;
  }

  /**
   * A version built without tile archives still gets its vector tilesets: geojson-vt indexes made in memory on
   * first use (provinces from province-index.bin's rings, values of the default month only).
   */
  function vectorFallback(s: VersionState, name: (typeof VECTOR_TILESETS)[number]): GeoJSONVT {
    let index = s.vectors.get(name);
    if (index === undefined) {
      const g = s.data.grid;
      const values: MonthValues = {
        indices: TILE_INDICES.filter((i) => g.indexNames.includes(i)),
        months: [s.data.defaultMonth],
        value: (i, indexName, month) =>
          name === "provinces" ? s.data.summaries.record(i, s.data.summaries.monthOffset(month))[s.data.summaries.indexNames.indexOf(indexName)] : g.value(i, g.monthOffset(month), g.indexNo(indexName)),
      };
      const fc =
        name === "provinces"
          ? provincesGeoJson(provincesFromRings(s.data.provinceIndex.rings, s.data.provinces), values)
          : name === "cells"
            ? cellsGeoJson(g, values, cellLand(g, latticeOf(s), provincesFromRings(s.data.provinceIndex.rings, s.data.provinces), landOf(s)))
            : countriesGeoJson();
      index = vectorIndex(fc, name === "countries" ? COUNTRIES_MAX_ZOOM : DEFAULT_MAX_ZOOM);
      s.vectors.set(name, index);
      deps.logger.info({ version: s.version, tileset: name }, "tiles: no archive, vector tiles made in memory");
    }
    return index;
  }

  function requireKey(req: Request, res: Response): void {
    if (deps.auth === undefined) return;
    const header = req.headers["x-api-key"];
    const record = deps.auth(typeof header === "string" ? header : undefined);
    if (record === undefined) throw new ApiError("INVALID_API_KEY", "Missing, invalid, or expired API key");
    res.locals.keyId = record.id;
  }

  // CORS on every tiles response; preflight answered here.
  router.use("/tiles", (req: Request, res: Response, next: NextFunction) => {
    // One metrics/log route label for all tile URLs (bounded label cardinality).
    res.locals.route ??= "/tiles";
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
    if (req.method === "OPTIONS") {
      res.setHeader("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
      res.setHeader("Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD, OPTIONS");
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed on ${req.path}`, { allow: ["GET", "HEAD", "OPTIONS"] });
    }
    next();
  });

  router.get("/tiles/legend.json", (req, res) => {
    sendJsonText(req, res, legendBody, "public, max-age=3600");
  });

  router.get("/tiles/index.json", (req, res) => {
    const s = currentState();
    const g = s.data.grid;
    const data: TilesIndexData = {
      version: s.version,
      indices: TILE_INDICES.filter((i) => g.indexNames.includes(i)),
      defaultMonth: formatMonth(s.data.defaultMonth),
      firstMonth: formatMonth(g.firstMonth),
      lastMonth: formatMonth(g.lastMonth),
      precomputedMonths: s.index?.months ?? [],
      // Published before its archives (make serve's first run): every tile is rendered on request until the
      // version that holds them is published (docs/methods/tiles.md).
      archivesDeferred: s.data.deferred.includes("tiles"),
      tilesets: [...TILE_INDICES.filter((i) => g.indexNames.includes(i)).map((i) => `drought-${i}`), ...VECTOR_TILESETS],
      // A tile server's catalog: each tileset with its kind, tile format and TileJSON (as TileServer GL and
      // Martin list theirs), so a client needs no knowledge of the names.
      catalog: [
        ...TILE_INDICES.filter((i) => g.indexNames.includes(i)).map((i) => ({
          name: `drought-${i}`,
          kind: "raster" as const,
          format: "png" as const,
          description: `${i} of a month, coloured by the D0–D4 / W0–W4 classes of /tiles/legend.json (?month=YYYY-MM; default ${formatMonth(s.data.defaultMonth)})`,
          tilejson: `${baseUrl(req)}/tiles/drought-${i}.json`,
        })),
        ...VECTOR_TILESETS.map((name) => ({ name, kind: "vector" as const, format: "mvt" as const, description: VECTOR_DESCRIPTIONS[name], tilejson: `${baseUrl(req)}/tiles/${name}.json` })),
      ],
    };
    sendJsonText(req, res, JSON.stringify({ success: true, data }), REVALIDATE);
  });

  router.get("/tiles/archives/:file", (req, res, next) => {
    requireKey(req, res);
    const s = currentState();
    const name = req.params.file;
    if (!/^tiles-[a-z0-9-]+\.pmtiles$/.test(name) || !s.index?.archives.some((a) => a.name === name)) {
      throw new ApiError("NOT_FOUND", `No archive ${name} in data version ${s.version}`);
    }
    // Ranges, conditions, 206/304/412/416 by `send` (http/send-file.ts); its errors become the JSON envelope.
    return sendDiskFile(req, res, next, { path: join(s.dir, name), contentType: "application/vnd.pmtiles", etag: statEtag, cacheControl: REVALIDATE });
  });

  router.get("/tiles/:tileset.json", async (req, res) => {
    requireKey(req, res);
    const s = currentState();
    const ts = parseTileset(req.params.tileset, queryMonth(req), s.data);
    // The archive's own header (bounds, centre) and metadata (attribution) where the tileset has an archive.
    const stored = archive(s, `tiles-${ts.name}.pmtiles`);
    const header = stored ? await stored.getHeader() : undefined;
    const meta = stored ? ((await stored.getMetadata()) as { attribution?: string }) : undefined;
    res.locals.route = `/tiles/${tilesetFamily(ts)}.json`;
    const g = s.data.grid;
    const [w, so, e, n] = latticeOf(s).bbox;
    const isVector = ts.kind === "vector";
    const maxzoom = ts.kind === "vector" ? (ts.name === "countries" ? (s.index?.countriesMaxZoom ?? COUNTRIES_MAX_ZOOM) : (s.index?.maxZoom ?? DEFAULT_MAX_ZOOM)) : (s.index?.maxZoom ?? DEFAULT_MAX_ZOOM);
    const tj: TileJson = {
      tilejson: "3.0.0",
      name: ts.name,
      version: "1.0.0",
      attribution: meta?.attribution ?? (ts.kind === "vector" && ts.name === "countries" ? COUNTRIES_ATTRIBUTION : droughtAttribution(s.data.gridSource)),
      scheme: "xyz",
      tiles: [`${baseUrl(req)}/tiles/v/${encodeURIComponent(s.version)}/${ts.name}/{z}/{x}/{y}.${isVector ? "mvt" : "png"}`],
      minzoom: 0,
      maxzoom,
      bounds: header ? [header.minLon, header.minLat, header.maxLon, header.maxLat] : [w, so, e, n],
      center: header ? [header.centerLon, header.centerLat, header.centerZoom] : [(w + e) / 2, (so + n) / 2, 5],
    };
    if (ts.kind === "drought") {
      tj.description = `${ts.index} for ${formatMonth(ts.month)}, coloured by the D0–D4 / W0–W4 classes of /tiles/legend.json`;
    } else {
      const built = s.index ?? { months: [formatMonth(s.data.defaultMonth)], indices: TILE_INDICES.filter((i) => g.indexNames.includes(i)) };
      tj.vector_layers = [{ id: ts.name, fields: vectorFields(ts.name, built), minzoom: 0, maxzoom }];
    }
    sendJsonText(req, res, JSON.stringify(tj), REVALIDATE);
  });

  async function serveTile(req: Request, res: Response, versioned: boolean): Promise<void> {
    requireKey(req, res);
    const s = currentState();
    const params = req.params as Record<string, string>;
    if (versioned && req.params.version !== s.version) {
      throw new ApiError("NOT_FOUND", `Data version ${req.params.version} is no longer served`, { current: s.version });
    }
    const ts = parseTileset(params.tileset, queryMonth(req), s.data);
    res.locals.route = `/tiles/${tilesetFamily(ts)}/{z}/{x}/{y}`;
    const ext = params.ext;
    if (ext !== (ts.kind === "vector" ? "mvt" : "png")) throw new ApiError("NOT_FOUND", `Tileset ${ts.name} has no .${ext} tiles`);
    const maxZoom = ts.kind === "vector" ? 22 : MAX_RENDER_ZOOM;
    const [z, x, y] = parseTileCoords(params.z, params.x, params.y, maxZoom);
    const tile = await loadTile(res, s, ts, z, x, y);
    res.setHeader("Cache-Control", versioned ? IMMUTABLE : REVALIDATE);
    res.setHeader("ETag", tile.etag);
    res.setHeader("Vary", "Accept-Encoding");
    if (ifNoneMatchHits(req.headers["if-none-match"], tile.etag)) {
      res.status(304).end();
      return;
    }
    if (tile.bytes === null) {
      res.status(204).end();
      return;
    }
    res.setHeader("Content-Type", ts.kind === "vector" ? "application/vnd.mapbox-vector-tile" : "image/png");
    let body = tile.bytes;
    if (tile.gzip) {
      if (acceptsGzip(req.headers["accept-encoding"])) res.setHeader("Content-Encoding", "gzip");
      else body = gunzipSync(body);
    }
    res.setHeader("Content-Length", String(body.length));
    res.end(req.method === "HEAD" ? undefined : body);
  }

  router.get("/tiles/v/:version/:tileset/:z/:x/:y.:ext", (req, res) => serveTile(req, res, true));
  router.get("/tiles/:tileset/:z/:x/:y.:ext", (req, res) => serveTile(req, res, false));
  return Object.assign(router, {
    async close() {
      for (const s of [...retiring, ...(state ? [state] : [])]) await closeSources(s);
      retiring.clear();
    },
  });
}

/** Closes a version's archive files (each once: PMTiles reads fail after it, as they would on a retired version). */
async function closeSources(s: VersionState): Promise<void> {
  const sources = s.sources.splice(0);
  s.archives.clear();
  await Promise.all(sources.map((src) => src.close().catch(() => undefined)));
}

function queryMonth(req: Request): string | undefined {
  const m = req.query.month;
  if (m === undefined) return undefined;
  if (typeof m !== "string") throw validation("month must be YYYY-MM", { month: m });
  return m;
}

function vectorFields(name: string, built: Pick<TilesIndex, "months" | "indices">): Record<string, "String" | "Number"> {
  const values: Record<string, "String" | "Number"> = {};
  for (const m of built.months) for (const i of built.indices) values[`${i}_${m}`] = "Number";
  if (name === "provinces") return { code: "String", nameEn: "String", nameTh: "String", slug: "String", ...values };
  if (name === "cells") return { cell: "Number", gridId: "String", lat: "Number", lng: "Number", ...values };
  return { name: "String", id: "String" };
}

function sendJsonText(req: Request, res: Response, body: string, cacheControl: string): void {
  const etag = etagOf(Buffer.from(body), "json");
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", cacheControl);
  res.setHeader("ETag", etag);
  if (ifNoneMatchHits(req.headers["if-none-match"], etag)) {
    res.status(304).end();
    return;
  }
  res.end(req.method === "HEAD" ? undefined : body);
}
