// Flood footprints of the Dartmouth Flood Observatory: the "area affected" polygons of its archive events
// (dfo_polys_20191203.zip, an ESRI shapefile zipped unchanged, as used by Tellman et al. 2021) and the Global Flood
// Database's list of the DFO events it mapped from MODIS (gfd_qcdatabase_2019_08_01.csv.gz). Both are keyed by
// the DFO event ID of FloodArchive.csv. Shapefile reading is the `shapefile` package's; the zip is fflate's.
import { unzipSync, gunzipSync } from "fflate";
import * as shapefile from "shapefile";
import { readCsvRecords } from "./csv.ts";
import { RejectCounter, type AdapterResult } from "./records.ts";
import { polygonRings } from "./polygons.ts";
import { countryChecker, countryNamesToIso3, type CountryChecker } from "./country-check.ts";

export interface DfoFootprint {
  /** "DFO-<ID>", as the archive adapter names the event (dfo.ts). */
  id: string;
  /** Outer rings and holes, [lng, lat] vertices. */
  rings: number[][][];
  /** The polygon row's own centroid attributes (long, lat), used to tell a misplaced duplicate. */
  lng: number;
  lat: number;
}

/**
 * The polygons of the zipped DFO shapefile, one per event ID. The .dbf is Latin-1 (country names with non-breaking
 * spaces are trimmed). A polygon whose centroid attributes lie outside its named countries is refused by the same
 * country check as the archive rows (ID 278 has a second copy drawn in the English Channel for an Indonesian flood);
 * a record without a polygon is rejected; a second polygon for an ID is refused. `checker` null skips the check.
 */
export async function readDfoFootprints(zip: Uint8Array, file = "dfo_polys_20191203.zip", checker: CountryChecker | null = countryChecker()): Promise<AdapterResult<DfoFootprint>> {
  const files = unzipSync(zip);
  const base = Object.keys(files).find((n) => n.toLowerCase().endsWith(".shp"))?.slice(0, -4);
  if (!base || !files[`${base}.dbf`]) throw new Error(`${file}: no .shp with its .dbf inside`);
  const source = await shapefile.open(files[`${base}.shp`], files[`${base}.dbf`], { encoding: "latin1" });
  const rc = new RejectCounter();
  const byId = new Map<string, DfoFootprint>();
  for (let row = 1; ; row++) {
    const r = await source.read();
    if (r.done) break;
    rc.rows++;
    const p = r.value.properties as Record<string, unknown>;
    const rings = polygonRings(r.value.geometry as { type: string; coordinates: unknown } | null);
    const id = Number(p.ID);
    if (!Number.isInteger(id) || id <= 0) { rc.reject("no event ID", file, row); continue; }
    if (rings.length === 0) { rc.reject("no polygon", file, row); continue; }
    const f: DfoFootprint = { id: `DFO-${id}`, rings, lng: Number(p.long), lat: Number(p.lat) };
    if (checker) {
      const name = (v: unknown) => String(v ?? "").replace(/\u00a0/g, " ").trim();
      const c = checker.check(f.lng, f.lat, [...countryNamesToIso3(name(p.Country)), ...countryNamesToIso3(name(p.OtherCount))]);
      if (c !== "ok" && c !== "unchecked") { rc.reject(c, file, row); continue; }
    }
    if (byId.has(f.id)) { rc.reject("duplicate event ID", file, row); continue; }
    byId.set(f.id, f);
  }
  return rc.result([...byId.values()]);
}

/** DFO event IDs ("DFO-<ID>") the Global Flood Database mapped from MODIS, from its QC table (gzip CSV). */
export function readGfdMappedEvents(gz: Uint8Array, file = "gfd_qcdatabase_2019_08_01.csv.gz"): AdapterResult<string> {
  const text = new TextDecoder().decode(gunzipSync(gz));
  const csv = readCsvRecords(text, file, { trim: true, required: ["ID", "Began", "ThreshType"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const ids = new Set<string>();
  for (const [i, r] of csv.records.entries()) {
    rc.rows++;
    const id = Number(r.ID);
    if (!Number.isInteger(id) || id <= 0) { rc.reject("no event ID", file, csv.lines[i]); continue; }
    ids.add(`DFO-${id}`);
  }
  return rc.result([...ids]);
}
