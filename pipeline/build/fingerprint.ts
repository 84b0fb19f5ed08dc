// What makes two drought builds the same: the checksums of the inputs, the settings and the code behind the artifacts.
import { existsSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createHash } from "node:crypto";
import { sha256File, type FileChecksum } from "../../formats/manifest.ts";
import { GHCND_SUBDIR } from "../inputs/ghcnd/stations.ts";
import { provincesPath } from "../provinces/boundaries.ts";
import { OPENGIS_FILE, VARIANTS_FILE } from "../provinces/aliases.ts";
import { regionInputFiles, sourceCountries } from "../provinces/region.ts";
import { cpcExtensionFiles } from "../grid/cpc-extension.ts";
import { filesUnder } from "../publish/code-fingerprint.ts";
import type { BuildSettings } from "../build-settings.ts";

/** Checksums of the inputs the build reads, keyed by their path relative to the data directory. */
export async function checksumInputs(dataDir: string, settings: BuildSettings): Promise<Record<string, FileChecksum>> {
  const nc = settings.netcdf;
  const sourceFiles =
    settings.source === "netcdf"
      ? [
          ...[nc?.precipitation, nc?.temperature, nc?.temperatureStations?.dat, nc?.temperatureStations?.inv, ...Object.values(nc?.speibase ?? {})].filter((f): f is string => !!f).map((f) => resolve(dataDir, f)),
          ...cpcExtensionFiles(nc?.precipitationExtension && resolve(dataDir, nc.precipitationExtension)),
          // The regional grid's confidence is calibrated at the GHCN-Daily stations (pipeline/grid/cpc-confidence.ts).
          ...(nc?.temperatureStations && existsSync(join(dataDir, GHCND_SUBDIR)) ? filesUnder(join(dataDir, GHCND_SUBDIR)) : []),
        ]
      : filesUnder(join(dataDir, GHCND_SUBDIR));
  // The alias lists are optional (aliases.ts): a missing one is not an input.
  const files = [
    ...sourceFiles,
    provincesPath(dataDir),
    ...regionInputFiles(dataDir, sourceCountries(settings.source, settings.countries)),
    ...[VARIANTS_FILE, OPENGIS_FILE].map((f) => join(dataDir, f)).filter((f) => existsSync(f)),
  ];
  const out: Record<string, FileChecksum> = {};
  for (const f of files) out[relative(dataDir, f)] = { bytes: statSync(f).size, sha256: await sha256File(f) };
  return out;
}

/** The code behind the drought artifacts (not the feed snapshots or the server; the tiles are built with them). */
export const DROUGHT_CODE = [
  "lib",
  "formats",
  "pipeline/inputs",
  "pipeline/indices",
  "pipeline/grid",
  "pipeline/provinces",
  "pipeline/publish",
  "pipeline/build.ts",
  "pipeline/build",
  "pipeline/build-settings.ts",
  "tiles",
];

/** A fingerprint of the inputs, the settings and the code that computes the artifacts, so a change of any yields a new version. */
export function fingerprint(inputs: Record<string, FileChecksum>, settings: BuildSettings, code: string): string {
  return createHash("sha256").update(JSON.stringify({ inputs, settings, code })).digest("hex");
}
