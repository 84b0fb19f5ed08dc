// The source registry: every input the pipeline reads, one entry each — its public origin, format, cadence,
// licence and attribution (non-commercial terms flagged), the credential it needs, the path of its copy under
// DATA_DIR, and the files a refresh fetches with their content checks and merge rules. SOURCE_URL_<NAME>
// replaces an origin (mirrors, tests); the table in docs/methods/sources.md is this file in prose.
import { COVID_WORLD_FILE } from "../health/owid-covid.ts";
import { MALARIA_CONF_CASES, MALARIA_EST_INCIDENCE } from "../health/who-gho-malaria.ts";
import { POPULATION_FILE } from "../health/population.ts";
import { parseWorldBankPopulation, WORLDBANK_POPULATION_JSON, WORLDBANK_POPULATION_URL, worldBankPopulationAsOf } from "../health/worldbank-population.ts";
import { WHO_DATA_RESTRICTION, WHO_DATA_TERMS } from "../health/who-terms.ts";
import { basename, join } from "node:path";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { parsePsmslFilelist, parseRlrAnnual } from "../feeds/psmsl.ts";
import { ghcndDiscover, ghcndResources, NOAA_ACCESS_URL } from "../inputs/ghcnd/refresh.ts";
import { NOAA_STATION_LIST_URL } from "../inputs/ghcnd/station-list.ts";
import { BY_YEAR_HEADER, HEAT_ACCESS_VARIABLE, HEAT_BASE_FIRST_YEAR, HEAT_BY_YEAR_DIR, HEAT_REFRESH_DAYS, HEAT_STATIONS_DIR, INVENTORY_FILE, NOAA_GHCND_URL, ghcndHeatDiscover, ghcndHeatResources } from "../inputs/ghcnd/heat-network.ts";
import { GHCND_SUBDIR } from "../inputs/ghcnd/stations.ts";
import { GDACS_GEOMETRY_DIR, geometryRequests } from "../feeds/gdacs-geometry.ts";
import { FIRMS_GLOBAL_DAYS_DEFAULT, FIRMS_GLOBAL_DAYS_VARIABLE, FIRMS_GLOBAL_DIR, FIRMS_GLOBAL_FILES, FIRMS_GLOBAL_MIN_ROWS, FIRMS_GLOBAL_URL, firmsGlobalDays } from "../feeds/firms-global.ts";
import { csvColumnMax, geojsonPropertyMax, isoDay, laterDay, monthEndDay, psmslYearMax } from "./data-as-of.ts";
import { deprecated, overrideVariable } from "./settings.ts";
import type { ContentCheck, ResourceContext, ResourceSpec, SourceEntry } from "./types.ts";
import { ERA5_DATA_DIR_FILE, ERA5_FILE } from "./cds.ts";
import { GHCN_CAMS_DATA_DIR_FILE, PRECL_DATA_DIR_FILE } from "../grid/grid-source.ts";
import { GISTEMP_TABLE_FILE, parseGlobalTemperature } from "../feeds/temperature.ts";

const GiB = 1024 * 1024 * 1024;

/** The end of the last month of GISTEMP in either layout (the mirror's datahub copy: its GISTEMP rows only). */
function globalTemperatureAsOf(text: string, file: string): string | null {
  const months = parseGlobalTemperature(text, file).records.map((r) => r.month);
  return months.length ? monthEndDay(Math.max(...months)) : null;
}

/** A file kept as the data directory has it (derived or static copies with no live equivalent). */
function carried(dataDirFile: string, check: ContentCheck, file = basename(dataDirFile)): ResourceSpec {
  return { file, dataDirFile, adapterReadsLive: true, check };
}

/** The one file of a single-file source. */
function download(origin: string, file: string, check: ContentCheck, more: Partial<ResourceSpec> = {}): ResourceSpec {
  return { file, url: origin, adapterReadsLive: true, check, ...more };
}

const joinUrl = (base: string, path: string) => `${base.replace(/\/$/, "")}/${path}`;

/** Files of a mirror folder (sorted), or none when the folder is missing. */
function mirrorFiles(dataDir: string, folder: string, pattern: RegExp): string[] {
  const dir = join(dataDir, folder);
  return existsSync(dir) ? readdirSync(dir).filter((f) => pattern.test(f)).sort() : [];
}

