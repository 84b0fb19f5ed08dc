// The source "ais_sample" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import type { SourceEntry } from "../types.ts";
import { carried } from "./shared.ts";

export const source: SourceEntry = {
  name: "ais_sample",
  usedBy: ["supply_chain"],
  title: "Decoded AIS messages, one minute worldwide (sample)",
  url: null,
  format: "csv",
  cadence: "static",
  licence: "MIT",
  attribution: "Decoded AIS sample, 2018-07-06 (MIT-licensed public repository)",
  dataDirPath: "ports/ais/ais_sample.csv",
  liveFormat: "A fixed sample: there is no keyless live AIS feed.",
  refresh: "none",
  resources: () => [carried("ports/ais/ais_sample.csv", { format: "csv", columns: ["mmsi", "x", "y", "sog", "nav_status"] })],
};
