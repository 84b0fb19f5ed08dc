// The source "geoboundaries" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

export const source: SourceEntry = {
  name: "geoboundaries",
  usedBy: ["drought", "boundaries", "outbreak"],
  title: "geoBoundaries gbOpen Thailand ADM1 provinces (normalised copy)",
  url: "https://www.geoboundaries.org/api/current/gbOpen/THA/ADM1/",
  format: "geojson",
  cadence: "static",
  licence: "ODbL-1.0 (derived from OpenStreetMap)",
  attribution: "Runfola et al. 2020, geoBoundaries, doi:10.1371/journal.pone.0231866",
  dataDirPath: "boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson",
  liveFormat: "The API answers JSON metadata with a download link to the raw boundaries (shapeName, shapeISO); the mirror holds a normalised copy with ISO codes, English and Thai names. Boundaries change rarely: not refreshed.",
  refresh: "none",
  resources: () => [carried("boundaries/geoboundaries-tha-adm1/thailand-provinces.geojson", { format: "geojson", minRows: 77 })],
};
