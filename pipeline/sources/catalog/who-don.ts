// The source "who_don" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
import { join } from "node:path";
import { csvColumnMax, isoDay } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { carried, mirrorFiles } from "./shared.ts";

/** Release date in a WHO DON dataset file name (outbreaks_13052026.csv → 2026-05-13). */
export function donReleaseDate(file: string): string | null {
  const m = /_(\d{2})(\d{2})(\d{4})\.\w+$/.exec(file);
  return m ? isoDay(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

export const source: SourceEntry = {
  name: "who_don",
  usedBy: ["outbreak"],
  title: "WHO Disease Outbreak News as a dataset (newest release of outbreaks_<ddmmyyyy>.csv)",
  url: "https://api.github.com/repos/jatorresmunguia/disease_outbreak_news/contents/Last%20update",
  otherUrls: ["https://github.com/jatorresmunguia/disease_outbreak_news", "https://www.who.int/emergencies/disease-outbreak-news"],
  format: "csv",
  cadence: "monthly",
  licence: "Dataset: MIT (Torres Munguía et al.); the DON texts it quotes are WHO content, CC BY-NC-SA 3.0 IGO",
  attribution: "Torres Munguía et al. 2022, A global dataset of pandemic- and epidemic-prone disease outbreaks, Sci Data 9:683",
  nonCommercial: "the quoted WHO DON texts are CC BY-NC-SA 3.0 IGO",
  dataDirPath: "health/who-don",
  liveFormat: "outbreaks_<ddmmyyyy>.csv is published as CSV in the mirror's layout; dons_raw is published only as RData, so the mirror's derived dons_raw CSV is kept until an RData reader exists.",
  refresh: "http",
  resources: (ctx) =>
    mirrorFiles(ctx.dataDir, "health/who-don", /^(outbreaks|dons_raw)_\d{8}\.csv$/).map((f) =>
      carried(join("health/who-don", f), f.startsWith("dons_raw")
        ? { format: "csv", columns: ["Date", "ID"], csv: { multiline: true }, asOf: csvColumnMax("Date", { multiline: true }) }
        : { format: "csv", columns: ["Country", "iso3", "Disease", "DONs"], asOf: (_t, file) => donReleaseDate(file) }),
    ),
  discover: async (ctx, fetchText) => {
    const listing = JSON.parse(await fetchText(ctx.origin)) as { name?: string; download_url?: string }[];
    const newest = listing
      .filter((e) => typeof e.name === "string" && typeof e.download_url === "string" && /^outbreaks_\d{8}\.csv$/.test(e.name))
      .sort((a, b) => (donReleaseDate(a.name!) ?? "").localeCompare(donReleaseDate(b.name!) ?? ""))
      .at(-1);
    if (!newest) throw new Error("no outbreaks_<ddmmyyyy>.csv in the release listing");
    const mirror = mirrorFiles(ctx.dataDir, "health/who-don", /^outbreaks_\d{8}\.csv$/).at(-1);
    return [{
      file: newest.name!,
      url: newest.download_url!,
      // In the mirror's release's place; on a data directory without one, under its own name.
      dataDirFile: join("health/who-don", mirror ?? newest.name!),
      replaces: mirror,
      adapterReadsLive: true,
      check: { format: "csv", columns: ["Country", "iso3", "Disease", "DONs"], asOf: (_t, file) => donReleaseDate(file) },
    }];
  },
};
