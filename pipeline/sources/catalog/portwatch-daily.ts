// The source "portwatch_daily" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { csvColumnMax } from "../data-as-of.ts";
import type { ResourceContext, ResourceSpec, SourceEntry } from "../types.ts";
import { joinUrl, mirrorFiles, currentOrMirror, PORTWATCH_TERMS, PORTWATCH_RESTRICTION } from "./shared.ts";

/** PortWatch Daily_Ports_Data attributes, in the mirror's column order. */
export const PORTWATCH_DAILY_COLUMNS = [
  "date", "year", "month", "day", "portid", "portname", "country", "ISO3",
  "portcalls_container", "portcalls_dry_bulk", "portcalls_general_cargo", "portcalls_roro", "portcalls_tanker", "portcalls_cargo", "portcalls",
  "import_container", "import_dry_bulk", "import_general_cargo", "import_roro", "import_tanker", "import_cargo", "import",
  "export_container", "export_dry_bulk", "export_general_cargo", "export_roro", "export_tanker", "export_cargo", "export",
  "ObjectId",
] as const;

/** Days PortWatch may still revise: each refresh asks again for this many days before the copy's last day. */
export const PORTWATCH_REVISION_DAYS = 30;

/** Ports whose daily series a first run on an empty data directory fetches (the mirror holds its own choice). */
export const PORTWATCH_DAILY_COUNTRIES = ["THA"] as const;

/** One port's daily series: the whole record (first run), or from `from` on (later runs, merged by date). */
export function portwatchDailySpec(ctx: ResourceContext, portid: string, file: string, dataDirFile: string, from?: string): ResourceSpec {
  let where = `portid='${portid}'`;
  if (from) where += ` AND date >= TIMESTAMP '${from} 00:00:00'`;
  return {
    file,
    url: `${joinUrl(ctx.origin, "query")}?where=${encodeURIComponent(where)}&outFields=*&orderByFields=date&f=json`,
    dataDirFile,
    adapterReadsLive: true,
    check: { format: "csv", columns: ["date", "portid", "portcalls", "import", "export"], asOf: csvColumnMax("date") },
    merge: { kind: "csv-rows", key: ["date"], sort: true },
    arcgis: { pageSize: 1000, columns: PORTWATCH_DAILY_COLUMNS, dateColumns: ["date"] },
  };
}

/**
 * No daily series in the raw cache or the data directory: the ports of PORTWATCH_DAILY_COUNTRIES the service has
 * series for (a distinct-values query), one file `daily/<portid>.csv` each.
 */
export async function portwatchDailyDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (portwatchDailyNames(ctx).length > 0) return [];
  const where = `ISO3 IN (${PORTWATCH_DAILY_COUNTRIES.map((c) => `'${c}'`).join(",")})`;
  const url = `${joinUrl(ctx.origin, "query")}?where=${encodeURIComponent(where)}&outFields=portid&returnDistinctValues=true&returnGeometry=false&f=json`;
  const body = JSON.parse(await fetchText(url)) as { features?: { attributes?: { portid?: unknown } }[]; error?: { message?: string } };
  if (body.error || !Array.isArray(body.features)) throw new Error(`the port query answered no features (${body.error?.message ?? "no features array"})`);
  const ids = [...new Set(body.features.map((f) => f.attributes?.portid).filter((id): id is string => typeof id === "string" && /^[A-Za-z0-9_-]+$/.test(id)))].sort();
  if (ids.length === 0) throw new Error(`no port of ${PORTWATCH_DAILY_COUNTRIES.join(", ")} in the daily service`);
  return ids.map((id) => portwatchDailySpec(ctx, id, join("daily", `${id}.csv`), join(PORTWATCH_DAILY_FOLDER, `${id}.csv`)));
}

/** The daily files of the mirror, each with its port id (first data row) and the window to ask for. */
export const PORTWATCH_DAILY_FOLDER = join("ports", "portwatch", "daily");

/** Names of the daily files of the current copy and of the data directory. */
export function portwatchDailyNames(ctx: ResourceContext): string[] {
  const current = ctx.currentDir && existsSync(join(ctx.currentDir, "daily")) ? readdirSync(join(ctx.currentDir, "daily")).filter((f) => f.endsWith(".csv")) : [];
  return [...new Set([...mirrorFiles(ctx.dataDir, PORTWATCH_DAILY_FOLDER, /\.csv$/), ...current])].sort();
}

export function portwatchDaily(ctx: ResourceContext): ResourceSpec[] {
  const folder = PORTWATCH_DAILY_FOLDER;
  const out: ResourceSpec[] = [];
  for (const name of portwatchDailyNames(ctx)) {
    const path = currentOrMirror(ctx, join("daily", name), join(folder, name));
    if (!path) continue;
    const text = readFileSync(path, "utf8");
    const first = text.split(/\r?\n/, 3)[1] ?? "";
    const portid = first.split(",")[4];
    if (!/^[A-Za-z0-9_-]+$/.test(portid ?? "")) continue;
    const last = csvColumnMax("date")(text, path);
    const from = last ? new Date(Date.parse(last) - PORTWATCH_REVISION_DAYS * 86_400_000).toISOString().slice(0, 10) : undefined;
    out.push(portwatchDailySpec(ctx, portid, join("daily", name), join(folder, name), from));
  }
  return out;
}

export const source: SourceEntry = {
  name: "portwatch_daily",
  usedBy: ["supply_chain"],
  title: "IMF PortWatch daily port calls and trade estimates per port, merged by date",
  url: "https://services9.arcgis.com/weJ1QsnbMYJlCHdG/arcgis/rest/services/Daily_Ports_Data/FeatureServer/0",
  otherUrls: ["https://portwatch.imf.org/"],
  format: "json",
  cadence: "weekly",
  licence: PORTWATCH_TERMS,
  attribution: "IMF PortWatch; Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225",
  nonCommercial: PORTWATCH_RESTRICTION,
  dataDirPath: "ports/portwatch/daily",
  liveFormat: `JSON pages of attributes (date as epoch ms), written as CSV in the mirror's 30 columns with date as YYYY-MM-DD; each refresh asks for the last ${PORTWATCH_REVISION_DAYS} days before the copy's last day and merges by date.`,
  refresh: "http",
  resources: portwatchDaily,
  discover: portwatchDailyDiscover,
};
