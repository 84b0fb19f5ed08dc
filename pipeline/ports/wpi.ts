// NGA World Port Index (Pub 150) CSV → ports with their UN/LOCODE ("TH LCH" → "THLCH") and the attributes the
// supply-chain answer shows. A code that is not five UN/LOCODE characters after removing the space is kept as
// `rawCode` with code "" (and counted), so it never matches by accident.
import { num, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { UNLOCODE_PATTERN } from "./unlocode.ts";

export interface WpiPort {
  number: number;
  name: string;
  alternateName: string;
  code: string;
  rawCode: string;
  country: string;
  lat: number;
  lng: number;
  harborSize: string;
  harborType: string;
  channelDepthM: number;
  cargoPierDepthM: number;
  maxVesselLengthM: number;
}

export function normalizeWpiCode(raw: string): string {
  const c = raw.replace(/\s+/g, "").toUpperCase();
  return UNLOCODE_PATTERN.test(c) ? c : "";
}

export function parseWpiCsv(text: string, file = "WPI.csv"): { ports: WpiPort[]; badCodes: number; rejected: CsvRejection[] } {
  const csv = readCsvRecords(text, file, { trim: true });
  let badCodes = 0;
  const ports = csv.records.map((r) => {
    const rawCode = r["UN/LOCODE"] ?? "";
    const code = normalizeWpiCode(rawCode);
    if (rawCode !== "" && code === "") badCodes++;
    return {
      number: num(r["World Port Index Number"]),
      name: r["Main Port Name"],
      alternateName: r["Alternate Port Name"],
      code,
      rawCode,
      country: r["Country Code"],
      lat: num(r["Latitude"]),
      lng: num(r["Longitude"]),
      harborSize: r["Harbor Size"],
      harborType: r["Harbor Type"],
      channelDepthM: num(r["Channel Depth (m)"]),
      cargoPierDepthM: num(r["Cargo Pier Depth (m)"]),
      maxVesselLengthM: num(r["Maximum Vessel Length (m)"]),
    };
  });
  return { ports, badCodes, rejected: csv.rejected };
}
