// The inputs a drought grid can be built from, named once for the pipeline (which picks one and records it in the
// version's manifest) and the server (which names it in every drought answer's dataSources).

/** How the grid was made: interpolated stations, one of the gridded presets, or gridded files named by hand. */
export type GridSourceName = "stations" | "era5" | "keyless" | "cpc" | "netcdf";

export interface GridSourceInfo {
  name: GridSourceName;
  /** One line for logs and the build report. */
  label: string;
  /** What the precipitation comes from (in derived products' source lines). */
  precipitation: string;
  /** The attribution lines of the inputs (the answers' dataSources, before the boundaries). */
  dataSources: string[];
  /** The registry sources (pipeline/sources/registry.ts) behind it: their age decides whether an answer is stale. */
  registrySources: string[];
}

export const BOUNDARIES_SOURCE = "geoBoundaries gbOpen THA ADM1 province boundaries (ODbL)";

export const GRID_SOURCES: Record<GridSourceName, GridSourceInfo> = {
  stations: {
    name: "stations",
    label: "GHCN-Daily stations, interpolated (IDW) to 0.25° cells",
    precipitation: "GHCN-Daily station precipitation",
    dataSources: ["NOAA NCEI GHCN-Daily station observations (Menne et al. 2012, doi:10.7289/V5D21VHZ)"],
    registrySources: ["ghcnd"],
  },
  era5: {
    name: "era5",
    label: "ERA5-Land monthly means through the Copernicus CDS, native 0.1° cells",
    precipitation: "ERA5-Land total precipitation",
    dataSources: ["Copernicus Climate Change Service ERA5-Land monthly means (Muñoz-Sabater et al. 2021, doi:10.24381/cds.68d2bb30)"],
    registrySources: ["era5"],
  },
  keyless: {
    name: "keyless",
    label: "NOAA PSL PREC/L precipitation and GHCN-CAMS temperature, native 0.5° cells",
    precipitation: "NOAA PSL PREC/L precipitation",
    dataSources: [
      "NOAA PSL PREC/L monthly precipitation over land, 0.5° (Chen et al. 2002)",
      "NOAA PSL GHCN-CAMS monthly 2 m air temperature, 0.5° (Fan & van den Dool 2008)",
    ],
    registrySources: ["precl", "ghcn_cams"],
  },
  cpc: {
    name: "cpc",
    label: "NOAA CPC gauge-based precipitation (1° cells) with GHCN-Monthly station temperature",
    precipitation: "NOAA CPC Global Unified Gauge-Based Analysis of Daily Precipitation",
    dataSources: [
      "CPC Global Unified Gauge-Based Analysis of Daily Precipitation data provided by the NOAA PSL, Boulder, Colorado, USA (Xie et al. 2007; Chen et al. 2008), summed to months on 1° cells",
      "NOAA NCEI GHCN-Monthly v4 mean temperature, adjusted (Menne et al. 2018, doi:10.1175/JCLI-D-18-0094.1)",
    ],
    registrySources: ["cpc_precip", "ghcnm"],
  },
  netcdf: {
    name: "netcdf",
    label: "gridded NetCDF inputs named by NETCDF_* / SPEIBASE_FILES",
    precipitation: "gridded NetCDF precipitation",
    dataSources: ["Gridded NetCDF climate inputs (see the version's build report)"],
    registrySources: [],
  },
};

/**
 * The answers' dataSources for a grid built from `name` (written into the version's manifest as `sources`); for
 * files named by hand, their names.
 */
export function droughtDataSources(name: GridSourceName, files: string[] = []): string[] {
  const inputs = name === "netcdf" && files.length ? [`Gridded NetCDF climate inputs: ${files.join(", ")}`] : GRID_SOURCES[name].dataSources;
  return [...inputs, BOUNDARIES_SOURCE];
}

/** The dataSources of a published version: its manifest's `sources`, or the station grid's for versions built before. */
export function publishedDroughtSources(manifestSources: string[] | undefined): string[] {
  return manifestSources?.length ? manifestSources : droughtDataSources("stations");
}

/** The grid source a published version's manifest records (settings.gridSource), stations for older versions. */
export function gridSourceOf(settings: Record<string, unknown> | undefined): GridSourceInfo {
  const name = settings?.gridSource;
  return typeof name === "string" && name in GRID_SOURCES ? GRID_SOURCES[name as GridSourceName] : GRID_SOURCES.stations;
}

/** The attribution of the drought tiles (map layers) for a grid built from `name`. */
export function droughtAttribution(name: GridSourceName): string {
  const inputs: Record<GridSourceName, string> = {
    stations: "NOAA NCEI GHCN-Daily stations (Menne et al. 2012)",
    era5: "Copernicus C3S ERA5-Land (Muñoz-Sabater et al. 2021)",
    keyless: "NOAA PSL PREC/L (Chen et al. 2002) and GHCN-CAMS (Fan & van den Dool 2008)",
    cpc: "NOAA CPC gauge-based precipitation (Xie et al. 2007) and NOAA NCEI GHCN-Monthly temperature (Menne et al. 2018)",
    netcdf: "gridded NetCDF climate inputs",
  };
  return `Drought indices from ${inputs[name]}; provinces © geoBoundaries (ODbL)`;
}

/** The registry sources that feed other grids than `current`: a drought answer is not stale because of them. */
const otherInputs = new Map<GridSourceName, ReadonlySet<string>>();

/** One Set per grid source (the table is constant), so answers can cache by it. */
export function otherGridInputs(current: GridSourceName): ReadonlySet<string> {
  let others = otherInputs.get(current);
  if (others === undefined) {
    const mine = new Set(GRID_SOURCES[current].registrySources);
    others = new Set(Object.values(GRID_SOURCES).flatMap((g) => g.registrySources.filter((n) => !mine.has(n))));
    otherInputs.set(current, others);
  }
  return others;
}
