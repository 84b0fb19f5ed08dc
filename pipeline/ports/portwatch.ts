// IMF PortWatch: the port list (with its partly wrong LOCODE column), daily port calls of single ports, and the
// derived country tanker series. Daily rows become flat Float32 columns on a gap-free day axis (NaN = no row).
import { num, readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { chokepointSeriesKey, tankerSeriesKey, type PortwatchPort } from "../../formats/ports-snapshot.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";

export { dayOf, isoOfDay, type PortwatchPort };


/** Rows keyed by header, trimmed; malformed rows go to `rejected`. */
function records(text: string, file: string, rejected: CsvRejection[]): Record<string, string>[] {
  const csv = readCsvRecords(text, file, { trim: true });
  rejected.push(...csv.rejected);
  return csv.records;
}

export function parsePortwatchPorts(text: string, file = "PortWatch_ports_database.csv", rejected: CsvRejection[] = []): PortwatchPort[] {
  return records(text, file, rejected).map((r) => ({
    portid: r.portid,
    name: r.portname,
    country: r.country,
    iso3: r.ISO3,
    lat: num(r.lat),
    lng: num(r.lon),
    locode: r.LOCODE,
    vesselCounts: {
      total: num(r.vessel_count_total),
      container: num(r.vessel_count_container),
      dryBulk: num(r.vessel_count_dry_bulk),
      generalCargo: num(r.vessel_count_general_cargo),
      roro: num(r.vessel_count_RoRo),
      tanker: num(r.vessel_count_tanker),
    },
    industryTop: [r.industry_top1, r.industry_top2, r.industry_top3].filter((s) => s !== ""),
    shareCountryImport: num(r.share_country_maritime_import),
    shareCountryExport: num(r.share_country_maritime_export),
  }));
}

/** Columns kept from the daily file, in this order. */
export const DAILY_COLUMNS = [
  "portcalls_container",
  "portcalls_dry_bulk",
  "portcalls_general_cargo",
  "portcalls_roro",
  "portcalls_tanker",
  "portcalls",
  "import",
  "export",
] as const;
export type DailyColumn = (typeof DAILY_COLUMNS)[number];

export interface DaySeries {
  key: string;
  /** Days since 1970-01-01 (UTC) of the first value. */
  firstDay: number;
  /** One Float32Array per column, all of the same length (one value per day, NaN = no data that day). */
  columns: Record<string, Float32Array>;
}


function toSeries(key: string, dated: { day: number; values: number[] }[], names: readonly string[]): DaySeries {
  if (dated.length === 0) throw new Error(`${key}: no rows`);
  let first = Infinity;
  let last = -Infinity;
  for (const d of dated) {
    first = Math.min(first, d.day);
    last = Math.max(last, d.day);
  }
  const n = last - first + 1;
  const columns: Record<string, Float32Array> = {};
  for (const name of names) columns[name] = new Float32Array(n).fill(NaN);
  for (const d of dated) names.forEach((name, j) => (columns[name][d.day - first] = d.values[j]));
  return { key, firstDay: first, columns };
}

/** One PortWatch Daily_Ports_Data file (one port) → its series, keyed by portid. */
export function parsePortwatchDaily(text: string, file = "daily_portcalls.csv", rejected: CsvRejection[] = []): DaySeries {
  const rows = records(text, file, rejected);
  const ids = new Set(rows.map((r) => r.portid));
  if (ids.size !== 1) throw new Error(`daily port calls file must hold one port, found ${ids.size}`);
  const dated = rows.map((r) => ({ day: dayOf(r.date), values: DAILY_COLUMNS.map((c) => num(r[c])) }));
  return toSeries([...ids][0], dated, DAILY_COLUMNS);
}

/** Columns kept from PortWatch's Daily_Chokepoints_Data (transit calls by vessel type), in this order. */
export const CHOKEPOINT_COLUMNS = ["n_container", "n_dry_bulk", "n_general_cargo", "n_roro", "n_tanker", "n_total"] as const;

/**
 * PortWatch's Daily_Chokepoints_Data export (every chokepoint in one file; dates as the ArcGIS layer writes them,
 * "2019/01/01 00:00:00+00", or YYYY-MM-DD as the refresh writes them) → one series per chokepoint, keyed
 * `chokepoint:<portid>`, with its name. PortWatch writes a row for every chokepoint and day, zero transits included,
 * so a missing day, a repeated one or a negative count is a broken file: it throws, and the snapshot that would read
 * it is refused (the previous one keeps serving; the refresh's content check refuses the download the same way).
 */
export function parseChokepointsDaily(text: string, file = "Daily_Chokepoints_Data.csv", rejected: CsvRejection[] = []): { series: DaySeries[]; names: Record<string, string> } {
  const byId = new Map<string, { day: number; values: number[] }[]>();
  const names: Record<string, string> = {};
  for (const r of records(text, file, rejected)) {
    const day = dayOf(r.date.replaceAll("/", "-"));
    if (!Number.isFinite(day) || !/^chokepoint\d+$/.test(r.portid)) {
      rejected.push({ file, line: 0, reason: `not a dated chokepoint row: ${r.date} ${r.portid}` });
      continue;
    }
    const values = CHOKEPOINT_COLUMNS.map((c) => num(r[c]));
    const negative = CHOKEPOINT_COLUMNS.find((_, j) => values[j] < 0);
    if (negative) throw new Error(`${file}: ${r.portname} (${r.portid}) ${isoOfDay(day)}: negative ${negative} ${r[negative]}`);
    let list = byId.get(r.portid);
    if (!list) byId.set(r.portid, (list = []));
    list.push({ day, values });
    names[r.portid] = r.portname;
  }
  for (const [id, list] of byId) {
    list.sort((a, b) => a.day - b.day);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i].day - list[i - 1].day;
      if (gap === 0) throw new Error(`${file}: ${names[id]} (${id}) has ${isoOfDay(list[i].day)} twice`);
      if (gap > 1) throw new Error(`${file}: ${names[id]} (${id}) has no row for ${gap - 1} day(s) from ${isoOfDay(list[i - 1].day + 1)}: the download is incomplete`);
    }
  }
  return { series: [...byId].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, dated]) => toSeries(chokepointSeriesKey(id), dated, CHOKEPOINT_COLUMNS)), names };
}

