// NOAA's GHCN-Daily station list (ghcnd-stations.txt, fixed-width columns; NOAA's readme.txt section IV) and the
// station index derived from it when the data directory has no index of its own (a first run on an empty
// DATA_DIR): every station inside the provinces' box widened by STATION_MARGIN_DEG, in the list's order. The
// derived index carries a `listed_by` column: its rows name stations whose file may not have arrived yet, which
// readers leave out instead of refusing the index (stations.ts).
import type { BBox } from "../netcdf/index.ts";
import { InputError } from "./parse.ts";

export const NOAA_STATION_LIST_URL = "https://www.ncei.noaa.gov/pub/data/ghcn/daily/ghcnd-stations.txt";
/** Overrides the station list's origin (mirrors, tests), as SOURCE_URL_GHCND overrides the access files'. */
export const STATION_LIST_VARIABLE = "SOURCE_URL_GHCND_STATIONS";
/** Stations this far outside the provinces' box still inform the cells near the border (Pakse, Thakhek). */
export const STATION_MARGIN_DEG = 1;
export const LISTED_BY = "ghcnd-stations.txt";

export interface ListedStation {
  id: string;
  /** As the list writes them, so the index keeps the same digits. */
  lat: string;
  lon: string;
  elev: string;
  name: string;
}

export function stationListUrl(env: NodeJS.ProcessEnv): string {
  return env[STATION_LIST_VARIABLE] || NOAA_STATION_LIST_URL;
}

/**
 * The lines of a NOAA fixed-width station file (ghcnd-stations.txt, ghcnd-inventory.txt: ID 1–11, LATITUDE 13–20,
 * LONGITUDE 22–30, 1-based, inclusive), each with its id and coordinates as written, checked; blank lines skipped.
 */
export function* noaaStationLines(text: string, file: string, kind: string): Generator<{ line: string; no: number; id: string; lat: string; lon: string }> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].endsWith("\r") ? lines[i].slice(0, -1) : lines[i];
    if (line.trim() === "") continue;
    const id = line.slice(0, 11).trim();
    const lat = line.slice(12, 20).trim();
    const lon = line.slice(21, 30).trim();
    if (!/^[A-Z0-9]{11}$/.test(id)) throw new InputError(file, i + 1, `not a ${kind} line (station id "${id}")`);
    if (lat === "" || lon === "" || !(Math.abs(Number(lat)) <= 90) || !(Math.abs(Number(lon)) <= 180)) throw new InputError(file, i + 1, `${id}: coordinates "${lat}", "${lon}" out of range`);
    yield { line, no: i + 1, id, lat, lon };
  }
}

/** ELEVATION 32–37, NAME 42–71 besides the id and coordinates. */
export function parseStationList(text: string, file: string): ListedStation[] {
  const out: ListedStation[] = [];
  for (const { line, id, lat, lon } of noaaStationLines(text, file, LISTED_BY)) {
    const elev = line.slice(31, 37).trim();
    out.push({ id, lat, lon, elev: elev === "" || !Number.isFinite(Number(elev)) ? "-999.9" : elev, name: line.slice(41, 71).trim() });
  }
  if (out.length === 0) throw new InputError(file, 1, "no station line");
  return out;
}

/** The listed stations inside `box` widened by STATION_MARGIN_DEG, in list order. */
export function stationsInBox(stations: readonly ListedStation[], box: BBox): ListedStation[] {
  const m = STATION_MARGIN_DEG;
  return stations.filter((s) => {
    const la = Number(s.lat);
    const lo = Number(s.lon);
    return la >= box.south - m && la <= box.north + m && lo >= box.west - m && lo <= box.east + m;
  });
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** `_stations.csv` for the stations: one access file `<id>.csv` each; `listedBy` names the NOAA list they came from. */
export function stationIndexCsv(stations: readonly ListedStation[], listedBy = LISTED_BY): string {
  const rows = stations.map((s) => [s.id, quote(s.name), s.lat, s.lon, s.elev, `${s.id}.csv`, listedBy].join(","));
  return ["station,name,lat,lon,elev_m,file,listed_by", ...rows].join("\n") + "\n";
}
