// The shapes of the source registry: what a source is (origin, format, cadence, licence, credential, where its
// copy sits in DATA_DIR), which files a refresh fetches, how each is checked and merged, and the local state the
// refresh leaves behind. The entries themselves are in registry.ts.
import type { CsvOptions } from "../feeds/csv.ts";
import type { AnswerKind } from "../../formats/source-status.ts";
import type { GeojsonPaging } from "./geojson-pages.ts";

/** "gzip": gzip-compressed text, checked as text once unpacked (rows are its lines). */
export type SourceFormat = "csv" | "json" | "geojson" | "gzip" | "netcdf" | "parquet" | "text" | "xlsx" | "zip";

export type Cadence = "daily" | "weekly" | "monthly" | "yearly" | "irregular" | "static";

/** Days between releases; a copy is stale when its data are older than STALE_FACTOR × this. null: no schedule. */
export const CADENCE_DAYS: Record<Cadence, number | null> = {
  daily: 1,
  weekly: 7,
  monthly: 31,
  yearly: 366,
  irregular: null,
  static: null,
};

/** How a source is refreshed: plain HTTP GETs, the Copernicus CDS job flow (not built yet), or not at all. */
export type RefreshKind = "http" | "cds" | "none";

/** What a download must be before it is used (content-check.ts). */
export interface ContentCheck {
  format: SourceFormat;
  /** CSV: columns the header must hold — the ones the adapter reads, not the whole header. */
  columns?: readonly string[];
  /** CSV reader options (delimiter, no header, no quoting). */
  csv?: CsvOptions;
  /** CSV: lines after the header that are not data (IBTrACS' units row). */
  skipRows?: number;
  /** JSON: the array of rows ("features" for GeoJSON, "value" for OData, "" for a top-level array). */
  rowsAt?: string;
  /** Fewest rows a usable copy has (default 1). */
  minRows?: number;
  /** Latest date inside the data, YYYY-MM-DD (end of the period for months and years). */
  asOf?: (text: string, file: string) => string | null;
  /** An empty body is the origin's "no data" (PSMSL's gauges without annual values), kept as zero rows; the row
   *  comparison still refuses it in place of a copy that had rows. */
  emptyMeansNoData?: boolean;
  /** A source-specific check on the text, after the generic reading; throws with the reason. */
  validate?: (text: string, file: string) => void;
  /** CSV: the source's own parser as the whole row check, in place of the generic CSV reading (which would read every
   *  row a second time): it refuses a file at its first bad row (throws with the reason) and returns the rows it
   *  read. `columns` are still checked, on the header line. GHCN-Daily's station files (pipeline/inputs/ghcnd). */
  parse?: (text: string, file: string) => number;
}

/** How a download joins the copy it replaces (merge.ts). */
export interface MergeSpec {
  /** "rows": one row per key, the download wins; "groups": every row of a key the download holds is replaced. */
  kind: "csv-rows" | "csv-groups" | "geojson-groups";
  /** CSV column names, or GeoJSON property names, whose values joined by "|" form the key. */
  key: readonly string[];
  /** CSV header that changed between the copies: "remap" moves old rows by column name (same units only);
   *  "replace" keeps the download alone when it reaches at least as far back as the old copy, else refuses. */
  onHeaderChange?: "remap" | "replace";
  /** Rows sorted by key after the merge (date-keyed series). */
  sort?: boolean;
  /** A rolling archive: after the merge, rows whose `column` (YYYY-MM-DD) is more than `days` days before the
   *  latest date in that column are dropped (FIRMS' global files, whose history would otherwise grow without end). */
  keepDays?: { column: string; days: number };
}

/** One file a refresh fetches (or carries over) into the source's raw-cache version. */
export interface ResourceSpec {
  /** Path inside the version directory (also the name in logs and state). */
  file: string;
  /** URL to fetch; `{VAR}` is filled from the environment at request time and never logged. Absent: the file is
   *  carried over from the previous copy (or the data directory) so the version directory stays complete. */
  url?: string;
  /** The copy under DATA_DIR: served until a download exists, and the first merge's history. */
  dataDirFile?: string;
  /** The pipeline's adapter reads the downloaded layout as it is. False where the live layout differs from the
   *  mirror's copy and the adapter for it is still to come: builders keep the data-directory copy meanwhile. */
  adapterReadsLive: boolean;
  check: ContentCheck;
  merge?: MergeSpec;
  /**
   * The download is a ZIP archive and `file` is this member of it (OpenDengue's release extracts): the member is
   * unpacked (pipeline/sources/unzip.ts) and checked and kept as the file; the archive itself is not kept.
   */
  unzip?: string;
  /**
   * The kept file is made from the downloaded bytes (a member of a .tar.gz cut to the region; a year of daily grids
   * reduced to months): the check and the row comparison apply to what it returns; it throws (ContentError) to refuse
   * the download. Files of one source with the same URL share one download in a refresh.
   */
  derive?: (bytes: Uint8Array, file: string) => Uint8Array | Promise<Uint8Array>;
  /** The kept file is derived from the download's text (GHCN-Daily's station index from NOAA's station list);
   *  the check and the row comparison apply to what it returns. */
  transform?: (text: string, file: string) => string;
  /** The download is gzip text of which only some lines are kept (NOAA's by_year files: a year of every station and
   *  element, ~1 GB unpacked): it is unpacked as a stream and the kept file is `header` plus the lines `keep` accepts. */
  gunzipLines?: { header: string; keep: (line: string) => boolean };
  /** Asked again only when the copy is older than this many days (GHCN-Daily's whole-record station files, which
   *  change daily but are wanted monthly): a younger copy from the raw cache is carried without a request. */
  refreshDays?: number;
  /** A carried file this download supersedes (an older dated release): left out of the version once it arrives. */
  replaces?: string;
  /** ArcGIS feature-service query: fetched page by page (resultOffset) and turned into CSV with these columns. */
  arcgis?: { pageSize: number; columns: readonly string[]; dateColumns: readonly string[] };
  /** Paged GeoJSON search (GDACS): every page until a short one, kept as one FeatureCollection (geojson-pages.ts). */
  geojsonPages?: GeojsonPaging;
  /** The product is ending (why, e.g. MODIS' satellites): a download that is gone (HTTP 404 or 410) or holds no rows
   *  (fewer than check.minRows) is not a failure. The file leaves the source's version, so the builders run on the
   *  others, and the refresh says so (`ended` in the state, the result and the nightly's "ended products left out"). */
  ending?: string;
  /** The file may not be published yet (why, e.g. FIRMS' yearly country files of the last two years): gone or empty
   *  is not a failure, as for `ending`, but the refresh says "not published yet" (`unpublished` in the state, the
   *  result and the nightly's "not published yet, left out"). */
  notYetPublished?: string;
}

