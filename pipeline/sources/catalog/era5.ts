// The source "era5" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import type { SourceEntry } from "../types.ts";
import { ERA5_DATA_DIR_FILE, ERA5_FILE } from "../cds.ts";
import { GiB, carried, mirrorFiles } from "./shared.ts";

export const source: SourceEntry = {
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
  liveFormat: "CDS jobs (submit, poll, download; pipeline/sources/cds.ts) for the drought region's box (Thailand, Vietnam, Malaysia with Sabah and Sarawak: 97..120 °E, 0.5..24 °N) from 1991 to the month 3 months back, at most 8 whole years a job (no job larger than the former single one over Thailand): a ZIP of one NetCDF-4 per step type (tp in m per day, monthly means of daily totals; t2m in K; valid_time) merged into one NetCDF-4 (era5-merge.ts); the mirror holds 2020–2021 CDS output (NetCDF-3, time) over Vietnam.",
  refresh: "cds",
  maxBytes: 2 * GiB,
  resources: (ctx) => [
    ...mirrorFiles(ctx.dataDir, "climate/era5-land-sample", /\.nc$/).map((f) => carried(join("climate/era5-land-sample", f), { format: "netcdf" })),
    // The CDS download, linked into the inputs tree where GRID_SOURCE=netcdf finds it (docs/methods/reanalysis.md).
    { file: ERA5_FILE, dataDirFile: ERA5_DATA_DIR_FILE, adapterReadsLive: true, check: { format: "netcdf" } },
  ],
};
