// One supply-chain answer for a resolved port, from what exists for it: PortWatch daily port calls (four ports),
// PortWatch yearly attributes (vessel counts by type, trade shares, industries), the country's tanker series, the AIS
// sample, GDACS hazards near the port. A figure the inputs cannot give is null and keeps its reason in
// details.missing; a non-null one says how it was derived in details.basis. Methods: docs/methods/supply-chain.md.
import type KDBush from "kdbush";
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import { GDACS_FLOOD_DB_SOURCE, PORTS_SOURCES, tankerSeriesKey, type PortRecord } from "../../formats/ports-snapshot.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";
import { boxAround, distanceKm } from "../../lib/geo/great-circle.ts";
import { MIN_WINDOW_COVERAGE, anomalyPoints, disruptionLevel, littlesLawDays, percentileRank, seasonalBaseline, windowMean, windowSum } from "../../lib/ports/activity.ts";
import { unlocodeFunctionNames } from "../../lib/ports/unlocode-function.ts";
import type { SupplyChainBody, SupplyChainData } from "../schemas-supply-chain.ts";
import type { PortsSnapshot, Resolution } from "./supply-chain-service.ts";

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
/** The years PortWatch's yearly vessel counts average over (PortWatch port database, `vessel_count_*`). */
export const PORTWATCH_ATTRIBUTE_YEARS = "2019..2024";
const DAYS_PER_YEAR = 365.25;

const DAY_MS = 86400000;
const ALERT_NAMES = ["", "Green", "Orange", "Red"];
const VESSEL_TYPES = ["container", "dry_bulk", "general_cargo", "roro", "tanker"] as const;
const ATTRIBUTE_OF_TYPE = { container: "container", dry_bulk: "dryBulk", general_cargo: "generalCargo", roro: "roro", tanker: "tanker" } as const;

type Details = SupplyChainData["details"];
type Coverage = Details["coverage"];

const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);
const r2 = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);
const fmt = (x: number) => x.toLocaleString("en-US");
const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? "" : "s"}`;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Indices of the points of a kdbush index inside the box around (lat, lng) of half-size `km` (check distances after).
 * A box that crosses the antimeridian is queried on both sides (Fiji's ports lie on either side of 180°).
 */
export function within(idx: KDBush, lat: number, lng: number, km: number): number[] {
  const { dLat, dLng } = boxAround(lat, km);
  const [south, north, west, east] = [lat - dLat, lat + dLat, lng - dLng, lng + dLng];
  if (dLng >= 180) return idx.range(-180, south, 180, north);
  const out = idx.range(Math.max(-180, west), south, Math.min(180, east), north);
  if (west < -180) for (const i of idx.range(west + 360, south, 180, north)) out.push(i);
  if (east > 180) for (const i of idx.range(-180, south, east - 360, north)) out.push(i);
  return out;
}

function lastPresent(col: Float32Array): number {
  let end = col.length - 1;
  while (end >= 0 && Number.isNaN(col[end])) end--;
  return end;
}

/** Latest 30-day window of daily port calls against the same season of previous years. */
function dailyActivity(daily: DaySeriesEntry) {
  const calls = daily.columns.portcalls;
  const end = lastPresent(calls);
  const mean = windowMean(calls, end, ACTIVITY_WINDOW_DAYS);
  const base = seasonalBaseline(calls, end, ACTIVITY_WINDOW_DAYS);
  const percentile = base.years >= 2 ? percentileRank(mean, base.samples) : NaN;
  const week = windowSum(calls, end, VESSEL_WINDOW_DAYS);
  const activity: NonNullable<Details["activity"]> = {
    seriesId: daily.key,
    firstDay: isoOfDay(daily.firstDay),
    latestDay: isoOfDay(daily.firstDay + end),
    windowDays: ACTIVITY_WINDOW_DAYS,
    meanDailyCalls: r2(mean),
    baselineMeanDailyCalls: r2(base.mean),
    baselineWindows: base.samples.length,
    baselineYears: base.years,
    ratio: r2(mean / base.mean),
    percentile: r1(percentile),
  };
  return { activity, end, mean, base, ratio: mean / base.mean, percentile, week };
}

/** Why a port with a daily series has no congestion index (null when it has one). */
function noCongestionReason(d: ReturnType<typeof dailyActivity>): string | null {
  if (Number.isFinite(d.percentile)) return null;
  if (Number.isNaN(d.mean)) return `the daily series has data on fewer than ${MIN_WINDOW_COVERAGE * 100}% of the 30 days to ${d.activity.latestDay}`;
  return "fewer than 2 previous years of daily port calls for a seasonal baseline";
}

/** "PortWatch daily port calls for this port (only … have them)": what a port without a daily series lacks. */
const noDaily = (s: PortsSnapshot) => `PortWatch daily port calls for this port (only ${s.dailySeriesPorts.join(", ")} have them)`;
const noDailyReason = (s: PortsSnapshot) => `no ${noDaily(s)}; PortWatch's yearly averages cannot show congestion`;

