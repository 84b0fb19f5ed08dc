// The `ports` snapshot: the cross-referenced port table, PortWatch daily port calls and country tanker series,
// the AIS sample and GDACS cyclone/flood events, published with publishSnapshot() under
// ARTIFACTS_DIR/snapshots/ports/. The server reads it through server/services/supply-chain-service.ts.
import { afterToday, clockNow } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { writeDaySeries, type DaySeriesEntry } from "../../formats/day-series.ts";
import { sha256Bytes, type FileChecksum } from "../../formats/manifest.ts";
import { parseAisCsv } from "../ports/ais.ts";
import { crossReference } from "../ports/cross-reference.ts";
import { parseGdacsFloodDb, parseGdacsGeojson, type HazardEvent } from "../ports/gdacs.ts";
import { isoOfDay, parseChokepointsDaily, parsePortwatchDaily, parsePortwatchPorts, parseTankerByCountry, tankerSeriesByIso3 } from "../ports/portwatch.ts";
import { readUnlocodeDir } from "../ports/unlocode.ts";
import { parseWpiCsv } from "../ports/wpi.ts";
import { publishSnapshot } from "./publish-snapshot.ts";
import { readCsvRecords, type CsvRejection } from "../feeds/csv.ts";
import { PORTS_SNAPSHOT, PORTS_SOURCES, type Chokepoint, type PortsDocument } from "../../formats/ports-snapshot.ts";

export { PORTS_SNAPSHOT, PORTS_SOURCES };


export interface PortsSnapshotFiles {
  files: Record<string, Uint8Array | string>;
  asOf: string;
  inputs: Record<string, FileChecksum>;
  qc: Record<string, unknown>;
  /** Accepted rows (days with data for the daily series) per input, for the refusal rule (row-drop.ts). */
  acceptedRows: Record<string, number>;
}

/** Days with a value in any column of a series. */
function daysWithData(s: DaySeriesEntry): number {
  const cols = Object.values(s.columns);
  let n = 0;
  for (let i = 0; i < (cols[0]?.length ?? 0); i++) if (cols.some((c) => !Number.isNaN(c[i]))) n++;
  return n;
}

/** Reads DATA_DIR/ports and DATA_DIR/feeds/gdacs and returns the snapshot files (no I/O beyond reading). */
/**
 * Port calls dated after today (two days' slack) are a wrong date in the feed: an answer from them would present that
 * date as the present (docs/methods/currency.md). The snapshot is refused; the previous one keeps serving.
 */
export function refusePortsAfterToday(lastDay: string, now = clockNow()): void {
  if (afterToday(lastDay, now)) throw new Error(`ports snapshot refused: port calls dated ${lastDay}, after today (${isoDay(now)}): a wrong date in the feed`);
}

/**
 * PortWatch's daily chokepoint transits in `dir` (the data directory's dated export `…_<from>_<to>.csv.gz`, the
 * refresh's `Daily_Chokepoints_Data.csv`) and the list's coordinates. Each chokepoint's series comes from the file
 * whose series of it reaches the latest day (the refresh's copy once it is newer; gzip is known by its magic bytes,
 * as the inputs tree may link a download under any name).
 */
export function readChokepoints(dir: string, dataDir: string, read: (path: string) => Buffer, rejected: CsvRejection[]): { series: DaySeriesEntry[]; list: Chokepoint[]; lastDay: string | null } {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /^Daily_Chokepoints_Data.*\.csv(\.gz)?$/.test(f)).sort() : [];
  if (files.length === 0) return { series: [], list: [], lastDay: null };
  const best = new Map<string, { series: DaySeriesEntry; name: string; last: number }>();
  for (const f of files) {
    const file = join(dir, f);
    const bytes = read(file);
    const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
    const { series, names } = parseChokepointsDaily(text, relative(dataDir, file), rejected);
    for (const s of series) {
      const portid = s.key.slice(s.key.indexOf(":") + 1);
      const last = s.firstDay + s.columns.n_total.length - 1;
      const had = best.get(portid);
      if (!had || last > had.last || (last === had.last && s.firstDay < had.series.firstDay)) best.set(portid, { series: s, name: names[portid], last });
    }
  }
  const listFile = join(dir, "chokepoints_list.csv");
  const where = new Map<string, { lat: number; lng: number }>();
  if (existsSync(listFile)) {
    for (const r of readCsvRecords(read(listFile).toString("utf8"), relative(dataDir, listFile), { trim: true }).records) where.set(r.portname, { lat: Number(r.lat), lng: Number(r.lon) });
  }
  const chosen = [...best].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const list = chosen.map(([portid, { name }]) => ({ portid, name, lat: where.get(name)?.lat ?? null, lng: where.get(name)?.lng ?? null }));
  const lastDay = Math.max(...chosen.map(([, b]) => b.last));
  return { series: chosen.map(([, b]) => b.series), list, lastDay: isoOfDay(lastDay) };
}

