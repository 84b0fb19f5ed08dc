// The content check of a NetCDF download beyond its signature: the file opens and has a monthly time axis; its last
// month gives the source's dataAsOf (the month's last day). A text format's check needs no file; this one reads the
// file where it lies (the staged raw-cache copy or the data directory).
import { openNetcdf, timeAxisMonths } from "../inputs/netcdf/index.ts";
import { monthEndDay } from "./data-as-of.ts";

export async function netcdfDataAsOf(path: string): Promise<string> {
  const ds = await openNetcdf(path);
  try {
    const months = timeAxisMonths(ds);
    if (months.length === 0) throw new Error(`${path}: the time axis is empty`);
    return monthEndDay(Math.max(...months));
  } finally {
    ds.close();
  }
}
