// What several catalog entries share: how a file is carried from DATA_DIR or downloaded, mirror and raw-cache look-ups,
// and the terms and checks common to one provider's sources.
import { basename, join } from "node:path";
import { readdirSync, existsSync } from "node:fs";
import { isoDay, laterDay } from "../data-as-of.ts";
import type { ContentCheck, ResourceContext, ResourceSpec } from "../types.ts";

export const GiB = 1024 * 1024 * 1024;

/** A file kept as the data directory has it (derived or static copies with no live equivalent). */
export function carried(dataDirFile: string, check: ContentCheck, file = basename(dataDirFile)): ResourceSpec {
  return { file, dataDirFile, adapterReadsLive: true, check };
}

/** The one file of a single-file source. */
export function download(origin: string, file: string, check: ContentCheck, more: Partial<ResourceSpec> = {}): ResourceSpec {
  return { file, url: origin, adapterReadsLive: true, check, ...more };
}

export const joinUrl = (base: string, path: string) => `${base.replace(/\/$/, "")}/${path}`;

/** Files of a mirror folder (sorted), or none when the folder is missing. */
export function mirrorFiles(dataDir: string, folder: string, pattern: RegExp): string[] {
  const dir = join(dataDir, folder);
  return existsSync(dir) ? readdirSync(dir).filter((f) => pattern.test(f)).sort() : [];
}

/** The current copy's file when there is one, else the data directory's. */
export function currentOrMirror(ctx: ResourceContext, file: string, dataDirFile: string): string | undefined {
  const candidates = [ctx.currentDir ? join(ctx.currentDir, file) : undefined, join(ctx.dataDir, dataDirFile)];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

/** OData answers of the WHO GHO: rows in "value", years in TimeDim. */
export function ghoCheck(): ContentCheck {
  return {
    format: "json",
    rowsAt: "value",
    asOf: (text) => {
      let best: string | null = null;
      for (const r of (JSON.parse(text) as { value: { TimeDim?: unknown }[] }).value) best = laterDay(best, isoDay(String(r.TimeDim ?? "")));
      return best;
    },
  };
}

// PortWatch's dataset pages name the IMF's Copyright and Usage terms (imf.org/en/About/copyright-and-terms): IMF content
// is for personal, non-commercial use, except the special terms for IMF data, which may be downloaded, copied,
// published and redistributed, also commercially, with attribution and without implying the IMF's endorsement.
export const PORTWATCH_TERMS = "IMF Copyright and Usage terms, special terms for IMF data: reuse and redistribution (commercial too) with attribution to IMF PortWatch and no implied IMF endorsement; other IMF content personal, non-commercial use only";

export const PORTWATCH_RESTRICTION = "IMF terms: reuse only under the special terms for IMF data (attribution, no implied endorsement)";
