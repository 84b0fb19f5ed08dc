// GHCN-Daily in the source registry (pipeline/sources): one NOAA access CSV per station of the index
// (`_stations.csv`: the data directory's, carried over as it is, or else derived from NOAA's station list), checked
// by the station parser itself (a value out of its plausible range dropped, a file with many refused; the file's
// STATION is the index's) and merged per station by DATE into the station's history, so a day NOAA has dropped is
// kept and a revised day replaces the old one. The access layout (quoted, *_ATTRIBUTES flags, tenths of mm / °C)
// differs from the mirror's CDO export (mm / °C); parse.ts reads both. Because the units differ, the two are never
// mixed row by row: the first download replaces a CDO file when it reaches at least as far back (the access files
// hold each station's whole record), otherwise it is refused and the CDO copy kept.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { sortedCsvTailMax } from "../../sources/data-as-of.ts";
import type { ContentCheck, ResourceContext, ResourceSpec } from "../../sources/types.ts";
import { log } from "../../../lib/log.ts";
import { InputError, isGhcndElement, parseGhcndCsv, type DailySeries } from "./parse.ts";
import { GHCND_SUBDIR, STATION_INDEX_FILE, parseStationIndex, readStationIndex } from "./stations.ts";
import { LISTED_BY, parseStationList, stationIndexCsv, stationListUrl, stationsInBox, type ListedStation } from "./station-list.ts";
import { loadProvinces, provincesBox, provincesPath } from "../../provinces/boundaries.ts";

export const NOAA_ACCESS_URL = "https://www.ncei.noaa.gov/data/global-historical-climatology-network-daily/access";

/**
 * The parser is the content check (the only reading of each row): a file it refuses, or one for another station, is
 * not used. The element columns of `columns` are the ones the user needs (PRCP for the drought grid, TMAX for the heat
 * network): a station without the others is kept. Values out of range are dropped by the parser and logged here.
 */
export function stationCheck(id: string, columns: readonly string[] = ["STATION", "DATE", "PRCP"]): ContentCheck {
  const require = columns.filter(isGhcndElement);
  return {
    format: "csv",
    columns,
    asOf: sortedCsvTailMax("DATE"),
    parse: (text, file) => {
      let series: DailySeries;
      try {
        series = parseGhcndCsv(text, file, { require });
      } catch (err) {
        throw err instanceof InputError ? new Error(`line ${err.line}: ${err.reason}`) : err;
      }
      if (series.station !== id) throw new Error(`line 2: STATION ${series.station}, expected ${id}`);
      const dropped = series.outOfRange;
      if (dropped.length > 0) {
        const first = dropped.slice(0, 5).map((v) => `line ${v.line}: ${v.element} ${v.value} on ${v.date}`);
        log.warn({ file, station: id, values: dropped.length, first }, "GHCN-Daily values outside the plausible ranges dropped");
      }
      return series.counts.rows;
    },
  };
}

/** One station's access file, merged by DATE into its history, linked into the inputs tree under `folder`. */
export function stationSpec(base: string, id: string, file: string, folder: string = GHCND_SUBDIR, check: ContentCheck = stationCheck(id)): ResourceSpec {
  return {
    file,
    url: `${base}/${id}.csv`,
    dataDirFile: join(folder, file),
    adapterReadsLive: true,
    check,
    merge: { kind: "csv-rows", key: ["DATE"], onHeaderChange: "replace", sort: true },
  };
}

/** The stations of NOAA's list around the provinces of the data directory. */
function listedStations(ctx: ResourceContext, text: string, file: string): ListedStation[] {
  return stationsInBox(parseStationList(text, file), provincesBox(loadProvinces(provincesPath(ctx.dataDir))));
}

/** The folder whose index lists the stations: the current copy's, else the data directory's; none from scratch. */
function indexDir(ctx: ResourceContext): string | undefined {
  return [ctx.currentDir, join(ctx.dataDir, GHCND_SUBDIR)].find((d): d is string => d !== undefined && existsSync(join(d, STATION_INDEX_FILE)));
}

export const INDEX_CHECK: ContentCheck = {
  format: "csv",
  columns: ["station", "name", "lat", "lon", "elev_m", "file"],
  validate: (text, file) => {
    parseStationIndex(text, file, ".");
  },
};

/**
 * The station index and one file per station of the current copy's index (or the data directory's). The data
 * directory's index is carried as it is (the mirror's choice of stations); without one, the index is derived from
 * NOAA's station list at every refresh, so stations NOAA adds join the next night.
 */
export async function ghcndResources(ctx: ResourceContext): Promise<ResourceSpec[]> {
  const base = ctx.origin.replace(/\/$/, "");
  const dir = indexDir(ctx);
  const index = dir ? await readStationIndex(dir, { all: true }) : [];
  const indexSpec: ResourceSpec = existsSync(join(ctx.dataDir, GHCND_SUBDIR, STATION_INDEX_FILE))
    ? { file: STATION_INDEX_FILE, dataDirFile: join(GHCND_SUBDIR, STATION_INDEX_FILE), adapterReadsLive: true, check: INDEX_CHECK }
    : {
        file: STATION_INDEX_FILE,
        url: stationListUrl(ctx.env),
        dataDirFile: join(GHCND_SUBDIR, STATION_INDEX_FILE),
        adapterReadsLive: true,
        transform: (text, file) => stationIndexCsv(listedStations(ctx, text, file)),
        check: INDEX_CHECK,
      };
  return [indexSpec, ...index.map((e) => stationSpec(base, e.id, basename(e.path)))];
}

/** No index in the raw cache or the data directory (a first run on an empty DATA_DIR): the stations NOAA lists. */
export async function ghcndDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (indexDir(ctx)) return [];
  const url = stationListUrl(ctx.env);
  const base = ctx.origin.replace(/\/$/, "");
  return listedStations(ctx, await fetchText(url), LISTED_BY).map((s) => stationSpec(base, s.id, `${s.id}.csv`));
}
