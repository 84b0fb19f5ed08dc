// The source "psmsl" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { readFileSync } from "node:fs";
import { parsePsmslFilelist, parseRlrAnnual } from "../../feeds/psmsl.ts";
import { psmslYearMax } from "../data-as-of.ts";
import type { ContentCheck, ResourceContext, ResourceSpec, SourceEntry } from "../types.ts";
import { joinUrl, currentOrMirror } from "./shared.ts";

export const PSMSL_RLR_CHECK: ContentCheck = {
  format: "csv",
  // 17 of the 1,591 gauges PSMSL lists have an empty annual file (no RLR year yet).
  emptyMeansNoData: true,
  csv: { header: false, delimiter: ";", quote: false },
  asOf: psmslYearMax,
  validate: (text, file) => {
    if (parseRlrAnnual(text, file).records.length === 0) throw new Error("no year; mm line");
  },
};

/**
 * The annual RLR file of every gauge a filelist.txt lists: the sea-level snapshot serves the world (1,591 gauges in
 * the mirror), so each gauge's copy is kept current, not only Thailand's. Tiny files; a refresh asks for each with
 * its validators (304s when PSMSL's yearly release has not changed).
 */
export function psmslGauges(ctx: ResourceContext, filelist: string, file: string): ResourceSpec[] {
  return parsePsmslFilelist(filelist, file).records.map((s): ResourceSpec => ({
    file: `data/${s.id}.rlrdata`,
    url: joinUrl(ctx.origin, `${s.id}.rlrdata`),
    dataDirFile: `feeds/psmsl/data/${s.id}.rlrdata`,
    adapterReadsLive: true,
    check: PSMSL_RLR_CHECK,
  }));
}

/** filelist.txt and the gauges the local copy of it lists (none yet without one: then `discover` asks the origin). */
export function psmslResources(ctx: ResourceContext): ResourceSpec[] {
  const listPath = currentOrMirror(ctx, "filelist.txt", "feeds/psmsl/filelist.txt");
  return [
    {
      file: "filelist.txt",
      url: joinUrl(ctx.origin, "filelist.txt"),
      dataDirFile: "feeds/psmsl/filelist.txt",
      adapterReadsLive: true,
      check: {
        format: "csv",
        csv: { header: false, delimiter: ";", quote: false },
        minRows: 1000,
        validate: (text, file) => {
          if (parsePsmslFilelist(text, file).records.length === 0) throw new Error("no station line");
        },
      },
    },
    ...(listPath ? psmslGauges(ctx, readFileSync(listPath, "utf8"), listPath) : []),
  ];
}

/** With no filelist.txt in the raw cache or the data directory (a first run on an empty DATA_DIR): the origin's. */
export async function psmslDiscover(ctx: ResourceContext, fetchText: (url: string) => Promise<string>): Promise<ResourceSpec[]> {
  if (currentOrMirror(ctx, "filelist.txt", "feeds/psmsl/filelist.txt")) return [];
  return psmslGauges(ctx, await fetchText(joinUrl(ctx.origin, "filelist.txt")), "filelist.txt");
}

export const source: SourceEntry = {
  name: "psmsl",
  usedBy: ["sea_level_rise"],
  title: "PSMSL annual Revised Local Reference mean sea level (station list and every gauge it lists)",
  url: "https://psmsl.org/data/obtaining/rlr.annual.data",
  otherUrls: ["https://psmsl.org/data/obtaining/rlr.annual.data/rlr_annual.zip"],
  format: "text",
  cadence: "yearly",
  licence: "PSMSL: free use with citation",
  attribution: "Holgate et al. 2013, doi:10.2112/JCOASTRES-D-12-00175.1; PSMSL Tide Gauge Data",
  dataDirPath: "feeds/psmsl",
  refresh: "http",
  resources: psmslResources,
  discover: psmslDiscover,
};
