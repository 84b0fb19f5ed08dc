// Province stage of the build: boundaries → aliases, land cells, province-index.bin and provinces.json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";
import { writeProvinceIndex, writeProvincesJson, type ProvinceMeta } from "../../formats/province-index.ts";
import { buildLandCells, type LandCellOptions, type LandCells } from "../grid/land-cells.ts";
import { buildAliases, loadAliasSources, type ProvinceAliases } from "./aliases.ts";
import { loadProvinces, provincesPath, type Province } from "./boundaries.ts";
import { provinceMetadata } from "./metadata.ts";
import { flattenRings, type ProvinceRings } from "../../lib/geo/province-rings.ts";

export interface ProvinceData {
  provinces: Province[];
  aliases: ProvinceAliases[];
  meta: ProvinceMeta[];
  rings: ProvinceRings;
  landCells: LandCells;
}

export function buildProvinceData(dir: string = dataDir(), options: LandCellOptions = {}): ProvinceData {
  const provinces = loadProvinces(provincesPath(dir));
  const aliases = buildAliases(loadAliasSources(provinces, dir));
  const meta = provinceMetadata(provinces, aliases);
  const rings = flattenRings(provinces);
  const landCells = buildLandCells(provinces, options);
  log.info(
    { provinces: provinces.length, rings: rings.ringProvince.length, landCells: landCells.lat.length, resolutionDeg: landCells.resolutionDeg },
    "provinces and land cells built",
  );
  return { provinces, aliases, meta, rings, landCells };
}

/** Writes province-index.bin and provinces.json into outDir (a staging directory); returns the file names. */
export function writeProvinceArtifacts(outDir: string, data: ProvinceData): string[] {
  writeFileSync(join(outDir, "province-index.bin"), writeProvinceIndex(data.rings));
  writeFileSync(join(outDir, "provinces.json"), writeProvincesJson(data.meta));
  return ["province-index.bin", "provinces.json"];
}
