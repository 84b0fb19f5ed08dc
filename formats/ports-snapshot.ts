// The `ports` snapshot's records (format: ports-snapshot.md): written by pipeline/snapshots/ports.ts, read by the
// supply-chain service.

export const PORTS_SNAPSHOT = "ports";
export const PORTS_SOURCES = [
  "UN/LOCODE code list (UNECE; geoapify/un-locode CSV, MIT)",
  "NGA World Port Index, Pub. 150 (public domain)",
  "IMF PortWatch ports, daily port calls, tanker calls and chokepoint transits (Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225)",
  "AIS sample, decoded messages of 2018-07-06 (MIT)",
  "GDACS event feed and flood database (EC JRC / UN OCHA)",
];

export interface PortwatchPort {
  portid: string;
  name: string;
  country: string;
  iso3: string;
  lat: number;
  lng: number;
  /** LOCODE as published ("TH SRI"), may be empty or wrong. */
  locode: string;
  vesselCounts: { total: number; container: number; dryBulk: number; generalCargo: number; roro: number; tanker: number };
  industryTop: string[];
  shareCountryImport: number;
  shareCountryExport: number;
}

/** Which list names a code as a port. */
export type PortSource = "unlocode" | "wpi" | "portwatch";

/** How a PortWatch port was tied to a code (docs/methods/supply-chain.md, "Ports"). */
export type PortwatchMatch = "name" | "wpi-name" | "locode" | "name-part" | "nearest" | "name-other-function" | "locode-published-only";

/** A PortWatch port as a port record carries it. */
export interface PortwatchAttributes extends Omit<PortwatchPort, "locode" | "shareCountryImport" | "shareCountryExport"> {
  /** PortWatch's country name (`country`, keys its tanker series) and ISO alpha-3 (`iso3`) come from PortwatchPort;
   * `vesselCounts` are yearly average port calls 2019–2024 by vessel type (PortWatch `vessel_count_*`). */
  locodePublished: string;
  matchedBy: PortwatchMatch;
  shareCountryImport: number | null;
  shareCountryExport: number | null;
  /** Other codes this PortWatch port also answers for: PortWatch reports some port complexes as one port
   * ("Los Angeles-Long Beach" → USLAX and USLGB). */
  sharedWith: string[];
}

export interface PortRecord {
  /** UN/LOCODE-shaped code named by at least one list; null for a PortWatch port no list gives a code. */
  code: string | null;
  name: string;
  /** ISO 3166-1 alpha-2 (the code's first two letters, or PortWatch's country) and alpha-3. */
  country: string;
  iso3: string | null;
  lat: number | null;
  lng: number | null;
  coordSource: "wpi" | "portwatch" | "unlocode" | null;
  namedBy: PortSource[];
  /** The UN/LOCODE entry of the code, whatever its function ("1-3-----"), or null when UN/LOCODE lacks the code. */
  unlocode: { name: string; function: string } | null;
  flags: string[];
  wpi: { number: number; name: string; harborSize: string; harborType: string; channelDepthM: number | null; cargoPierDepthM: number | null } | null;
  /** PortWatch ports of this code, the busiest first; more than one = terminals PortWatch lists apart
   * ("Shanghai (Pudong)", "Shanghai (Yangshan)"). Empty without PortWatch. */
  portwatch: PortwatchAttributes[];
}

/** A UN/LOCODE entry without the port function that names the place of a nearby port ("CNSHA Shanghai Hongqiao
 * International Apt", an airport, → the port of Shanghai CNSGH). */
export interface PortAlias {
  code: string;
  name: string;
  function: string;
  port: string;
  distanceKm: number;
}

/** ports.json */
export interface PortsDocument {
  ports: PortRecord[];
  aliases: PortAlias[];
  /** Other UN/LOCODE entries (no port function, no nearby port of the same name): code → [name, function], so a
   * 404 can say what the code is. */
  otherEntries: Record<string, [string, string]>;
  /** Country tanker series: ISO3 → PortWatch country names merged into it. */
  tankerCountries: Record<string, string[]>;
  /** The chokepoints with daily transits (absent in snapshots built before them). */
  chokepoints?: Chokepoint[];
}

/** Key of a country's tanker series in port-calls.dseries. */
export const tankerSeriesKey = (iso3: string) => `country:${iso3}`;
/** The day series key of a PortWatch chokepoint's transits (`portid` chokepoint1, …). */
export const chokepointSeriesKey = (portid: string) => `chokepoint:${portid}`;

/** A PortWatch chokepoint with daily transits in the snapshot (its series: chokepointSeriesKey(portid)). */
export interface Chokepoint {
  portid: string;
  name: string;
  /** From PortWatch's list of chokepoints; null when the list does not name it. */
  lat: number | null;
  lng: number | null;
}

export type HazardKind = "cyclone" | "flood";

export interface HazardEvent {
  id: string;
  kind: HazardKind;
  name: string;
  /** Green 1, Orange 2, Red 3 (GDACS alert levels; the feeds' alert score rounded into 1..3). */
  alertLevel: number;
  lat: number;
  lng: number;
  /** Epoch ms. */
  from: number;
  to: number;
  source: string;
}

export const GDACS_FLOOD_DB_SOURCE = "GDACS flood database";
