// Decoded AIS sample (one CSV row per message; x = lon, y = lat). Only position reports with a valid position are
// kept. Navigational status (ITU-R M.1371): 0 under way using engine, 1 at anchor, 5 moored, 8 under way sailing,
// 15 not defined.
import { num, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";

export interface AisFix {
  mmsi: string;
  lat: number;
  lng: number;
  navStatus: number;
  sogKnots: number;
  /** Epoch ms, NaN when the message carries no date. */
  time: number;
}

export function parseAisCsv(text: string, file = "ais_sample.csv"): { fixes: AisFix[]; rows: number; rejected: CsvRejection[] } {
  const { records: rows, rejected } = readCsvRecords(text, file, { trim: true });
  const fixes: AisFix[] = [];
  for (const r of rows) {
    const lat = num(r.y);
    const lng = num(r.x);
    // 91/181 are AIS "not available" values.
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) continue;
    const y = num(r.year);
    // Some messages carry garbage dates (year 4162): only plausible years are kept.
    const time = y >= 2000 && y <= 2100 ? Date.UTC(y, num(r.month) - 1, num(r.day), num(r.hour), num(r.minute), num(r.second)) : NaN;
    fixes.push({ mmsi: r.mmsi, lat, lng, navStatus: num(r.nav_status), sogKnots: num(r.sog), time });
  }
  return { fixes, rows: rows.length + rejected.length, rejected };
}