/** The derived country tanker series → one series per PortWatch country name, keyed by the name, column "tanker_calls". */
export function parseTankerByCountry(text: string, file = "portwatch_tanker_daily_by_country.csv", rejected: CsvRejection[] = []): DaySeries[] {
  const byCountry = new Map<string, { day: number; values: number[] }[]>();
  for (const r of records(text, file, rejected)) {
    let list = byCountry.get(r.country);
    if (!list) byCountry.set(r.country, (list = []));
    list.push({ day: dayOf(r.date), values: [num(r.tanker_calls)] });
  }
  return [...byCountry].map(([country, dated]) => toSeries(country, dated, ["tanker_calls"]));
}

/**
 * Country tanker series keyed by ISO alpha-3 (`country:<ISO3>`). PortWatch files a few ports under a second name of
 * their country from early 2026 ("Great Britain" beside "United Kingdom", "Turkiye" beside "Türkiye"): the series
 * with the most days is the country's, and the others' calls are added on the days it has.
 */
export function tankerSeriesByIso3(series: DaySeries[], iso3Of: (countryName: string) => string | undefined): { series: DaySeries[]; names: Record<string, string[]>; unmapped: string[] } {
  const groups = new Map<string, DaySeries[]>();
  const unmapped: string[] = [];
  for (const s of series) {
    const iso3 = iso3Of(s.key);
    if (iso3 === undefined) {
      unmapped.push(s.key);
      continue;
    }
    const g = groups.get(iso3);
    if (g) g.push(s);
    else groups.set(iso3, [s]);
  }
  const out: DaySeries[] = [];
  const names: Record<string, string[]> = {};
  for (const [iso3, g] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const present = (s: DaySeries) => s.columns.tanker_calls.reduce((n, v) => n + (Number.isNaN(v) ? 0 : 1), 0);
    g.sort((a, b) => present(b) - present(a));
    const [main, ...others] = g;
    const calls = Float32Array.from(main.columns.tanker_calls);
    for (const o of others) {
      const col = o.columns.tanker_calls;
      for (let i = 0; i < col.length; i++) {
        const j = o.firstDay + i - main.firstDay;
        if (j >= 0 && j < calls.length && !Number.isNaN(calls[j]) && !Number.isNaN(col[i])) calls[j] += col[i];
      }
    }
    names[iso3] = g.map((s) => s.key);
    out.push({ key: tankerSeriesKey(iso3), firstDay: main.firstDay, columns: { tanker_calls: calls } });
  }
  return { series: out, names, unmapped };
}
