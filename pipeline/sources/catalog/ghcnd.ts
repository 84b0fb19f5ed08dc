// The source "ghcnd" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { ghcndDiscover, ghcndResources, NOAA_ACCESS_URL } from "../../inputs/ghcnd/refresh.ts";
import { NOAA_STATION_LIST_URL } from "../../inputs/ghcnd/station-list.ts";
import { GHCND_SUBDIR } from "../../inputs/ghcnd/stations.ts";
import type { SourceEntry } from "../types.ts";

export const source: SourceEntry = {
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
};
