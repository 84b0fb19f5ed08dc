// The source "dfo" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download } from "./shared.ts";

export const source: SourceEntry = {
  name: "dfo",
  usedBy: ["flood"],
  title: "Dartmouth Flood Observatory Global Active Archive of Large Flood Events",
  url: "https://floodobservatory.colorado.edu/Archives/FloodArchive.xlsx",
  otherUrls: ["https://floodobservatory.colorado.edu/Archives/index.html"],
  format: "xlsx",
  cadence: "irregular",
  licence: "free use with citation (no licence stated)",
  attribution: "G.R. Brakenridge, Global Active Archive of Large Flood Events, Dartmouth Flood Observatory, University of Colorado",
  dataDirPath: "feeds/dfo/FloodArchive.csv",
  liveFormat: "The archive is published as an Excel workbook (FloodArchive.xlsx); the mirror holds a CSV export of it. pipeline/feeds/dfo-workbook.ts reads the workbook (read-excel-file) into the export's layout, so the flood builder reads either.",
  upstream: {
    stopped: "DFO's Active Archive of Large Flood Events has not been updated since 2021 (the mirror's export ends 2019-09): the workbook is still asked for, but brings no new flood",
    alternatives: `used: GDACS flood events (gdacs_floods nightly: the event search, every page, with affected-area polygons; gdacs_events); named only: the Global Flood Database (Tellman et al. 2021, MODIS-mapped floods 2000-2018; its event list is carried in flood_footprints, not refreshed: no newer release is published)`,
  },
  refresh: "http",
  resources: (ctx) => [
    carried("feeds/dfo/FloodArchive.csv", { format: "csv", columns: ["ID", "long", "lat", "Began", "Ended", "Severity", "Area"], asOf: csvColumnMax("Ended") }),
    download(ctx.origin, "FloodArchive.xlsx", { format: "xlsx" }, { dataDirFile: "feeds/dfo/FloodArchive.xlsx" }),
  ],
};
