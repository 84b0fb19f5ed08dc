// The source "gdacs_events" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { geojsonPropertyMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { download } from "./shared.ts";

export const source: SourceEntry = {
  name: "gdacs_events",
  usedBy: ["flood", "storm", "supply_chain"],
  title: "GDACS current events (GeoJSON event list), merged by event into an archive",
  url: "https://www.gdacs.org/gdacsapi/api/events/geteventlist/MAP",
  format: "geojson",
  cadence: "daily",
  licence: "GDACS (European Commission JRC, UN OCHA): free use with attribution",
  attribution: "GDACS, Global Disaster Alert and Coordination System (EC JRC / UN OCHA)",
  dataDirPath: "feeds/gdacs",
  refresh: "http",
  resources: (ctx) => [
    download(ctx.origin, "gdacs_events.geojson", { format: "geojson", asOf: geojsonPropertyMax(["todate", "fromdate"]) }, {
      dataDirFile: "feeds/gdacs/gdacs_20260530T1858Z.geojson",
      merge: { kind: "geojson-groups", key: ["eventtype", "eventid"] },
    }),
  ],
};
