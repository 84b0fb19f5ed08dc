// The source "flood_footprints" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

export const source: SourceEntry = {
  name: "flood_footprints",
  usedBy: ["flood"],
  title: "DFO flood-extent polygons and the Global Flood Database's list of MODIS-mapped events (research release)",
  url: null,
  otherUrls: ["https://github.com/cloudtostreet/MODIS_GlobalFloodDatabase"],
  format: "zip",
  cadence: "static",
  licence: "MIT (repository); DFO asks for citation",
  attribution: "Tellman et al. 2021, Nature 596:80-86, doi:10.1038/s41586-021-03695-w; G.R. Brakenridge, Dartmouth Flood Observatory",
  dataDirPath: "feeds/flood-footprints",
  liveFormat: "A fixed research release (DFO polygons as of 2019-12-03, GFD QC table 2019-08-01): DFO publishes no newer polygon set openly, so it is not refreshed; GDACS affected areas come with the GDACS sources.",
  refresh: "none",
  resources: () => [
    carried("feeds/flood-footprints/dfo_polys_20191203.zip", { format: "zip" }),
    carried("feeds/flood-footprints/gfd_qcdatabase_2019_08_01.csv.gz", { format: "text" }),
  ],
};
