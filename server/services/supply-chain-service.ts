// Supply-chain answers from the `ports` snapshot: resolve a port (portCode wins over coordinates), then activity
// from PortWatch daily calls, AIS counts near the port, GDACS hazards near it. Every call takes the snapshot
// once (store.current()), so a hot swap never mixes versions. No data → null fields listed in details.missing;
// unknown port → NotFoundError. Methods: docs/methods/supply-chain.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import KDBush from "kdbush";
import { readDaySeries, type DaySeriesEntry } from "../../formats/day-series.ts";
import type { Manifest } from "../../formats/manifest.ts";
import type { Logger } from "../../lib/log.ts";
import { MIN_WINDOW_COVERAGE, anomalyPoints, disruptionLevel, littlesLawDays, percentileRank, seasonalBaseline, windowMean, windowSum } from "../../lib/ports/activity.ts";
import { GDACS_FLOOD_DB_SOURCE, PORTS_SNAPSHOT, PORTS_SOURCES, type HazardEvent, type PortRecord } from "../../formats/ports-snapshot.ts";
import { boxAround, distanceKm } from "../../lib/geo/great-circle.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { NotFoundError } from "../errors.ts";
import type { SupplyChainBody, SupplyChainData } from "../schemas-supply-chain.ts";

/** A coordinate selects the nearest port within this distance. */
export const NEAREST_PORT_RADIUS_KM = 50;
/** AIS fixes within this distance of the port count as at the port (anchorages lie a few km off the berths). */
export const AIS_RADIUS_KM = 30;
export const CYCLONE_RADIUS_KM = 500;
export const FLOOD_RADIUS_KM = 100;
/** A hazard counts as active when its period overlaps the last HAZARD_WINDOW_DAYS before the hazard feed's as-of. */
export const HAZARD_WINDOW_DAYS = 30;
export const ACTIVITY_WINDOW_DAYS = 30;
export const VESSEL_WINDOW_DAYS = 7;
/** Little's law needs an arrival rate near the AIS sample date: the same ±15-day calendar window of the first series year. */
export const LAMBDA_HALF_WINDOW_DAYS = 15;

const DAY_MS = 86400000;
const ALERT_NAMES = ["", "Green", "Orange", "Red"];

export interface PortsSnapshot {
  ports: PortRecord[];
  byCode: Map<string, number>;
  located: Int32Array;
  portIndex: KDBush;
  series: Map<string, DaySeriesEntry>;
  ais: { time: number; lng: Float64Array; lat: Float64Array; nav: Float64Array; index: KDBush };
  hazards: HazardEvent[];
  hazardIndex: KDBush;
  hazardAsOf: number;
  asOf: string;
}

function pointIndex(n: number, add: (i: number, idx: KDBush) => void): KDBush {
  const idx = new KDBush(Math.max(1, n));
  for (let i = 0; i < n; i++) add(i, idx);
  if (n === 0) idx.add(0, -90); // kdbush needs one point; the sentinel is filtered by distance checks
  idx.finish();
  return idx;
}

/** Opens a verified snapshot version (ArtifactStore `open`). */
export function openPortsSnapshot(dir: string, manifest: Manifest): PortsSnapshot {
  const { ports } = JSON.parse(readFileSync(join(dir, "ports.json"), "utf8")) as { ports: PortRecord[] };
  const byCode = new Map(ports.map((p, i) => [p.code, i]));
  const locatedList: number[] = [];
  ports.forEach((p, i) => {
    if (p.lat !== null && p.lng !== null) locatedList.push(i);
  });
  const located = Int32Array.from(locatedList);
  const portIndex = pointIndex(located.length, (i, idx) => idx.add(ports[located[i]].lng as number, ports[located[i]].lat as number));
  const series = new Map(readDaySeries(new Uint8Array(readFileSync(join(dir, "port-calls.dseries")))).map((s) => [s.key, s]));
  const aisDoc = JSON.parse(readFileSync(join(dir, "ais.json"), "utf8")) as { sampleTime: string | null; fixes: [number, number, number, number, string][] };
  const n = aisDoc.fixes.length;
  const ais = {
    time: aisDoc.sampleTime ? Date.parse(aisDoc.sampleTime) : NaN,
    lng: Float64Array.from(aisDoc.fixes, (f) => f[0]),
    lat: Float64Array.from(aisDoc.fixes, (f) => f[1]),
    nav: Float64Array.from(aisDoc.fixes, (f) => (f[2] === null ? NaN : f[2])),
    index: pointIndex(n, (i, idx) => idx.add(aisDoc.fixes[i][0], aisDoc.fixes[i][1])),
  };
  const hz = JSON.parse(readFileSync(join(dir, "hazards.json"), "utf8")) as { liveFeedAsOf: string | null; events: HazardEvent[] };
  const hazardIndex = pointIndex(hz.events.length, (i, idx) => idx.add(hz.events[i].lng, hz.events[i].lat));
  if (manifest.asOf === undefined) throw new Error("ports snapshot manifest has no asOf");
  return {
    ports,
    byCode,
    located,
    portIndex,
    series,
    ais,
    hazards: hz.events,
    hazardIndex,
    hazardAsOf: hz.liveFeedAsOf ? Date.parse(hz.liveFeedAsOf) : NaN,
    asOf: manifest.asOf,
  };
}

