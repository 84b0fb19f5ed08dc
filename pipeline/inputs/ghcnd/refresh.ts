// GHCN-Daily in the source registry (pipeline/sources): one NOAA access CSV per station of the index
// (`_stations.csv`, carried over as it is), checked by the station parser itself (every value in range, the file's
// STATION is the index's) and merged per station by DATE into the station's history, so a day NOAA has dropped is
// kept and a revised day replaces the old one. The access layout (quoted, *_ATTRIBUTES flags, tenths of mm / °C)
// differs from the mirror's CDO export (mm / °C); parse.ts reads both. Because the units differ, the two are never
// mixed row by row: the first download replaces a CDO file when it reaches at least as far back (the access files
// hold each station's whole record), otherwise it is refused and the CDO copy kept.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { sortedCsvTailMax } from "../../sources/data-as-of.ts";
import type { ContentCheck, ResourceContext, ResourceSpec } from "../../sources/types.ts";
import { InputError, parseGhcndCsv } from "./parse.ts";
import { GHCND_SUBDIR, STATION_INDEX_FILE, readStationIndex } from "./stations.ts";

export const NOAA_ACCESS_URL = "https://www.ncei.noaa.gov/data/global-historical-climatology-network-daily/access";

/** The parser is the content check: a file it refuses, or one for another station, is not used. */
export function stationCheck(id: string): ContentCheck {
  return {
    format: "csv",
    columns: ["STATION", "DATE", "PRCP"],
    asOf: sortedCsvTailMax("DATE"),
    validate: (text, file) => {
      let station: string;
      try {
        station = parseGhcndCsv(text, file).station;
      } catch (err) {
        throw err instanceof InputError ? new Error(`line ${err.line}: ${err.reason}`) : err;
      }
      if (station !== id) throw new Error(`line 2: STATION ${station}, expected ${id}`);
    },
  };
}

/** The station index and one file per station, from the current copy's index (or the data directory's). */
export async function ghcndResources(ctx: ResourceContext): Promise<ResourceSpec[]> {
  const dir = ctx.currentDir && existsSync(join(ctx.currentDir, STATION_INDEX_FILE)) ? ctx.currentDir : join(ctx.dataDir, GHCND_SUBDIR);
  const base = ctx.origin.replace(/\/$/, "");
  const index = await readStationIndex(dir);
  return [
    {
      file: STATION_INDEX_FILE,
      dataDirFile: join(GHCND_SUBDIR, STATION_INDEX_FILE),
      adapterReadsLive: true,
      check: { format: "csv", columns: ["station", "name", "lat", "lon", "elev_m", "file"] },
    },
    ...index.map((e): ResourceSpec => {
      const file = basename(e.path);
      return {
        file,
        url: `${base}/${e.id}.csv`,
        dataDirFile: join(GHCND_SUBDIR, file),
        adapterReadsLive: true,
        check: stationCheck(e.id),
        merge: { kind: "csv-rows", key: ["DATE"], onHeaderChange: "replace", sort: true },
      };
    }),
  ];
}
