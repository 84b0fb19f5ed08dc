// The storm snapshot: IBTrACS tracks, the West Pacific long record merged with the recent and active CSVs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseIbtracsCsv, type TrackPoint } from "../../feeds/ibtracs.ts";
import { IBTRACS_WP_CSV_FILE, IBTRACS_WP_FILE, IBTRACS_WP_SOURCE, mergeTrackRecords, parseIbtracsWpCsv, readIbtracsParquet } from "../../feeds/ibtracs-parquet.ts";
import type { AdapterResult, FeedRecord } from "../../feeds/records.ts";
import type { EventRecord } from "../../../formats/feed-snapshot.ts";
import { YEAR_MS } from "../../../lib/feed-risk/scoring.ts";
import { type BuildContext, type BuiltSnapshot, Inputs, PARAMS, WORLD, eventMeta, finish, latest, recordOf, requireValid, toEvent } from "./common.ts";
import { isoDay } from "../../../lib/days.ts";

export const IBTRACS_COMPACT_FILE = "feeds/ibtracs/ibtracs_last3years_clean.csv";
/** NOAA's native last-3-years list, linked into the inputs tree by a refresh (registry: ibtracs_recent). */
export const IBTRACS_RECENT_FILE = "feeds/ibtracs/ibtracs.last3years.list.v04r01.csv";
export const IBTRACS_ACTIVE_FILE = "feeds/ibtracs/ibtracs.ACTIVE.list.v04r01.csv";
/**
 * The long West Pacific storm record answers points north of the equator between 100°E and 180°: the IBTrACS WP
 * basin (the CSVs' basin labels: WP fixes 100.7..179.9°E, North Indian fixes up to 99.7°E).
 */
export const WEST_PACIFIC_BOX: [number, number, number, number] = [100, 0, 180, 90];
/** WMO wind in the long record starts with RSMC Tokyo's best tracks in 1977 (ibtracs-parquet.ts notes). */
export const WEST_PACIFIC_WIND_START = "1977-01-01";

/**
 * The storm snapshot: the long West Pacific record (Parquet, 1884–2025) merged by SID with the recent and active
 * CSV tracks (every basin, 2022–2025). A storm is in the West Pacific set when the long record holds it or a CSV
 * labels any of its fixes WP; the others are in the global set. Two track records say where each answers.
 */
export async function buildStorm(ctx: BuildContext): Promise<BuiltSnapshot> {
  const inp = new Inputs(ctx);
  // The recent tracks: NOAA's own last-3-years list when a refresh brought it, else the mirror's compact table.
  const recentFile = existsSync(join(ctx.dataDir, IBTRACS_RECENT_FILE)) ? IBTRACS_RECENT_FILE : IBTRACS_COMPACT_FILE;
  const compact = parseIbtracsCsv(await inp.text(recentFile), recentFile);
  const active = parseIbtracsCsv(await inp.text(IBTRACS_ACTIVE_FILE, "IBTRACS_ACTIVE"), IBTRACS_ACTIVE_FILE);
  // The long record: NOAA's own WP list when a refresh brought it, else the mirror's Parquet extract.
  let long: AdapterResult<TrackPoint>;
  if (existsSync(join(ctx.dataDir, IBTRACS_WP_CSV_FILE))) long = parseIbtracsWpCsv(await inp.text(IBTRACS_WP_CSV_FILE), IBTRACS_WP_CSV_FILE);
  else {
    inp.bytes(IBTRACS_WP_FILE);
    long = await readIbtracsParquet(join(ctx.dataDir, IBTRACS_WP_FILE));
  }
  requireValid(recentFile === IBTRACS_RECENT_FILE ? "IBTrACS last 3 years" : "IBTrACS compact", compact);
  requireValid("IBTrACS ACTIVE", active);
  requireValid("IBTrACS West Pacific", long);
  // The compact file has no storm id (the native list has): active-list points at the same time and place replace them.
  const key = (r: FeedRecord) => `${r.time}|${r.lat.toFixed(1)}|${r.lng.toFixed(1)}`;
  const activeKeys = new Set(active.records.map(key));
  const recent = [...compact.records.filter((r) => !activeKeys.has(key(r))), ...active.records];
  const merged = mergeTrackRecords(long.records, recent);
  const stormOf = (p: TrackPoint) => p.group ?? p.id;
  const westPacific = new Set<string>();
  for (const p of merged.records) if (p.source === IBTRACS_WP_SOURCE || p.basin === "WP") westPacific.add(stormOf(p));
  const WP = "west-pacific";
  const GLOBAL = "global";
  const events = merged.records.map((p) => toEvent(p, westPacific.has(stormOf(p)) ? WP : GLOBAL));
  const asOf = latest(events);
  const wpEvents = events.filter((e) => e.set === WP);
  const wp = recordOf(WP, "IBTrACS West Pacific record", wpEvents);
  const wpStart = Date.parse(wp.start);
  const windStart = Date.parse(WEST_PACIFIC_WIND_START);
  const withWind = new Set(wpEvents.filter((e) => Number.isFinite(e.magnitude)).map((e) => e.group));
  const recentStart = Math.min(...recent.map((r) => r.time));
  const global = recordOf(GLOBAL, "IBTrACS global recent and active tracks", events.filter((e) => e.time >= recentStart));
  const records: EventRecord[] = [
    { ...wp, end: isoDay(asOf), bbox: WEST_PACIFIC_BOX, set: WP, years: (asOf - wpStart) / YEAR_MS, windStart: WEST_PACIFIC_WIND_START, windYears: (asOf - windStart) / YEAR_MS, eventsWithWind: withWind.size },
    { ...global, end: isoDay(asOf), bbox: WORLD, years: (asOf - recentStart) / YEAR_MS },
  ];
  const coverage = {
    bbox: WORLD,
    surface: "any" as const,
    description: `everywhere: the ${wp.name} ${wp.start}..${isoDay(asOf)} north of the equator between 100°E and 180°, the ${global.name} ${global.start}..${isoDay(asOf)} elsewhere`,
  };
  const meta = eventMeta("storm", events, asOf, coverage, [
    "NOAA IBTrACS v04r01 tropical cyclone best tracks (Knapp et al. 2010)",
    "NOAA IBTrACS v04r01 West Pacific best tracks 1884–2025, Parquet extract (Knapp et al. 2010)",
  ], "kt", { ...PARAMS.storm });
  return finish(meta, events, { records }, inp, { ibtracsCompact: compact, ibtracsActive: active, ibtracsWestPacific: long }, {
    records,
    storms: merged.storms,
    westPacificStorms: westPacific.size,
    merge: { overlappingSids: merged.overlappingSids, replacedPoints: merged.replacedPoints, resolvedGroups: Object.keys(merged.resolvedGroups).length },
  });
}
