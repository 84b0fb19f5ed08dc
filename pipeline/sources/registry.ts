// The source registry: every input the pipeline reads, one entry each — its public origin, format, cadence,
// licence and attribution (non-commercial terms flagged), the credential it needs, the path of its copy under
// DATA_DIR, and the files a refresh fetches with their content checks and merge rules. SOURCE_URL_<NAME>
// replaces an origin (mirrors, tests); the table in docs/methods/sources.md is this file in prose.
import { deprecated, overrideVariable } from "./settings.ts";
import type { SourceEntry } from "./types.ts";
import { source as ghcnd } from "./catalog/ghcnd.ts";
import { source as ghcndHeat } from "./catalog/ghcnd-heat.ts";
import { source as gdacsEvents } from "./catalog/gdacs-events.ts";
import { source as gdacsFloods } from "./catalog/gdacs-floods.ts";
import { source as dfo } from "./catalog/dfo.ts";
import { source as floodFootprints } from "./catalog/flood-footprints.ts";
import { source as firmsArchive } from "./catalog/firms-archive.ts";
import { source as firms } from "./catalog/firms.ts";
import { source as firmsGlobal } from "./catalog/firms-global.ts";
import { source as firmsCountry } from "./catalog/firms-country.ts";
import { source as ibtracsActive } from "./catalog/ibtracs-active.ts";
import { source as ibtracsRecent } from "./catalog/ibtracs-recent.ts";
import { source as ibtracsWp } from "./catalog/ibtracs-wp.ts";
import { source as psmsl } from "./catalog/psmsl.ts";
import { source as owidTemperature } from "./catalog/owid-temperature.ts";
import { source as gistemp } from "./catalog/gistemp.ts";
import { source as opendengue } from "./catalog/opendengue.ts";
import { source as whoDon } from "./catalog/who-don.ts";
import { source as whoGhoMalaria } from "./catalog/who-gho-malaria.ts";
import { source as whoGhoCholera } from "./catalog/who-gho-cholera.ts";
import { source as flunet } from "./catalog/flunet.ts";
import { source as owidCovid } from "./catalog/owid-covid.ts";
import { source as worldbankPopulation } from "./catalog/worldbank-population.ts";
import { source as unlocode } from "./catalog/unlocode.ts";
import { source as wpi } from "./catalog/wpi.ts";
import { source as portwatchPorts } from "./catalog/portwatch-ports.ts";
import { source as portwatchDaily } from "./catalog/portwatch-daily.ts";
import { source as portwatchTankers } from "./catalog/portwatch-tankers.ts";
import { source as portwatchChokepoints } from "./catalog/portwatch-chokepoints.ts";
import { source as aisSample } from "./catalog/ais-sample.ts";
import { source as era5 } from "./catalog/era5.ts";
import { source as precl } from "./catalog/precl.ts";
import { source as ghcnCams } from "./catalog/ghcn-cams.ts";
import { source as ghcnm } from "./catalog/ghcnm.ts";
import { source as cpcPrecip } from "./catalog/cpc-precip.ts";
import { source as geoboundaries } from "./catalog/geoboundaries.ts";
import { source as provinceNames } from "./catalog/province-names.ts";

export { GDACS_PAGE_SIZE } from "./catalog/gdacs-floods.ts";

/** Every source, one module each under catalog/ (its entry and its own helpers), in the order of the status table. */
export const SOURCES: readonly SourceEntry[] = [
  ghcnd,
  ghcndHeat,
  gdacsEvents,
  gdacsFloods,
  dfo,
  floodFootprints,
  firmsArchive,
  firms,
  firmsGlobal,
  firmsCountry,
  ibtracsActive,
  ibtracsRecent,
  ibtracsWp,
  psmsl,
  owidTemperature,
  gistemp,
  opendengue,
  whoDon,
  whoGhoMalaria,
  whoGhoCholera,
  flunet,
  owidCovid,
  worldbankPopulation,
  unlocode,
  wpi,
  portwatchPorts,
  portwatchDaily,
  portwatchTankers,
  portwatchChokepoints,
  aisSample,
  era5,
  precl,
  ghcnCams,
  ghcnm,
  cpcPrecip,
  geoboundaries,
  provinceNames,
];

export function sourceByName(name: string): SourceEntry | undefined {
  return SOURCES.find((s) => s.name === name);
}

/** The origin a refresh uses: SOURCE_URL_<NAME> when set, else the registry's. */
export function effectiveOrigin(entry: SourceEntry, env: NodeJS.ProcessEnv): { url: string | null; overridden: boolean } {
  const override = env[overrideVariable(entry.name)];
  if (override) return { url: override, overridden: true };
  const legacy = entry.legacyUrlVariable ? env[entry.legacyUrlVariable] : undefined;
  if (legacy) {
    deprecated(entry.legacyUrlVariable!, overrideVariable(entry.name));
    return { url: legacy, overridden: true };
  }
  return { url: entry.url, overridden: false };
}