/** PortWatch's yearly average of port calls over all the port's terminals (0 when none gives a count). */
export function yearlyPortCalls(port: PortRecord): number {
  let calls = 0;
  for (const a of port.portwatch) if (Number.isFinite(a.vesselCounts.total)) calls += a.vesselCounts.total;
  return calls;
}

/** A port's congestion index (as in its answer) with the latest day it rests on, or null and the reason. */
export function portCongestion(s: PortsSnapshot, port: PortRecord): { congestionIndex: number | null; latestDay: string | null; reason: string | null } {
  const daily = port.portwatch[0] ? s.series.get(port.portwatch[0].portid) : undefined;
  if (!daily) return { congestionIndex: null, latestDay: null, reason: noDailyReason(s) };
  const d = dailyActivity(daily);
  return { congestionIndex: r1(d.percentile), latestDay: d.activity.latestDay, reason: noCongestionReason(d) };
}

/** The country's tanker calls: latest week, latest 30 days against the same season of previous years. */
function tankerActivity(s: PortsSnapshot, iso3: string): Details["countryTankers"] {
  const series = s.series.get(tankerSeriesKey(iso3));
  if (!series) return null;
  const t = series.columns.tanker_calls;
  const end = lastPresent(t);
  const week = windowSum(t, end, VESSEL_WINDOW_DAYS);
  const mean = windowMean(t, end, ACTIVITY_WINDOW_DAYS);
  const base = seasonalBaseline(t, end, ACTIVITY_WINDOW_DAYS);
  return {
    country: iso3,
    portwatchNames: s.tankerCountries[iso3] ?? [],
    firstDay: isoOfDay(series.firstDay),
    latestDay: isoOfDay(series.firstDay + end),
    calls7d: Number.isFinite(week) ? week : null,
    meanDailyCalls30d: r2(mean),
    baselineMeanDailyCalls: r2(base.mean),
    baselineYears: base.years,
    ratio: r2(mean / base.mean),
    percentile: base.years >= 2 ? r1(percentileRank(mean, base.samples)) : null,
  };
}

/**
 * Distinct vessels (MMSI) of the AIS sample at the port: moored (status 5), at anchor (1), others. A port with
 * PortWatch ports counts the fixes assigned to them (each fix to its nearest PortWatch port within AIS_RADIUS_KM);
 * a port without counts every fix within AIS_RADIUS_KM of its position.
 */
function aisAround(s: PortsSnapshot, port: PortRecord) {
  const status = new Map<string, number>();
  const take = (i: number) => status.set(s.ais.mmsi[i], s.ais.nav[i]); // the later message of a vessel wins
  if (port.portwatch.length > 0) {
    for (const a of port.portwatch) for (const i of s.ais.byPortwatch.get(a.portid) ?? []) take(i);
  } else if (port.lat !== null && port.lng !== null) {
    for (const i of within(s.ais.index, port.lat, port.lng, AIS_RADIUS_KM)) {
      if (i < s.ais.lat.length && distanceKm(port.lat, port.lng, s.ais.lat[i], s.ais.lng[i]) <= AIS_RADIUS_KM) take(i);
    }
  }
  let moored = 0;
  let anchored = 0;
  for (const v of status.values()) {
    if (v === 5) moored++;
    else if (v === 1) anchored++;
  }
  return { vessels: status.size, moored, anchored };
}

