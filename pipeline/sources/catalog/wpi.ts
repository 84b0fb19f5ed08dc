// The source "wpi" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { download } from "./shared.ts";

export const source: SourceEntry = {
  name: "wpi",
  usedBy: ["supply_chain"],
  title: "NGA World Port Index (Pub 150)",
  url: "https://msi.nga.mil/api/publications/download?type=view&key=16920959/SFH00000/UpdatedPub150.csv",
  format: "csv",
  cadence: "irregular",
  licence: "US government work: public domain",
  attribution: "National Geospatial-Intelligence Agency, World Port Index (Pub 150)",
  dataDirPath: "ports/wpi/WPI.csv",
  liveFormat: "UpdatedPub150.csv has the mirror's columns without the leading OID_ (unused).",
  refresh: "http",
  resources: (ctx) => [
    download(ctx.origin, "WPI.csv", { format: "csv", columns: ["World Port Index Number", "Main Port Name", "UN/LOCODE", "Latitude", "Longitude"], minRows: 1000 }, { dataDirFile: "ports/wpi/WPI.csv" }),
  ],
};
