// The source "portwatch_chokepoints" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { parseChokepointsDaily } from "../../ports/portwatch.ts";
import { csvColumnMax } from "../data-as-of.ts";
import type { ContentCheck, ResourceContext, ResourceSpec, SourceEntry } from "../types.ts";
import { carried, joinUrl, mirrorFiles, PORTWATCH_RESTRICTION, PORTWATCH_TERMS } from "./shared.ts";
import { PORTWATCH_REVISION_DAYS } from "./portwatch-daily.ts";

/** PortWatch Daily_Chokepoints_Data attributes, in the column order of the layer's CSV export (the mirror's copy). */
export const PORTWATCH_CHOKEPOINT_COLUMNS = [
  "date", "year", "month", "day", "portid", "portname",
  "n_container", "n_dry_bulk", "n_general_cargo", "n_roro", "n_tanker", "n_cargo", "n_total",
  "capacity_container", "capacity_dry_bulk", "capacity_general_cargo", "capacity_roro", "capacity_tanker", "capacity_cargo", "capacity",
  "ObjectId",
] as const;

export const CHOKEPOINTS_FOLDER = join("ports", "portwatch", "chokepoints");
/** The refresh's copy: every chokepoint, merged by chokepoint and day, dates as YYYY-MM-DD. */
export const CHOKEPOINTS_FILE = "Daily_Chokepoints_Data.csv";
/** The layer's first day: a first refresh asks from here. */
const FIRST_DAY = "2019-01-01";
/** Rows of a whole record (28 chokepoints × ~2,500 days): a first download with far fewer is cut short. */
const MIN_FULL_ROWS = 1000;

/** A download with a missing or repeated day or a negative count is refused (the same parser as the snapshot's). */
export function chokepointsCheck(minRows = 1): ContentCheck {
  return {
    format: "csv",
    columns: ["date", "portid", "portname", "n_total"],
    minRows,
    asOf: csvColumnMax("date"),
    validate: (text, file) => void parseChokepointsDaily(text, file),
  };
}

/**
 * The refresh's copy, asked again from PORTWATCH_REVISION_DAYS before its last day and merged by chokepoint and day;
 * without one, the whole record. The data directory's dated export (…_<from>_<to>.csv.gz) and the list of
 * chokepoints with their coordinates (derived, no live equivalent) are carried; the dated export is left out of the
 * version once a download arrives (the snapshot would take each chokepoint's newest series anyway).
 */
export function portwatchChokepoints(ctx: ResourceContext): ResourceSpec[] {
  const current = ctx.currentDir ? join(ctx.currentDir, CHOKEPOINTS_FILE) : undefined;
  let from = FIRST_DAY;
  let whole = true;
  try {
    const last = current ? csvColumnMax("date")(readFileSync(current, "utf8"), current) : null;
    if (last) [from, whole] = [new Date(Date.parse(last) - PORTWATCH_REVISION_DAYS * 86_400_000).toISOString().slice(0, 10), false];
  } catch {
    // No copy yet: the whole record.
  }
  const exports = mirrorFiles(ctx.dataDir, CHOKEPOINTS_FOLDER, /^Daily_Chokepoints_Data_.*\.csv\.gz$/);
  const mirrorExport = exports.at(-1);
  const where = `date >= TIMESTAMP '${from} 00:00:00'`;
  const specs: ResourceSpec[] = [
    {
      file: CHOKEPOINTS_FILE,
      url: `${joinUrl(ctx.origin, "query")}?where=${encodeURIComponent(where)}&outFields=*&orderByFields=${encodeURIComponent("portid,date")}&f=json`,
      dataDirFile: join(CHOKEPOINTS_FOLDER, CHOKEPOINTS_FILE),
      adapterReadsLive: true,
      check: chokepointsCheck(whole ? MIN_FULL_ROWS : 1),
      merge: { kind: "csv-rows", key: ["portid", "date"], sort: true },
      arcgis: { pageSize: 1000, columns: PORTWATCH_CHOKEPOINT_COLUMNS, dateColumns: ["date"] },
      replaces: mirrorExport,
    },
  ];
  if (mirrorExport) specs.push(carried(join(CHOKEPOINTS_FOLDER, mirrorExport), { format: "gzip", columns: ["date", "portid", "n_total"], asOf: (text, file) => csvColumnMax("date")(text.replaceAll("/", "-"), file) }));
  for (const list of mirrorFiles(ctx.dataDir, CHOKEPOINTS_FOLDER, /^chokepoints_list\.csv$/)) specs.push(carried(join(CHOKEPOINTS_FOLDER, list), { format: "csv", columns: ["portname", "lat", "lon"] }));
  return specs;
}

export const source: SourceEntry = {
  name: "portwatch_chokepoints",
  usedBy: ["supply_chain"],
  title: "IMF PortWatch daily transit calls through maritime chokepoints (all 28), merged by chokepoint and day",
  url: "https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Chokepoints_Data/FeatureServer/0",
  otherUrls: ["https://portwatch.imf.org/pages/port-monitor"],
  format: "json",
  cadence: "weekly",
  licence: PORTWATCH_TERMS,
  attribution: "IMF PortWatch, using UN Global Platform AIS data; Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225",
  nonCommercial: PORTWATCH_RESTRICTION,
  dataDirPath: "ports/portwatch/chokepoints",
  liveFormat: `JSON pages of attributes (date as epoch ms), written as CSV in the export's 21 columns with date as YYYY-MM-DD (the data directory's export writes "2019/01/01 00:00:00+00"); each refresh asks for the last ${PORTWATCH_REVISION_DAYS} days before the copy's last day and merges by chokepoint and day. A download with a missing or repeated day or a negative count is refused. The chokepoints' coordinates (chokepoints_list.csv) are the data directory's.`,
  refresh: "http",
  resources: portwatchChokepoints,
};
