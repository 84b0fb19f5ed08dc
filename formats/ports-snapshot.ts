// The `ports` snapshot's records (format: ports-snapshot.md): written by pipeline/snapshots/ports.ts, read by the
// supply-chain service.

export const PORTS_SNAPSHOT = "ports";
export const PORTS_SOURCES = [
  "UN/LOCODE code list (UNECE; geoapify/un-locode CSV, MIT)",
  "NGA World Port Index, Pub. 150 (public domain)",
  "IMF PortWatch ports, daily port calls and tanker calls (Arslanalp, Koepke & Verschuur 2021, IMF WP/21/225)",
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

export interface PortRecord {
  code: string;
  name: string;
  country: string;
  lat: number | null;
  lng: number | null;
  coordSource: "wpi" | "portwatch" | "unlocode" | null;
  flags: string[];
  wpi: { number: number; name: string; harborSize: string; harborType: string; channelDepthM: number | null; cargoPierDepthM: number | null } | null;
  portwatch: {
    portid: string;
    name: string;
    country: string;
    locodePublished: string;
    matchedBy: "name" | "wpi-name" | "locode" | "nearest";
    vesselCounts: PortwatchPort["vesselCounts"];
    industryTop: string[];
    shareCountryImport: number | null;
    shareCountryExport: number | null;
  } | null;
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
