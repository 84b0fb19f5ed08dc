// The regional grid's precipitation: the mirror's CPC series (1979–2023) continued by the cpc_precip source's yearly
// files (climate/cpc-seasia-1deg/live/, the mirror's layout, whole months only). Each file must start the month after
// the series ends; the first that does not stops the series there (a year that failed to download leaves the later
// ones out rather than a gap). The extension is masked to the cells that have a value in some month of the mirror's
// series (CPC's own coverage: the sea is empty), so no cell joins the grid for the recent years alone.
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { formatMonth } from "../../lib/months.ts";
import { readMonthlyClimateGrid, type BBox, type MonthlyGrid } from "../inputs/netcdf/index.ts";
import { sameAxis } from "./from-netcdf.ts";

const YEAR_FILE = /^cpc_precip_seasia_1deg_monthly_(\d{4})\.nc$/;

export interface CpcSeries {
  grid: MonthlyGrid<"mm" | "degC">;
  /** The extension files appended, in order. */
  appended: string[];
  /** Why the extension stopped before its last file, when it did. */
  stopped?: string;
}

/** The extension's yearly files in `extensionDir`, in year order (what the build reads and fingerprints). */
export function cpcExtensionFiles(extensionDir: string | undefined): string[] {
  return extensionDir && existsSync(extensionDir) ? readdirSync(extensionDir).filter((f) => YEAR_FILE.test(f)).sort().map((f) => join(extensionDir, f)) : [];
}

export async function readCpcSeries(base: string, extensionDir: string | undefined, bbox: BBox): Promise<CpcSeries> {
  const grid = await readMonthlyClimateGrid(base, { kind: "precipitation", bbox });
  const files = cpcExtensionFiles(extensionDir);
  const parts = [grid];
  const appended: string[] = [];
  let stopped: string | undefined;
  for (const f of files) {
    const part = await readMonthlyClimateGrid(f, { kind: "precipitation", bbox });
    if (!sameAxis(part.lats, grid.lats, 1e-6) || !sameAxis(part.lngs, grid.lngs, 1e-6)) throw new Error(`${f}: not on the cells of ${base}`);
    const next = parts.at(-1)!.months.at(-1)! + 1;
    if (part.months[0] !== next) {
      stopped = `${f} starts at ${formatMonth(part.months[0])}, not at ${formatMonth(next)}: the series ends at ${formatMonth(next - 1)}`;
      break;
    }
    parts.push(part);
    appended.push(basename(f));
  }
  if (parts.length === 1) return { grid, appended, stopped };
  const nBase = grid.months.length;
  const months = parts.flatMap((p) => p.months);
  const cells = grid.lats.length * grid.lngs.length;
  const values = new Float64Array(cells * months.length);
  for (let c = 0; c < cells; c++) {
    const own = grid.values.subarray(c * nBase, (c + 1) * nBase);
    const land = own.some((v) => v === v);
    values.set(own, c * months.length);
    let at = c * months.length + nBase;
    for (const p of parts.slice(1)) {
      const n = p.months.length;
      if (land) values.set(p.values.subarray(c * n, (c + 1) * n), at);
      else values.fill(NaN, at, at + n);
      at += n;
    }
  }
  return { grid: { ...grid, months, values }, appended, stopped };
}
