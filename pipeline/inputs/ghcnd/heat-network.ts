// GHCN-Daily worldwide for the heatwave answer (source `ghcnd_heat`): a thinned network of stations chosen from NOAA's
// ghcnd-inventory.txt, each station's access CSV (its whole record: the 1981–2010 base), asked again monthly, and the
// TMAX rows of those stations from NOAA's yearly files (by_year/<YEAR>.csv.gz, last year and this year), asked at
// every refresh, so each station's latest year is current. Everything lands under climate/ghcnd-world/ in the inputs
// tree; without it (offline, the mirror) the heatwave builder reads the Thai stations alone.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { intSetting } from "../../../lib/config.ts";
import type { ResourceContext, ResourceSpec } from "../../sources/types.ts";
import { InputError } from "./parse.ts";
import { INDEX_CHECK, NOAA_ACCESS_URL, stationCheck, stationSpec } from "./refresh.ts";
import { noaaStationLines, stationIndexCsv } from "./station-list.ts";
import { STATION_INDEX_FILE, readStationIndex } from "./stations.ts";

export const NOAA_GHCND_URL = "https://www.ncei.noaa.gov/pub/data/ghcn/daily";
/** Overrides the access files' origin, as SOURCE_URL_GHCND_HEAT overrides the inventory's and the yearly files'. */
export const HEAT_ACCESS_VARIABLE = "SOURCE_URL_GHCND_HEAT_ACCESS";
export const HEAT_STATIONS_DIR = join("climate", "ghcnd-world");
export const HEAT_BY_YEAR_DIR = join(HEAT_STATIONS_DIR, "by_year");
export const INVENTORY_FILE = "ghcnd-inventory.txt";
/** NOAA's by_year readme: the files have no header; these are its field names. */
export const BY_YEAR_HEADER = "ID,DATE,ELEMENT,DATA_VALUE,M_FLAG,Q_FLAG,S_FLAG,OBS_TIME";
/** Days before a station file (or the inventory) is asked again: the base period does not change. */
export const HEAT_REFRESH_DAYS = 30;
/** A station must report TMAX from this year or earlier: the 1981–2010 base of the heatwave thresholds. */
export const HEAT_BASE_FIRST_YEAR = 1981;

export interface InventoryStation {
  id: string;
  /** As the inventory writes them (4 decimals). */
  lat: string;
  lon: string;
  first: number;
  last: number;
}

/** TMAX lines of ghcnd-inventory.txt: ID, LATITUDE, LONGITUDE as in the station list, ELEMENT 32–35, FIRSTYEAR 37–40, LASTYEAR 42–45. */
export function parseTmaxInventory(text: string, file: string): InventoryStation[] {
  const out: InventoryStation[] = [];
  for (const { line, no, id, lat, lon } of noaaStationLines(text, file, INVENTORY_FILE)) {
    if (line.slice(31, 35) !== "TMAX") continue;
    const first = Number(line.slice(36, 40));
    const last = Number(line.slice(41, 45));
    if (!Number.isInteger(first) || !Number.isInteger(last) || first > last) throw new InputError(file, no, `${id}: years "${line.slice(36, 45)}" unreadable`);
    out.push({ id, lat, lon, first, last });
  }
  if (out.length === 0) throw new InputError(file, 1, "no TMAX line");
  return out;
}

export interface HeatNetworkRule {
  /** Cell size in degrees: at most one station per cell. */
  cellDeg: number;
  /** Most stations in the network. */
  maxStations: number;
  /** Still reporting: TMAX to this year or later. */
  lastYear: number;
}

/** GHCND_HEAT_CELL_DEG (default 1) and GHCND_HEAT_MAX_STATIONS (default 1500); still reporting = to last year. */
export function heatNetworkRule(env: NodeJS.ProcessEnv, now: Date): HeatNetworkRule {
  return {
    cellDeg: Math.max(1, intSetting(env, "GHCND_HEAT_CELL_DEG", 1)),
    maxStations: Math.max(1, intSetting(env, "GHCND_HEAT_MAX_STATIONS", 1500)),
    lastYear: now.getUTCFullYear() - 1,
  };
}

/**
 * The network: stations with TMAX from 1981 or earlier to `lastYear` or later; in each cell the one with the longest
 * record (earliest first year, then latest last year, then id). Above `maxStations`, evenly spaced cells in the order
 * of latitude band then longitude, so the thinning spreads over the map instead of dropping a continent.
 */
export function heatNetwork(stations: readonly InventoryStation[], rule: HeatNetworkRule): InventoryStation[] {
  const best = new Map<string, { row: number; col: number; s: InventoryStation }>();
  const longer = (a: InventoryStation, b: InventoryStation) => a.first - b.first || b.last - a.last || (a.id < b.id ? -1 : 1);
  for (const s of stations) {
    if (s.first > HEAT_BASE_FIRST_YEAR || s.last < rule.lastYear) continue;
    const row = Math.floor(Number(s.lat) / rule.cellDeg);
    const col = Math.floor(Number(s.lon) / rule.cellDeg);
    const key = `${row}|${col}`;
    const b = best.get(key);
    if (!b || longer(s, b.s) < 0) best.set(key, { row, col, s });
  }
  const cells = [...best.values()].sort((a, b) => b.row - a.row || a.col - b.col).map((c) => c.s);
  if (cells.length <= rule.maxStations) return cells;
  return Array.from({ length: rule.maxStations }, (_, i) => cells[Math.floor((i * cells.length) / rule.maxStations)]);
}

