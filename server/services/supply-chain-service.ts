// Supply-chain answers from the `ports` snapshot: resolve a port (portCode wins over coordinates), then answer from
// what exists for it (server/services/supply-chain-answer.ts). Every call takes the snapshot once
// (store.require()), so a hot swap never mixes versions. Methods: docs/methods/supply-chain.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import KDBush from "kdbush";
import { readDaySeries, type DaySeriesEntry } from "../../formats/day-series.ts";
import type { Manifest } from "../../formats/manifest.ts";
import { PackedPairs, PackedStrings } from "../../formats/packed-strings.ts";
import { CHOKEPOINT_VESSEL_TYPES, transitChange, type TransitChange } from "../../lib/ports/chokepoints.ts";
import { windowSum } from "../../lib/ports/activity.ts";
import { GDACS_FLOOD_DB_SOURCE, PORTS_SNAPSHOT, chokepointSeriesKey, type Chokepoint, type HazardEvent, type PortAlias, type PortRecord, type PortsDocument } from "../../formats/ports-snapshot.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { inLngLatBox } from "../../lib/geo/bounds.ts";
import { pageOf } from "./paging.ts";
import type { Logger } from "../../lib/log.ts";
import { unlocodeFunctionNames } from "../../lib/ports/unlocode-function.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { NotFoundError } from "../errors.ts";
import type { ChokepointAnswerData, ChokepointList, PortsCollection, PortsQuery, SupplyChainBody, SupplyChainData } from "../schemas-supply-chain.ts";
import { chokepointAnswer, chokepointList, type ChokepointResolution } from "./supply-chain-chokepoint-answer.ts";
import { clockNow, currencyOf, type Period } from "../../lib/currency.ts";
import { within } from "../../lib/geo/great-circle.ts";
import { portCongestion, yearlyPortCalls } from "./supply-chain-activity.ts";
import { answer } from "./supply-chain-answer.ts";
import { PORTWATCH_ATTRIBUTE_PERIOD, PORTWATCH_ATTRIBUTE_SOURCE, timeOf, type SeriesUse } from "./supply-chain-dating.ts";
import { AIS_RADIUS_KM } from "./supply-chain-vessels.ts";
import { r2 } from "../../lib/round.ts";

export { answer };

/**
 * A coordinate selects a port within this distance. A port complex spreads over tens of km (Rotterdam's Maasvlakte
 * is 32 km from the WPI point of Rotterdam) and a site 30–50 km inland is still served by its port; beyond, a point
 * is in the hinterland, which the data do not describe (docs/methods/supply-chain.md).
 */
export const NEAREST_PORT_RADIUS_KM = 50;

export type Resolution = SupplyChainData["details"]["resolution"];

export interface OpenChokepoint extends Chokepoint {
  transits: TransitChange | null;
  byVesselType: Record<(typeof CHOKEPOINT_VESSEL_TYPES)[number], TransitChange | null>;
  week: number | null;
  series: DaySeriesEntry | null;
}

/** A chokepoint of the snapshot with its assessments (see PortsSnapshot.chokepoints). */
export function openChokepoint(c: Chokepoint, series: DaySeriesEntry | undefined): OpenChokepoint {
  const byVesselType = Object.fromEntries(CHOKEPOINT_VESSEL_TYPES.map((t) => [t, series ? transitChange(series.columns[`n_${t}`], series.firstDay) : null])) as OpenChokepoint["byVesselType"];
  if (!series) return { ...c, transits: null, byVesselType, week: null, series: null };
  const total = series.columns.n_total;
  let end = total.length - 1;
  while (end >= 0 && Number.isNaN(total[end])) end--;
  const week = windowSum(total, end, 7);
  return { ...c, transits: transitChange(total, series.firstDay), byVesselType, week: Number.isFinite(week) ? week : null, series };
}

