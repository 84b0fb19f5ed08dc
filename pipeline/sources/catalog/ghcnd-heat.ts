// The source "ghcnd_heat" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { NOAA_ACCESS_URL } from "../../inputs/ghcnd/refresh.ts";
import { BY_YEAR_HEADER, HEAT_ACCESS_VARIABLE, HEAT_BASE_FIRST_YEAR, HEAT_BY_YEAR_DIR, HEAT_REFRESH_DAYS, HEAT_STATIONS_DIR, INVENTORY_FILE, NOAA_GHCND_URL, ghcndHeatDiscover, ghcndHeatResources } from "../../inputs/ghcnd/heat-network.ts";
import type { SourceEntry } from "../types.ts";
import { GiB } from "./shared.ts";

export const source: SourceEntry = {
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
};
