// The source "unlocode" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { readdirSync, existsSync } from "node:fs";
import type { ResourceContext, ResourceSpec, SourceEntry } from "../types.ts";
import { joinUrl, mirrorFiles } from "./shared.ts";

export const UNLOCODE_FILE = /^[A-Z]{2}\.csv$/;

/** The repository listing of the per-country files (GitHub contents API), read when no copy names them yet. */
export const UNLOCODE_LISTING_URL = "https://api.github.com/repos/geoapify/un-locode/contents/src/data";

export const unlocodeListingUrl = (env: NodeJS.ProcessEnv) => env.SOURCE_URL_UNLOCODE_LISTING || UNLOCODE_LISTING_URL;

/** The country files of the current copy and of the data directory. */
export function unlocodeFiles(ctx: ResourceContext): string[] {
  const current = ctx.currentDir && existsSync(ctx.currentDir) ? readdirSync(ctx.currentDir).filter((f) => UNLOCODE_FILE.test(f)) : [];
  return [...new Set([...mirrorFiles(ctx.dataDir, "ports/unlocode", UNLOCODE_FILE), ...current])].sort();
}

export function unlocodeSpec(ctx: ResourceContext, f: string): ResourceSpec {
  return {
    file: f,
    url: joinUrl(ctx.origin, f),
    dataDirFile: join("ports/unlocode", f),
    adapterReadsLive: true,
    check: { format: "csv", columns: ["country", "location", "name", "function", "lat", "lon"], csv: { fieldCount: "any" } },
  };
}

export const source: SourceEntry = {
  name: "unlocode",
  usedBy: ["supply_chain"],
  title: "UN/LOCODE code list, one CSV per country (geoapify/un-locode, geocoded)",
  url: "https://raw.githubusercontent.com/geoapify/un-locode/main/src/data",
  otherUrls: [UNLOCODE_LISTING_URL, "https://unece.org/trade/cefact/unlocode-code-list-country-and-territory"],
  format: "csv",
  cadence: "yearly",
  licence: "MIT (geoapify/un-locode); UN/LOCODE itself is free to use (UNECE)",
  attribution: "UNECE UN/LOCODE; geocoding by Geoapify (github.com/geoapify/un-locode)",
  dataDirPath: "ports/unlocode",
  upstream: {
    stopped: "geoapify/un-locode, the geocoded copy fetched, last changed 2024-10: UNECE's later releases (two a year) do not reach it",
    alternatives: "named only: UNECE's official UN/LOCODE releases (https://unece.org/trade/cefact/unlocode-code-list-country-and-territory; a ZIP of CSVs per release, coordinates where UNECE has them) — not fetched: the copy's geocoding (~22.8k coordinates the official list lacks) is what the port table needs",
  },
  refresh: "http",
  resources: (ctx) => unlocodeFiles(ctx).map((f) => unlocodeSpec(ctx, f)),
  discover: async (ctx, fetchText) => {
    if (unlocodeFiles(ctx).length > 0) return [];
    const listing = JSON.parse(await fetchText(unlocodeListingUrl(ctx.env))) as { name?: unknown }[];
    const names = listing.map((e) => e.name).filter((n): n is string => typeof n === "string" && UNLOCODE_FILE.test(n)).sort();
    if (names.length === 0) throw new Error("no <country>.csv in the repository listing");
    return names.map((f) => unlocodeSpec(ctx, f));
  },
};