export interface PortsSnapshot {
  ports: PortRecord[];
  byCode: Map<string, number>;
  aliases: Map<string, PortAlias>;
  /** UN/LOCODE places that are not ports: code → [name, function], packed (formats/packed-strings.ts). */
  otherEntries: PackedPairs;
  /** Points of portIndex: the port (index into ports) and position of each. A port is placed at its own position
   * and at those of its PortWatch ports (Shanghai's Yangshan terminal lies 86 km from the WPI point of Shanghai). */
  pointPort: Int32Array;
  pointLat: Float64Array;
  pointLng: Float64Array;
  portIndex: KDBush;
  series: Map<string, DaySeriesEntry>;
  /** "Laem Chabang (port1197)", … : the ports that have a daily series, for the reason of a null. */
  dailySeriesPorts: string[];
  tankerCountries: Record<string, string[]>;
  /**
   * PortWatch chokepoints with daily transits, each with its latest window against the reference years
   * (lib/ports/chokepoints.ts transitChange, null without one), in all and by vessel type, and its transits in the 7
   * days to its last day (null when one is missing): the same for every answer, so made once per snapshot.
   */
  chokepoints: OpenChokepoint[];
  ais: { time: number; lng: Float64Array; lat: Float64Array; nav: Float64Array; mmsi: PackedStrings; index: KDBush; byPortwatch: Map<string, number[]> };
  hazards: HazardEvent[];
  hazardIndex: KDBush;
  hazardAsOf: number;
  /** First day (epoch ms) of the GDACS flood database events. */
  floodDbFrom: number;
  asOf: string;
}

function pointIndex(n: number, add: (i: number, idx: KDBush) => void): KDBush {
  const idx = new KDBush(Math.max(1, n));
  for (let i = 0; i < n; i++) add(i, idx);
  if (n === 0) idx.add(0, -90); // kdbush needs one point; the sentinel is filtered by distance checks
  idx.finish();
  return idx;
}

/**
 * Each AIS fix belongs to the nearest PortWatch port within AIS_RADIUS_KM (PortWatch's own position), so a vessel
 * at anchor off Singapore counts for Singapore or for the offshore terminal next to it, never for both.
 */
function assignAisToPortwatch(ports: PortRecord[], ais: PortsSnapshot["ais"]): void {
  const pw = new Map<string, [number, number]>();
  for (const p of ports) for (const a of p.portwatch) if (Number.isFinite(a.lat) && Number.isFinite(a.lng)) pw.set(a.portid, [a.lat, a.lng]);
  const ids = [...pw.keys()];
  const index = pointIndex(ids.length, (i, idx) => idx.add(pw.get(ids[i])![1], pw.get(ids[i])![0]));
  for (let f = 0; f < ais.lat.length; f++) {
    let best: string | undefined;
    let bestKm = AIS_RADIUS_KM;
    for (const i of within(index, ais.lat[f], ais.lng[f], AIS_RADIUS_KM)) {
      const at = pw.get(ids[i]);
      if (at === undefined) continue;
      const km = haversineKm(ais.lat[f], ais.lng[f], at[0], at[1]);
      if (km <= bestKm) [best, bestKm] = [ids[i], km];
    }
    if (best === undefined) continue;
    const list = ais.byPortwatch.get(best);
    if (list) list.push(f);
    else ais.byPortwatch.set(best, [f]);
  }
}

/**
 * One string object per distinct short text of the port records (JSON.parse makes one per occurrence: 30,000
 * "unlocode" and 68,000 "--3-----"): fewer heap objects for every garbage collection of the server to walk.
 */
function internPortStrings(ports: PortRecord[]): void {
  const pool = new Map<string, string>();
  const intern = <T extends string | null>(s: T): T => {
    if (s === null) return s;
    const had = pool.get(s);
    if (had !== undefined) return had as T;
    pool.set(s, s);
    return s;
  };
  for (const p of ports) {
    p.country = intern(p.country);
    p.iso3 = intern(p.iso3);
    p.coordSource = intern(p.coordSource);
    p.namedBy = p.namedBy.map(intern);
    p.flags = p.flags.map(intern);
    if (p.unlocode) p.unlocode.function = intern(p.unlocode.function);
    if (p.wpi) {
      p.wpi.harborSize = intern(p.wpi.harborSize);
      p.wpi.harborType = intern(p.wpi.harborType);
    }
  }
}

