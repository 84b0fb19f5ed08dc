// Dartmouth Flood Observatory global archive (FloodArchive.csv): one row per large flood, centroid, affected
// area (km²), dates (M/D/YYYY), dead, displaced, severity class (1, 1.5, 2). Magnitude is the DFO flood
// magnitude M = log10(duration days × severity × area km²) (Brakenridge, DFO archive notes).
import { num, readCsvRecords } from "./csv.ts";
import { REASON_NULL_ISLAND, countryChecker, countryNamesToIso3, type CountryChecker } from "./country-check.ts";
import { RejectCounter, validLatLng, type AdapterResult, type FeedRecord } from "./records.ts";

export interface DfoRecord extends FeedRecord {
  country: string;
  dead: number;
  displaced: number;
  areaKm2: number;
  severity: number;
  cause: string;
}

/** M/D/YYYY → ms UTC; NaN if malformed. */
export function parseUsDate(s: string): number {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  if (!m) return NaN;
  const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return NaN;
  return Date.UTC(y, mo - 1, d);
}

export function dfoMagnitude(days: number, severity: number, areaKm2: number): number {
  return Math.log10(Math.max(1, days) * severity * Math.max(1, areaKm2));
}

/**
 * `checker` null skips the country check. A row may lie in its Country or any of its OtherCountry names. `file`
 * names the input in rejections (file:line).
 */
export function parseDfoArchive(text: string, checker: CountryChecker | null = countryChecker(), file = "FloodArchive.csv"): AdapterResult<DfoRecord> {
  const csv = readCsvRecords(text, file, { trim: true, required: ["ID", "long", "lat", "Began", "Ended", "Severity", "Area"] });
  const rc = new RejectCounter();
  rc.addCsvRejections(csv.rejected);
  const out: DfoRecord[] = [];
  for (const [i, r] of csv.records.entries()) {
    const reject = (reason: string) => rc.reject(reason, file, csv.lines[i]);
    rc.rows++;
    const lat = num(r.lat);
    const lng = num(r.long);
    const began = parseUsDate(r.Began);
    const ended = parseUsDate(r.Ended);
    const severity = num(r.Severity);
    const area = num(r.Area);
    if (!validLatLng(lat, lng)) { reject("bad coordinates"); continue; }
    if (!Number.isFinite(began)) { reject("bad start date"); continue; }
    if (!(severity > 0)) { reject("bad severity"); continue; }
    if (lng === 0 && lat === 0) { reject(REASON_NULL_ISLAND); continue; }
    if (checker) {
      const named = [...countryNamesToIso3(r.Country ?? ""), ...countryNamesToIso3(r.OtherCountry ?? "")];
      const c = checker.check(lng, lat, named);
      if (c !== "ok" && c !== "unchecked") { reject(c); continue; }
    }
    const end = Number.isFinite(ended) && ended >= began ? ended : began;
    const days = (end - began) / 86_400_000 + 1;
    out.push({
      id: `DFO-${r.ID}`,
      source: "DFO",
      kind: "flood",
      time: began,
      endTime: end,
      lng,
      lat,
      magnitude: dfoMagnitude(days, severity, Number.isFinite(area) ? area : 1),
      unit: "DFO magnitude",
      name: `${r.Country} flood (${r.MainCause || "unknown cause"})`,
      country: r.Country,
      dead: num(r.Dead),
      displaced: num(r.Displaced),
      areaKm2: area,
      severity,
      cause: r.MainCause,
    });
  }
  return rc.result(out);
}
