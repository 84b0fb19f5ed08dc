// The source "province_names" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

export const source: SourceEntry = {
  name: "province_names",
  usedBy: ["drought", "boundaries", "outbreak"],
  title: "Province name variants and the opengisdata-thailand provinces (alias sources)",
  url: null,
  format: "csv",
  cadence: "static",
  licence: "no licence stated (used for cross-checks and aliases only)",
  attribution: "province_name_variants.csv; opengisdata-thailand provinces.geojson",
  dataDirPath: "boundaries",
  liveFormat: "Static reference files without a public origin to refresh from.",
  refresh: "none",
  resources: () => [
    carried("boundaries/province_name_variants.csv", { format: "csv" }),
    carried("boundaries/opengisdata-thailand/provinces.geojson", { format: "geojson", minRows: 77 }, "opengisdata-thailand/provinces.geojson"),
  ],
};
