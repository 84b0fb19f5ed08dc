// The source "ghcn_cams" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { GHCN_CAMS_DATA_DIR_FILE } from "../../grid/grid-source.ts";
import { GiB, download } from "./shared.ts";

export const source: SourceEntry = {
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
};
