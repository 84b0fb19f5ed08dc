// The heatwave snapshot: daily heatwaves per GHCN-Daily station (Perkins & Alexander) and the national monthly table.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { GISTEMP_TABLE_FILE, parseGlobalTemperature, parseOwidTemperature } from "../../feeds/temperature.ts";
import { FEED_SNAPSHOT_FORMAT, type CountryHeat, type HeatTable, type SnapshotMeta, type DailyHeatStation, type DailyHeatTable } from "../../../formats/feed-snapshot.ts";
import { sharedGeography } from "../../../lib/feed-risk/place.ts";
import { GHCND_SUBDIR, STATION_INDEX_FILE, readStationIndex } from "../../inputs/ghcnd/stations.ts";
import { epochDay, inPlausibleRange, parseGhcndCsv, type DailySeries } from "../../inputs/ghcnd/parse.ts";
import { HEAT_BY_YEAR_DIR, HEAT_STATIONS_DIR } from "../../inputs/ghcnd/heat-network.ts";
import { calendarDayThresholds, heatwaveStats } from "../../../lib/feed-risk/heatwave-days.ts";
import { type BuildContext, type BuiltSnapshot, Inputs, WORLD, finish, requireValid } from "./common.ts";
import { r2 } from "../../../lib/round.ts";

export const OWID_TEMPERATURE_FILE = "feeds/temperature/monthly-temperature-anomalies.csv";
export const GLOBAL_TEMPERATURE_FILE = "feeds/temperature/global-monthly-gistemp-gcag.csv";

export const HEAT_BASE = { startYear: 1981, endYear: 2010, minYears: 10, minDaysPerYear: 300, maxDistanceKm: 100 } as const;

type TmaxSeries = Pick<DailySeries, "station" | "name" | "lat" | "lng" | "firstDay" | "tmax">;
const epochIso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);

/**
 * One station's heatwave record: Perkins & Alexander heatwaves in its latest calendar year with ≥ 300 days of TMAX,
 * against the 1981–2010 base years; or why it is left out.
 */
function stationHeat(st: TmaxSeries): DailyHeatStation | string {
  const th = calendarDayThresholds(st.tmax, st.firstDay, HEAT_BASE.startYear, HEAT_BASE.endYear);
  if (th.some((v) => Number.isNaN(v))) return `too few ${HEAT_BASE.startYear}–${HEAT_BASE.endYear} maximum temperatures for the calendar-day thresholds`;
  const base: { hwf: number; hot: number }[] = [];
  const byYear: [number, number, number, number][] = [];
  const y0 = new Date(st.firstDay * 86_400_000).getUTCFullYear();
  const y1 = new Date((st.firstDay + st.tmax.length - 1) * 86_400_000).getUTCFullYear();
  for (let y = y0; y <= y1; y++) {
    const h = heatwaveStats(st.tmax, st.firstDay, th, Date.UTC(y, 0, 1) / 86_400_000, Date.UTC(y, 11, 31) / 86_400_000);
    if (h.daysWithData < HEAT_BASE.minDaysPerYear) continue;
    byYear.push([y, h.heatwaves, h.heatwaveDays, h.hotDays]);
    if (y >= HEAT_BASE.startYear && y <= HEAT_BASE.endYear) base.push({ hwf: h.heatwaveDays, hot: h.hotDays });
  }
  if (base.length < HEAT_BASE.minYears) return `${base.length} complete base years`;
  // The latest calendar year with 300 days of data (P&A's metrics are annual); a later, thinner year is left aside.
  let from = 0;
  let to = 0;
  let h: ReturnType<typeof heatwaveStats> | undefined;
  for (let y = y1; y > HEAT_BASE.endYear && !h; y--) {
    from = Date.UTC(y, 0, 1) / 86_400_000;
    to = Date.UTC(y, 11, 31) / 86_400_000;
    const x = heatwaveStats(st.tmax, st.firstDay, th, from, to);
    if (x.daysWithData >= HEAT_BASE.minDaysPerYear) h = x;
  }
  if (!h) return `no year after ${HEAT_BASE.endYear} with ${HEAT_BASE.minDaysPerYear} days of maximum temperature`;
  const mean = base.reduce((a, b) => a + b.hwf, 0) / base.length;
  const sd = Math.sqrt(base.reduce((a, b) => a + (b.hwf - mean) ** 2, 0) / Math.max(1, base.length - 1));
  return {
    id: st.station, name: st.name, lat: st.lat, lng: st.lng, from: epochIso(from), to: epochIso(to), daysWithData: h.daysWithData,
    baseYears: base.length, baseHeatwaveDaysMean: r2(mean), baseHeatwaveDaysSd: r2(sd), baseHotDaysMean: r2(base.reduce((a, b) => a + b.hot, 0) / base.length),
    heatwaves: h.heatwaves, heatwaveDays: h.heatwaveDays, longestDays: h.longestDays, hottestPeakC: h.hottestPeakC, hotDays: h.hotDays,
    events: h.events.map((e) => [epochIso(e.start), e.days, e.peakC]),
    byYear,
  };
}

