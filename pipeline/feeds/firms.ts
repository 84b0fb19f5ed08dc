// NASA FIRMS active fire detections (https://firms.modaps.eosdis.nasa.gov/): MODIS (brightness, bright_t31,
// numeric confidence 0-100) and VIIRS (bright_ti4, bright_ti5, confidence l/n/h) column sets, as CSV or as
// GeoJSON (upper-case property names, as converted from the FIRMS shapefiles). Magnitude is the fire
// radiative power (FRP, MW; Giglio et al. 2016, doi:10.1016/j.rse.2016.02.054).
import { num, readCsvRecords } from "./csv.ts";
import { RejectCounter, validLatLng, type AdapterResult, type FeedRecord } from "./records.ts";

export type FirmsSensor = "MODIS" | "VIIRS";

export interface FireRecord extends FeedRecord {
  sensor: FirmsSensor;
  /** Detection confidence 0..100 (VIIRS l/n/h → 30/60/90). */
  confidence: number;
  brightnessK: number;
  /** FIRMS `type`: 0 presumed vegetation fire, 1 active volcano, 2 other static land source, 3 offshore; null where the
   *  file has no `type` column (the NRT 7-day files) or the row leaves it empty (NRT rows of an archive download). */
  type: number | null;
}

/** Detections left out of a fire record because they are not vegetation fires (counted, not rejected: the rows are sound). */
export interface NotVegetation {
  /** FIRMS type 1, 2 or 3 (volcano, other static land source, offshore). */
  typed: Record<string, number>;
  /** NRT rows without a type within STATIC_SOURCE_CELLS of a typed static source or offshore detection of the same file. */
  untypedNearStatic: number;
  /** NRT rows without a type that were kept (no typed static source near them). */
  untypedKept: number;
}

export type FireResult = AdapterResult<FireRecord> & { notVegetation: NotVegetation };

const VIIRS_CONFIDENCE: Record<string, number> = { l: 30, low: 30, n: 60, nominal: 60, h: 90, high: 90 };

/** Which column set a header is; throws for neither. */
export function firmsSensor(columns: string[]): FirmsSensor {
  const c = new Set(columns.map((s) => s.toLowerCase()));
  if (c.has("bright_ti4")) return "VIIRS";
  if (c.has("brightness") && c.has("bright_t31")) return "MODIS";
  throw new Error("FIRMS: header is neither the MODIS nor the VIIRS column set");
}

/** acq_date YYYY-MM-DD + acq_time HHMM (UTC) → ms. */
export function firmsTime(date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const t = /^(\d{1,4})$/.exec(String(time).trim());
  if (!d || !t) return NaN;
  const hhmm = t[1].padStart(4, "0");
  const h = Number(hhmm.slice(0, 2));
  const m = Number(hhmm.slice(2));
  const [mo, dd] = [Number(d[2]), Number(d[3])];
  if (h > 23 || m > 59 || mo < 1 || mo > 12 || dd < 1 || dd > 31) return NaN;
  return Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), h, m);
}

/** One detection; `file`/`line` say where a rejected CSV row was. */
function fireRow(r: Record<string, string>, headerSensor: FirmsSensor, rc: RejectCounter, out: FireRecord[], file?: string, line?: number): void {
  rc.rows++;
  // FIRMS archive downloads write VIIRS rows under the MODIS column names (brightness, bright_t31) and say which
  // instrument in a column of their own: the row's instrument wins over the header's column set.
  const instrument = (r.instrument ?? "").trim().toUpperCase();
  const sensor: FirmsSensor = instrument === "VIIRS" || instrument === "MODIS" ? instrument : headerSensor;
  const reject = (reason: string) => rc.reject(reason, file, line);
  const lat = num(r.latitude);
  const lng = num(r.longitude);
  const time = firmsTime(r.acq_date ?? "", r.acq_time ?? "");
  const frp = num(r.frp);
  const rawConf = (r.confidence ?? "").trim().toLowerCase();
  const confidence = sensor === "VIIRS" ? (VIIRS_CONFIDENCE[rawConf] ?? num(rawConf)) : num(rawConf);
  if (!validLatLng(lat, lng)) { reject("bad coordinates"); return; }
  if (!Number.isFinite(time)) { reject("bad acq_date/acq_time"); return; }
  if (!(frp >= 0)) { reject("bad frp"); return; }
  if (!(confidence >= 0 && confidence <= 100)) { reject("bad confidence"); return; }
  // Two satellites can see the same place in the same minute (Suomi NPP and NOAA-20): the satellite is part of the id.
  const satellite = (r.satellite ?? "").trim();
  const id = `${sensor}-${satellite ? `${satellite}-` : ""}${r.acq_date}-${r.acq_time}-${lat}-${lng}`;
  out.push({
    id,
    source: `FIRMS-${sensor}`,
    kind: "fire",
    time,
    endTime: time,
    lng,
    lat,
    magnitude: frp,
    unit: "FRP MW",
    name: `${sensor} fire detection`,
    sensor,
    confidence,
    brightnessK: num(sensor === "VIIRS" ? (r.bright_ti4 ?? r.brightness) : r.brightness),
    type: /^[0-3]$/.test((r.type ?? "").trim()) ? Number(r.type.trim()) : null,
  });
}

