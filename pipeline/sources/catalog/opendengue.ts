// The source "opendengue" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { csvColumnMax } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, download, joinUrl, mirrorFiles } from "./shared.ts";

export const source: SourceEntry = {
  name: "opendengue",
  usedBy: ["outbreak"],
  title: "OpenDengue V1.3 national, spatial and temporal extracts",
  url: "https://github.com/OpenDengue/master-repo/raw/main/data/releases/V1.3",
  otherUrls: ["https://opendengue.org/data.html", "https://doi.org/10.6084/m9.figshare.24259573"],
  format: "zip",
  cadence: "irregular",
  licence: "CC BY 4.0",
  attribution: "Clarke et al. 2024, OpenDengue, Sci Data 11:296, doi:10.1038/s41597-024-03120-7",
  dataDirPath: "health/opendengue",
  liveFormat: "Each release extract is one ZIP of a worldwide CSV; the mirror holds the regional CSV splits (SEARO, WPRO) of the same columns and the worldwide national extract. make refresh unpacks each ZIP's CSV; pipeline/health/opendengue.ts reads the worldwide spatial and temporal extracts when present (Thailand's rows are the same), else the SEARO splits.",
  refresh: "http",
  resources: (ctx) => [
    ...mirrorFiles(ctx.dataDir, "health/opendengue", /\.csv$/).map((f) =>
      carried(join("health/opendengue", f), { format: "csv", columns: ["adm_0_name", "calendar_end_date", "dengue_total"], csv: { multiline: true }, asOf: csvColumnMax("calendar_end_date", { multiline: true }) }),
    ),
    // Each release ZIP holds one worldwide CSV: unpacked, checked like the mirror's and linked into the inputs tree.
    ...["National", "Spatial", "Temporal"].map((k) =>
      download(joinUrl(ctx.origin, `${k}_extract_V1_3.zip`), `${k}_extract_V1_3.csv`, { format: "csv", columns: ["adm_0_name", "calendar_end_date", "dengue_total"], csv: { multiline: true }, asOf: csvColumnMax("calendar_end_date", { multiline: true }) }, {
        unzip: `${k}_extract_V1_3.csv`,
        dataDirFile: `health/opendengue/${k}_extract_V1_3.csv`,
      }),
    ),
  ],
};