/** Arrival rate λ (calls a day) for Little's law: the daily series near the AIS date, else the PortWatch yearly average. */
function arrivalRate(s: PortsSnapshot, daily: DaySeriesEntry | undefined, yearlyCalls: number): { lambda: number; basis: string | null; window: string | null } {
  if (daily && Number.isFinite(s.ais.time)) {
    const calls = daily.columns.portcalls;
    // Same calendar day in the first year the series covers at or after the sample.
    let centre = dayOf(new Date(s.ais.time).toISOString());
    while (centre - LAMBDA_HALF_WINDOW_DAYS < daily.firstDay) centre += 365;
    const lambda = windowMean(calls, centre - daily.firstDay + LAMBDA_HALF_WINDOW_DAYS, 2 * LAMBDA_HALF_WINDOW_DAYS + 1);
    const window = `${isoOfDay(centre - LAMBDA_HALF_WINDOW_DAYS)}..${isoOfDay(centre + LAMBDA_HALF_WINDOW_DAYS)}`;
    if (Number.isFinite(lambda)) return { lambda, basis: `λ = ${r2(lambda)} calls a day, mean of the PortWatch daily port calls ${window}`, window };
  }
  if (yearlyCalls > 0) {
    const lambda = yearlyCalls / DAYS_PER_YEAR;
    return { lambda, basis: `λ = ${r2(lambda)} calls a day, PortWatch's yearly average of ${fmt(yearlyCalls)} port calls (${PORTWATCH_ATTRIBUTE_YEARS}) / 365.25`, window: PORTWATCH_ATTRIBUTE_YEARS };
  }
  return { lambda: NaN, basis: null, window: null };
}