/** TMAX rows of the yearly files a refresh kept (climate/ghcnd-world/by_year/<YEAR>.csv), per station: [epoch day, °C]. */
function byYearTmax(ctx: BuildContext, read: (rel: string) => Buffer): Map<string, [number, number][]> {
  const out = new Map<string, [number, number][]>();
  const dir = join(ctx.dataDir, HEAT_BY_YEAR_DIR);
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).filter((f) => /^\d{4}\.csv$/.test(f)).sort()) {
    for (const line of read(join(HEAT_BY_YEAR_DIR, name)).toString("utf8").split("\n")) {
      const f = line.split(",");
      if (f[2] !== "TMAX" || (f[5] ?? "") !== "" || !/^\d{8}$/.test(f[1] ?? "")) continue;
      const day = epochDay(Number(f[1].slice(0, 4)), Number(f[1].slice(4, 6)), Number(f[1].slice(6)));
      const c = Number(f[3]) / 10;
      if (day === undefined || f[3].trim() === "" || !inPlausibleRange("TMAX", c)) continue;
      let rows = out.get(f[0]);
      if (!rows) out.set(f[0], (rows = []));
      rows.push([day, c]);
    }
  }
  return out;
}

/** The station's series with the yearly files' days it lacks (those after its file's end, and its gaps). */
function withYearlyDays(st: DailySeries, rows: [number, number][] | undefined): DailySeries {
  if (!rows || rows.length === 0) return st;
  let last = st.firstDay + st.tmax.length - 1;
  for (const [d] of rows) if (d > last) last = d;
  const tmax = new Float64Array(last - st.firstDay + 1).fill(NaN);
  tmax.set(st.tmax);
  for (const [d, c] of rows) if (d >= st.firstDay && Number.isNaN(tmax[d - st.firstDay])) tmax[d - st.firstDay] = c;
  return { ...st, tmax };
}

/**
 * Per GHCN-Daily station: Perkins & Alexander heatwaves in its latest calendar year with ≥ 300 days of TMAX,
 * against the 1981–2010 base years (WMO's previous standard normal, so a warmed climate is not every year's heatwave; ≥ 10 with 300 days each; calendar-day thresholds on every day). Stations that
 * miss either are left out and counted in the report. The data directory's stations (Thailand's in the mirror), and
 * where a refresh brought it the worldwide network (source ghcnd_heat: climate/ghcnd-world/, each station's file
 * completed by the yearly files' days); a station in both is taken from the network.
 */
