// The GHCN-Monthly TAVG stations of a box: the inventory and the .dat file (plain or gzip) read and joined by id.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import type { BBox } from "../netcdf/index.ts";
import { GhcnmInputError, parseGhcnmDat, parseGhcnmInventory, type GhcnmCounts, type GhcnmSeries, type GhcnmStation } from "./parse.ts";

/** Where the data directory keeps the mirror's Southeast Asian extract (../shared/data PROVENANCE.md). */
export const GHCNM_SUBDIR = join("climate", "ghcnm-v4-tavg");
export const GHCNM_DAT_FILE = "ghcnm.tavg.v4.qcf.seasia.dat.gz";
export const GHCNM_INV_FILE = "ghcnm.tavg.v4.qcf.seasia.inv";

export type GhcnmStationSeries = GhcnmStation & GhcnmSeries;

function readText(path: string): string {
  const bytes = readFileSync(path);
  if (!path.endsWith(".gz")) return bytes.toString("latin1");
  try {
    return gunzipSync(bytes).toString("latin1");
  } catch (err) {
    throw new GhcnmInputError(path, 0, `not a complete gzip file (${(err as Error).message})`);
  }
}

/**
 * The stations inside `box` with their TAVG series. A station of the .dat file missing from the inventory is
 * refused (its place is unknown); an inventory station without data is left out.
 */
export function readGhcnmStations(datPath: string, invPath: string, box: BBox): { stations: GhcnmStationSeries[]; counts: GhcnmCounts; inventory: number } {
  const inventory = parseGhcnmInventory(readText(invPath), invPath);
  const { series, counts } = parseGhcnmDat(readText(datPath), datPath);
  const byId = new Map(inventory.map((s) => [s.id, s]));
  for (const id of series.keys()) {
    if (!byId.has(id)) throw new GhcnmInputError(datPath, 0, `station ${id} has data but is not in ${invPath}`);
  }
  const stations: GhcnmStationSeries[] = [];
  for (const st of inventory) {
    const s = series.get(st.id);
    if (s === undefined) continue;
    if (st.lat < box.south || st.lat > box.north || st.lng < box.west || st.lng > box.east) continue;
    stations.push({ ...st, ...s });
  }
  return { stations, counts, inventory: inventory.length };
}
