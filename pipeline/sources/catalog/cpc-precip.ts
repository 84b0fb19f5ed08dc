// The source "cpc_precip" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in
// prose). NOAA PSL's CPC daily gauge analysis, one file a year: each year after the mirror's series (1979–2023) is
// downloaded and reduced to the mirror's 1° monthly layout (pipeline/inputs/cpc/daily-to-monthly.ts), one small file
// a year, which the regional grid appends to the mirror's series (pipeline/grid/cpc-extension.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CPC_EXTENSION_DIR, cpcExtensionFile } from "../../grid/grid-source.ts";
import { reduceCpcDailyYear, writeCpcMonthly } from "../../inputs/cpc/daily-to-monthly.ts";
import { ContentError } from "../content-check.ts";
import type { ResourceSpec, SourceEntry } from "../types.ts";
import { joinUrl } from "./shared.ts";

/** The mirror's series ends with this year; the source brings the years after it. */
export const CPC_MIRROR_LAST_YEAR = 2023;

/** Years to fetch: after the mirror's, to the year of last month (this year's file has no whole month before February). */
export function cpcYears(now: Date): number[] {
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).getUTCFullYear();
  return Array.from({ length: Math.max(0, last - CPC_MIRROR_LAST_YEAR) }, (_, i) => CPC_MIRROR_LAST_YEAR + 1 + i);
}

/** The year's daily file (bytes) → the monthly file (bytes); a refusal names the download. */
async function reduceYear(bytes: Uint8Array, year: number): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "cpc-precip-"));
  const daily = join(dir, `precip.${year}.nc`);
  try {
    writeFileSync(daily, bytes);
    const monthly = await reduceCpcDailyYear(daily, year).catch((err: Error) => {
      throw new ContentError(`precip.${year}.nc`, err.message.replace(`${daily}: `, ""));
    });
    const out = join(dir, "monthly.nc");
    await writeCpcMonthly(out, monthly);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const source: SourceEntry = {
  name: "cpc_precip",
  // Drought answers when the served grid is the regional one (GRID_SOURCE=cpc).
  usedBy: ["drought"],
  title: "NOAA PSL CPC Global Unified Gauge-Based Analysis of Daily Precipitation (0.5°, a file a year), the years after the mirror's reduced to its 1° monthly grid",
  url: "https://downloads.psl.noaa.gov/Datasets/cpc_global_precip",
  otherUrls: ["https://psl.noaa.gov/data/gridded/data.cpc.globalprecip.html"],
  format: "netcdf",
  cadence: "daily",
  licence: "NOAA PSL: free to use, with acknowledgement",
  attribution: "CPC Global Unified Gauge-Based Analysis of Daily Precipitation data provided by the NOAA PSL, Boulder, Colorado, USA; Xie et al. 2007, Chen et al. 2008",
  dataDirPath: "climate/cpc-seasia-1deg",
  liveFormat: `precip.YYYY.nc (NetCDF-4, precip(time, lat, lon) mm/day, 0.5°, one step a day), for each year from ${CPC_MIRROR_LAST_YEAR + 1} to the year of last month: each day's four 0.5° cells averaged to the mirror's 1° cells (92.5..140.5 °E, −10.5..28.5 °N), the days summed to whole months (the current month left out), kept as ${CPC_EXTENSION_DIR}/cpc_precip_seasia_1deg_monthly_YYYY.nc in the mirror's layout; the regional grid appends them to the mirror's 1979–2023 series, masked to its land cells.`,
  refresh: "http",
  // ~65 MB a year.
  maxBytes: 400 * 1024 * 1024,
  resources: (ctx) =>
    cpcYears(ctx.now).map((year): ResourceSpec => ({
      file: `cpc_precip_seasia_1deg_monthly_${year}.nc`,
      url: joinUrl(ctx.origin, `precip.${year}.nc`),
      dataDirFile: cpcExtensionFile(year),
      adapterReadsLive: true,
      derive: (bytes) => reduceYear(bytes, year),
      check: { format: "netcdf" },
    })),
};