/** Opens a verified snapshot version (ArtifactStore `open`). */
export function openPortsSnapshot(dir: string, manifest: Manifest): PortsSnapshot {
  const doc = JSON.parse(readFileSync(join(dir, "ports.json"), "utf8")) as PortsDocument;
  const { ports } = doc;
  internPortStrings(ports);
  const byCode = new Map<string, number>();
  ports.forEach((p, i) => {
    if (p.code !== null) byCode.set(p.code, i);
  });
  const points: [number, number, number][] = [];
  ports.forEach((p, i) => {
    if (p.lat === null || p.lng === null) return;
    points.push([i, p.lat, p.lng]);
    for (const a of p.portwatch) if (Number.isFinite(a.lat) && Number.isFinite(a.lng) && (a.lat !== p.lat || a.lng !== p.lng)) points.push([i, a.lat, a.lng]);
  });
  const pointPort = Int32Array.from(points, (q) => q[0]);
  const pointLat = Float64Array.from(points, (q) => q[1]);
  const pointLng = Float64Array.from(points, (q) => q[2]);
  const portIndex = pointIndex(points.length, (i, idx) => idx.add(pointLng[i], pointLat[i]));
  const series = new Map(readDaySeries(new Uint8Array(readFileSync(join(dir, "port-calls.dseries")))).map((s) => [s.key, s]));
  const dailySeriesPorts: string[] = [];
  for (const p of ports) for (const a of p.portwatch) if (series.has(a.portid) && !dailySeriesPorts.includes(`${a.name} (${a.portid})`)) dailySeriesPorts.push(`${a.name} (${a.portid})`);
  const aisDoc = JSON.parse(readFileSync(join(dir, "ais.json"), "utf8")) as { sampleTime: string | null; fixes: [number, number, number, number, string][] };
  const n = aisDoc.fixes.length;
  const ais = {
    time: aisDoc.sampleTime ? Date.parse(aisDoc.sampleTime) : NaN,
    lng: Float64Array.from(aisDoc.fixes, (f) => f[0]),
    lat: Float64Array.from(aisDoc.fixes, (f) => f[1]),
    nav: Float64Array.from(aisDoc.fixes, (f) => (f[2] === null ? NaN : f[2])),
    mmsi: new PackedStrings(aisDoc.fixes.map((f) => String(f[4]))),
    index: pointIndex(n, (i, idx) => idx.add(aisDoc.fixes[i][0], aisDoc.fixes[i][1])),
    byPortwatch: new Map<string, number[]>(),
  };
  assignAisToPortwatch(ports, ais);
  const hz = JSON.parse(readFileSync(join(dir, "hazards.json"), "utf8")) as { liveFeedAsOf: string | null; events: HazardEvent[] };
  const hazardIndex = pointIndex(hz.events.length, (i, idx) => idx.add(hz.events[i].lng, hz.events[i].lat));
  let floodDbFrom = Infinity;
  for (const e of hz.events) if (e.source === GDACS_FLOOD_DB_SOURCE && e.from < floodDbFrom) floodDbFrom = e.from;
  if (manifest.asOf === undefined) throw new Error("ports snapshot manifest has no asOf");
  return {
    ports,
    byCode,
    aliases: new Map(doc.aliases.map((a) => [a.code, a])),
    otherEntries: new PackedPairs(doc.otherEntries),
    pointPort,
    pointLat,
    pointLng,
    portIndex,
    series,
    dailySeriesPorts: dailySeriesPorts.sort(),
    tankerCountries: doc.tankerCountries,
    chokepoints: (doc.chokepoints ?? []).map((c) => openChokepoint(c, series.get(chokepointSeriesKey(c.portid)))),
    ais,
    hazards: hz.events,
    hazardIndex,
    hazardAsOf: hz.liveFeedAsOf ? Date.parse(hz.liveFeedAsOf) : NaN,
    floodDbFrom,
    asOf: manifest.asOf,
  };
}