/** The current copy's file when there is one, else the data directory's. */
function currentOrMirror(ctx: ResourceContext, file: string, dataDirFile: string): string | undefined {
  const candidates = [ctx.currentDir ? join(ctx.currentDir, file) : undefined, join(ctx.dataDir, dataDirFile)];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

/** GDACS' event search answers at most 100 events a page; 50 pages (5,000 floods in 60 days) is a runaway query. */
export const GDACS_PAGE_SIZE = 100;
export const GDACS_MAX_PAGES = 50;

const UNLOCODE_FILE = /^[A-Z]{2}\.csv$/;
/** The repository listing of the per-country files (GitHub contents API), read when no copy names them yet. */
export const UNLOCODE_LISTING_URL = "https://api.github.com/repos/geoapify/un-locode/contents/src/data";
const unlocodeListingUrl = (env: NodeJS.ProcessEnv) => env.SOURCE_URL_UNLOCODE_LISTING || UNLOCODE_LISTING_URL;

/** The country files of the current copy and of the data directory. */
function unlocodeFiles(ctx: ResourceContext): string[] {
  const current = ctx.currentDir && existsSync(ctx.currentDir) ? readdirSync(ctx.currentDir).filter((f) => UNLOCODE_FILE.test(f)) : [];
  return [...new Set([...mirrorFiles(ctx.dataDir, "ports/unlocode", UNLOCODE_FILE), ...current])].sort();
}

function unlocodeSpec(ctx: ResourceContext, f: string): ResourceSpec {
  return {
    file: f,
    url: joinUrl(ctx.origin, f),
    dataDirFile: join("ports/unlocode", f),
    adapterReadsLive: true,
    check: { format: "csv", columns: ["country", "location", "name", "function", "lat", "lon"], csv: { fieldCount: "any" } },
  };
}

/** OData answers of the WHO GHO: rows in "value", years in TimeDim. */
function ghoCheck(): ContentCheck {
  return {
    format: "json",
    rowsAt: "value",
    asOf: (text) => {
      let best: string | null = null;
      for (const r of (JSON.parse(text) as { value: { TimeDim?: unknown }[] }).value) best = laterDay(best, isoDay(String(r.TimeDim ?? "")));
      return best;
    },
  };
}

/** Release date in a WHO DON dataset file name (outbreaks_13052026.csv → 2026-05-13). */
export function donReleaseDate(file: string): string | null {
  const m = /_(\d{2})(\d{2})(\d{4})\.\w+$/.exec(file);
  return m ? isoDay(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

/** PortWatch Daily_Ports_Data attributes, in the mirror's column order. */
export const PORTWATCH_DAILY_COLUMNS = [
  "date", "year", "month", "day", "portid", "portname", "country", "ISO3",
  "portcalls_container", "portcalls_dry_bulk", "portcalls_general_cargo", "portcalls_roro", "portcalls_tanker", "portcalls_cargo", "portcalls",
  "import_container", "import_dry_bulk", "import_general_cargo", "import_roro", "import_tanker", "import_cargo", "import",
  "export_container", "export_dry_bulk", "export_general_cargo", "export_roro", "export_tanker", "export_cargo", "export",
  "ObjectId",
] as const;

/** Days PortWatch may still revise: each refresh asks again for this many days before the copy's last day. */
export const PORTWATCH_REVISION_DAYS = 30;

const PORTWATCH_PORTS_COLUMNS = [
  "X", "Y", "portid", "portname", "country", "ISO3", "continent", "fullname", "lat", "lon",
  "vessel_count_total", "vessel_count_container", "vessel_count_dry_bulk", "vessel_count_general_cargo", "vessel_count_RoRo", "vessel_count_tanker",
  "industry_top1", "industry_top2", "industry_top3", "share_country_maritime_import", "share_country_maritime_export", "LOCODE", "pageid", "countrynoaccents", "ObjectId",
] as const;

// PortWatch's dataset pages name the IMF's Copyright and Usage terms (imf.org/en/About/copyright-and-terms): IMF content
// is for personal, non-commercial use, except the special terms for IMF data, which may be downloaded, copied,
// published and redistributed, also commercially, with attribution and without implying the IMF's endorsement.
const PORTWATCH_TERMS = "IMF Copyright and Usage terms, special terms for IMF data: reuse and redistribution (commercial too) with attribution to IMF PortWatch and no implied IMF endorsement; other IMF content personal, non-commercial use only";
const PORTWATCH_RESTRICTION = "IMF terms: reuse only under the special terms for IMF data (attribution, no implied endorsement)";

/** Ports whose daily series a first run on an empty data directory fetches (the mirror holds its own choice). */
export const PORTWATCH_DAILY_COUNTRIES = ["THA"] as const;

/** One port's daily series: the whole record (first run), or from `from` on (later runs, merged by date). */
function portwatchDailySpec(ctx: ResourceContext, portid: string, file: string, dataDirFile: string, from?: string): ResourceSpec {
  let where = `portid='${portid}'`;
  if (from) where += ` AND date >= TIMESTAMP '${from} 00:00:00'`;
  return {
    file,
    url: `${joinUrl(ctx.origin, "query")}?where=${encodeURIComponent(where)}&outFields=*&orderByFields=date&f=json`,
    dataDirFile,
    adapterReadsLive: true,
    check: { format: "csv", columns: ["date", "portid", "portcalls", "import", "export"], asOf: csvColumnMax("date") },
    merge: { kind: "csv-rows", key: ["date"], sort: true },
    arcgis: { pageSize: 1000, columns: PORTWATCH_DAILY_COLUMNS, dateColumns: ["date"] },
  };
}

/**
 * No daily series in the raw cache or the data directory: the ports of PORTWATCH_DAILY_COUNTRIES the service has
 * series for (a distinct-values query), one file `daily/<portid>.csv` each.
 */
async function portwatchDailyDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (portwatchDailyNames(ctx).length > 0) return [];
  const where = `ISO3 IN (${PORTWATCH_DAILY_COUNTRIES.map((c) => `'${c}'`).join(",")})`;
  const url = `${joinUrl(ctx.origin, "query")}?where=${encodeURIComponent(where)}&outFields=portid&returnDistinctValues=true&returnGeometry=false&f=json`;
  const body = JSON.parse(await fetchText(url)) as { features?: { attributes?: { portid?: unknown } }[]; error?: { message?: string } };
  if (body.error || !Array.isArray(body.features)) throw new Error(`the port query answered no features (${body.error?.message ?? "no features array"})`);
  const ids = [...new Set(body.features.map((f) => f.attributes?.portid).filter((id): id is string => typeof id === "string" && /^[A-Za-z0-9_-]+$/.test(id)))].sort();
  if (ids.length === 0) throw new Error(`no port of ${PORTWATCH_DAILY_COUNTRIES.join(", ")} in the daily service`);
  return ids.map((id) => portwatchDailySpec(ctx, id, join("daily", `${id}.csv`), join(PORTWATCH_DAILY_FOLDER, `${id}.csv`)));
}

/** The daily files of the mirror, each with its port id (first data row) and the window to ask for. */
const PORTWATCH_DAILY_FOLDER = join("ports", "portwatch", "daily");

/** Names of the daily files of the current copy and of the data directory. */
function portwatchDailyNames(ctx: ResourceContext): string[] {
  const current = ctx.currentDir && existsSync(join(ctx.currentDir, "daily")) ? readdirSync(join(ctx.currentDir, "daily")).filter((f) => f.endsWith(".csv")) : [];
  return [...new Set([...mirrorFiles(ctx.dataDir, PORTWATCH_DAILY_FOLDER, /\.csv$/), ...current])].sort();
}

function portwatchDaily(ctx: ResourceContext): ResourceSpec[] {
  const folder = PORTWATCH_DAILY_FOLDER;
  const out: ResourceSpec[] = [];
  for (const name of portwatchDailyNames(ctx)) {
    const path = currentOrMirror(ctx, join("daily", name), join(folder, name));
    if (!path) continue;
    const text = readFileSync(path, "utf8");
    const first = text.split(/\r?\n/, 3)[1] ?? "";
    const portid = first.split(",")[4];
    if (!/^[A-Za-z0-9_-]+$/.test(portid ?? "")) continue;
    const last = csvColumnMax("date")(text, path);
    const from = last ? new Date(Date.parse(last) - PORTWATCH_REVISION_DAYS * 86_400_000).toISOString().slice(0, 10) : undefined;
    out.push(portwatchDailySpec(ctx, portid, join("daily", name), join(folder, name), from));
  }
  return out;
}

const PSMSL_RLR_CHECK: ContentCheck = {
  format: "csv",
  // 17 of the 1,591 gauges PSMSL lists have an empty annual file (no RLR year yet).
  emptyMeansNoData: true,
  csv: { header: false, delimiter: ";", quote: false },
  asOf: psmslYearMax,
  validate: (text, file) => {
    if (parseRlrAnnual(text, file).records.length === 0) throw new Error("no year; mm line");
  },
};

/**
 * The annual RLR file of every gauge a filelist.txt lists: the sea-level snapshot serves the world (1,591 gauges in
 * the mirror), so each gauge's copy is kept current, not only Thailand's. Tiny files; a refresh asks for each with
 * its validators (304s when PSMSL's yearly release has not changed).
 */
function psmslGauges(ctx: ResourceContext, filelist: string, file: string): ResourceSpec[] {
  return parsePsmslFilelist(filelist, file).records.map((s): ResourceSpec => ({
    file: `data/${s.id}.rlrdata`,
    url: joinUrl(ctx.origin, `${s.id}.rlrdata`),
    dataDirFile: `feeds/psmsl/data/${s.id}.rlrdata`,
    adapterReadsLive: true,
    check: PSMSL_RLR_CHECK,
  }));
}

/** filelist.txt and the gauges the local copy of it lists (none yet without one: then `discover` asks the origin). */
function psmslResources(ctx: ResourceContext): ResourceSpec[] {
  const listPath = currentOrMirror(ctx, "filelist.txt", "feeds/psmsl/filelist.txt");
  return [
    {
      file: "filelist.txt",
      url: joinUrl(ctx.origin, "filelist.txt"),
      dataDirFile: "feeds/psmsl/filelist.txt",
      adapterReadsLive: true,
      check: {
        format: "csv",
        csv: { header: false, delimiter: ";", quote: false },
        minRows: 1000,
        validate: (text, file) => {
          if (parsePsmslFilelist(text, file).records.length === 0) throw new Error("no station line");
        },
      },
    },
    ...(listPath ? psmslGauges(ctx, readFileSync(listPath, "utf8"), listPath) : []),
  ];
}

/** With no filelist.txt in the raw cache or the data directory (a first run on an empty DATA_DIR): the origin's. */
async function psmslDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (currentOrMirror(ctx, "filelist.txt", "feeds/psmsl/filelist.txt")) return [];
  return psmslGauges(ctx, await fetchText(joinUrl(ctx.origin, "filelist.txt")), "filelist.txt");
}

export const SOURCES: readonly SourceEntry[] = [
  {
    name: "ghcnd",
    usedBy: ["drought"],
    title: "NOAA NCEI GHCN-Daily station observations (per-station access CSV)",
    url: NOAA_ACCESS_URL,
    otherUrls: [NOAA_STATION_LIST_URL],
    format: "csv",
    cadence: "daily",
    licence: "NOAA: free of charge; non-US station data exchanged under WMO Resolution 40 may be restricted to non-commercial use",
    attribution: "Menne et al. 2012, GHCN-Daily v3, doi:10.7289/V5D21VHZ",
    nonCommercial: "WMO Resolution 40: non-US data may not be re-exported for commercial services",
    dataDirPath: GHCND_SUBDIR,
    legacyUrlVariable: "GHCND_BASE_URL",
    liveFormat: "NOAA access CSV (quoted, *_ATTRIBUTES flags, values in tenths of mm / °C, every element); the mirror holds the CDO export (mm / °C). pipeline/inputs/ghcnd/parse.ts reads both. Without a station index in DATA_DIR, the index is derived from NOAA's ghcnd-stations.txt (SOURCE_URL_GHCND_STATIONS): every station within 1° of the provinces' box.",
    refresh: "http",
    resources: ghcndResources,
    discover: ghcndDiscover,
  },
  {
    name: "ghcnd_heat",
    usedBy: ["heatwave"],
    title: "NOAA NCEI GHCN-Daily worldwide heat network: daily maximum temperatures of a thinned station network (inventory, per-station access CSV, yearly files)",
    url: NOAA_GHCND_URL,
    otherUrls: [NOAA_ACCESS_URL],
    format: "csv",
    cadence: "daily",
    licence: "NOAA: free of charge; non-US station data exchanged under WMO Resolution 40 may be restricted to non-commercial use",
    attribution: "Menne et al. 2012, GHCN-Daily v3, doi:10.7289/V5D21VHZ",
    nonCommercial: "WMO Resolution 40: non-US data may not be re-exported for commercial services",
    dataDirPath: null,
    liveFormat: `The mirror has none. From ${NOAA_GHCND_URL}/${INVENTORY_FILE} (fixed width; asked every ${HEAT_REFRESH_DAYS} days) the network: stations with TMAX from ${HEAT_BASE_FIRST_YEAR} or earlier to last year or later, at most one per GHCND_HEAT_CELL_DEG° cell (default 1°; the longest record), at most GHCND_HEAT_MAX_STATIONS (default 1500, evenly thinned over the map), written as ${HEAT_STATIONS_DIR}/_stations.csv. Each station's access CSV (${HEAT_ACCESS_VARIABLE} overrides its origin; asked every ${HEAT_REFRESH_DAYS} days, merged by DATE) and, at every refresh, NOAA's by_year/<YEAR>.csv.gz for last year and this year (${BY_YEAR_HEADER}, no header, TMAX in tenths of °C), unpacked as a stream keeping the network's TMAX rows without a quality flag, as ${HEAT_BY_YEAR_DIR}/<YEAR>.csv.`,
    refresh: "http",
    maxBytes: 2 * GiB,
    resources: ghcndHeatResources,
    discover: ghcndHeatDiscover,
  },
  {
    name: "gdacs_events",
    usedBy: ["flood", "storm", "supply_chain"],
    title: "GDACS current events (GeoJSON event list), merged by event into an archive",
    url: "https://www.gdacs.org/gdacsapi/api/events/geteventlist/MAP",
    format: "geojson",
    cadence: "daily",
    licence: "GDACS (European Commission JRC, UN OCHA): free use with attribution",
    attribution: "GDACS, Global Disaster Alert and Coordination System (EC JRC / UN OCHA)",
    dataDirPath: "feeds/gdacs",
    refresh: "http",
    resources: (ctx) => [
      download(ctx.origin, "gdacs_events.geojson", { format: "geojson", asOf: geojsonPropertyMax(["todate", "fromdate"]) }, {
        dataDirFile: "feeds/gdacs/gdacs_20260530T1858Z.geojson",
        merge: { kind: "geojson-groups", key: ["eventtype", "eventid"] },
      }),
    ],
  },
  {
    name: "gdacs_floods",
    usedBy: ["flood", "supply_chain"],
    title: "GDACS flood events of the last 60 days (event search API), merged by event",
    url: "https://www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH",
    format: "geojson",
    cadence: "daily",
    licence: "GDACS (European Commission JRC, UN OCHA): free use with attribution",
    attribution: "GDACS flood events (EC JRC / UN OCHA)",
    dataDirPath: "feeds/gdacs/latest_gdacs_flood_db.csv",
    liveFormat: "The search API answers GeoJSON, at most 100 events a page: every page is asked for (pagenumber 1, 2, … until a page holds fewer than 100, at most 50 pages) and the pages kept as one FeatureCollection; the mirror's latest_gdacs_flood_db.csv is a table derived from it (one row per flood, geometry as text). The GeoJSON is archived by event and linked into the inputs tree as feeds/gdacs/gdacs_floods.geojson, where the flood builder adds its floods to the table's (pipeline/feeds/gdacs.ts reads both layouts). The affected-area polygons of the floods of the last 60 days come from the geometry endpoint (polygons/getgeometry, one file per event under feeds/gdacs/geometry/), asked for the events the previous night's archive listed.",
    refresh: "http",
    resources: (ctx) => {
      const to = ctx.now.toISOString().slice(0, 10);
      const from = new Date(ctx.now.getTime() - 60 * 86_400_000).toISOString().slice(0, 10);
      return [
        carried("feeds/gdacs/latest_gdacs_flood_db.csv", { format: "csv", columns: ["eventid", "alertlevel", "fromdate", "todate", "geometry", "iso3"], asOf: csvColumnMax("todate") }),
        {
          file: "gdacs_floods.geojson",
          url: `${ctx.origin}?eventlist=FL&fromdate=${from}&todate=${to}&alertlevel=green;orange;red&pagesize=${GDACS_PAGE_SIZE}`,
          geojsonPages: { pageSize: GDACS_PAGE_SIZE, maxPages: GDACS_MAX_PAGES, pageParam: "pagenumber" },
          adapterReadsLive: true,
          dataDirFile: "feeds/gdacs/gdacs_floods.geojson",
          check: { format: "geojson", minRows: 0, asOf: geojsonPropertyMax(["todate", "fromdate"]) },
          merge: { kind: "geojson-groups", key: ["eventtype", "eventid"] },
        },
        // The affected areas of the floods the previous night's archive listed (the search answers points only).
        ...geometryRequests(ctx.currentDir && join(ctx.currentDir, "gdacs_floods.geojson"), ctx.origin, ctx.now).map((g) => ({
          file: g.file,
          url: g.url,
          adapterReadsLive: true,
          dataDirFile: join(GDACS_GEOMETRY_DIR, `${g.id}.geojson`),
          check: { format: "geojson" as const, minRows: 0 },
        })),
      ];
    },
  },
  {
    name: "dfo",
    usedBy: ["flood"],
    title: "Dartmouth Flood Observatory Global Active Archive of Large Flood Events",
    url: "https://floodobservatory.colorado.edu/Archives/FloodArchive.xlsx",
    otherUrls: ["https://floodobservatory.colorado.edu/Archives/index.html"],
    format: "xlsx",
    cadence: "irregular",
    licence: "free use with citation (no licence stated)",
    attribution: "G.R. Brakenridge, Global Active Archive of Large Flood Events, Dartmouth Flood Observatory, University of Colorado",
    dataDirPath: "feeds/dfo/FloodArchive.csv",
    liveFormat: "The archive is published as an Excel workbook (FloodArchive.xlsx); the mirror holds a CSV export of it. pipeline/feeds/dfo-workbook.ts reads the workbook (read-excel-file) into the export's layout, so the flood builder reads either.",
    upstream: {
      stopped: "DFO's Active Archive of Large Flood Events has not been updated since 2021 (the mirror's export ends 2019-09): the workbook is still asked for, but brings no new flood",
      alternatives: `used: GDACS flood events (gdacs_floods nightly: the event search, every page, with affected-area polygons; gdacs_events); named only: the Global Flood Database (Tellman et al. 2021, MODIS-mapped floods 2000-2018; its event list is carried in flood_footprints, not refreshed: no newer release is published)`,
    },
    refresh: "http",
    resources: (ctx) => [
      carried("feeds/dfo/FloodArchive.csv", { format: "csv", columns: ["ID", "long", "lat", "Began", "Ended", "Severity", "Area"], asOf: csvColumnMax("Ended") }),
      download(ctx.origin, "FloodArchive.xlsx", { format: "xlsx" }, { dataDirFile: "feeds/dfo/FloodArchive.xlsx" }),
    ],
  },
  {
    name: "flood_footprints",
    usedBy: ["flood"],
    title: "DFO flood-extent polygons and the Global Flood Database's list of MODIS-mapped events (research release)",
    url: null,
    otherUrls: ["https://github.com/cloudtostreet/MODIS_GlobalFloodDatabase"],
    format: "zip",
    cadence: "static",
    licence: "MIT (repository); DFO asks for citation",
    attribution: "Tellman et al. 2021, Nature 596:80-86, doi:10.1038/s41586-021-03695-w; G.R. Brakenridge, Dartmouth Flood Observatory",
    dataDirPath: "feeds/flood-footprints",
    liveFormat: "A fixed research release (DFO polygons as of 2019-12-03, GFD QC table 2019-08-01): DFO publishes no newer polygon set openly, so it is not refreshed; GDACS affected areas come with the GDACS sources.",
    refresh: "none",
    resources: () => [
      carried("feeds/flood-footprints/dfo_polys_20191203.zip", { format: "zip" }),
      carried("feeds/flood-footprints/gfd_qcdatabase_2019_08_01.csv.gz", { format: "text" }),
    ],
  },
  {
    name: "firms_archive",
    usedBy: ["wildfire"],
    title: "NASA FIRMS archive downloads: MODIS Australia Aug–Sep 2019, VIIRS Rhodes July 2023",
    url: null,
    otherUrls: ["https://firms.modaps.eosdis.nasa.gov/download/"],
    format: "text",
    cadence: "static",
    licence: "NASA open data (free use, citation requested)",
    attribution: "NASA FIRMS MCD14ML / VNP14IMG / VJ114IMG (Giglio et al. 2016; Schroeder et al. 2014)",
    dataDirPath: "feeds/firms-archive",
    liveFormat: "Archive downloads are ordered by hand through FIRMS' download form (no keyless API): fixed files, not refreshed.",
    refresh: "none",
    resources: () => [
      carried("feeds/firms-archive/fire_archive_M6_96619.csv.gz", { format: "text" }),
      carried("feeds/firms-archive/fire_archive_SV-C2_740981.csv.gz", { format: "text" }),
      carried("feeds/firms-archive/fire_archive_J1V-C2_740979.csv.gz", { format: "text" }),
    ],
  },
  {
    name: "firms",
    usedBy: ["wildfire"],
    title: "NASA FIRMS MODIS active fires over mainland South-East Asia (area API, last 5 days), merged by detection",
    url: "https://firms.modaps.eosdis.nasa.gov/api/area/csv/{FIRMS_MAP_KEY}/MODIS_NRT/92,5,110,24/5",
    format: "csv",
    cadence: "daily",
    licence: "NASA open data (free use, citation requested)",
    attribution: "NASA FIRMS MODIS Collection 6.1 NRT active fires (MCD14DL), Giglio et al. 2016",
    credential: "FIRMS_MAP_KEY",
    dataDirPath: "feeds/firms",
    liveFormat: "The area API's MODIS CSV adds an `instrument` column and reports version 6.1NRT; the mirror's reconstructed CSV has the 2018 C6 columns. Same names otherwise: old rows are moved to the new header by name.",
    refresh: "http",
    resources: (ctx) => [
      carried("feeds/firms/MODIS_C6_SouthEast_Asia_48h_20180525.geojson", { format: "geojson", asOf: geojsonPropertyMax(["ACQ_DATE"]) }),
      download(ctx.origin, "MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv", {
        format: "csv",
        columns: ["latitude", "longitude", "acq_date", "acq_time", "confidence", "frp"],
        minRows: 0,
        asOf: csvColumnMax("acq_date"),
      }, {
        dataDirFile: "feeds/firms/MODIS_C6_SouthEast_Asia_20180523-25_reconstructed.csv",
        merge: { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], onHeaderChange: "remap" },
      }),
    ],
  },
  {
    name: "firms_global",
    usedBy: ["wildfire"],
    title: "NASA FIRMS global active fires, last 7 days (keyless NRT files: MODIS C6.1, VIIRS S-NPP and NOAA-20 C2), merged by detection",
    url: FIRMS_GLOBAL_URL,
    otherUrls: ["https://firms.modaps.eosdis.nasa.gov/active_fire/"],
    format: "csv",
    cadence: "daily",
    licence: "NASA open data (free use, citation requested)",
    attribution: "NASA FIRMS MODIS C6.1 (MCD14DL) and VIIRS 375 m C2 (VNP14IMGTDL, VJ114IMGTDL) NRT active fires; Giglio et al. 2016; Schroeder et al. 2014",
    dataDirPath: null,
    liveFormat: `Three keyless CSVs under ${FIRMS_GLOBAL_URL}/ (MODIS_C6_1_Global_7d.csv, SUOMI_VIIRS_C2_Global_7d.csv, J1_VIIRS_C2_Global_7d.csv), each the last 7 days worldwide with FIRMS' MODIS or VIIRS columns; the mirror has none. Each is merged by detection (latitude, longitude, acq_date, acq_time, satellite) into a rolling archive that keeps ${FIRMS_GLOBAL_DAYS_VARIABLE} days (default ${FIRMS_GLOBAL_DAYS_DEFAULT}) before its latest acq_date, linked into the inputs tree as ${FIRMS_GLOBAL_DIR}/<product>.csv, where the wildfire builder reads it as one worldwide record.`,
    refresh: "http",
    maxBytes: 2 * GiB,
    resources: (ctx) => FIRMS_GLOBAL_FILES.map((f) =>
      download(joinUrl(ctx.origin, f.path), f.file, {
        format: "csv",
        columns: ["latitude", "longitude", "acq_date", "acq_time", "satellite", "confidence", "frp", ...f.sensorColumns],
        minRows: FIRMS_GLOBAL_MIN_ROWS,
        asOf: csvColumnMax("acq_date"),
      }, {
        dataDirFile: join(FIRMS_GLOBAL_DIR, f.file),
        merge: { kind: "csv-rows", key: ["latitude", "longitude", "acq_date", "acq_time", "satellite"], onHeaderChange: "remap", keepDays: { column: "acq_date", days: firmsGlobalDays(ctx.env) } },
      })),
  },
  {
    name: "ibtracs_active",
    usedBy: ["storm"],
    title: "NOAA IBTrACS v04r01 active storms, merged by storm (SID) into the recent long record",
    url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.ACTIVE.list.v04r01.csv",
    format: "csv",
    cadence: "daily",
    licence: "NOAA: public domain",
    attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
    dataDirPath: "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv",
    refresh: "http",
    resources: (ctx) => [
      download(ctx.origin, "ibtracs.ACTIVE.list.v04r01.csv", {
        format: "csv",
        columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"],
        skipRows: 1,
        minRows: 0,
        asOf: csvColumnMax("ISO_TIME"),
      }, {
        dataDirFile: "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv",
        merge: { kind: "csv-groups", key: ["SID"] },
      }),
    ],
  },
  {
    name: "ibtracs_recent",
    usedBy: ["storm"],
    title: "NOAA IBTrACS v04r01 storms of the last three years",
    url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.last3years.list.v04r01.csv",
    format: "csv",
    cadence: "weekly",
    licence: "NOAA: public domain",
    attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
    dataDirPath: "feeds/ibtracs/ibtracs_last3years_clean.csv",
    liveFormat: "The native list (SID, ISO_TIME, LAT, LON, WMO_WIND, … and a units row); the mirror's ibtracs_last3years_clean.csv is a derived 8-column table (time, latitude, longitude, name, basin, wind, pressure, status). pipeline/feeds/ibtracs.ts reads both column sets; the storm builder takes the native list when a refresh brought it (linked into the inputs tree).",
    refresh: "http",
    resources: (ctx) => [
      carried("feeds/ibtracs/ibtracs_last3years_clean.csv", { format: "csv", columns: ["time", "latitude", "longitude", "wind"], skipRows: 1, asOf: csvColumnMax("time") }),
      download(ctx.origin, "ibtracs.last3years.list.v04r01.csv", { format: "csv", columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"], skipRows: 1, asOf: csvColumnMax("ISO_TIME") }, {
        // Linked into the inputs tree, where the storm builder reads it instead of the compact table.
        dataDirFile: "feeds/ibtracs/ibtracs.last3years.list.v04r01.csv",
        merge: { kind: "csv-groups", key: ["SID"] },
      }),
    ],
  },
  {
    name: "ibtracs_wp",
    usedBy: ["storm"],
    title: "NOAA IBTrACS v04r01 West Pacific basin, whole record (return periods)",
    url: "https://www.ncei.noaa.gov/data/international-best-track-archive-for-climate-stewardship-ibtracs/v04r01/access/csv/ibtracs.WP.list.v04r01.csv",
    format: "csv",
    cadence: "weekly",
    licence: "NOAA: public domain (the mirror's Parquet extract cites CC BY 4.0)",
    attribution: "Knapp et al. 2010, IBTrACS v04r01, doi:10.25921/82ty-9e16",
    dataDirPath: "feeds/ibtracs/ibtracs_wp_tracks.parquet",
    liveFormat: "The native WP list CSV (all agencies, 3-hourly); the mirror holds a derived Parquet of the 6-hourly WMO fixes (SID, ISO_TIME, LAT, LON, WMO_WIND, WMO_PRES, …). pipeline/feeds/ibtracs-parquet.ts reads both: from the CSV, the 6-hourly synoptic fixes with WMO wind and pressure, as the extract holds them.",
    refresh: "http",
    maxBytes: 2 * GiB,
    resources: (ctx) => [
      carried("feeds/ibtracs/ibtracs_wp_tracks.parquet", { format: "parquet" }),
      download(ctx.origin, "ibtracs.WP.list.v04r01.csv", { format: "csv", columns: ["SID", "ISO_TIME", "LAT", "LON", "WMO_WIND"], skipRows: 1, asOf: csvColumnMax("ISO_TIME") }, { dataDirFile: "feeds/ibtracs/ibtracs.WP.list.v04r01.csv" }),
    ],
  },
  {
    name: "psmsl",
    usedBy: ["sea_level_rise"],
    title: "PSMSL annual Revised Local Reference mean sea level (station list and every gauge it lists)",
    url: "https://psmsl.org/data/obtaining/rlr.annual.data",
    otherUrls: ["https://psmsl.org/data/obtaining/rlr.annual.data/rlr_annual.zip"],
    format: "text",
    cadence: "yearly",
    licence: "PSMSL: free use with citation",
    attribution: "Holgate et al. 2013, doi:10.2112/JCOASTRES-D-12-00175.1; PSMSL Tide Gauge Data",
    dataDirPath: "feeds/psmsl",
    refresh: "http",
    resources: psmslResources,
    discover: psmslDiscover,
  },
  {
    name: "owid_temperature",
    usedBy: ["heatwave"],
    title: "Our World in Data monthly temperature anomalies by country (from Copernicus ERA5)",
    url: "https://ourworldindata.org/grapher/monthly-temperature-anomalies.csv?v=1&csvType=full&useColumnShortNames=true",
    format: "csv",
    cadence: "monthly",
    licence: "CC BY 4.0",
    attribution: "Our World in Data, monthly temperature anomalies (Copernicus Climate Change Service, ERA5)",
    dataDirPath: "feeds/temperature/monthly-temperature-anomalies.csv",
    liveFormat: "The grapher export writes Day as YYYY-MM-DD; the mirror's copy has m/d/yyyy. Columns are the same.",
    refresh: "http",
    resources: (ctx) => [
      download(ctx.origin, "monthly-temperature-anomalies.csv", { format: "csv", columns: ["Entity", "Code", "Day", "temperature_anomaly"], asOf: csvColumnMax("Day") }, {
        dataDirFile: "feeds/temperature/monthly-temperature-anomalies.csv",
      }),
    ],
  },
  {
    name: "gistemp",
    usedBy: ["heatwave"],
    title: "NASA GISTEMP v4 global monthly land-ocean temperature anomalies (GLB.Ts+dSST.csv)",
    url: "https://data.giss.nasa.gov/gistemp/tabledata_v4/GLB.Ts+dSST.csv",
    otherUrls: ["https://data.giss.nasa.gov/gistemp/"],
    format: "csv",
    cadence: "monthly",
    licence: "US government work (NASA GISS): free use with citation",
    attribution: "GISTEMP Team, GISS Surface Temperature Analysis (GISTEMP) v4, NASA Goddard Institute for Space Studies; Lenssen et al. 2019, doi:10.1029/2018JD029522",
    dataDirPath: "feeds/temperature/global-monthly-gistemp-gcag.csv",
    liveFormat: "NASA's table: a title line, then Year,Jan,…,Dec,J-D,D-N,DJF,MAM,JJA,SON in °C against 1951–1980, *** for the months not yet in. The mirror holds a datahub.io repackaging (Source,Year,Mean; frozen: its GISTEMP rows end 2023-12) whose \"gcag\" rows are HadCRUT5 (1961–1990 reference), not NOAA's: pipeline/feeds/temperature.ts reads both layouts and serves GISTEMP alone. The download is linked into the inputs tree as feeds/temperature/GLB.Ts+dSST.csv, which the heatwave builder reads instead of the mirror's copy.",
    refresh: "http",
    resources: (ctx) => [
      ...mirrorFiles(ctx.dataDir, "feeds/temperature", /^global-monthly-gistemp-gcag\.csv$/).map((f) => carried(join("feeds/temperature", f), { format: "csv", columns: ["Source", "Year", "Mean"], asOf: globalTemperatureAsOf })),
      download(ctx.origin, "GLB.Ts+dSST.csv", { format: "csv", csv: { skipLines: 1 }, columns: ["Year", "Jan", "Dec"], minRows: 40, asOf: globalTemperatureAsOf }, { dataDirFile: GISTEMP_TABLE_FILE }),
    ],
  },
  {
    name: "opendengue",
    usedBy: ["outbreak"],
    title: "OpenDengue V1.3 national, spatial and temporal extracts",
    url: "https://github.com/OpenDengue/master-repo/raw/main/data/releases/V1.3",
    otherUrls: ["https://opendengue.org/data.html", "https://doi.org/10.6084/m9.figshare.24259573"],
    format: "zip",
    cadence: "irregular",
    licence: "CC BY 4.0",
    attribution: "Clarke et al. 2024, OpenDengue, Sci Data 11:296, doi:10.1038/s41597-024-03120-7",
    dataDirPath: "health/opendengue",
    liveFormat: "Each release extract is one ZIP of a worldwide CSV; the mirror holds the regional CSV splits (SEARO, WPRO) of the same columns and the worldwide national extract. make refresh unpacks each ZIP's CSV; pipeline/health/opendengue.ts reads the worldwide spatial and temporal extracts when present (Thailand's rows are the same), else the SEARO splits.",
    refresh: "http",
    resources: (ctx) => [
      ...mirrorFiles(ctx.dataDir, "health/opendengue", /\.csv$/).map((f) =>
        carried(join("health/opendengue", f), { format: "csv", columns: ["adm_0_name", "calendar_end_date", "dengue_total"], csv: { multiline: true }, asOf: csvColumnMax("calendar_end_date", { multiline: true }) }),
      ),
      // Each release ZIP holds one worldwide CSV: unpacked, checked like the mirror's and linked into the inputs tree.
      ...["National", "Spatial", "Temporal"].map((k) =>
        download(joinUrl(ctx.origin, `${k}_extract_V1_3.zip`), `${k}_extract_V1_3.csv`, { format: "csv", columns: ["adm_0_name", "calendar_end_date", "dengue_total"], csv: { multiline: true }, asOf: csvColumnMax("calendar_end_date", { multiline: true }) }, {
          unzip: `${k}_extract_V1_3.csv`,
          dataDirFile: `health/opendengue/${k}_extract_V1_3.csv`,
        }),
      ),
    ],
  },
  {
    name: "who_don",
    usedBy: ["outbreak"],
    title: "WHO Disease Outbreak News as a dataset (newest release of outbreaks_<ddmmyyyy>.csv)",
    url: "https://api.github.com/repos/jatorresmunguia/disease_outbreak_news/contents/Last%20update",
    otherUrls: ["https://github.com/jatorresmunguia/disease_outbreak_news", "https://www.who.int/emergencies/disease-outbreak-news"],
    format: "csv",
    cadence: "monthly",
    licence: "Dataset: MIT (Torres Munguía et al.); the DON texts it quotes are WHO content, CC BY-NC-SA 3.0 IGO",
    attribution: "Torres Munguía et al. 2022, A global dataset of pandemic- and epidemic-prone disease outbreaks, Sci Data 9:683",
    nonCommercial: "the quoted WHO DON texts are CC BY-NC-SA 3.0 IGO",
    dataDirPath: "health/who-don",
    liveFormat: "outbreaks_<ddmmyyyy>.csv is published as CSV in the mirror's layout; dons_raw is published only as RData, so the mirror's derived dons_raw CSV is kept until an RData reader exists.",
    refresh: "http",
    resources: (ctx) =>
      mirrorFiles(ctx.dataDir, "health/who-don", /^(outbreaks|dons_raw)_\d{8}\.csv$/).map((f) =>
        carried(join("health/who-don", f), f.startsWith("dons_raw")
          ? { format: "csv", columns: ["Date", "ID"], csv: { multiline: true }, asOf: csvColumnMax("Date", { multiline: true }) }
          : { format: "csv", columns: ["Country", "iso3", "Disease", "DONs"], asOf: (_t, file) => donReleaseDate(file) }),
      ),
    discover: async (ctx, fetchText) => {
      const listing = JSON.parse(await fetchText(ctx.origin)) as { name?: string; download_url?: string }[];
      const newest = listing
        .filter((e) => typeof e.name === "string" && typeof e.download_url === "string" && /^outbreaks_\d{8}\.csv$/.test(e.name))
        .sort((a, b) => (donReleaseDate(a.name!) ?? "").localeCompare(donReleaseDate(b.name!) ?? ""))
        .at(-1);
      if (!newest) throw new Error("no outbreaks_<ddmmyyyy>.csv in the release listing");
      const mirror = mirrorFiles(ctx.dataDir, "health/who-don", /^outbreaks_\d{8}\.csv$/).at(-1);
      return [{
        file: newest.name!,
        url: newest.download_url!,
        // In the mirror's release's place; on a data directory without one, under its own name.
        dataDirFile: join("health/who-don", mirror ?? newest.name!),
        replaces: mirror,
        adapterReadsLive: true,
        check: { format: "csv", columns: ["Country", "iso3", "Disease", "DONs"], asOf: (_t, file) => donReleaseDate(file) },
      }];
    },
  },
  {
    name: "who_gho_malaria",
    usedBy: ["outbreak"],
    title: "WHO Global Health Observatory malaria indicators (OData API)",
    url: "https://ghoapi.azureedge.net/api",
    format: "json",
    cadence: "yearly",
    licence: WHO_DATA_TERMS,
    attribution: "World Health Organization, Global Health Observatory",
    nonCommercial: WHO_DATA_RESTRICTION,
    dataDirPath: "health/who-gho-malaria",
    liveFormat: "The OData API answers JSON ({ value: [ { SpatialDim, TimeDim, NumericValue, Value, … } ] }); the mirror holds the portal's CSV export (SpatialDimensionValueCode, TimeDim, NumericValue, Value, …). pipeline/health/who-gho-malaria.ts reads both (the OData MALARIA_CONF_CASES.json and MALARIA_EST_INCIDENCE.json when a refresh brought them).",
    refresh: "http",
    resources: (ctx) => {
      const files = mirrorFiles(ctx.dataDir, "health/who-gho-malaria", /^MALARIA_.*\.csv$/);
      // The indicators the data directory holds, and always the two the outbreak builder reads (an empty data
      // directory holds none).
      const codes = [...new Set([MALARIA_CONF_CASES, MALARIA_EST_INCIDENCE, ...files.map((f) => f.replace(/\.csv$/, ""))])].sort();
      return [
        ...files.map((f) => carried(join("health/who-gho-malaria", f), { format: "csv", columns: ["SpatialDimensionValueCode", "TimeDim", "NumericValue", "Value"], asOf: csvColumnMax("TimeDim") })),
        ...codes.map((code) => download(joinUrl(ctx.origin, code), `${code}.json`, ghoCheck(), { dataDirFile: `health/who-gho-malaria/${code}.json` })),
      ];
    },
  },
  {
    name: "who_gho_cholera",
    usedBy: ["outbreak"],
    title: "WHO Global Health Observatory cholera cases, deaths and case fatality (OData API)",
    url: "https://ghoapi.azureedge.net/api",
    format: "json",
    cadence: "yearly",
    licence: WHO_DATA_TERMS,
    attribution: "World Health Organization, Global Health Observatory (CHOLERA_0000000001..3)",
    nonCommercial: WHO_DATA_RESTRICTION,
    dataDirPath: "health/who-cholera/who_gho_cholera_1949_2016.csv",
    liveFormat: "Three OData indicators as JSON (cases CHOLERA_0000000001, deaths …2, case fatality …3); the mirror holds one derived CSV with the three as columns (countries by WHO name). pipeline/health/who-cholera.ts reads both: the cases indicator's JSON (countries by ISO code) when a refresh brought it, else the CSV.",
    refresh: "http",
    resources: (ctx) => [
      carried("health/who-cholera/who_gho_cholera_1949_2016.csv", { format: "csv", columns: ["Country", "Year", "Number of reported cases of cholera"], asOf: csvColumnMax("Year") }),
      ...["CHOLERA_0000000001", "CHOLERA_0000000002", "CHOLERA_0000000003"].map((code) => download(joinUrl(ctx.origin, code), `${code}.json`, ghoCheck(), { dataDirFile: `health/who-cholera/${code}.json` })),
    ],
  },
  {
    name: "flunet",
    usedBy: ["outbreak"],
    title: "WHO FluNet virological surveillance, Thailand and Viet Nam (FluMart export VIW_FNT)",
    url: "https://xmart-api-public.who.int/FLUMART/VIW_FNT?$format=csv&$filter=COUNTRY_CODE%20eq%20%27THA%27%20or%20COUNTRY_CODE%20eq%20%27VNM%27",
    otherUrls: ["https://www.who.int/tools/flunet", "https://ourworldindata.org/influenza"],
    format: "csv",
    cadence: "weekly",
    licence: WHO_DATA_TERMS,
    attribution: "WHO FluNet (Global Influenza Surveillance and Response System); the mirror's monthly and weekly series: Our World in Data's republication",
    nonCommercial: WHO_DATA_RESTRICTION,
    dataDirPath: "health/flunet",
    liveFormat: "FluNet's export has one row per country and ISO week (COUNTRY_CODE, ISO_WEEKSTARTDATE, INF_A, INF_B, …); the mirror holds OWID's derived monthly and weekly series per country. pipeline/health/flunet.ts reads both: the export's origins summed per week, weeks to months by the Thursday rule, A + B served for every country in it.",
    refresh: "http",
    resources: (ctx) => [
      ...mirrorFiles(ctx.dataDir, "health/flunet", /\.csv$/).map((f) => carried(join("health/flunet", f), { format: "csv", asOf: csvColumnMax(["Month", "Day"]) })),
      download(ctx.origin, "VIW_FNT.csv", { format: "csv", columns: ["COUNTRY_CODE", "ISO_WEEKSTARTDATE", "INF_A", "INF_B"], asOf: csvColumnMax("ISO_WEEKSTARTDATE") }, { dataDirFile: "health/flunet/VIW_FNT.csv" }),
    ],
  },
  {
    name: "owid_covid",
    usedBy: ["outbreak"],
    title: "Our World in Data COVID-19 dataset, all countries (OWID catalog table garden/covid/latest/compact)",
    url: "https://catalog.ourworldindata.org/garden/covid/latest/compact/compact.csv",
    // The frozen file it replaced (last changed August 2024).
    otherUrls: ["https://covid.ourworldindata.org/data/owid-covid-data.csv"],
    format: "csv",
    cadence: "weekly",
    licence: "CC BY 4.0",
    attribution: "Mathieu et al. 2020, Our World in Data COVID-19 dataset (WHO COVID-19 cases and deaths)",
    dataDirPath: "health/owid-covid/THA_covid_data.csv",
    liveFormat: "OWID's catalog table (the maintained successor of owid-covid-data.csv, which has not changed since August 2024) holds every country with `country` and `code` columns (aggregates as OWID_… or no code); the mirror holds the old file's Thai rows without a code. pipeline/health/owid-covid.ts reads the catalog table, the old worldwide file (`iso_code`) and the Thai copy: a series per country from either worldwide layout, Thailand's from the copy.",
    refresh: "http",
    resources: (ctx) => [
      carried("health/owid-covid/THA_covid_data.csv", { format: "csv", columns: ["date", "new_cases"], asOf: csvColumnMax("date") }),
      download(ctx.origin, "compact.csv", { format: "csv", columns: ["country", "code", "date", "new_cases"], asOf: csvColumnMax("date") }, { dataDirFile: COVID_WORLD_FILE }),
    ],
  },
  {
    name: "worldbank_population",
    usedBy: ["outbreak"],
    title: "World Bank total population by country and year (World Development Indicators SP.POP.TOTL, Indicators API v2)",
    // One page for every country and year (~17,500 rows of 266 economies); the parse refuses an answer of several pages.
    url: WORLDBANK_POPULATION_URL,
    otherUrls: ["https://data.worldbank.org/indicator/SP.POP.TOTL", "https://population.un.org/wpp/"],
    format: "json",
    cadence: "yearly",
    licence: "CC BY 4.0",
    attribution: "World Bank, World Development Indicators, SP.POP.TOTL (from UN World Population Prospects and national sources)",
    dataDirPath: POPULATION_FILE,
    liveFormat: `The API answers JSON ([ { page, pages, per_page, total, lastupdated }, [ { countryiso3code, date, value, … } ] ], aggregates included); the mirror holds a derived CSV (iso3, year, population) of ISO 3166-1 alpha-3 codes and XKX. pipeline/health/worldbank-population.ts keeps the same codes from the JSON; pipeline/health/population.ts reads ${WORLDBANK_POPULATION_JSON} when a refresh linked it, else the CSV.`,
    refresh: "http",
    resources: (ctx) => [
      carried(POPULATION_FILE, { format: "csv", columns: ["iso3", "year", "population"], asOf: csvColumnMax("year") }),
      // The answer is a top-level array [metadata, rows]: its rows are at index 1.
      download(ctx.origin, "SP.POP.TOTL.json", { format: "json", rowsAt: "1", validate: parseWorldBankPopulation, asOf: worldBankPopulationAsOf }, { dataDirFile: WORLDBANK_POPULATION_JSON }),
    ],
  },
  {
    name: "unlocode",
    usedBy: ["supply_chain"],
    title: "UN/LOCODE code list, one CSV per country (geoapify/un-locode, geocoded)",
    url: "https://raw.githubusercontent.com/geoapify/un-locode/main/src/data",
    otherUrls: [UNLOCODE_LISTING_URL, "https://unece.org/trade/cefact/unlocode-code-list-country-and-territory"],
    format: "csv",
    cadence: "yearly",
    licence: "MIT (geoapify/un-locode); UN/LOCODE itself is free to use (UNECE)",
    attribution: "UNECE UN/LOCODE; geocoding by Geoapify (github.com/geoapify/un-locode)",
    dataDirPath: "ports/unlocode",
    upstream: {
      stopped: "geoapify/un-locode, the geocoded copy fetched, last changed 2024-10: UNECE's later releases (two a year) do not reach it",
      alternatives: "named only: UNECE's official UN/LOCODE releases (https://unece.org/trade/cefact/unlocode-code-list-country-and-territory; a ZIP of CSVs per release, coordinates where UNECE has them) — not fetched: the copy's geocoding (~22.8k coordinates the official list lacks) is what the port table needs",
    },
    refresh: "http",
    resources: (ctx) => unlocodeFiles(ctx).map((f) => unlocodeSpec(ctx, f)),
    discover: async (ctx, fetchText) => {
      if (unlocodeFiles(ctx).length > 0) return [];
      const listing = JSON.parse(await fetchText(unlocodeListingUrl(ctx.env))) as { name?: unknown }[];
      const names = listing.map((e) => e.name).filter((n): n is string => typeof n === "string" && UNLOCODE_FILE.test(n)).sort();
      if (names.length === 0) throw new Error("no <country>.csv in the repository listing");
      return names.map((f) => unlocodeSpec(ctx, f));
    },
  },
  {
    name: "wpi",
    usedBy: ["supply_chain"],
    title: "NGA World Port Index (Pub 150)",
    url: "https://msi.nga.mil/api/publications/download?type=view&key=16920959/SFH00000/UpdatedPub150.csv",
    format: "csv",
    cadence: "irregular",
    licence: "US government work: public domain",
    attribution: "National Geospatial-Intelligence Agency, World Port Index (Pub 150)",
    dataDirPath: "ports/wpi/WPI.csv",
    liveFormat: "UpdatedPub150.csv has the mirror's columns without the leading OID_ (unused).",
    refresh: "http",
    resources: (ctx) => [
      download(ctx.origin, "WPI.csv", { format: "csv", columns: ["World Port Index Number", "Main Port Name", "UN/LOCODE", "Latitude", "Longitude"], minRows: 1000 }, { dataDirFile: "ports/wpi/WPI.csv" }),
    ],
  },
  {
    name: "portwatch_ports",
    usedBy: ["supply_chain"],
    title: "IMF PortWatch ports database (ArcGIS feature service)",
    url: "https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/PortWatch_ports_database/FeatureServer/0",
    otherUrls: ["https://portwatch.imf.org/"],
    format: "json",
    cadence: "irregular",
    licence: PORTWATCH_TERMS,
    attribution: "IMF PortWatch; Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225",
    nonCommercial: PORTWATCH_RESTRICTION,
    dataDirPath: "ports/portwatch/PortWatch_ports_database.csv",
    liveFormat: "The service answers JSON pages of attributes, written here as CSV in the mirror's column order; X and Y (Web Mercator geometry, unused) stay empty.",
    refresh: "http",
    resources: (ctx) => [{
      file: "PortWatch_ports_database.csv",
      url: `${joinUrl(ctx.origin, "query")}?where=1%3D1&outFields=*&orderByFields=ObjectId&f=json`,
      dataDirFile: "ports/portwatch/PortWatch_ports_database.csv",
      adapterReadsLive: true,
      check: { format: "csv", columns: ["portid", "portname", "lat", "lon", "LOCODE"], minRows: 1000 },
      arcgis: { pageSize: 1000, columns: PORTWATCH_PORTS_COLUMNS, dateColumns: [] },
    }],
  },
  {
    name: "portwatch_daily",
    usedBy: ["supply_chain"],
    title: "IMF PortWatch daily port calls and trade estimates per port, merged by date",
    url: "https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Ports_Data/FeatureServer/0",
    otherUrls: ["https://portwatch.imf.org/"],
    format: "json",
    cadence: "weekly",
    licence: PORTWATCH_TERMS,
    attribution: "IMF PortWatch; Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225",
    nonCommercial: PORTWATCH_RESTRICTION,
    dataDirPath: "ports/portwatch/daily",
    liveFormat: `JSON pages of attributes (date as epoch ms), written as CSV in the mirror's 30 columns with date as YYYY-MM-DD; each refresh asks for the last ${PORTWATCH_REVISION_DAYS} days before the copy's last day and merges by date.`,
    refresh: "http",
    resources: portwatchDaily,
    discover: portwatchDailyDiscover,
  },
  {
    name: "portwatch_tankers",
    usedBy: ["supply_chain"],
    title: "Tanker port calls per country per day (derived from PortWatch daily data)",
    url: null,
    otherUrls: ["https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Ports_Data/FeatureServer/0"],
    format: "csv",
    cadence: "static",
    licence: PORTWATCH_TERMS,
    attribution: "IMF PortWatch (derived: tanker calls summed per country)",
    nonCommercial: PORTWATCH_RESTRICTION,
    dataDirPath: "ports/portwatch/portwatch_tanker_daily_by_country.csv",
    liveFormat: "No published file: it is the sum of every port's tanker calls per country, which needs the whole daily service (millions of rows).",
    refresh: "none",
    resources: () => [carried("ports/portwatch/portwatch_tanker_daily_by_country.csv", { format: "csv", columns: ["country", "date", "tanker_calls"], asOf: csvColumnMax("date") })],
  },
  {
    name: "ais_sample",
    usedBy: ["supply_chain"],
    title: "Decoded AIS messages, one minute worldwide (sample)",
    url: null,
    format: "csv",
    cadence: "static",
    licence: "MIT",
    attribution: "Decoded AIS sample, 2018-07-06 (MIT-licensed public repository)",
    dataDirPath: "ports/ais/ais_sample.csv",
    liveFormat: "A fixed sample: there is no keyless live AIS feed.",
    refresh: "none",
    resources: () => [carried("ports/ais/ais_sample.csv", { format: "csv", columns: ["mmsi", "x", "y", "sog", "nav_status"] })],
  },
  {
    name: "era5",
    // Drought answers when the served grid was built from it (GRID_SOURCE=auto picks it first; lib/drought/grid-sources.ts).
    usedBy: ["drought"],
    title: "ERA5-Land monthly means, total precipitation and 2 m temperature (Copernicus CDS API)",
    url: "https://cds.climate.copernicus.eu/api/retrieve/v1/processes/reanalysis-era5-land-monthly-means/execution",
    otherUrls: ["https://cds.climate.copernicus.eu/datasets/reanalysis-era5-land-monthly-means"],
    format: "netcdf",
    cadence: "monthly",
    // CC-BY 4.0 replaced the "Licence to use Copernicus Products" in the CDS on 2 July 2025 (ECMWF forum notice);
    // the CDS still asks each account to accept the dataset's licence before its first request (else HTTP 403).
    licence: "CC-BY 4.0 (Copernicus products in the CDS since 2 July 2025); accept it on the dataset's CDS page first",
    attribution: "Contains modified Copernicus Climate Change Service information; Muñoz Sabater, J. (2019): ERA5-Land monthly averaged data from 1950 to present, C3S Climate Data Store, doi:10.24381/cds.68d2bb30",
    credential: "CDSAPI_KEY",
    dataDirPath: "climate/era5-land-sample",
    liveFormat: "CDS jobs (submit, poll, download; pipeline/sources/cds.ts) for Thailand's box from 1991 to the month 3 months back: a ZIP of one NetCDF-4 per step type (tp in m per day, monthly means of daily totals; t2m in K; valid_time) merged into one NetCDF-4 (era5-merge.ts); the mirror holds 2020–2021 CDS output (NetCDF-3, time) over Vietnam.",
    refresh: "cds",
    maxBytes: 2 * GiB,
    resources: (ctx) => [
      ...mirrorFiles(ctx.dataDir, "climate/era5-land-sample", /\.nc$/).map((f) => carried(join("climate/era5-land-sample", f), { format: "netcdf" })),
      // The CDS download, linked into the inputs tree where GRID_SOURCE=netcdf finds it (docs/methods/reanalysis.md).
      { file: ERA5_FILE, dataDirFile: ERA5_DATA_DIR_FILE, adapterReadsLive: true, check: { format: "netcdf" } },
    ],
  },
  {
    name: "precl",
    // Drought answers when the served grid was built from the keyless pair (lib/drought/grid-sources.ts).
    usedBy: ["drought"],
    title: "NOAA PSL PREC/L 0.5° monthly land precipitation (keyless gridded precipitation)",
    url: "https://downloads.psl.noaa.gov/Datasets/precl/0.5deg/precip.mon.mean.0.5x0.5.nc",
    format: "netcdf",
    cadence: "monthly",
    licence: "NOAA PSL: public domain",
    attribution: "Chen et al. 2002, PREC/L; NOAA PSL, Boulder, Colorado",
    dataDirPath: null,
    liveFormat: "Monthly mean precipitation rate (mm/day), global 0.5°, 1948 to date; the mirror has no copy. Linked into the inputs tree as climate/precl/precip.mon.mean.0.5x0.5.nc, where the build picks it up with GHCN-CAMS (docs/methods/reanalysis.md).",
    refresh: "http",
    maxBytes: 2 * GiB,
    resources: (ctx) => [download(ctx.origin, "precip.mon.mean.0.5x0.5.nc", { format: "netcdf" }, { dataDirFile: PRECL_DATA_DIR_FILE })],
  },
  {
    name: "ghcn_cams",
    // Drought answers when the served grid was built from the keyless pair (lib/drought/grid-sources.ts).
    usedBy: ["drought"],
    title: "NOAA GHCN-CAMS 0.5° monthly 2 m air temperature (keyless gridded temperature)",
    url: "https://downloads.psl.noaa.gov/Datasets/ghcncams/air.mon.mean.nc",
    format: "netcdf",
    cadence: "monthly",
    licence: "NOAA PSL: public domain",
    attribution: "Fan & van den Dool 2008, GHCN-CAMS; NOAA PSL, Boulder, Colorado",
    dataDirPath: "climate/ghcn-cams-sample/air.mon.mean.nc",
    liveFormat: "The whole record (1948 to date); the mirror's copy is an 8-month 2018 extract of the same file layout.",
    refresh: "http",
    maxBytes: 2 * GiB,
    resources: (ctx) => [download(ctx.origin, "air.mon.mean.nc", { format: "netcdf" }, { dataDirFile: GHCN_CAMS_DATA_DIR_FILE })],
  },
  {
    name: "geoboundaries",
    usedBy: ["drought", "boundaries", "outbreak"],
    title: "geoBoundaries gbOpen Thailand ADM1 provinces (normalised copy)",
    url: "https://www.geoboundaries.org/api/current/gbOpen/THA/ADM1/",
    format: "geojson",
    cadence: "static",
    licence: "ODbL-1.0 (derived from OpenStreetMap)",
    attribution: "Runfola et al. 2020, geoBoundaries, doi:10.1371/journal.pone.0231866",
    dataDirPath: "boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson",
    liveFormat: "The API answers JSON metadata with a download link to the raw boundaries (shapeName, shapeISO); the mirror holds a normalised copy with ISO codes, English and Thai names. Boundaries change rarely: not refreshed.",
    refresh: "none",
    resources: () => [carried("boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson", { format: "geojson", minRows: 77 })],
  },
  {
    name: "province_names",
    usedBy: ["drought", "boundaries", "outbreak"],
    title: "Province name variants and the opengisdata-thailand provinces (alias sources)",
    url: null,
    format: "csv",
    cadence: "static",
    licence: "no licence stated (used for cross-checks and aliases only)",
    attribution: "province_name_variants.csv; opengisdata-thailand provinces.geojson",
    dataDirPath: "boundaries",
    liveFormat: "Static reference files without a public origin to refresh from.",
    refresh: "none",
    resources: () => [
      carried("boundaries/province_name_variants.csv", { format: "csv" }),
      carried("boundaries/opengisdata-thailand/provinces.geojson", { format: "geojson", minRows: 77 }, "opengisdata-thailand/provinces.geojson"),
    ],
  },
];

export function sourceByName(name: string): SourceEntry | undefined {
  return SOURCES.find((s) => s.name === name);
}

/** The origin a refresh uses: SOURCE_URL_<NAME> when set, else the registry's. */
export function effectiveOrigin(entry: SourceEntry, env: NodeJS.ProcessEnv): { url: string | null; overridden: boolean } {
  const override = env[overrideVariable(entry.name)];
  if (override) return { url: override, overridden: true };
  const legacy = entry.legacyUrlVariable ? env[entry.legacyUrlVariable] : undefined;
  if (legacy) {
    deprecated(entry.legacyUrlVariable!, overrideVariable(entry.name));
    return { url: legacy, overridden: true };
  }
  return { url: entry.url, overridden: false };
}
