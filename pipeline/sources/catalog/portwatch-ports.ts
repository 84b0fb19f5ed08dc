// The source "portwatch_ports" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { joinUrl, PORTWATCH_TERMS, PORTWATCH_RESTRICTION } from "./shared.ts";

export const PORTWATCH_PORTS_COLUMNS = [
  "X", "Y", "portid", "portname", "country", "ISO3", "continent", "fullname", "lat", "lon",
  "vessel_count_total", "vessel_count_container", "vessel_count_dry_bulk", "vessel_count_general_cargo", "vessel_count_RoRo", "vessel_count_tanker",
  "industry_top1", "industry_top2", "industry_top3", "share_country_maritime_import", "share_country_maritime_export", "LOCODE", "pageid", "countrynoaccents", "ObjectId",
] as const;

export const source: SourceEntry = {
  name: "portwatch_ports",
  usedBy: ["supply_chain"],
  title: "IMF PortWatch ports database (ArcGIS feature service)",
  url: "https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/PortWatch_ports_database/FeatureServer/0",
  otherUrls: ["https://portwatch.imf.org/"],
  format: "json",
  cadence: "irregular",
  licence: PORTWATCH_TERMS,
  attribution: "IMF PortWatch; Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225",
  nonCommercial: PORTWATCH_RESTRICTION,
  dataDirPath: "ports/portwatch/PortWatch_ports_database.csv",
  liveFormat: "The service answers JSON pages of attributes, written here as CSV in the mirror's column order; X and Y (Web Mercator geometry, unused) stay empty.",
  refresh: "http",
  resources: (ctx) => [{
    file: "PortWatch_ports_database.csv",
    url: `${joinUrl(ctx.origin, "query")}?where=1%3D1&outFields=*&orderByFields=ObjectId&f=json`,
    dataDirFile: "ports/portwatch/PortWatch_ports_database.csv",
    adapterReadsLive: true,
    check: { format: "csv", columns: ["portid", "portname", "lat", "lon", "LOCODE"], minRows: 1000 },
    arcgis: { pageSize: 1000, columns: PORTWATCH_PORTS_COLUMNS, dateColumns: [] },
  }],
};
