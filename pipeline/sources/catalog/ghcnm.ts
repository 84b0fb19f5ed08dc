// The source "ghcnm" of the registry (pipeline/sources/registry.ts lists every entry; docs/methods/sources.md in prose).
// NOAA's whole GHCN-Monthly TAVG release (one .tar.gz: the .dat and the .inv of ~28,000 stations) is downloaded once
// and cut to the mirror's box, into the mirror's own layout and paths, so the regional grid (GRID_SOURCE=cpc) reads the
// live copy through the inputs tree exactly as it reads the mirror's.
import { basename } from "node:path";
import { gzipSync } from "node:zlib";
import { GHCNM_DATA_DIR_FILES } from "../../grid/grid-source.ts";
import { parseGhcnmDat, parseGhcnmInventory } from "../../inputs/ghcnm/parse.ts";
import { ContentError } from "../content-check.ts";
import { monthEndDay } from "../data-as-of.ts";
import type { SourceEntry } from "../types.ts";
import { untarGzMembers } from "../untar.ts";

/** The mirror's box (../shared/data PROVENANCE.md, climate/ghcnm-v4-tavg/): every station that can weigh on the region. */
export const GHCNM_BOX = { west: 90, east: 145, south: -12, north: 30 };
/** Fewest stations with data in the box for a release to be used (the mirror has 665): fewer is a broken release. */
export const GHCNM_MIN_STATIONS = 300;
/** The release unpacks to ~200 MB (the .dat); anything far larger is not it. */
const MAX_UNPACKED = 1024 * 1024 * 1024;

export interface GhcnmCut {
  dat: string;
  inv: string;
  stations: number;
}

/**
 * The release's qcf .dat and .inv cut to the box: the inventory lines of the box's stations that have TAVG data, and
 * their .dat lines, as NOAA wrote them. Both files are parsed whole first (parse.ts), so a damaged release is refused.
 */
export function cutGhcnmRelease(archive: Uint8Array, what: string, minStations = GHCNM_MIN_STATIONS): GhcnmCut {
  const members = untarGzMembers(archive, (p) => /^ghcnm\.tavg\..*\.qcf\.(dat|inv)$/.test(basename(p)), MAX_UNPACKED, what);
  const member = (ext: string) => {
    const found = [...members].filter(([p]) => p.endsWith(`.qcf.${ext}`));
    if (found.length !== 1) throw new ContentError(what, `the archive holds ${found.length} qcf .${ext} files, expected 1`);
    return { name: basename(found[0][0]), text: Buffer.from(found[0][1]).toString("latin1") };
  };
  const dat = member("dat");
  const inv = member("inv");
  const inventory = parseGhcnmInventory(inv.text, inv.name);
  const { series } = parseGhcnmDat(dat.text, dat.name);
  const byId = new Map(inventory.map((s) => [s.id, s]));
  for (const id of series.keys()) if (!byId.has(id)) throw new ContentError(what, `station ${id} has data in ${dat.name} but is not in ${inv.name}`);
  const b = GHCNM_BOX;
  const keep = new Set(inventory.filter((s) => series.has(s.id) && s.lat >= b.south && s.lat <= b.north && s.lng >= b.west && s.lng <= b.east).map((s) => s.id));
  if (keep.size < minStations) throw new ContentError(what, `${keep.size} stations with data in the box ${b.west}..${b.east} °E, ${b.south}..${b.north} °N, fewer than the ${minStations} expected`);
  const lines = (text: string) => text.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => keep.has(l.slice(0, 11)));
  return { dat: lines(dat.text).join("\n") + "\n", inv: lines(inv.text).join("\n") + "\n", stations: keep.size };
}

// Both kept files come from one download (the refresh shares it): cut once per download, a refusal included.
const cuts = new WeakMap<Uint8Array, GhcnmCut | Error>();
function cutOnce(archive: Uint8Array): GhcnmCut {
  let cut = cuts.get(archive);
  if (!cut) {
    try {
      cut = cutGhcnmRelease(archive, "ghcnm.tavg.latest.qcf.tar.gz");
    } catch (err) {
      cut = err as Error;
    }
    cuts.set(archive, cut);
  }
  if (cut instanceof Error) throw cut;
  return cut;
}

/** The last month any station reports, as its last day. */
function datAsOf(text: string, file: string): string | null {
  let last = -1;
  for (const s of parseGhcnmDat(text, file).series.values()) {
    for (let t = s.tavg.length - 1; t >= 0; t--) {
      if (s.tavg[t] === s.tavg[t]) {
        last = Math.max(last, s.firstMonth + t);
        break;
      }
    }
  }
  return last < 0 ? null : monthEndDay(last);
}

export const source: SourceEntry = {
  name: "ghcnm",
  // Drought answers when the served grid is the regional one (GRID_SOURCE=cpc: temperature for PET).
  usedBy: ["drought"],
  title: "NOAA NCEI GHCN-Monthly v4 mean temperature, adjusted (qcf), stations of Southeast Asia",
  url: "https://www.ncei.noaa.gov/pub/data/ghcn/v4/ghcnm.tavg.latest.qcf.tar.gz",
  format: "gzip",
  cadence: "daily",
  licence: "NOAA: public domain",
  attribution: "Menne et al. 2018, GHCN-Monthly v4, doi:10.1175/JCLI-D-18-0094.1",
  dataDirPath: "climate/ghcnm-v4-tavg",
  liveFormat: `NOAA's whole release (a .tar.gz of the qcf .dat and .inv, ~28,000 stations), cut to the stations with data in ${GHCNM_BOX.west}..${GHCNM_BOX.east} °E, ${GHCNM_BOX.south}..${GHCNM_BOX.north} °N (at least ${GHCNM_MIN_STATIONS}) and kept in the mirror's layout and names, so the regional grid (GRID_SOURCE=cpc) reads it in the mirror's place. The mirror's copy is the same release re-published per station (flag columns blank).`,
  refresh: "http",
  maxBytes: 200 * 1024 * 1024,
  resources: (ctx) => [
    {
      file: basename(GHCNM_DATA_DIR_FILES.dat),
      url: ctx.origin,
      dataDirFile: GHCNM_DATA_DIR_FILES.dat,
      adapterReadsLive: true,
      derive: (bytes) => new Uint8Array(gzipSync(cutOnce(bytes).dat)),
      check: { format: "gzip", validate: (text, file) => void parseGhcnmDat(text, file), asOf: datAsOf },
    },
    {
      file: basename(GHCNM_DATA_DIR_FILES.inv),
      url: ctx.origin,
      dataDirFile: GHCNM_DATA_DIR_FILES.inv,
      adapterReadsLive: true,
      derive: (bytes) => new TextEncoder().encode(cutOnce(bytes).inv),
      check: { format: "text", validate: (text, file) => void parseGhcnmInventory(text, file) },
    },
  ],
};
