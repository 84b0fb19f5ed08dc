// The source "precl" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { PRECL_DATA_DIR_FILE } from "../../grid/grid-source.ts";
import { GiB, download } from "./shared.ts";

export const source: SourceEntry = {
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
};