/** `_stations.csv` of the network (names and elevations come with each station's file). */
export function heatIndexCsv(network: readonly InventoryStation[]): string {
  return stationIndexCsv(network.map((s) => ({ id: s.id, lat: s.lat, lon: s.lon, elev: "-999.9", name: "" })), INVENTORY_FILE);
}

/** A by_year row worth keeping: TMAX of a network station without a NOAA quality flag. */
export function keptByYearLine(line: string, ids: ReadonlySet<string>): boolean {
  // ID (11) "," DATE (8) "," ELEMENT: the element starts at character 21.
  if (!line.startsWith("TMAX", 21) || !ids.has(line.slice(0, 11))) return false;
  return (line.split(",")[5] ?? "") === "";
}

/** Latest DATE (YYYYMMDD) of a kept by_year file, as YYYY-MM-DD. */
function byYearAsOf(text: string): string | null {
  let best = "";
  for (const line of text.split("\n")) {
    const d = line.slice(12, 20);
    if (/^\d{8}$/.test(d) && d > best) best = d;
  }
  return best ? `${best.slice(0, 4)}-${best.slice(4, 6)}-${best.slice(6)}` : null;
}

function byYearSpec(origin: string, year: number, ids: ReadonlySet<string>): ResourceSpec {
  return {
    file: `by_year/${year}.csv`,
    url: `${origin}/by_year/${year}.csv.gz`,
    dataDirFile: join(HEAT_BY_YEAR_DIR, `${year}.csv`),
    adapterReadsLive: true,
    gunzipLines: { header: BY_YEAR_HEADER, keep: (line) => keptByYearLine(line, ids) },
    // January 1st: this year's file may hold no row of the network yet.
    check: { format: "csv", columns: ["ID", "DATE", "ELEMENT", "DATA_VALUE", "Q_FLAG"], minRows: 0, asOf: byYearAsOf },
  };
}

/** Each station's access file (asked monthly) and last year's and this year's TMAX rows (asked every refresh). */
function networkSpecs(ctx: ResourceContext, ids: readonly string[]): ResourceSpec[] {
  const origin = ctx.origin.replace(/\/$/, "");
  const access = (ctx.env[HEAT_ACCESS_VARIABLE] || NOAA_ACCESS_URL).replace(/\/$/, "");
  const set = new Set(ids);
  const year = ctx.now.getUTCFullYear();
  return [
    ...ids.map((id) => ({ ...stationSpec(access, id, `${id}.csv`, HEAT_STATIONS_DIR, stationCheck(id, ["STATION", "DATE", "TMAX"])), refreshDays: HEAT_REFRESH_DAYS })),
    byYearSpec(origin, year - 1, set),
    byYearSpec(origin, year, set),
  ];
}

/** The folder whose index names the network: the current copy's, else the data directory's; none from scratch. */
function networkDir(ctx: ResourceContext): string | undefined {
  return [ctx.currentDir, join(ctx.dataDir, HEAT_STATIONS_DIR)].find((d): d is string => d !== undefined && existsSync(join(d, STATION_INDEX_FILE)));
}

/** The network index (derived from the inventory, asked monthly) and the files of the network the copy names. */
export async function ghcndHeatResources(ctx: ResourceContext): Promise<ResourceSpec[]> {
  const rule = heatNetworkRule(ctx.env, ctx.now);
  const index: ResourceSpec = {
    file: STATION_INDEX_FILE,
    url: `${ctx.origin.replace(/\/$/, "")}/${INVENTORY_FILE}`,
    dataDirFile: join(HEAT_STATIONS_DIR, STATION_INDEX_FILE),
    adapterReadsLive: true,
    transform: (text, file) => heatIndexCsv(heatNetwork(parseTmaxInventory(text, file), rule)),
    check: INDEX_CHECK,
    refreshDays: HEAT_REFRESH_DAYS,
  };
  const dir = networkDir(ctx);
  const ids = dir ? (await readStationIndex(dir, { all: true })).map((e) => e.id) : [];
  return [index, ...(ids.length > 0 ? networkSpecs(ctx, ids) : [])];
}

/** No network index yet (a first run): the network from the origin's inventory. */
export async function ghcndHeatDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (networkDir(ctx)) return [];
  const inventory = parseTmaxInventory(await fetchText(`${ctx.origin.replace(/\/$/, "")}/${INVENTORY_FILE}`), INVENTORY_FILE);
  return networkSpecs(ctx, heatNetwork(inventory, heatNetworkRule(ctx.env, ctx.now)).map((s) => s.id));
}
