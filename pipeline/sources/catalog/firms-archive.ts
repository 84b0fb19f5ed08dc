// The source "firms_archive" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

export const source: SourceEntry = {
  name: "firms_archive",
  usedBy: ["wildfire"],
  title: "NASA FIRMS archive downloads: MODIS Australia Aug–Sep 2019, VIIRS Rhodes July 2023, MODIS C6.1 Greece, Israel and Tunisia 2000–2021, Malaysia 2023–2024",
  url: null,
  otherUrls: ["https://firms.modaps.eosdis.nasa.gov/download/"],
  format: "text",
  cadence: "static",
  licence: "NASA open data (free use, citation requested)",
  attribution: "NASA FIRMS MCD14ML (C6, C6.1) / VNP14IMG / VJ114IMG (Giglio et al. 2016; Schroeder et al. 2014)",
  dataDirPath: "feeds/firms-archive",
  liveFormat: "Archive downloads are ordered by hand through FIRMS' download form (no keyless API): fixed files, not refreshed.",
  refresh: "none",
  resources: () => [
    carried("feeds/firms-archive/fire_archive_M6_96619.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_SV-C2_740981.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_J1V-C2_740979.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_M-C61_214279_greece_2000_2021.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_M-C61_214285_israel_2000_2021.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_M-C61_214281_tunisia_2000_2021.csv.gz", { format: "text" }),
    carried("feeds/firms-archive/fire_archive_M-C61_581934_malaysia_2023_2024.csv.gz", { format: "text" }),
  ],
};