/** The port a request names: its code (a port code, or a place code that stands for a nearby port), else coordinates. */
export function resolvePort(s: PortsSnapshot, q: SupplyChainBody): { port: PortRecord; resolution: Resolution } {
  const coordinatesSent = q.lat !== undefined && q.lng !== undefined;
  const base = { requestedCode: q.portCode ?? null, alias: null, distanceKm: null, coordinatesIgnored: false, radiusKm: NEAREST_PORT_RADIUS_KM, rule: null, nearerPortWithoutRecords: null };
  if (q.portCode !== undefined) {
    const code = q.portCode;
    const i = s.byCode.get(code);
    if (i !== undefined) return { port: s.ports[i], resolution: { by: "portCode", ...base, coordinatesIgnored: coordinatesSent } };
    const alias = s.aliases.get(code);
    const j = alias ? s.byCode.get(alias.port) : undefined;
    if (alias && j !== undefined) {
      const a = { code, name: alias.name, function: alias.function, functions: unlocodeFunctionNames(alias.function), distanceKm: alias.distanceKm };
      return { port: s.ports[j], resolution: { by: "portCode", ...base, alias: a, coordinatesIgnored: coordinatesSent } };
    }
    const other = s.otherEntries.get(code);
    if (other !== undefined) {
      const functions = unlocodeFunctionNames(other[1]);
      throw new NotFoundError(
        `${code} is not a port: UN/LOCODE lists ${other[0]} (${functions.join(", ") || "no function"}), the World Port Index and PortWatch do not name it, and no port of that name lies within ${NEAREST_PORT_RADIUS_KM} km`,
        { portCode: code, unlocode: { name: other[0], function: other[1], functions } },
      );
    }
    throw new NotFoundError(`Unknown port ${code}: UN/LOCODE, the World Port Index and PortWatch name no port with this code (GET /api/supply-chain/ports?bbox=west,south,east,north lists the ports of an area)`, { portCode: code });
  }
  const lat = q.lat as number;
  const lng = q.lng as number;
  // The nearest port with PortWatch records in the country of the nearest port, else the nearest port: UN/LOCODE
  // places thousands of small ports (often geocoded to a town centre) nearer to a city than its main port, and those
  // have nothing to answer with. The country condition keeps a point in Singapore off an Indonesian island port.
  const nearestKm = new Map<number, number>(); // port → distance to its nearest position
  let any = -1;
  let anyKm = Infinity;
  for (const j of within(s.portIndex, lat, lng, NEAREST_PORT_RADIUS_KM)) {
    if (j >= s.pointPort.length) continue;
    const i = s.pointPort[j];
    const km = haversineKm(lat, lng, s.pointLat[j], s.pointLng[j]);
    if (km > NEAREST_PORT_RADIUS_KM || km >= (nearestKm.get(i) ?? Infinity)) continue;
    nearestKm.set(i, km);
    if (km < anyKm) [any, anyKm] = [i, km];
  }
  if (any < 0)
    throw new NotFoundError(`No port within ${NEAREST_PORT_RADIUS_KM} km of this location (ports of UN/LOCODE, the World Port Index and PortWatch, worldwide)`, {
      lat,
      lng,
      radiusKm: NEAREST_PORT_RADIUS_KM,
    });
  const country = s.ports[any].country;
  let best = -1;
  let bestKm = Infinity;
  for (const [i, km] of nearestKm) {
    const p = s.ports[i];
    if (p.portwatch.length > 0 && p.country === country && km < bestKm) [best, bestKm] = [i, km];
  }
  const chosen = best >= 0 ? best : any;
  const skipped = best >= 0 && any !== best ? { code: s.ports[any].code, name: s.ports[any].name, distanceKm: r2(anyKm) } : null;
  return {
    port: s.ports[chosen],
    resolution: { by: "coordinates", ...base, distanceKm: r2(best >= 0 ? bestKm : anyKm), rule: best >= 0 ? "nearest port with PortWatch records in the nearest port's country" : "nearest port", nearerPortWithoutRecords: skipped },
  };
}

/**
 * Coordinates answer for a chokepoint (strait or canal) with transits whose PortWatch point lies within this distance
 * and nearer than every port with PortWatch records: the narrows of Bab el-Mandeb are ~30 km wide, Dover's ~33 km, and PortWatch's point sits
 * mid-channel, so a point on the water within 50 km is in the strait; a point nearer to a port is at that port.
 */
export const CHOKEPOINT_RADIUS_KM = 50;

/**
 * The nearest position of a port with PortWatch records within NEAREST_PORT_RADIUS_KM of a point, or null. Ports
 * without records (Perim Island, YEPRM, in the middle of Bab el-Mandeb) have nothing to answer with and do not
 * stand in a strait's way.
 */
function nearestPortWithRecords(s: PortsSnapshot, lat: number, lng: number): { port: PortRecord; km: number } | null {
  let best: { port: PortRecord; km: number } | null = null;
  for (const j of within(s.portIndex, lat, lng, NEAREST_PORT_RADIUS_KM)) {
    if (j >= s.pointPort.length || s.ports[s.pointPort[j]].portwatch.length === 0) continue;
    const km = haversineKm(lat, lng, s.pointLat[j], s.pointLng[j]);
    if (km <= NEAREST_PORT_RADIUS_KM && (best === null || km < best.km)) best = { port: s.ports[s.pointPort[j]], km };
  }
  return best;
}

const LIST_CHOKEPOINTS = "GET /api/supply-chain/chokepoints lists the known ones";

/**
 * The chokepoint a request is for: its `chokepoint` id (404 when unknown or without transits), or coordinates within
 * CHOKEPOINT_RADIUS_KM of a chokepoint with transits and nearer to it than to any port with PortWatch records; else
 * null (a port answers).
 */
