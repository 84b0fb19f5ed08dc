// OpenDengue V1.3 extracts (Clarke et al. 2024, https://opendengue.org, CC BY 4.0) for Thailand: monthly cases per
// province (Admin1 rows of the spatial extract, 1993-01..2022-12) and national monthly cases (Admin0 rows of the
// temporal extract, to 2025-03). Province names are upper case with odd spellings; every one must match one of
// the 77 provinces or the build fails.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { monthIndex } from "../../lib/months.ts";
import { resolveProvince } from "../provinces/aliases.ts";
import { parseCount, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { denseSeries, type CaseSeries } from "../../lib/outbreaks/series.ts";

export const OPENDENGUE_DIR = join("health", "opendengue");
export const OPENDENGUE_FILES = {
  national: "National_extract_V1_3.csv",
  spatial: "Spatial_extract_SEARO_V1_3.csv",
  temporal: "Temporal_extract_SEARO_V1_3.csv",
} as const;
export const OPENDENGUE_SOURCE = "OpenDengue V1.3 (Clarke et al. 2024, Sci Data 11:296, CC BY 4.0)";

/**
 * OpenDengue spellings the general alias table does not know, mapped to the canonical English name. "PHACHINBURI"
 * (2003 on) and "PRACHIN BURI" (1993–2002) are the same province, TH-25.
 */
export const OPENDENGUE_SPELLINGS: Record<string, string> = {
  "KAMPAENG PHET": "Kamphaeng Phet",
  PHACHINBURI: "Prachin Buri",
  "PHRA NAKHON SI AYUDHYA": "Phra Nakhon Si Ayutthaya",
  "PRACHUAP KHILIKHAN": "Prachuap Khiri Khan",
  "SAMUT PRAKARN": "Samut Prakan",
  "SAMUT SONGKHAM": "Samut Songkhram",
  TRAD: "Trat",
};

export interface DengueRow {
  adm0: string;
  adm1: string;
  sRes: string;
  tRes: string;
  start: string;
  end: string;
  cases: number;
  uuid: string;
}

const COLUMNS = ["adm_0_name", "adm_1_name", "S_res", "T_res", "calendar_start_date", "calendar_end_date", "dengue_total", "UUID"];

/**
 * The rows of one country (adm_0_name, upper case) from an extract. Names may hold line breaks inside quotes
 * ("ARUNACHAL\r\nPRADESH"), so records may span lines. Malformed rows go to `rejected`.
 */
export function parseOpenDengue(text: string, source: string, country = "THAILAND", rejected: CsvRejection[] = []): DengueRow[] {
  const csv = readCsvRecords(text, source, { required: COLUMNS, multiline: true });
  rejected.push(...csv.rejected);
  return csv.records
    .filter((r) => r.adm_0_name === country)
    .map((r) => ({
      adm0: r.adm_0_name,
      adm1: r.adm_1_name,
      sRes: r.S_res,
      tRes: r.T_res,
      start: r.calendar_start_date,
      end: r.calendar_end_date,
      cases: parseCount(r.dengue_total),
      uuid: r.UUID,
    }));
}

function monthOfDate(date: string): number {
  return monthIndex(Number(date.slice(0, 4)), Number(date.slice(5, 7)));
}

/** Province code of an OpenDengue admin-1 name, or undefined. */
export function matchDengueProvince(index: ReadonlyMap<string, string>, name: string): string | undefined {
  return resolveProvince(index, OPENDENGUE_SPELLINGS[name] ?? name);
}

export interface ProvinceDengue {
  series: CaseSeries[];
  /** Distinct admin-1 names and the province each matched. */
  matches: Record<string, string>;
  unmatched: string[];
  rows: number;
}

/** Monthly province series from Admin1/Month rows; two names of one province (Prachin Buri) merge into one series. */
export function provinceDengueSeries(rows: readonly DengueRow[], index: ReadonlyMap<string, string>): ProvinceDengue {
  const byCode = new Map<string, [number, number][]>();
  const matches: Record<string, string> = {};
  const unmatched = new Set<string>();
  let used = 0;
  for (const r of rows) {
    if (r.sRes !== "Admin1" || r.tRes !== "Month") continue;
    const code = matchDengueProvince(index, r.adm1);
    if (code === undefined) {
      unmatched.add(r.adm1);
      continue;
    }
    matches[r.adm1] = code;
    let list = byCode.get(code);
    if (list === undefined) byCode.set(code, (list = []));
    list.push([monthOfDate(r.start), r.cases]);
    used++;
  }
  const series = [...byCode.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, points]): CaseSeries => {
      const { start, values } = denseSeries(points, `OpenDengue ${code}`);
      return { disease: "dengue", area: code, resolution: "month", start, values, baseline: "seasonal", source: OPENDENGUE_SOURCE };
    });
  return { series, matches, unmatched: [...unmatched].sort(), rows: used };
}

/** National monthly series from Admin0/Month rows; a month reported by two sources keeps the first row. */
export function nationalDengueSeries(rows: readonly DengueRow[]): { series: CaseSeries; duplicates: number } {
  const seen = new Map<number, number>();
  let duplicates = 0;
  for (const r of rows) {
    if (r.sRes !== "Admin0" || r.tRes !== "Month") continue;
    const m = monthOfDate(r.start);
    if (seen.has(m)) duplicates++;
    else seen.set(m, r.cases);
  }
  const { start, values } = denseSeries([...seen.entries()], "OpenDengue national");
  return {
    series: { disease: "dengue", area: "THA", resolution: "month", start, values, baseline: "seasonal", source: OPENDENGUE_SOURCE },
    duplicates,
  };
}

export interface OpenDengueThailand {
  provinces: ProvinceDengue;
  national: CaseSeries;
  /** Thailand rows per extract, and admin-1 rows of the temporal extract that differ from the spatial extract. */
  qc: { spatialRows: number; temporalRows: number; nationalRows: number; temporalAdmin1Mismatches: number; nationalDuplicateMonths: number };
}

/** Reads the three extracts for Thailand: admin-1 from the spatial extract (checked against the temporal one), national from the temporal and national extracts. */
export function readOpenDengueThailand(dir: string, index: ReadonlyMap<string, string>, rejected: CsvRejection[] = []): OpenDengueThailand {
  const read = (f: string) => {
    const path = join(dir, OPENDENGUE_DIR, f);
    return parseOpenDengue(readFileSync(path, "utf8"), path, "THAILAND", rejected);
  };
  const spatial = read(OPENDENGUE_FILES.spatial);
  const temporal = read(OPENDENGUE_FILES.temporal);
  const national = read(OPENDENGUE_FILES.national);
  const provinces = provinceDengueSeries(spatial, index);
  const key = (r: DengueRow) => `${r.adm1}|${r.start}|${r.tRes}`;
  const spatialAdmin1 = new Map(spatial.filter((r) => r.sRes === "Admin1").map((r) => [key(r), r.cases]));
  let mismatches = 0;
  for (const r of temporal) if (r.sRes === "Admin1" && spatialAdmin1.get(key(r)) !== r.cases) mismatches++;
  // The temporal extract carries the monthly national series; the national extract adds months it lacks.
  const nat = nationalDengueSeries([...temporal, ...national]);
  return {
    provinces,
    national: nat.series,
    qc: {
      spatialRows: spatial.length,
      temporalRows: temporal.length,
      nationalRows: national.length,
      temporalAdmin1Mismatches: mismatches,
      nationalDuplicateMonths: nat.duplicates,
    },
  };
}