export function buildPortsFiles(dataDir: string): PortsSnapshotFiles {
  const inputs: Record<string, FileChecksum> = {};
  // Rows the CSV reader (or the UN/LOCODE repair) could not use, with file:line and reason.
  const rejected: CsvRejection[] = [];
  const readBytes = (path: string): Buffer => {
    const bytes = readFileSync(path);
    inputs[relative(dataDir, path)] = { bytes: bytes.length, sha256: sha256Bytes(bytes) };
    return bytes;
  };
  const read = (path: string): string => readBytes(path).toString("utf8");
  const portsDir = join(dataDir, "ports");
  const unlocodeDir = join(portsDir, "unlocode");
  for (const f of readdirSync(unlocodeDir).filter((x) => x.endsWith(".csv"))) read(join(unlocodeDir, f));
  const unlocode = readUnlocodeDir(unlocodeDir);
  rejected.push(...unlocode.rejected.map((r) => ({ ...r, file: relative(dataDir, r.file) })));
  const wpiFile = join(portsDir, "wpi", "WPI.csv");
  const wpi = parseWpiCsv(read(wpiFile), relative(dataDir, wpiFile));
  rejected.push(...wpi.rejected);
  const pwPortsFile = join(portsDir, "portwatch", "PortWatch_ports_database.csv");
  const pwPorts = parsePortwatchPorts(read(pwPortsFile), relative(dataDir, pwPortsFile), rejected);
  const { ports, aliases, otherEntries, qc: xqc } = crossReference(unlocode.entries, wpi.ports, pwPorts);

  const series: DaySeriesEntry[] = [];
  const dailyDir = join(portsDir, "portwatch", "daily");
  const dailyCoverage: Record<string, { first: string; last: string; daysWithData: number; days: number }> = {};
  let lastActivityDay = -Infinity;
  // No daily series (a data directory without them, before a refresh brought any): ports without activity.
  for (const f of (existsSync(dailyDir) ? readdirSync(dailyDir) : []).filter((x) => x.endsWith(".csv")).sort()) {
    const s = parsePortwatchDaily(read(join(dailyDir, f)), relative(dataDir, join(dailyDir, f)), rejected);
    const total = s.columns.portcalls;
    let present = 0;
    for (const v of total) if (!Number.isNaN(v)) present++;
    dailyCoverage[s.key] = { first: isoOfDay(s.firstDay), last: isoOfDay(s.firstDay + total.length - 1), daysWithData: present, days: total.length };
    lastActivityDay = Math.max(lastActivityDay, s.firstDay + total.length - 1);
    series.push(s);
  }
  // The tanker file names countries as PortWatch's port list does: its (country, ISO3) pairs key the series by ISO3.
  const iso3ByName = new Map(pwPorts.map((p) => [p.country, p.iso3]));
  const tankersFile = join(portsDir, "portwatch", "portwatch_tanker_daily_by_country.csv");
  const tankerNames = parseTankerByCountry(read(tankersFile), relative(dataDir, tankersFile), rejected);
  const tankers = tankerSeriesByIso3(tankerNames, (name) => iso3ByName.get(name));
  for (const t of tankers.series) {
    series.push(t);
    // Without daily port series, the country tanker series date the snapshot.
    lastActivityDay = Math.max(lastActivityDay, t.firstDay + t.columns.tanker_calls.length - 1);
  }
  if (!Number.isFinite(lastActivityDay)) throw new Error("no PortWatch daily or tanker series to date the snapshot");
  const chokepoints = readChokepoints(join(portsDir, "portwatch", "chokepoints"), dataDir, readBytes, rejected);
  series.push(...chokepoints.series);

  const aisFile = join(portsDir, "ais", "ais_sample.csv");
  const ais = parseAisCsv(read(aisFile), relative(dataDir, aisFile));
  rejected.push(...ais.rejected);
  // The sample is one minute of messages: its time is the median of the dated ones.
  const dated = ais.fixes.map((f) => f.time).filter(Number.isFinite).sort((a, b) => a - b);
  const aisTime = dated.length > 0 ? dated[Math.floor(dated.length / 2)] : NaN;

  const gdacsDir = join(dataDir, "feeds", "gdacs");
  const hazards: HazardEvent[] = [];
  let hazardAsOf = -Infinity;
  for (const f of readdirSync(gdacsDir).filter((x) => /^gdacs_.*\.geojson$/.test(x)).sort()) {
    // Snapshot time from the file name (gdacs_20260530T1858Z.geojson).
    const m = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})Z/.exec(f);
    if (m) hazardAsOf = Math.max(hazardAsOf, Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]));
    for (const e of parseGdacsGeojson(read(join(gdacsDir, f)), `GDACS event feed ${f}`)) {
      const i = hazards.findIndex((h) => h.id === e.id);
      if (i >= 0) hazards[i] = e; // later snapshot wins
      else hazards.push(e);
    }
  }
  const liveEvents = hazards.length;
  // The mirror's derived flood table (no origin of its own); the live flood search archive, when a refresh linked
  // it, is one of the gdacs_*.geojson files read above.
  const floodDbFile = join(gdacsDir, "latest_gdacs_flood_db.csv");
  const floodDb = existsSync(floodDbFile) ? parseGdacsFloodDb(read(floodDbFile)) : { events: [], rejected: 0 };
  const live = new Set(hazards.map((h) => h.id));
  for (const e of floodDb.events) if (!live.has(e.id)) hazards.push(e);

  const asOf = `${isoOfDay(lastActivityDay)}T23:59:59.000Z`;
  refusePortsAfterToday(isoOfDay(lastActivityDay));
  const qc = {
    unlocode: { rows: unlocode.rows, ports: unlocode.ports.length, repairedRows: unlocode.repairedRows, rejectedRows: unlocode.rejectedRows },
    wpi: { ports: wpi.ports.length, badCodes: wpi.badCodes },
    portwatch: { ports: pwPorts.length, dailyCoverage, tankerCountryNames: tankerNames.length, tankerCountries: tankers.series.length, tankerUnmapped: tankers.unmapped },
    chokepoints: { count: chokepoints.list.length, lastDay: chokepoints.lastDay, withoutCoordinates: chokepoints.list.filter((c) => c.lat === null).map((c) => c.name) },
    crossReference: {
      ports: xqc.ports,
      namedBy: xqc.namedBy,
      withWpi: xqc.withWpi,
      withPortwatch: xqc.withPortwatch,
      portwatchByStep: xqc.portwatchByStep,
      portwatchWithoutCode: xqc.portwatchWithoutCode.length,
      portwatchCodeTaken: xqc.portwatchCodeTaken,
      locodeCorrections: xqc.locodeCorrections,
      coordinateFlags: xqc.coordinateFlags.length,
      aliases: xqc.aliases,
    },
    ais: { rows: ais.rows, fixes: ais.fixes.length, sampleTime: Number.isFinite(aisTime) ? new Date(aisTime).toISOString() : null },
    hazards: { events: hazards.length, floodDbRejected: floodDb.rejected, liveFeedAsOf: Number.isFinite(hazardAsOf) ? new Date(hazardAsOf).toISOString() : null },
    csvRejectedRows: rejected.length,
  };
  const acceptedRows: Record<string, number> = {
    unlocode: unlocode.rows - unlocode.rejectedRows,
    wpi: wpi.ports.length,
    portwatchPorts: pwPorts.length,
    ...Object.fromEntries(series.filter((s) => !s.key.startsWith("country:")).map((s) => [`daily:${s.key}`, daysWithData(s)])),
    tankerDays: tankers.series.reduce((n, t) => n + daysWithData(t), 0),
    ais: ais.fixes.length,
    gdacsLiveEvents: liveEvents,
    gdacsFloodDb: floodDb.events.length,
  };
  const files: Record<string, Uint8Array | string> = {
    "ports.json": JSON.stringify({ ports, aliases, otherEntries, tankerCountries: tankers.names, chokepoints: chokepoints.list } satisfies PortsDocument),
    "port-calls.dseries": writeDaySeries(series),
    "ais.json": JSON.stringify({ sampleTime: qc.ais.sampleTime, fixes: ais.fixes.map((f) => [f.lng, f.lat, f.navStatus, f.sogKnots, f.mmsi]) }),
    "hazards.json": JSON.stringify({ liveFeedAsOf: qc.hazards.liveFeedAsOf, events: hazards }),
    "report.json": JSON.stringify({ asOf, qc, csvRejectedRows: rejected }, null, 1),
  };
  return { files, asOf, inputs, qc, acceptedRows };
}

export interface SnapshotBuildContext {
  dataDir: string;
  artifactsDir: string;
  now?: Date;
}

/** Builds and publishes the ports snapshot; returns the new version. */
export async function buildPortsSnapshot(ctx: SnapshotBuildContext): Promise<{ version: string; dir: string }> {
  const b = buildPortsFiles(ctx.dataDir);
  return publishSnapshot({
    artifactsDir: ctx.artifactsDir,
    name: PORTS_SNAPSHOT,
    files: b.files,
    asOf: b.asOf,
    sources: PORTS_SOURCES,
    inputs: b.inputs,
    qc: b.qc,
    report: "report.json",
    acceptedRows: b.acceptedRows,
    now: ctx.now,
  });
}

/** The `ports` entry of SNAPSHOT_BUILDERS (build-snapshots.ts): files, as-of, sources, inputs, qc, report. */
export async function buildPortsForRegistry(ctx: { dataDir: string }) {
  const b = buildPortsFiles(ctx.dataDir);
  return { ...b, sources: PORTS_SOURCES, report: "report.json" };
}