export async function dailyHeatTable(ctx: BuildContext, inp?: Inputs): Promise<{ table: DailyHeatTable; leftOut: Record<string, string>; network: number }> {
  const out: DailyHeatStation[] = [];
  const leftOut: Record<string, string> = {};
  const read = (rel: string) => (inp ? inp.bytes(rel) : readFileSync(join(ctx.dataDir, rel)));
  const worldDir = join(ctx.dataDir, HEAT_STATIONS_DIR);
  const world = existsSync(join(worldDir, STATION_INDEX_FILE)) ? await readStationIndex(worldDir) : [];
  const inNetwork = new Set(world.map((e) => e.id));
  const dir = join(ctx.dataDir, GHCND_SUBDIR);
  for (const entry of (await readStationIndex(dir)).filter((e) => !inNetwork.has(e.id))) {
    const st = parseGhcndCsv(read(join(GHCND_SUBDIR, entry.path.slice(dir.length + 1))).toString("utf8"), entry.path);
    const h = stationHeat(st);
    if (typeof h === "string") leftOut[st.station] = h;
    else out.push(h);
  }
  const yearly = world.length > 0 ? byYearTmax(ctx, read) : new Map<string, [number, number][]>();
  let network = 0;
  for (const entry of world) {
    let h: DailyHeatStation | string;
    try {
      const st = parseGhcndCsv(read(join(HEAT_STATIONS_DIR, entry.path.slice(worldDir.length + 1))).toString("utf8"), entry.path);
      h = stationHeat(withYearlyDays(st, yearly.get(entry.id)));
    } catch (err) {
      h = (err as Error).message;
    }
    if (typeof h === "string") {
      leftOut[entry.id] = h;
      continue;
    }
    out.push(h);
    network++;
  }
  if (out.length === 0) throw new Error("GHCN-Daily: no station with base years and a complete latest year of maximum temperatures");
  return {
    table: { source: "NOAA GHCN-Daily station daily maximum temperature (Menne et al. 2012); heatwaves after Perkins & Alexander (2013)", baseStart: HEAT_BASE.startYear, baseEnd: HEAT_BASE.endYear, maxDistanceKm: HEAT_BASE.maxDistanceKm, stations: out },
    leftOut,
    network,
  };
}

/** Months a country series needs to enter the table (five years: a 12-month mean needs a distribution). */
const MIN_COUNTRY_MONTHS = 60;

/** OWID's own codes → the geography's (lib/geo: Kosovo is XKX, as at the EC, IMF and World Bank). */
const OWID_CODES: Record<string, string> = { OWID_KOS: "XKX" };

/**
 * The OWID table by country code: every row with a code except the world aggregate (regions and oceans carry
 * none). A series needs 60 months and its latest 12 months present; others are left out and reported.
 */
export function countryHeatTable(rows: { series: string; code: string; month: number; anomalyC: number }[]): { countries: Record<string, CountryHeat>; leftOut: Record<string, string> } {
  const byCode = new Map<string, { name: string; rows: { month: number; anomalyC: number }[] }>();
  for (const r of rows) {
    if (!r.code || r.code === "OWID_WRL") continue;
    const code = OWID_CODES[r.code] ?? r.code;
    let c = byCode.get(code);
    if (!c) byCode.set(code, (c = { name: r.series, rows: [] }));
    c.rows.push(r);
  }
  const countries: Record<string, CountryHeat> = {};
  const leftOut: Record<string, string> = {};
  for (const [code, c] of [...byCode].sort(([a], [b]) => (a < b ? -1 : 1))) {
    c.rows.sort((a, b) => a.month - b.month);
    const first = c.rows[0].month;
    const anomalyC: (number | null)[] = new Array<number | null>(c.rows.at(-1)!.month - first + 1).fill(null);
    for (const r of c.rows) anomalyC[r.month - first] = r.anomalyC;
    const finite = anomalyC.filter((v): v is number => v !== null);
    if (finite.length < MIN_COUNTRY_MONTHS) { leftOut[code] = `${finite.length} months`; continue; }
    if (anomalyC.slice(-12).some((v) => v === null)) { leftOut[code] = "gaps in the latest 12 months"; continue; }
    const sorted = [...finite].sort((a, b) => a - b);
    countries[code] = { name: c.name, firstMonth: first, anomalyC, hotThresholdC: sorted[Math.floor(0.9 * sorted.length)] };
  }
  return { countries, leftOut };
}