const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);
const r2 = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);

function within(idx: KDBush, lat: number, lng: number, km: number): number[] {
  const { dLat, dLng } = boxAround(lat, km);
  return idx.range(lng - dLng, lat - dLat, lng + dLng, lat + dLat);
}

export interface SupplyChainService {
  dataVersion(): string;
  query(q: SupplyChainBody): SupplyChainData;
}

export class SnapshotSupplyChainService implements SupplyChainService {
  constructor(
    private readonly store: ArtifactStore<PortsSnapshot>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  query(q: SupplyChainBody): SupplyChainData {
    const loaded = this.store.require();
    const s = loaded.data;
    const { port, resolution } = this.resolve(s, q);
    return answer(s, port, resolution, q.queryType, loaded.version, this.now());
  }

  private resolve(s: PortsSnapshot, q: SupplyChainBody): { port: PortRecord; resolution: SupplyChainData["details"]["resolution"] } {
    const coordinatesSent = q.lat !== undefined && q.lng !== undefined;
    if (q.portCode !== undefined) {
      const i = s.byCode.get(q.portCode);
      if (i === undefined) throw new NotFoundError(`Unknown port ${q.portCode}: not a UN/LOCODE entry with the port function`, { portCode: q.portCode });
      return { port: s.ports[i], resolution: { by: "portCode", distanceKm: null, coordinatesIgnored: coordinatesSent, radiusKm: NEAREST_PORT_RADIUS_KM } };
    }
    const lat = q.lat as number;
    const lng = q.lng as number;
    let best = -1;
    let bestKm = NEAREST_PORT_RADIUS_KM;
    for (const j of within(s.portIndex, lat, lng, NEAREST_PORT_RADIUS_KM)) {
      const p = s.ports[s.located[j]];
      if (p === undefined) continue;
      const km = distanceKm(lat, lng, p.lat as number, p.lng as number);
      if (km <= bestKm) [best, bestKm] = [s.located[j], km];
    }
    if (best < 0) throw new NotFoundError(`No port within ${NEAREST_PORT_RADIUS_KM} km of this location`, { lat, lng, radiusKm: NEAREST_PORT_RADIUS_KM });
    return { port: s.ports[best], resolution: { by: "coordinates", distanceKm: r2(bestKm), coordinatesIgnored: false, radiusKm: NEAREST_PORT_RADIUS_KM } };
  }
}

/** The response for one resolved port (pure over the snapshot). */
export function answer(
  s: PortsSnapshot,
  port: PortRecord,
  resolution: SupplyChainData["details"]["resolution"],
  queryType: SupplyChainBody["queryType"],
  version: string,
  now: Date,
): SupplyChainData {
  const findings: string[] = [];
  const missing: string[] = [];
  const pw = port.portwatch;
  const daily = pw ? s.series.get(pw.portid) : undefined;
  const tanker = pw ? s.series.get(`country:${pw.country}`) : undefined;
  const label = `${port.name} (${port.code})`;

  // Activity: latest 30-day window against the same season of previous years.
  let activity: SupplyChainData["details"]["activity"] = null;
  let congestionIndex: number | null = null;
  let vesselCount: number | null = null;
  let ratio = NaN;
  let end = -1;
  if (daily) {
    const calls = daily.columns.portcalls;
    end = calls.length - 1;
    while (end >= 0 && Number.isNaN(calls[end])) end--;
    const mean = windowMean(calls, end, ACTIVITY_WINDOW_DAYS);
    const base = seasonalBaseline(calls, end, ACTIVITY_WINDOW_DAYS);
    ratio = mean / base.mean;
    const pct = base.years >= 2 ? percentileRank(mean, base.samples) : NaN;
    congestionIndex = r1(pct);
    const week = windowSum(calls, end, VESSEL_WINDOW_DAYS);
    vesselCount = Number.isFinite(week) ? week : null;
    activity = {
      seriesId: daily.key,
      latestDay: isoOfDay(daily.firstDay + end),
      windowDays: ACTIVITY_WINDOW_DAYS,
      meanDailyCalls: r2(mean),
      baselineMeanDailyCalls: r2(base.mean),
      baselineWindows: base.samples.length,
      baselineYears: base.years,
      ratio: r2(ratio),
      percentile: congestionIndex,
    };
    if (congestionIndex !== null) {
      findings.push(
        `${r2(mean)} port calls/day in the 30 days to ${activity.latestDay} vs ${r2(base.mean)} in the same season of ${base.years} previous years (ratio ${r2(ratio)}, percentile ${congestionIndex}).`,
      );
    } else if (Number.isNaN(mean)) {
      missing.push(`congestionIndex: the daily series has data on fewer than ${MIN_WINDOW_COVERAGE * 100}% of the 30 days to ${activity.latestDay}`);
    } else missing.push("congestionIndex: fewer than 2 previous years of daily port calls for a seasonal baseline");
    if (vesselCount !== null) findings.push(`${vesselCount} port calls in the 7 days to ${activity.latestDay} (PortWatch).`);
    else missing.push("vesselCount: the latest 7 days of the daily series are incomplete");
  } else {
    missing.push("congestionIndex: no PortWatch daily port calls for this port");
    missing.push("vesselCount: no PortWatch daily port calls for this port");
  }

  // AIS sample around the port, and Little's law with the arrival rate near the sample date.
  let moored = 0;
  let anchored = 0;
  let aisFixes = 0;
  if (port.lat !== null && port.lng !== null) {
    for (const i of within(s.ais.index, port.lat, port.lng, AIS_RADIUS_KM)) {
      if (i >= s.ais.lat.length || distanceKm(port.lat, port.lng, s.ais.lat[i], s.ais.lng[i]) > AIS_RADIUS_KM) continue;
      aisFixes++;
      if (s.ais.nav[i] === 5) moored++;
      else if (s.ais.nav[i] === 1) anchored++;
    }
  }
  let lambda = NaN;
  let lambdaWindow: string | null = null;
  if (daily && Number.isFinite(s.ais.time)) {
    const calls = daily.columns.portcalls;
    const sampleDay = dayOf(new Date(s.ais.time).toISOString());
    // Same calendar day in the first year the series covers at or after the sample.
    let centre = sampleDay;
    while (centre - LAMBDA_HALF_WINDOW_DAYS < daily.firstDay) centre += 365;
    const idx = centre - daily.firstDay;
    lambda = windowMean(calls, idx + LAMBDA_HALF_WINDOW_DAYS, 2 * LAMBDA_HALF_WINDOW_DAYS + 1);
    lambdaWindow = `${isoOfDay(centre - LAMBDA_HALF_WINDOW_DAYS)}..${isoOfDay(centre + LAMBDA_HALF_WINDOW_DAYS)}`;
  }
  const haveAis = aisFixes > 0;
  const dwell = haveAis ? littlesLawDays(moored, lambda) : NaN;
  const wait = haveAis ? littlesLawDays(anchored, lambda) * 24 : NaN;
  const avgDwellDays = r2(dwell);
  const etaDelayHours = r1(wait);
  if (!haveAis) {
    missing.push(`avgDwellDays: no AIS fixes within ${AIS_RADIUS_KM} km of the port in the AIS sample`);
    missing.push(`etaDelayHours: no AIS fixes within ${AIS_RADIUS_KM} km of the port in the AIS sample`);
  } else if (!Number.isFinite(lambda)) {
    missing.push("avgDwellDays: no daily port calls for an arrival rate");
    missing.push("etaDelayHours: no daily port calls for an arrival rate");
  } else {
    findings.push(
      `AIS sample (${new Date(s.ais.time).toISOString().slice(0, 10)}): ${aisFixes} vessels within ${AIS_RADIUS_KM} km, ${moored} moored, ${anchored} at anchor; arrival rate ${r2(lambda)} calls/day (${lambdaWindow}).`,
    );
  }

  // Hazards near the port, active in the 30 days before the hazard feed's as-of.
  const hazardsActive: SupplyChainData["details"]["disruption"]["hazardsActive"] = [];
  let floodsHistory = 0;
  let hazardPoints = 0;
  if (port.lat !== null && port.lng !== null) {
    const windowStart = s.hazardAsOf - HAZARD_WINDOW_DAYS * DAY_MS;
    for (const i of within(s.hazardIndex, port.lat, port.lng, CYCLONE_RADIUS_KM)) {
      const e = s.hazards[i];
      if (e === undefined) continue;
      const km = distanceKm(port.lat, port.lng, e.lat, e.lng);
      const radius = e.kind === "cyclone" ? CYCLONE_RADIUS_KM : FLOOD_RADIUS_KM;
      if (km > radius) continue;
      if (e.kind === "flood" && e.source === GDACS_FLOOD_DB_SOURCE) floodsHistory++;
      const to = Number.isFinite(e.to) ? e.to : e.from;
      if (to >= windowStart && e.from <= s.hazardAsOf) {
        const level = Number.isFinite(e.alertLevel) ? e.alertLevel : 1;
        hazardPoints += level;
        hazardsActive.push({
          id: e.id,
          kind: e.kind,
          name: e.name,
          alertLevel: ALERT_NAMES[level] ?? String(level),
          distanceKm: r1(km) as number,
          from: new Date(e.from).toISOString(),
          to: new Date(to).toISOString(),
          source: e.source,
        });
      }
    }
  }
  const anomaly = anomalyPoints(ratio);
  const points = hazardPoints + anomaly;
  const disruptionRisk = disruptionLevel(points);
  for (const h of hazardsActive) findings.push(`${h.alertLevel} ${h.kind} alert ${h.name} ${h.distanceKm} km away (${h.from.slice(0, 10)}..${h.to.slice(0, 10)}, ${h.source}).`);
  if (hazardsActive.length === 0 && port.lat !== null) findings.push(`No GDACS cyclone within ${CYCLONE_RADIUS_KM} km or flood within ${FLOOD_RADIUS_KM} km in the 30 days to the feed's as-of.`);
  if (port.lat === null) findings.push("The port has no usable coordinates, so no hazards or AIS vessels could be placed near it.");
  if (anomaly > 0) findings.push(`Port calls are at ${r2(ratio)} of the seasonal normal (${anomaly} disruption point${anomaly > 1 ? "s" : ""}).`);
  if (floodsHistory > 0) findings.push(`${floodsHistory} GDACS floods within ${FLOOD_RADIUS_KM} km since 2014.`);
  for (const f of port.flags) if (f.startsWith("portwatch_locode_corrected")) findings.push(`PortWatch lists this port as ${pw?.locodePublished}; matched to ${port.code} by ${pw?.matchedBy}.`);

  const inputs = {
    portwatchDaily: daily !== undefined,
    countryTankerSeries: tanker !== undefined,
    portwatchAttributes: pw !== null,
    worldPortIndex: port.wpi !== null,
    ais: haveAis,
    gdacsHazards: port.lat !== null,
    coordinates: port.lat !== null,
  };

  const details: SupplyChainData["details"] = {
    keyFindings: [],
    inputs,
    missing,
    resolution,
    port: { country: port.country, lat: port.lat, lng: port.lng, coordSource: port.coordSource, flags: port.flags, wpi: port.wpi, portwatch: pw },
    activity,
    disruption: {
      points,
      hazardPoints,
      anomalyPoints: anomaly,
      hazardsActive,
      hazardFeedAsOf: Number.isFinite(s.hazardAsOf) ? new Date(s.hazardAsOf).toISOString() : null,
      floodsWithinRadiusSince2014: floodsHistory,
    },
  };

  const typed: string[] = [];
  if (queryType === "congestion") {
    details.congestion = { congestionIndex, method: "percentile rank of the latest 30-day mean daily port calls among same-season 30-day means of up to 5 previous years", activityRatio: r2(ratio) };
  } else if (queryType === "vessel_count") {
    const byType: Record<string, number | null> = {};
    for (const c of ["portcalls_container", "portcalls_dry_bulk", "portcalls_general_cargo", "portcalls_roro", "portcalls_tanker"]) {
      const v = daily ? windowSum(daily.columns[c], end, VESSEL_WINDOW_DAYS) : NaN;
      byType[c.replace("portcalls_", "")] = Number.isFinite(v) ? v : null;
    }
    let tankerWeek: number | null = null;
    let tankerLatest: string | null = null;
    if (tanker) {
      const t = tanker.columns.tanker_calls;
      let te = t.length - 1;
      while (te >= 0 && Number.isNaN(t[te])) te--;
      const w = windowSum(t, te, VESSEL_WINDOW_DAYS);
      tankerWeek = Number.isFinite(w) ? w : null;
      tankerLatest = isoOfDay(tanker.firstDay + te);
      if (tankerWeek !== null) typed.push(`${tankerWeek} tanker calls in ${pw?.country} in the 7 days to ${tankerLatest}.`);
    }
    details.vessels = {
      portCalls7d: vesselCount,
      portCalls7dByType: byType,
      ais: { sampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null, radiusKm: AIS_RADIUS_KM, vessels: aisFixes, moored, anchored, other: aisFixes - moored - anchored },
      countryTankerCalls7d: tankerWeek,
      countryTankerLatestDay: tankerLatest,
      annualVesselCounts: pw?.vesselCounts ?? null,
    };
  } else if (queryType === "cargo_delay") {
    details.delay = {
      method: "Little's law W = L / λ: L = AIS vessels moored (dwell) or at anchor (wait) within 30 km, λ = mean daily port calls",
      moored,
      anchored,
      arrivalsPerDay: r2(lambda),
      arrivalWindow: lambdaWindow,
      aisSampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null,
      note: "The AIS sample holds a fraction of the messages of one minute, so L and W are lower bounds.",
    };
  } else {
    let trade: Record<string, unknown> = { shareCountryImport: pw?.shareCountryImport ?? null, shareCountryExport: pw?.shareCountryExport ?? null, industryTop: pw?.industryTop ?? [] };
    if (daily) {
      for (const c of ["import", "export"]) {
        const m = windowMean(daily.columns[c], end, ACTIVITY_WINDOW_DAYS);
        const b = seasonalBaseline(daily.columns[c], end, ACTIVITY_WINDOW_DAYS);
        trade = { ...trade, [`${c}TonnesPerDay30d`]: r1(m), [`${c}BaselineTonnesPerDay`]: r1(b.mean), [`${c}Ratio`]: r2(m / b.mean) };
        if (Number.isFinite(m / b.mean)) typed.push(`${c === "import" ? "Imports" : "Exports"} ${r1(m)} t/day over 30 days, ${r2(m / b.mean)} of the seasonal normal.`);
      }
    }
    if (pw?.shareCountryImport !== null && pw?.shareCountryImport !== undefined) typed.push(`Handles ${pw.shareCountryImport}% of ${pw.country}'s maritime imports and ${pw.shareCountryExport}% of its exports (PortWatch).`);
    details.trade = trade;
  }
  details.keyFindings = [...typed, ...findings];

  const headline: Record<SupplyChainBody["queryType"], string> = {
    congestion: congestionIndex !== null ? `congestion index ${congestionIndex}` : "congestion index not available",
    vessel_count: vesselCount !== null ? `${vesselCount} port calls in the latest 7 days` : "no vessel count available",
    cargo_delay: avgDwellDays !== null ? `dwell ${avgDwellDays} days, ETA delay ${etaDelayHours} h (lower bounds)` : "dwell and delay not available",
    trade_risk: activity?.ratio != null ? `port calls at ${activity.ratio} of the seasonal normal` : "no activity series",
  };
  const summary = `${label}: ${headline[queryType]}; disruption risk ${disruptionRisk}${missing.length > 0 ? `; ${missing.length} field${missing.length > 1 ? "s" : ""} without data` : ""}.`;

  return {
    port: { code: port.code, name: port.name },
    queryType,
    congestionIndex,
    vesselCount,
    avgDwellDays,
    etaDelayHours,
    disruptionRisk,
    summary,
    details,
    asOf: s.asOf,
    dataVersion: version,
    dataSources: PORTS_SOURCES,
    timestamp: now.toISOString(),
  };
}

/** Follows ARTIFACTS_DIR/snapshots/ports/current (hot reload). */
export async function openSupplyChainService(artifactsDir: string, logger: Logger): Promise<{ service: SnapshotSupplyChainService; store: ArtifactStore<PortsSnapshot> }> {
  const store = new ArtifactStore<PortsSnapshot>({ root: snapshotRoot(artifactsDir, PORTS_SNAPSHOT), open: openPortsSnapshot, logger, label: "ports snapshot" });
  await store.reload();
  store.start();
  return { service: new SnapshotSupplyChainService(store), store };
}