export function resolveChokepoint(s: PortsSnapshot, q: SupplyChainBody): { chokepoint: OpenChokepoint; resolution: ChokepointResolution } | null {
  const base = { requestedChokepoint: q.chokepoint ?? null, distanceKm: null, radiusKm: CHOKEPOINT_RADIUS_KM, nearestPort: null };
  if (q.chokepoint !== undefined) {
    const c = s.chokepoints.find((x) => x.portid === q.chokepoint);
    if (!c) throw new NotFoundError(`Unknown chokepoint ${q.chokepoint}: ${LIST_CHOKEPOINTS}`, { chokepoint: q.chokepoint });
    if (!c.transits) throw new NotFoundError(`No daily transits of the ${c.name} (${c.portid}) in the data: ${LIST_CHOKEPOINTS} with those that have them`, { chokepoint: q.chokepoint });
    return { chokepoint: c, resolution: { by: "chokepoint", ...base } };
  }
  if (q.lat === undefined || q.lng === undefined) return null;
  let best: OpenChokepoint | null = null;
  let bestKm = CHOKEPOINT_RADIUS_KM;
  for (const c of s.chokepoints) {
    if (!c.transits || c.lat === null || c.lng === null) continue;
    const km = haversineKm(q.lat, q.lng, c.lat, c.lng);
    if (km <= bestKm) [best, bestKm] = [c, km];
  }
  if (best === null) return null;
  const port = nearestPortWithRecords(s, q.lat, q.lng);
  if (port !== null && port.km <= bestKm) return null;
  const near = port ? { code: port.port.code, name: port.port.name, distanceKm: r2(port.km)! } : null;
  return { chokepoint: best, resolution: { by: "coordinates", ...base, distanceKm: r2(bestKm), nearestPort: near } };
}

/** The answer of the supply-chain routes (and of a profile's port) in a process without a ports snapshot. */
export const SUPPLY_CHAIN_NOT_CONFIGURED = "supply-chain data are not configured";

export interface SupplyChainService {
  dataVersion(): string;
  /** A port's answer, or a chokepoint's (a `chokepoint` id, or coordinates at a strait). */
  query(q: SupplyChainBody): SupplyChainData | ChokepointAnswerData;
  /** A port's answer only (coordinates at a strait answer for the nearest port, as a profile needs). */
  portQuery(q: SupplyChainBody): SupplyChainData;
  chokepoints(): ChokepointList;
  portsInBox(q: PortsQuery): PortsPage;
}

/** A page of the ports in a box: the collection but for its links, and the cursor of the next page. */
export type PortsPage = Omit<PortsCollection, "next" | "links" | "truncated"> & { nextCursor: string | null };

/**
 * The located ports inside a box (GET /api/supply-chain/ports) with their congestion index: those with an index
 * first (highest first), then by PortWatch's yearly port calls, then by name, then by id; one page of q.limit from
 * q.cursor.
 */