export interface ResourceContext {
  /** The origin after SOURCE_URL_<NAME>. */
  origin: string;
  dataDir: string;
  /** The source's current raw-cache version directory, when there is one. */
  currentDir?: string;
  env: NodeJS.ProcessEnv;
  now: Date;
}

export interface SourceUpstream {
  /** What stopped and when. */
  stopped: string;
  /** The maintained alternatives: which one the pipeline uses, and which it only names. */
  alternatives: string;
}

export interface SourceEntry {
  /** Lower-case id; SOURCE_URL_<NAME upper-case> overrides `url`. */
  name: string;
  title: string;
  /** The answers it feeds: an answer drawn from a stale source says so (formats/source-status.ts). */
  usedBy: readonly AnswerKind[];
  /** The public origin: the file URL, or the base the resource paths hang from. null: no public origin known. */
  url: string | null;
  /** Other public endpoints of the same data (the primary producer where `url` is a republication). */
  otherUrls?: readonly string[];
  format: SourceFormat;
  cadence: Cadence;
  licence: string;
  attribution: string;
  /** Set where the terms forbid commercial use (or restrict it), with the terms. */
  nonCommercial?: string;
  /** Environment variable holding the credential the origin needs. */
  credential?: string;
  /** Path under DATA_DIR of the mirror copy (file or folder); null when the mirror has none. */
  dataDirPath: string | null;
  /** Where the live format differs from the mirror's copy. */
  liveFormat?: string;
  /** The origin no longer follows its producer (stopped, or a copy that stopped being updated): a refresh brings
   *  nothing new. `pipeline sources` and docs/methods/sources.md show it with the maintained alternatives. */
  upstream?: SourceUpstream;
  refresh: RefreshKind;
  /** Largest download accepted per file, bytes (default SOURCES_MAX_BYTES). */
  maxBytes?: number;
  /** Environment variable that overrode the origin before SOURCE_URL_<NAME> (still read, with a deprecation line). */
  legacyUrlVariable?: string;
  /** The files of one refresh (and of the data-directory copy, for dataAsOf). No network here. */
  resources(ctx: ResourceContext): ResourceSpec[] | Promise<ResourceSpec[]>;
  /** More files found at refresh time from a listing on the origin (dated release names). */
  discover?(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]>;
}

/** Outcome of one file in the last refresh. */
export type FileOrigin = "download" | "not-modified" | "carried" | "kept" | "data-dir";

export interface FileState {
  /** URL as configured (placeholders unfilled: no secret). */
  url?: string;
  etag?: string;
  lastModified?: string;
  sha256: string;
  bytes: number;
  rows: number | null;
  malformedRows: number;
  /** First malformed rows as `file:line: reason` (at most MAX_MALFORMED_LISTED). */
  malformedAt: string[];
  dataAsOf: string | null;
  /** Last time the origin confirmed this copy (200 or 304). */
  fetchedAt?: string;
  from: FileOrigin;
  /** DATA_DIR-relative path the inputs tree shows this file at (its spec's dataDirFile, when the adapter reads it). */
  linkAs?: string;
  /** Why the last attempt on this file failed (the previous copy was kept). */
  error?: string;
}

export type RefreshOutcome = "updated" | "unchanged" | "partial" | "failed" | "skipped";

/** ARTIFACTS_DIR/raw/<source>/state.json */
export interface SourceStateFile {
  source: string;
  /** Current raw-cache version (a directory under versions/). */
  version?: string;
  /** Last refresh whose downloads were accepted or confirmed unchanged. */
  fetchedAt?: string;
  /** Last refresh attempt. */
  checkedAt: string;
  lastResult: RefreshOutcome;
  reason?: string;
  /** The last refresh could not reach the origin at all (network, DNS, timeouts): reported as offline. */
  unreachable?: boolean;
  /** Kept by writeSourceState from the previous state: the last attempt that did not fail. */
  lastSuccessAt?: string;
  /** Files of an ending product that were gone or empty at the last refresh, each with why (ResourceSpec.ending). */
  ended?: string[];
  /** Files not published yet (gone or empty) at the last refresh, each with why (ResourceSpec.notYetPublished). */
  unpublished?: string[];
  /** Failed attempts in a row (0 after a success). */
  consecutiveFailures?: number;
  /** Failed attempts ever recorded in this raw cache. */
  failuresTotal?: number;
  /** When `dataAsOf` last changed (the first attempt that saw it): a frozen upstream's data stop advancing. */
  dataAsOfSince?: string;
  files: Record<string, FileState>;
  dataAsOf: string | null;
}

export type SourceStatus = "fresh" | "stale" | "frozen" | "offline" | "failed";
