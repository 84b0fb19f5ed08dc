// What the CDS sends for the ERA5-Land request, read as two raw monthly grids. When the requested variables differ
// in step type (total precipitation is an accumulation, "avgad"; 2 m temperature instantaneous, "avgua") the CDS
// answers with a ZIP holding one NetCDF per step type (data_stream-moda_stepType-avgad.nc, …-avgua.nc), even with
// download_format "unarchived"; otherwise with one NetCDF. Members are NetCDF-4 (HDF5) with a `valid_time`
// coordinate (seconds since 1970-01-01) in today's CDS, NetCDF-3 with `time` in older answers: the NetCDF reader
// takes both. Each variable is found by name or standard_name in whichever member holds it, never by file name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { guessVariable, openNetcdf, readMonthlyVariable, type ClimateKind, type RawMonthlyGrid } from "../inputs/netcdf/index.ts";
import { ContentError } from "./content-check.ts";
import { isZip, unzipMembers } from "./unzip.ts";

const KINDS: readonly ClimateKind[] = ["precipitation", "temperature"];

export type Era5Grids = Record<ClimateKind, RawMonthlyGrid> & { members: string[] };

/** Reads the download at `path` (ZIP of NetCDFs or one NetCDF); each ZIP member may inflate to `maxBytes`. */
export async function readCdsAnswer(path: string, maxBytes: number): Promise<Era5Grids> {
  const bytes = readFileSync(path);
  if (!isZip(bytes)) return { ...(await readVariables([path], basename(path))), members: [basename(path)] };
  const { members } = unzipMembers(bytes, (name) => name.endsWith(".nc"), maxBytes, basename(path));
  const names = Object.keys(members).sort();
  if (names.length === 0) throw new ContentError(basename(path), "the CDS's ZIP holds no NetCDF file");
  const dir = mkdtempSync(join(dirname(path), ".members-"));
  try {
    const files = names.map((name, i) => {
      const file = join(dir, `${i}-${basename(name)}`);
      writeFileSync(file, members[name]);
      return file;
    });
    return { ...(await readVariables(files, `${basename(path)} (${names.join(", ")})`)), members: names };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function readVariables(files: string[], what: string): Promise<Record<ClimateKind, RawMonthlyGrid>> {
  const found: Partial<Record<ClimateKind, RawMonthlyGrid>> = {};
  const seen: string[] = [];
  for (const file of files) {
    const ds = await openNetcdf(file);
    try {
      seen.push(...ds.variables.keys());
      for (const kind of KINDS) {
        if (found[kind]) continue;
        let variable: string;
        try {
          variable = guessVariable(ds, kind);
        } catch {
          continue;
        }
        found[kind] = readMonthlyVariable(ds, variable);
      }
    } finally {
      ds.close();
    }
  }
  const missing = KINDS.filter((k) => !found[k]);
  if (missing.length > 0) throw new ContentError(what, `no ${missing.join(" or ")} variable in the CDS's answer (variables: ${[...new Set(seen)].join(", ")})`);
  return found as Record<ClimateKind, RawMonthlyGrid>;
}