export async function buildHeatwave(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  const owid = parseOwidTemperature(await inp.text(OWID_TEMPERATURE_FILE, "OWID_TEMPERATURE"), OWID_TEMPERATURE_FILE);
  const globalFile = existsSync(join(ctx.dataDir, GISTEMP_TABLE_FILE)) ? GISTEMP_TABLE_FILE : GLOBAL_TEMPERATURE_FILE;
  const glob = parseGlobalTemperature(await inp.text(globalFile, "GLOBAL_TEMPERATURE"), globalFile);
  requireValid("OWID temperature", owid);
  requireValid("global temperature", glob);
  const { countries, leftOut } = countryHeatTable(owid.records);
  const codes = Object.keys(countries);
  if (!countries.THA) throw new Error(`OWID temperature: no usable series for Thailand${leftOut.THA ? ` (${leftOut.THA})` : ""}`);
  const first = Math.min(...codes.map((c) => countries[c].firstMonth));
  const last = Math.max(...codes.map((c) => countries[c].firstMonth + countries[c].anomalyC.length - 1));
  const global: Record<string, (number | null)[]> = {};
  for (const r of glob.records) {
    const i = r.month - first;
    if (i < 0 || i > last - first) continue;
    (global[r.series] ??= new Array<number | null>(last - first + 1).fill(null))[i] = r.anomalyC;
  }
  const heat: HeatTable = { source: "OWID monthly temperature anomalies", countries, globalFirstMonth: first, global };
  const asOf = Date.UTC(Math.floor(last / 12), (last % 12) + 1, 0, 23, 59, 59);
  const meta: SnapshotMeta = {
    riskType: "heatwave",
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(Date.UTC(Math.floor(first / 12), first % 12, 1)).toISOString(),
    recordYears: (last - first + 1) / 12,
    coverage: {
      bbox: WORLD,
      surface: "country",
      description: `within ${HEAT_BASE.maxDistanceKm} km of a GHCN-Daily station with daily maximum temperatures whose latest full year is current (heatwave days; Thailand offline)`,
    },
    dataSources: ["Our World in Data monthly temperature anomalies by country (Copernicus ERA5)", "NASA GISTEMP v4 global monthly anomalies (vs 1951–1980)"],
    params: { hotQuantile: 0.9 },
    unit: "°C",
  };
  const daily = await dailyHeatTable(ctx, inp);
  meta.dataSources.push(daily.table.source);
  if (daily.network > 0) meta.coverage.description += `; worldwide, ${daily.network} stations of NOAA's GHCN-Daily network (one per cell, the current year from NOAA's yearly files)`;
  const stationReport = { stations: daily.table.stations.length, ...(daily.network > 0 ? { worldNetwork: daily.network } : {}), latestDay: daily.table.stations.map((s) => s.to).sort().at(-1), leftOut: daily.leftOut };
  // Countries the geography can return that have no series answer 404 naming the table: listed in the report.
  const withoutSeries = sharedGeography().countryCodes.filter((c) => !countries[c]);
  const notInGeography = codes.filter((c) => !sharedGeography().countryCodes.includes(c));
  return finish(meta, undefined, { heat, dailyHeat: daily.table }, inp, { owid, global: glob }, { countries: codes.length, leftOut, geographyCountriesWithoutSeries: withoutSeries, seriesWithoutGeographyCountry: notInGeography, thailandMonths: countries.THA.anomalyC.length, thailandHotThresholdC: countries.THA.hotThresholdC, stationRecord: stationReport });
}