/** Grid of the static-source mask, degrees: 0.01° ≈ 1.1 km, a MODIS pixel at nadir. */
const STATIC_CELL_DEG = 0.01;
/** Cells either side searched: an untyped row within ±2 cells (≈ 2 km, a MODIS pixel off nadir) of a static source is one. */
export const STATIC_SOURCE_CELLS = 2;

/**
 * Vegetation fires only. FIRMS' standard archives type each detection (0 presumed vegetation fire, 1 active volcano,
 * 2 other static land source — gas flares, industry —, 3 offshore); type 0 is kept, 1–3 are left out. The NRT rows at
 * the end of an archive download have no type yet (the standard reprocessing assigns it): they are kept, except where
 * they lie within ±STATIC_SOURCE_CELLS cells of a typed static-source or offshore detection of the same file — the same
 * chimney or platform seen again. A file without a `type` column (the global NRT files) is kept whole. Pure.
 */
export function vegetationFires(records: FireRecord[]): { records: FireRecord[]; notVegetation: NotVegetation } {
  const cell = (x: number) => Math.round(x / STATIC_CELL_DEG);
  const statics = new Set<string>();
  for (const r of records) if (r.type !== null && r.type !== 0) statics.add(`${cell(r.lat)},${cell(r.lng)}`);
  const nearStatic = (r: FireRecord) => {
    const [y, x] = [cell(r.lat), cell(r.lng)];
    for (let dy = -STATIC_SOURCE_CELLS; dy <= STATIC_SOURCE_CELLS; dy++)
      for (let dx = -STATIC_SOURCE_CELLS; dx <= STATIC_SOURCE_CELLS; dx++) if (statics.has(`${y + dy},${x + dx}`)) return true;
    return false;
  };
  const typedFile = records.some((r) => r.type !== null);
  const out: FireRecord[] = [];
  const nv: NotVegetation = { typed: {}, untypedNearStatic: 0, untypedKept: 0 };
  for (const r of records) {
    if (r.type === 0) out.push(r);
    else if (r.type !== null) nv.typed[r.type] = (nv.typed[r.type] ?? 0) + 1;
    else if (statics.size > 0 && nearStatic(r)) nv.untypedNearStatic++;
    else {
      if (typedFile) nv.untypedKept++;
      out.push(r);
    }
  }
  return { records: out, notVegetation: nv };
}

/** The detections of a FIRMS CSV, vegetation fires only (vegetationFires). */
export function parseFirmsCsv(text: string, file = "FIRMS.csv"): FireResult {
  const csv = readCsvRecords(text, file, { trim: true });
  const sensor = firmsSensor(csv.header);
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: FireRecord[] = [];
  for (const [i, r] of csv.records.entries()) {
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) lower[k.toLowerCase()] = v;
    fireRow(lower, sensor, rc, out, file, csv.lines[i]);
  }
  const veg = vegetationFires(out);
  return { ...rc.result(veg.records), notVegetation: veg.notVegetation };
}

export function parseFirmsGeoJson(text: string): FireResult {
  const fc = JSON.parse(text) as { type?: string; features?: { properties: Record<string, unknown> | null }[] };
  if (fc.type !== "FeatureCollection" || !Array.isArray(fc.features)) throw new Error("FIRMS GeoJSON: not a FeatureCollection");
  const first = fc.features[0]?.properties ?? {};
  const sensor = firmsSensor(Object.keys(first));
  const rc = new RejectCounter();
  const out: FireRecord[] = [];
  for (const f of fc.features) {
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(f.properties ?? {})) lower[k.toLowerCase()] = v === null || v === undefined ? "" : String(v);
    fireRow(lower, sensor, rc, out);
  }
  const veg = vegetationFires(out);
  return { ...rc.result(veg.records), notVegetation: veg.notVegetation };
}