function hazardsNear(s: PortsSnapshot, lat: number, lng: number) {
  const active: Details["disruption"]["hazardsActive"] = [];
  let history = 0;
  let points = 0;
  const windowStart = s.hazardAsOf - HAZARD_WINDOW_DAYS * DAY_MS;
  for (const i of within(s.hazardIndex, lat, lng, CYCLONE_RADIUS_KM)) {
    const e = s.hazards[i];
    if (e === undefined) continue;
    const km = distanceKm(lat, lng, e.lat, e.lng);
    if (km > (e.kind === "cyclone" ? CYCLONE_RADIUS_KM : FLOOD_RADIUS_KM)) continue;
    if (e.kind === "flood" && e.source === GDACS_FLOOD_DB_SOURCE) history++;
    const to = Number.isFinite(e.to) ? e.to : e.from;
    if (to >= windowStart && e.from <= s.hazardAsOf) {
      const level = Number.isFinite(e.alertLevel) ? e.alertLevel : 1;
      points += level;
      active.push({
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
  return { active, history, points };
}

interface UsedRecord {
  record: string;
  period: string | null;
  from?: string;
  to?: string;
}

function coverageOf(iso3: string | null, used: UsedRecord[], notAvailable: string[]): Coverage {
  const froms = used.flatMap((u) => (u.from ? [u.from] : [])).sort();
  const tos = used.flatMap((u) => (u.to ? [u.to] : [])).sort();
  const parts = used.map((u) => (u.period ? `${u.record} ${u.period}` : u.record));
  for (const n of notAvailable) parts.push(`no ${n}`);
  return {
    country: iso3,
    records: used.map((u) => ({ record: u.record, period: u.period })),
    notAvailable,
    period: { from: froms[0] ?? null, to: tos[tos.length - 1] ?? null },
    summary: parts.join("; "),
  };
}

/** The entries of PORTS_SOURCES this answer used (same order). */
function sourcesUsed(port: PortRecord, resolution: Resolution, d: Details): string[] {
  const [unlocode, wpi, portwatch, ais, gdacs] = PORTS_SOURCES;
  const out: string[] = [];
  if (port.unlocode !== null || resolution.alias !== null) out.push(unlocode);
  if (d.inputs.worldPortIndex) out.push(wpi);
  if (d.inputs.portwatchAttributes || d.inputs.portwatchDaily || d.inputs.countryTankerSeries) out.push(portwatch);
  if (d.inputs.ais) out.push(ais);
  if (d.inputs.gdacsHazards) out.push(gdacs);
  return out;
}

/** The response for one resolved port (pure over the snapshot). */
export function answer(s: PortsSnapshot, port: PortRecord, resolution: Resolution, queryType: SupplyChainBody["queryType"], version: string, now: Date): SupplyChainData {
  const findings: string[] = [];
  const typed: string[] = [];
  const missing: string[] = [];
  const basis: Record<string, string> = {};
  const used: UsedRecord[] = [];
  const notAvailable: string[] = [];
  const pw = port.portwatch;
  const main = pw[0];
  const daily = main ? s.series.get(main.portid) : undefined;
  const label = `${port.name} (${port.code ?? `PortWatch ${main?.portid}`})`;
  const located = port.lat !== null && port.lng !== null;
  const yearlyCalls = yearlyPortCalls(port);
  const pwNames = pw.map((a) => a.name).join(" + ");
  const shared = main && main.sharedWith.length > 0 ? ` (PortWatch reports ${main.name} as one port, also for ${main.sharedWith.join(", ")})` : "";

  if (resolution.alias) {
    const a = resolution.alias;
    findings.push(`${a.code} is ${a.name} in UN/LOCODE (${a.functions.join(", ")}), not a port; answered for the port of that place, ${port.name} (${port.code}), ${a.distanceKm} km away.`);
  }
  if (pw.length > 0) used.push({ record: `PortWatch port attributes (${pwNames}; yearly averages)`, period: PORTWATCH_ATTRIBUTE_YEARS, from: "2019-01-01", to: "2024-12-31" });
  else notAvailable.push("PortWatch record for this port (vessel counts, trade shares)");
  if (port.wpi) used.push({ record: `World Port Index (${port.wpi.name}, harbour size ${port.wpi.harborSize || "not given"})`, period: null });

  // Daily activity: congestion and the latest week.
  let congestionIndex: number | null = null;
  let vesselCount: number | null = null;
  let activity: Details["activity"] = null;
  let ratio = NaN;
  let end = -1;
  if (daily) {
    const d = dailyActivity(daily);
    ({ activity, end, ratio } = d);
    used.push({ record: `PortWatch daily port calls (${daily.key})`, period: `${activity.firstDay}..${activity.latestDay}`, from: activity.firstDay, to: activity.latestDay });
    if (Number.isFinite(d.percentile)) {
      congestionIndex = r1(d.percentile);
      basis.congestionIndex = `percentile rank of the mean daily port calls of the 30 days to ${activity.latestDay} among ${d.base.samples.length} same-season 30-day means of ${d.base.years} previous years (PortWatch daily)`;
      findings.push(
        `${r2(d.mean)} port calls/day in the 30 days to ${activity.latestDay} vs ${r2(d.base.mean)} in the same season of ${d.base.years} previous years (ratio ${r2(ratio)}, percentile ${congestionIndex}).`,
      );
    } else missing.push(`congestionIndex: ${noCongestionReason(d)}`);
    if (Number.isFinite(d.week)) {
      vesselCount = d.week;
      basis.vesselCount = `port calls in the 7 days to ${activity.latestDay} (PortWatch daily)`;
      findings.push(`${vesselCount} port calls in the 7 days to ${activity.latestDay} (PortWatch daily).`);
    }
  } else {
    notAvailable.push(noDaily(s));
    missing.push(`congestionIndex: ${noDailyReason(s)}`);
  }
  if (vesselCount === null) {
    if (yearlyCalls > 0) {
      vesselCount = Math.round((yearlyCalls * VESSEL_WINDOW_DAYS) / DAYS_PER_YEAR);
      basis.vesselCount = `a mean week of PortWatch's yearly average of ${fmt(yearlyCalls)} port calls (${PORTWATCH_ATTRIBUTE_YEARS}) × 7 / 365.25, not the latest week${daily ? " (the latest 7 days of the daily series are incomplete)" : ""}${shared}`;
      findings.push(`≈ ${plural(vesselCount, "port call")} a week: PortWatch's yearly average of ${fmt(yearlyCalls)} (${PORTWATCH_ATTRIBUTE_YEARS})${shared}.`);
    } else missing.push(daily ? "vesselCount: the latest 7 days of the daily series are incomplete and PortWatch gives no yearly count" : "vesselCount: no PortWatch record for this port (no daily port calls, no yearly vessel counts)");
  }

  // AIS sample and Little's law.
  const ais = aisAround(s, port);
  const aisDay = Number.isFinite(s.ais.time) ? isoDay(s.ais.time) : null;
  const rate = arrivalRate(s, daily, yearlyCalls);
  const littles = (field: "avgDwellDays" | "etaDelayHours", inSystem: number, status: string, scale: number): number | null => {
    if (!located && pw.length === 0) missing.push(`${field}: the port has no usable coordinates to place AIS vessels near it`);
    else if (ais.vessels === 0) missing.push(`${field}: no AIS fixes within ${AIS_RADIUS_KM} km of the port in the AIS sample (${aisDay})${pw.length > 0 ? " that lie nearer to it than to another PortWatch port" : ""}`);
    else if (!Number.isFinite(rate.lambda)) missing.push(`${field}: no arrival rate (no PortWatch daily or yearly port calls)`);
    else if (inSystem === 0) missing.push(`${field}: no vessel ${status} at the port in the AIS sample (${aisDay}); a zero from a partial one-minute sample is no lower bound`);
    else {
      basis[field] = `Little's law W = L / λ: L = ${inSystem} vessel(s) ${status} at the port in the AIS sample (${aisDay}), ${rate.basis}; a lower bound`;
      return scale === 1 ? r2(littlesLawDays(inSystem, rate.lambda)) : r1(littlesLawDays(inSystem, rate.lambda) * scale);
    }
    return null;
  };
  const avgDwellDays = littles("avgDwellDays", ais.moored, "moored", 1);
  const etaDelayHours = littles("etaDelayHours", ais.anchored, "at anchor", 24);
  if (ais.vessels > 0) {
    used.push({ record: "AIS sample", period: aisDay, from: aisDay ?? undefined, to: aisDay ?? undefined });
    findings.push(`AIS sample (${aisDay}): ${plural(ais.vessels, "vessel")} at the port (within ${AIS_RADIUS_KM} km, nearer to it than to another PortWatch port), ${ais.moored} moored, ${ais.anchored} at anchor${Number.isFinite(rate.lambda) ? `; arrival rate ${r2(rate.lambda)} calls/day (${rate.window})` : ""}.`);
  } else notAvailable.push(`AIS fixes at the port (sample of ${aisDay})`);

  // The country's tanker calls (a national figure, shown for every port of the country).
  const tankers = port.iso3 ? tankerActivity(s, port.iso3) : null;
  if (tankers) {
    used.push({ record: `PortWatch tanker calls of ${tankers.country}`, period: `${tankers.firstDay}..${tankers.latestDay}`, from: tankers.firstDay, to: tankers.latestDay });
    findings.push(
      `${tankers.country}: ${tankers.calls7d ?? "n/a"} tanker calls nationwide in the 7 days to ${tankers.latestDay}; 30-day mean ${tankers.meanDailyCalls30d} a day, ${tankers.ratio ?? "n/a"} of the same season in ${tankers.baselineYears} previous year(s) (PortWatch, all ports of the country).`,
    );
  } else notAvailable.push(`PortWatch tanker series for ${port.iso3 ?? "the port's country"}`);

  // Hazards near the port, active in the 30 days before the hazard feed's as-of.
  const hz = located ? hazardsNear(s, port.lat as number, port.lng as number) : { active: [], history: 0, points: 0 };
  if (located) {
    const to = Number.isFinite(s.hazardAsOf) ? isoDay(s.hazardAsOf) : undefined;
    const from = Number.isFinite(s.floodDbFrom) ? isoDay(s.floodDbFrom) : undefined;
    used.push({ record: `GDACS cyclones within ${CYCLONE_RADIUS_KM} km and floods within ${FLOOD_RADIUS_KM} km`, period: from && to ? `${from}..${to}` : null, from, to });
  } else notAvailable.push("coordinates to place GDACS hazards near the port");
  const anomaly = anomalyPoints(ratio);
  const points = hz.points + anomaly;
  const disruptionRisk = disruptionLevel(points);
  for (const h of hz.active) findings.push(`${h.alertLevel} ${h.kind} alert ${h.name} ${h.distanceKm} km away (${h.from.slice(0, 10)}..${h.to.slice(0, 10)}, ${h.source}).`);
  if (hz.active.length === 0 && located) findings.push(`No GDACS cyclone within ${CYCLONE_RADIUS_KM} km or flood within ${FLOOD_RADIUS_KM} km in the 30 days to the feed's as-of.`);
  if (!located) findings.push("The port has no usable coordinates, so no hazards or AIS vessels could be placed near it.");
  if (anomaly > 0) findings.push(`Port calls are at ${r2(ratio)} of the seasonal normal (${anomaly} disruption point${anomaly > 1 ? "s" : ""}).`);
  if (hz.history > 0) findings.push(`${hz.history} GDACS floods within ${FLOOD_RADIUS_KM} km since 2014.`);
  if (main && port.flags.some((f) => f.startsWith("portwatch_locode_corrected"))) findings.push(`PortWatch lists this port as ${main.locodePublished}; matched to ${port.code} by ${main.matchedBy}.`);

  const details: Details = {
    keyFindings: [],
    coverage: coverageOf(port.iso3, used, notAvailable),
    inputs: {
      portwatchDaily: daily !== undefined,
      portwatchAttributes: pw.length > 0,
      countryTankerSeries: tankers !== null,
      worldPortIndex: port.wpi !== null,
      ais: ais.vessels > 0,
      gdacsHazards: located,
      coordinates: located,
    },
    basis,
    missing,
    resolution,
    port: {
      country: port.country,
      iso3: port.iso3,
      lat: port.lat,
      lng: port.lng,
      coordSource: port.coordSource,
      namedBy: port.namedBy,
      unlocode: port.unlocode ? { ...port.unlocode, functions: unlocodeFunctionNames(port.unlocode.function) } : null,
      flags: port.flags,
      wpi: port.wpi,
      portwatch: pw as unknown as Record<string, unknown>[],
    },
    activity,
    countryTankers: tankers,
    disruption: {
      points,
      hazardPoints: hz.points,
      anomalyPoints: anomaly,
      hazardsActive: hz.active,
      hazardFeedAsOf: Number.isFinite(s.hazardAsOf) ? new Date(s.hazardAsOf).toISOString() : null,
      floodsWithinRadiusSince2014: hz.history,
    },
  };

  if (queryType === "congestion") {
    details.congestion = {
      congestionIndex,
      method: "percentile rank of the latest 30-day mean daily port calls among same-season 30-day means of up to 5 previous years",
      activityRatio: r2(ratio),
    };
  } else if (queryType === "vessel_count") {
    const byType: Record<string, number | null> = {};
    const yearlyByType: Record<string, number | null> = {};
    for (const t of VESSEL_TYPES) {
      const v = daily ? windowSum(daily.columns[`portcalls_${t}`], end, VESSEL_WINDOW_DAYS) : NaN;
      byType[t] = Number.isFinite(v) ? v : null;
      let y = 0;
      for (const a of pw) if (Number.isFinite(a.vesselCounts[ATTRIBUTE_OF_TYPE[t]])) y += a.vesselCounts[ATTRIBUTE_OF_TYPE[t]];
      yearlyByType[t] = pw.length > 0 ? y : null;
    }
    details.vessels = {
      vesselCount,
      basis: basis.vesselCount ?? null,
      portCalls7d: daily && Number.isFinite(windowSum(daily.columns.portcalls, end, VESSEL_WINDOW_DAYS)) ? vesselCount : null,
      portCalls7dByType: byType,
      yearlyPortCalls: pw.length > 0 ? yearlyCalls : null,
      yearlyPortCallsByType: yearlyByType,
      yearlyPeriod: PORTWATCH_ATTRIBUTE_YEARS,
      ais: { sampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null, radiusKm: AIS_RADIUS_KM, ...ais, other: ais.vessels - ais.moored - ais.anchored },
      countryTankerCalls7d: tankers?.calls7d ?? null,
      countryTankerLatestDay: tankers?.latestDay ?? null,
    };
    if (pw.length > 0)
      typed.push(`PortWatch yearly averages (${PORTWATCH_ATTRIBUTE_YEARS}): ${VESSEL_TYPES.map((t) => `${fmt(yearlyByType[t] ?? 0)} ${t.replace("_", " ")}`).join(", ")} port calls.`);
  } else if (queryType === "cargo_delay") {
    details.delay = {
      method: `Little's law W = L / λ: L = distinct AIS vessels moored (dwell) or at anchor (wait) within ${AIS_RADIUS_KM} km and nearer to this port than to another PortWatch port, λ = port calls a day`,
      moored: ais.moored,
      anchored: ais.anchored,
      vessels: ais.vessels,
      arrivalsPerDay: r2(rate.lambda),
      arrivalBasis: rate.basis,
      arrivalWindow: rate.window,
      aisSampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null,
      note: "The AIS sample holds a fraction of the messages of one minute, so L and W are lower bounds.",
    };
  } else {
    let imports = 0;
    let exports = 0;
    let haveShares = false;
    for (const a of pw) {
      if (a.shareCountryImport !== null) [imports, haveShares] = [imports + a.shareCountryImport, true];
      if (a.shareCountryExport !== null) [exports, haveShares] = [exports + a.shareCountryExport, true];
    }
    const industries = [...new Set(pw.flatMap((a) => a.industryTop))];
    let trade: Record<string, unknown> = {
      shareCountryImport: haveShares ? r2(imports) : null,
      shareCountryExport: haveShares ? r2(exports) : null,
      industryTop: industries,
      period: pw.length > 0 ? PORTWATCH_ATTRIBUTE_YEARS : null,
    };
    if (daily) {
      for (const c of ["import", "export"]) {
        const m = windowMean(daily.columns[c], end, ACTIVITY_WINDOW_DAYS);
        const b = seasonalBaseline(daily.columns[c], end, ACTIVITY_WINDOW_DAYS);
        trade = { ...trade, [`${c}TonnesPerDay30d`]: r1(m), [`${c}BaselineTonnesPerDay`]: r1(b.mean), [`${c}Ratio`]: r2(m / b.mean) };
        if (Number.isFinite(m / b.mean)) typed.push(`${c === "import" ? "Imports" : "Exports"} ${r1(m)} t/day over 30 days, ${r2(m / b.mean)} of the seasonal normal.`);
      }
    }
    if (haveShares) typed.push(`Handles ${r2(imports)}% of ${port.iso3}'s maritime imports and ${r2(exports)}% of its exports (PortWatch, ${PORTWATCH_ATTRIBUTE_YEARS})${shared}.`);
    if (industries.length > 0) typed.push(`Top industries: ${industries.join(", ")}.`);
    details.trade = trade;
  }
  details.keyFindings = [...typed, ...findings];

  const headline: Record<SupplyChainBody["queryType"], string> = {
    congestion: congestionIndex !== null ? `congestion index ${congestionIndex}` : "congestion index not available (no daily port calls)",
    vessel_count:
      vesselCount === null ? "no vessel count available" : daily && basis.vesselCount?.startsWith("port calls in the 7 days") ? `${vesselCount} port calls in the latest 7 days` : `≈ ${plural(vesselCount, "port call")} a week (PortWatch yearly average)`,
    cargo_delay: avgDwellDays !== null || etaDelayHours !== null ? `dwell ${avgDwellDays ?? "n/a"} days, ETA delay ${etaDelayHours ?? "n/a"} h (lower bounds)` : "dwell and delay not available",
    trade_risk: activity?.ratio != null ? `port calls at ${activity.ratio} of the seasonal normal` : details.trade?.shareCountryImport != null ? `${details.trade.shareCountryImport}% of ${port.iso3}'s maritime imports` : "no trade data",
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
    dataSources: sourcesUsed(port, resolution, details),
    timestamp: now.toISOString(),
  };
}
