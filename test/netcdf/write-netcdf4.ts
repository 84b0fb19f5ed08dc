// The tests' NetCDF-4 writer is the pipeline's (the ERA5 refresh writes its merged file with it).
export * from "../../pipeline/inputs/netcdf/write-netcdf4.ts";
