// The source "who_gho_malaria" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { MALARIA_CONF_CASES, MALARIA_EST_INCIDENCE } from "../../health/who-gho-malaria.ts";
import { WHO_DATA_RESTRICTION, WHO_DATA_TERMS } from "../../health/who-terms.ts";
import { join } from "node:path";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download, joinUrl, mirrorFiles, ghoCheck } from "./shared.ts";

export const source: SourceEntry = {
  name: "who_gho_malaria",
  usedBy: ["outbreak"],
  title: "WHO Global Health Observatory malaria indicators (OData API)",
  url: "https://ghoapi.azureedge.net/api",
  format: "json",
  cadence: "yearly",
  licence: WHO_DATA_TERMS,
  attribution: "World Health Organization, Global Health Observatory",
  nonCommercial: WHO_DATA_RESTRICTION,
  dataDirPath: "health/who-gho-malaria",
  liveFormat: "The OData API answers JSON ({ value: [ { SpatialDim, TimeDim, NumericValue, Value, … } ] }); the mirror holds the portal's CSV export (SpatialDimensionValueCode, TimeDim, NumericValue, Value, …). pipeline/health/who-gho-malaria.ts reads both (the OData MALARIA_CONF_CASES.json and MALARIA_EST_INCIDENCE.json when a refresh brought them).",
  refresh: "http",
  resources: (ctx) => {
    const files = mirrorFiles(ctx.dataDir, "health/who-gho-malaria", /^MALARIA_.*\.csv$/);
    // The indicators the data directory holds, and always the two the outbreak builder reads (an empty data
    // directory holds none).
    const codes = [...new Set([MALARIA_CONF_CASES, MALARIA_EST_INCIDENCE, ...files.map((f) => f.replace(/\.csv$/, ""))])].sort();
    return [
      ...files.map((f) => carried(join("health/who-gho-malaria", f), { format: "csv", columns: ["SpatialDimensionValueCode", "TimeDim", "NumericValue", "Value"], asOf: csvColumnMax("TimeDim") })),
      ...codes.map((code) => download(joinUrl(ctx.origin, code), `${code}.json`, ghoCheck(), { dataDirFile: `health/who-gho-malaria/${code}.json` })),
    ];
  },
};