export function portsInBox(s: PortsSnapshot, version: string, q: PortsQuery, now: number = clockNow()): PortsPage {
  type Item = { calls: number | null; feature: PortsCollection["features"][number] };
  const items: Item[] = [];
  // When the matched ports' figures are from: the daily series of those with an index, PortWatch's yearly averages.
  const congestion: Period[] = [];
  const dailySeries = new Set<string>();
  let yearly = false;
  for (const p of s.ports) {
    if (p.lat === null || p.lng === null || !inLngLatBox(q.bbox, p.lng, p.lat)) continue;
    // As in the answer: null without a PortWatch record.
    const calls = p.portwatch.length > 0 ? Math.round(yearlyPortCalls(p)) : null;
    const c = portCongestion(s, p, now);
    if (calls !== null) yearly = true;
    if (c.congestionPeriod) {
      congestion.push(c.congestionPeriod);
      dailySeries.add(p.portwatch[0].portid);
    }
    items.push({
      calls,
      feature: {
        type: "Feature",
        id: p.code ?? `PW-${p.portwatch[0]?.portid}`,
        geometry: { type: "Point", coordinates: [p.lng, p.lat] },
        properties: { code: p.code, name: p.name, country: p.country, ...c, yearlyPortCalls: calls },
      },
    });
  }
  const ci = (x: Item) => x.feature.properties.congestionIndex ?? -1;
  const calls = (x: Item) => x.calls ?? -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  // Array#sort is stable: equal keys keep the snapshot's order, so the order is the same on every request.
  items.sort((a, b) => ci(b) - ci(a) || calls(b) - calls(a) || cmp(a.feature.properties.name, b.feature.properties.name) || cmp(a.feature.id, b.feature.id));
  const page = pageOf(items, q.limit, q.cursor, version);
  const uses: SeriesUse[] = [];
  const ids = [...dailySeries].sort().join(", ");
  const from = congestion.map((p) => p.from).sort()[0];
  const to = congestion.map((p) => p.to).sort()[congestion.length - 1];
  if (congestion.length > 0) uses.push({ source: `PortWatch daily port calls (${ids})`, period: { from, to }, asOf: to, cadence: "daily" });
  if (yearly) uses.push({ source: PORTWATCH_ATTRIBUTE_SOURCE, period: PORTWATCH_ATTRIBUTE_PERIOD, asOf: PORTWATCH_ATTRIBUTE_PERIOD.to, cadence: "yearly" });
  const time = timeOf(uses, now);
  const figures = {
    congestionIndex:
      congestion.length > 0
        ? {
            period: { from, to },
            recent: null,
            asOf: to,
            source: uses[0].source,
            currency: currencyOf(to, "daily", now),
            note: `each port's latest 30 days of port calls against the same season of previous years (its congestionPeriod); the newest latest day is ${to}`,
          }
        : { period: null, recent: null, asOf: null, source: null, currency: null, note: "no matched port has daily port calls, so no congestion index" },
    yearlyPortCalls: yearly
      ? {
          period: PORTWATCH_ATTRIBUTE_PERIOD,
          recent: null,
          asOf: PORTWATCH_ATTRIBUTE_PERIOD.to,
          source: PORTWATCH_ATTRIBUTE_SOURCE,
          currency: currencyOf(PORTWATCH_ATTRIBUTE_PERIOD.to, "yearly", now),
          note: "PortWatch's yearly average of port calls over 2019–2024, not a count of a recent year",
        }
      : { period: null, recent: null, asOf: null, source: null, currency: null, note: "no matched port has a PortWatch record" },
  };
  return {
    type: "FeatureCollection",
    asOf: time.asOf,
    details: { ...time, figures },
    snapshotVersion: version,
    numberMatched: page.numberMatched,
    nextCursor: page.nextCursor,
    features: page.items.map((x) => x.feature),
  };
}

export class SnapshotSupplyChainService implements SupplyChainService {
  constructor(
    private readonly store: ArtifactStore<PortsSnapshot>,
    private readonly now: () => Date = () => new Date(clockNow()),
  ) {}

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  query(q: SupplyChainBody): SupplyChainData | ChokepointAnswerData {
    const loaded = this.store.require();
    const strait = q.portCode === undefined ? resolveChokepoint(loaded.data, q) : null;
    if (strait) return chokepointAnswer(loaded.data, strait.chokepoint, strait.resolution, q.queryType, loaded.version, this.now());
    const { port, resolution } = resolvePort(loaded.data, q);
    return answer(loaded.data, port, resolution, q.queryType, loaded.version, this.now());
  }

  portQuery(q: SupplyChainBody): SupplyChainData {
    const loaded = this.store.require();
    const { port, resolution } = resolvePort(loaded.data, { ...q, chokepoint: undefined });
    return answer(loaded.data, port, resolution, q.queryType, loaded.version, this.now());
  }

  chokepoints(): ChokepointList {
    const loaded = this.store.require();
    return chokepointList(loaded.data, loaded.version, this.now().getTime());
  }

  portsInBox(q: PortsQuery): PortsPage {
    const loaded = this.store.require();
    return portsInBox(loaded.data, loaded.version, q, this.now().getTime());
  }
}

/** Follows ARTIFACTS_DIR/snapshots/ports/current (hot reload). */
export async function openSupplyChainService(
  artifactsDir: string,
  logger: Logger,
  now?: () => Date,
): Promise<{ service: SnapshotSupplyChainService; store: ArtifactStore<PortsSnapshot> }> {
  const store = new ArtifactStore<PortsSnapshot>({ root: snapshotRoot(artifactsDir, PORTS_SNAPSHOT), open: openPortsSnapshot, logger, kind: PORTS_SNAPSHOT, label: "ports snapshot" });
  await store.reload();
  store.start();
  return { service: new SnapshotSupplyChainService(store, now), store };
}
