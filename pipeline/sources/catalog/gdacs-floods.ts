// The source "gdacs_floods" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { GDACS_GEOMETRY_DIR, geometryRequests } from "../../feeds/gdacs-geometry.ts";
import { csvColumnMax, geojsonPropertyMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

/** GDACS' event search answers at most 100 events a page; 50 pages (5,000 floods in 60 days) is a runaway query. */
export const GDACS_PAGE_SIZE = 100;

export const GDACS_MAX_PAGES = 50;

export const source: SourceEntry = {
  name: "gdacs_floods",
  usedBy: ["flood", "supply_chain"],
  title: "GDACS flood events of the last 60 days (event search API), merged by event",
  url: "https://www.gdacs.org/gdacsapi/api/events/geteventlist/SEARCH",
  format: "geojson",
  cadence: "daily",
  licence: "GDACS (European Commission JRC, UN OCHA): free use with attribution",
  attribution: "GDACS flood events (EC JRC / UN OCHA)",
  dataDirPath: "feeds/gdacs/latest_gdacs_flood_db.csv",
  liveFormat: "The search API answers GeoJSON, at most 100 events a page: every page is asked for (pagenumber 1, 2, … until a page holds fewer than 100, at most 50 pages) and the pages kept as one FeatureCollection; the mirror's latest_gdacs_flood_db.csv is a table derived from it (one row per flood, geometry as text). The GeoJSON is archived by event and linked into the inputs tree as feeds/gdacs/gdacs_floods.geojson, where the flood builder adds its floods to the table's (pipeline/feeds/gdacs.ts reads both layouts). The affected-area polygons of the floods of the last 60 days come from the geometry endpoint (polygons/getgeometry, one file per event under feeds/gdacs/geometry/), asked for the events the previous night's archive listed.",
  refresh: "http",
  resources: (ctx) => {
    const to = ctx.now.toISOString().slice(0, 10);
    const from = new Date(ctx.now.getTime() - 60 * 86_400_000).toISOString().slice(0, 10);
    return [
      carried("feeds/gdacs/latest_gdacs_flood_db.csv", { format: "csv", columns: ["eventid", "alertlevel", "fromdate", "todate", "geometry", "iso3"], asOf: csvColumnMax("todate") }),
      {
        file: "gdacs_floods.geojson",
        url: `${ctx.origin}?eventlist=FL&fromdate=${from}&todate=${to}&alertlevel=green;orange;red&pagesize=${GDACS_PAGE_SIZE}`,
        geojsonPages: { pageSize: GDACS_PAGE_SIZE, maxPages: GDACS_MAX_PAGES, pageParam: "pagenumber" },
        adapterReadsLive: true,
        dataDirFile: "feeds/gdacs/gdacs_floods.geojson",
        check: { format: "geojson", minRows: 0, asOf: geojsonPropertyMax(["todate", "fromdate"]) },
        merge: { kind: "geojson-groups", key: ["eventtype", "eventid"] },
      },
      // The affected areas of the floods the previous night's archive listed (the search answers points only).
      ...geometryRequests(ctx.currentDir && join(ctx.currentDir, "gdacs_floods.geojson"), ctx.origin, ctx.now).map((g) => ({
        file: g.file,
        url: g.url,
        adapterReadsLive: true,
        dataDirFile: join(GDACS_GEOMETRY_DIR, `${g.id}.geojson`),
        check: { format: "geojson" as const, minRows: 0 },
      })),
    ];
  },
};
