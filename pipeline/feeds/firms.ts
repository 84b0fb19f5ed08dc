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
}

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
  });
}

export function parseFirmsCsv(text: string, file = "FIRMS.csv"): AdapterResult<FireRecord> {
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
  return rc.result(out);
}

export function parseFirmsGeoJson(text: string): AdapterResult<FireRecord> {
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
  return rc.result(out);
}
