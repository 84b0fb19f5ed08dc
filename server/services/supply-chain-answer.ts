// One supply-chain answer for a resolved port, from what exists for it: PortWatch daily port calls (four ports),
// PortWatch yearly attributes (vessel counts by type, trade shares, industries), the country's tanker series, the AIS
// sample, GDACS hazards near the port. A figure the inputs cannot give is null and keeps its reason in
// details.missing; a non-null one says how it was derived in details.basis. Methods: docs/methods/supply-chain.md.
import type KDBush from "kdbush";
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import { GDACS_FLOOD_DB_SOURCE, PORTS_SOURCES, tankerSeriesKey, type PortRecord } from "../../formats/ports-snapshot.ts";
import { currencyOf, type Cadence, type Period } from "../../lib/currency.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";
import { boxAround } from "../../lib/geo/great-circle.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { MIN_WINDOW_COVERAGE, anomalyPoints, disruptionLevel, littlesLawDays, percentileRank, seasonalBaseline, windowMean, windowSum } from "../../lib/ports/activity.ts";
import { unlocodeFunctionNames } from "../../lib/ports/unlocode-function.ts";
import type { SupplyChainBody, SupplyChainData } from "../schemas-supply-chain.ts";
import type { PortsSnapshot, Resolution } from "./supply-chain-service.ts";
import { isoDay } from "../../lib/days.ts";

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
/** The same years as days: the period of every figure that rests on PortWatch's yearly averages. */
export const PORTWATCH_ATTRIBUTE_PERIOD: Period = { from: "2019-01-01", to: "2024-12-31" };
export const PORTWATCH_ATTRIBUTE_SOURCE = "PortWatch port database: yearly averages 2019–2024 (port calls by vessel type, trade shares)";
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
export function portCongestion(
  s: PortsSnapshot,
  port: PortRecord,
  now: number,
): { congestionIndex: number | null; latestDay: string | null; congestionPeriod: Period | null; congestionCurrent: boolean | null; reason: string | null } {
  const daily = port.portwatch[0] ? s.series.get(port.portwatch[0].portid) : undefined;
  if (!daily) return { congestionIndex: null, latestDay: null, congestionPeriod: null, congestionCurrent: null, reason: noDailyReason(s) };
  const d = dailyActivity(daily);
  const index = r1(d.percentile);
  const period = index === null ? null : congestionPeriod(daily, d.end);
  return {
    congestionIndex: index,
    latestDay: d.activity.latestDay,
    congestionPeriod: period,
    congestionCurrent: index === null ? null : currencyOf(d.activity.latestDay, "daily", now).current,
    reason: noCongestionReason(d),
  };
}

/** The days a congestion index rests on: its earliest baseline window to the latest day. */
function congestionPeriod(daily: DaySeriesEntry, end: number): Period {
  const start = baselineStart(daily.columns.portcalls, end, ACTIVITY_WINDOW_DAYS);
  return { from: isoOfDay(daily.firstDay + (start >= 0 ? start : end - ACTIVITY_WINDOW_DAYS + 1)), to: isoOfDay(daily.firstDay + end) };
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
      if (i < s.ais.lat.length && haversineKm(port.lat, port.lng, s.ais.lat[i], s.ais.lng[i]) <= AIS_RADIUS_KM) take(i);
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
function arrivalRate(s: PortsSnapshot, daily: DaySeriesEntry | undefined, yearlyCalls: number): { lambda: number; basis: string | null; window: string | null; period: Period | null } {
  if (daily && Number.isFinite(s.ais.time)) {
    const calls = daily.columns.portcalls;
    // Same calendar day in the first year the series covers at or after the sample.
    let centre = dayOf(new Date(s.ais.time).toISOString());
    while (centre - LAMBDA_HALF_WINDOW_DAYS < daily.firstDay) centre += 365;
    const lambda = windowMean(calls, centre - daily.firstDay + LAMBDA_HALF_WINDOW_DAYS, 2 * LAMBDA_HALF_WINDOW_DAYS + 1);
    const window = `${isoOfDay(centre - LAMBDA_HALF_WINDOW_DAYS)}..${isoOfDay(centre + LAMBDA_HALF_WINDOW_DAYS)}`;
    if (Number.isFinite(lambda))
      return { lambda, basis: `λ = ${r2(lambda)} calls a day, mean of the PortWatch daily port calls ${window}`, window, period: { from: isoOfDay(centre - LAMBDA_HALF_WINDOW_DAYS), to: isoOfDay(centre + LAMBDA_HALF_WINDOW_DAYS) } };
  }
  if (yearlyCalls > 0) {
    const lambda = yearlyCalls / DAYS_PER_YEAR;
    return {
      lambda,
      basis: `λ = ${r2(lambda)} calls a day, PortWatch's yearly average of ${fmt(yearlyCalls)} port calls (${PORTWATCH_ATTRIBUTE_YEARS}) / 365.25`,
      window: PORTWATCH_ATTRIBUTE_YEARS,
      period: PORTWATCH_ATTRIBUTE_PERIOD,
    };
  }
  return { lambda: NaN, basis: null, window: null, period: null };
}

/**
 * First day (index) of the earliest same-season window the baseline of `end` uses (seasonalBaseline's windows:
 * year k = 5..1, offsets −15..15), or -1 without one.
 */
function baselineStart(col: Float32Array, end: number, length: number, halfWidth = 15, maxYears = 5): number {
  for (let k = maxYears; k >= 1; k--) {
    const centre = end - Math.round(365.25 * k);
    for (let o = -halfWidth; o <= halfWidth; o++) if (Number.isFinite(windowMean(col, centre + o, length))) return centre + o - length + 1;
  }
  return -1;
}

/** A span of days ending at `to` (YYYY-MM-DD), `days` long. */
const lastDays = (to: string, days: number): Period => ({ from: isoOfDay(dayOf(to) - days + 1), to });
const spanOf = (periods: Period[]): Period | null =>
  periods.length === 0 ? null : { from: periods.map((p) => p.from).sort()[0], to: periods.map((p) => p.to).sort()[periods.length - 1] };

type Figure = Details["figures"]["congestionIndex"];

/** A dated series an answer used: what it is, its days, its newest datum and cadence. */
export interface SeriesUse {
  source: string;
  period: Period;
  asOf: string;
  cadence: Cadence;
}

/** A figure's time entry: dated by `asOf` of a series of `cadence`; currency at `now` (epoch ms). */
function dated(now: number, source: string, period: Period, asOf: string, cadence: Cadence, note: string, recent: Period | null = null): Figure {
  return { period, recent, asOf, source, currency: currencyOf(asOf, cadence, now), note };
}
const undated = (note: string): Figure => ({ period: null, recent: null, asOf: null, source: null, currency: null, note });

/** The answer's period (span of every series used), newest datum and the currency of the series it comes from. */
export function timeOf(uses: SeriesUse[], now: number): Pick<Details, "period" | "asOf" | "currency"> {
  if (uses.length === 0) return { period: null, asOf: null, currency: null };
  let newest = uses[0];
  for (const u of uses) if (u.asOf > newest.asOf) newest = u;
  return { period: spanOf(uses.map((u) => u.period)), asOf: newest.asOf, currency: currencyOf(newest.asOf, newest.cadence, now) };
}

function hazardsNear(s: PortsSnapshot, lat: number, lng: number) {
  const active: Details["disruption"]["hazardsActive"] = [];
  let history = 0;
  let points = 0;
  const windowStart = s.hazardAsOf - HAZARD_WINDOW_DAYS * DAY_MS;
  for (const i of within(s.hazardIndex, lat, lng, CYCLONE_RADIUS_KM)) {
    const e = s.hazards[i];
    if (e === undefined) continue;
    const km = haversineKm(lat, lng, e.lat, e.lng);
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
  const feedDay = located && Number.isFinite(s.hazardAsOf) ? isoDay(s.hazardAsOf) : null;
  const hazardWindow = feedDay ? lastDays(feedDay, HAZARD_WINDOW_DAYS + 1) : null;
  for (const h of hz.active) findings.push(`${h.alertLevel} ${h.kind} alert ${h.name} ${h.distanceKm} km away (${h.from.slice(0, 10)}..${h.to.slice(0, 10)}, ${h.source}).`);
  if (hz.active.length === 0 && located) findings.push(`No GDACS cyclone within ${CYCLONE_RADIUS_KM} km or flood within ${FLOOD_RADIUS_KM} km in the 30 days to ${feedDay ?? "the feed's as-of"} (the GDACS feed's as-of).`);
  if (!located) findings.push("The port has no usable coordinates, so no hazards or AIS vessels could be placed near it.");
  if (anomaly > 0) findings.push(`Port calls are at ${r2(ratio)} of the seasonal normal (${anomaly} disruption point${anomaly > 1 ? "s" : ""}).`);
  if (hz.history > 0) findings.push(`${hz.history} GDACS floods within ${FLOOD_RADIUS_KM} km since 2014.`);
  if (main && port.flags.some((f) => f.startsWith("portwatch_locode_corrected"))) findings.push(`PortWatch lists this port as ${main.locodePublished}; matched to ${port.code} by ${main.matchedBy}.`);

  // When each figure is from (docs/methods/supply-chain.md, "Periods and currency").
  const t = now.getTime();
  const uses: SeriesUse[] = [];
  if (pw.length > 0) uses.push({ source: PORTWATCH_ATTRIBUTE_SOURCE, period: PORTWATCH_ATTRIBUTE_PERIOD, asOf: PORTWATCH_ATTRIBUTE_PERIOD.to, cadence: "yearly" });
  const dailySource = daily ? `PortWatch daily port calls (${daily.key})` : "";
  if (daily && activity) uses.push({ source: dailySource, period: { from: activity.firstDay, to: activity.latestDay }, asOf: activity.latestDay, cadence: "daily" });
  const aisSource = `AIS sample: the decoded messages of one minute of ${aisDay}`;
  if (ais.vessels > 0 && aisDay) uses.push({ source: aisSource, period: { from: aisDay, to: aisDay }, asOf: aisDay, cadence: "daily" });
  const tankerSource = tankers ? `PortWatch tanker calls of ${tankers.country} (daily, all ports of the country)` : "";
  if (tankers) uses.push({ source: tankerSource, period: { from: tankers.firstDay, to: tankers.latestDay }, asOf: tankers.latestDay, cadence: "daily" });
  const floodFrom = Number.isFinite(s.floodDbFrom) ? isoDay(s.floodDbFrom) : null;
  const gdacsSource = `GDACS event feed of ${feedDay} (hazards of the 30 days before it) and flood database${floodFrom ? ` since ${floodFrom}` : ""}`;
  const gdacsPeriod = feedDay && hazardWindow ? { from: floodFrom && floodFrom < hazardWindow.from ? floodFrom : hazardWindow.from, to: feedDay } : null;
  if (gdacsPeriod && feedDay) uses.push({ source: gdacsSource, period: gdacsPeriod, asOf: feedDay, cadence: "daily" });
  const time = timeOf(uses, t);
  const why = (field: string) => missing.find((m) => m.startsWith(`${field}: `))?.slice(field.length + 2) ?? "no data";

  const latest = activity?.latestDay ?? "";
  const yearlyNote = `a mean week of PortWatch's yearly averages of ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")}, not a count of the latest week`;
  const figures: Details["figures"] = {
    congestionIndex:
      congestionIndex !== null && daily
        ? dated(t, dailySource, congestionPeriod(daily, end), latest, "daily", `the latest 30 days of port calls (to ${latest}) against the same season of ${activity?.baselineYears} previous years`, lastDays(latest, ACTIVITY_WINDOW_DAYS))
        : undated(`null: ${why("congestionIndex")}`),
    vesselCount:
      vesselCount === null
        ? undated(`null: ${why("vesselCount")}`)
        : basis.vesselCount?.startsWith("port calls in the 7 days")
          ? dated(t, dailySource, lastDays(latest, VESSEL_WINDOW_DAYS), latest, "daily", `port calls in the 7 days to ${latest}`, lastDays(latest, VESSEL_WINDOW_DAYS))
          : dated(t, PORTWATCH_ATTRIBUTE_SOURCE, PORTWATCH_ATTRIBUTE_PERIOD, PORTWATCH_ATTRIBUTE_PERIOD.to, "yearly", yearlyNote),
    avgDwellDays: undated(""),
    etaDelayHours: undated(""),
    disruption: undated(""),
    countryTankers: tankers
      ? dated(t, tankerSource, { from: tankers.firstDay, to: tankers.latestDay }, tankers.latestDay, "daily", `tanker calls of the whole country in the 7 and 30 days to ${tankers.latestDay} against the same season of ${tankers.baselineYears} previous year(s)`, lastDays(tankers.latestDay, ACTIVITY_WINDOW_DAYS))
      : undated(`null: no PortWatch tanker series for ${port.iso3 ?? "the port's country"}`),
  };
  for (const [field, value] of [["avgDwellDays", avgDwellDays], ["etaDelayHours", etaDelayHours]] as const) {
    if (value === null || !aisDay) {
      figures[field] = undated(`null: ${why(field)}`);
      continue;
    }
    const period = spanOf([{ from: aisDay, to: aisDay }, ...(rate.period ? [rate.period] : [])]) as Period;
    figures[field] = dated(
      t,
      `${aisSource}; λ from ${rate.window === PORTWATCH_ATTRIBUTE_YEARS ? "PortWatch's yearly averages 2019–2024" : `PortWatch daily port calls ${rate.window}`}`,
      period,
      aisDay,
      "daily",
      `a single sample: the vessels ${field === "avgDwellDays" ? "moored" : "at anchor"} in one minute of ${aisDay} (a fraction of that minute's AIS messages), so the figure describes that minute of ${aisDay.slice(0, 4)}, not the present; λ only scales it`,
    );
  }
  // The disruption status is as current as the older of its present-claiming parts: the hazards of the 30 days
  // before the GDACS feed and, with daily port calls, the latest 30 days' activity ratio.
  const parts: { source: string; period: Period; recent: Period; asOf: string }[] = [];
  if (gdacsPeriod && hazardWindow && feedDay) parts.push({ source: gdacsSource, period: gdacsPeriod, recent: hazardWindow, asOf: feedDay });
  if (daily && activity && Number.isFinite(ratio)) parts.push({ source: `${dailySource}: latest 30 days against the seasonal normal`, period: congestionPeriod(daily, end), recent: lastDays(latest, ACTIVITY_WINDOW_DAYS), asOf: latest });
  if (parts.length > 0) {
    const oldest = parts.map((p) => p.asOf).sort()[0];
    figures.disruption = dated(
      t,
      parts.map((p) => p.source).join("; "),
      spanOf(parts.map((p) => p.period)) as Period,
      oldest,
      "daily",
      `a status of the 30 days to ${parts.map((p) => p.asOf).join(" and ")}${parts.length > 1 ? `, as current as the older, ${oldest}` : ""}`,
      spanOf(parts.map((p) => p.recent)),
    );
  } else figures.disruption = undated(`rests on no data: the port has no coordinates to place GDACS hazards and no daily port calls, so "${disruptionRisk}" means no points, not a calm port`);

  const windows: { source: string; period: Period }[] = [];
  if (figures.congestionIndex.recent || (daily && activity && Number.isFinite(ratio))) windows.push({ source: dailySource, period: lastDays(latest, ACTIVITY_WINDOW_DAYS) });
  if (hazardWindow) windows.push({ source: `GDACS event feed of ${feedDay}`, period: hazardWindow });
  if (tankers) windows.push({ source: tankerSource, period: lastDays(tankers.latestDay, ACTIVITY_WINDOW_DAYS) });
  const recent = windows.length > 0 ? { period: spanOf(windows.map((w) => w.period)) as Period, windows } : null;

  // What is not current, said in the findings (first) and the summary.
  const timing: string[] = [];
  if (time.currency) timing.push(`${time.currency.current ? "Current" : "Not current"}: the newest data this answer uses are of ${time.asOf}, ${time.currency.ageDays} days before ${isoDay(t)} (a ${time.currency.cadence} series is current for ${time.currency.horizonDays} days).`);
  else timing.push("No dated data: this answer rests on the port lists only.");
  if (figures.vesselCount.source === PORTWATCH_ATTRIBUTE_SOURCE) timing.push(`Vessel counts are ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")} yearly averages (PortWatch), not counts of the latest week; as a yearly series ${figures.vesselCount.currency?.note}.`);
  for (const field of ["avgDwellDays", "etaDelayHours"] as const)
    if (figures[field].currency) timing.push(`${field === "avgDwellDays" ? "Dwell" : "Waiting"} time rests on a single AIS sample of one minute of ${aisDay}: a figure of that minute, not of the present.`);
  const dc = figures.disruption.currency;
  if (dc && !dc.current) timing.push(`The disruption risk "${disruptionRisk}"${hz.active.length === 0 && anomaly === 0 ? " (no hazard, no fall in port calls)" : ""} is that of the 30 days to ${figures.disruption.asOf}, not of today (${dc.ageDays} days before ${isoDay(t)}; a daily series is current for ${dc.horizonDays} days).`);
  const c = figures.congestionIndex.currency;
  if (c && !c.current) timing.push(`The congestion index is that of the 30 days to ${latest}, not of today (${c.ageDays} days before ${isoDay(t)}; a daily series is current for ${c.horizonDays} days).`);

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
    ...time,
    recent,
    figures,
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
  details.keyFindings = [...timing, ...typed, ...findings];

  const stale = (f: Figure) => (f.currency && !f.currency.current ? ", not current" : "");
  const dailyWhen = ` (30 days to ${latest}${activity && !currencyOf(latest, "daily", t).current ? ", not current" : ""})`;
  const headline: Record<SupplyChainBody["queryType"], string> = {
    congestion: congestionIndex !== null ? `congestion index ${congestionIndex}${dailyWhen}` : "congestion index not available (no daily port calls)",
    vessel_count:
      vesselCount === null
        ? "no vessel count available"
        : figures.vesselCount.source === dailySource
          ? `${vesselCount} port calls in the 7 days to ${latest}${stale(figures.vesselCount) ? " (not current)" : ""}`
          : `≈ ${plural(vesselCount, "port call")} a week (PortWatch yearly average ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")}, not the latest week)`,
    cargo_delay:
      avgDwellDays !== null || etaDelayHours !== null
        ? `dwell ${avgDwellDays ?? "n/a"} days, ETA delay ${etaDelayHours ?? "n/a"} h (lower bounds from a single AIS sample of ${aisDay}, not current)`
        : "dwell and delay not available",
    trade_risk:
      activity?.ratio != null
        ? `port calls at ${activity.ratio} of the seasonal normal${dailyWhen}`
        : details.trade?.shareCountryImport != null
          ? `${details.trade.shareCountryImport}% of ${port.iso3}'s maritime imports (PortWatch ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")})`
          : "no trade data",
  };
  const riskWhen = figures.disruption.asOf ? ` (30 days to ${figures.disruption.asOf}${stale(figures.disruption)})` : " (no dated data)";
  const asOfSentence = time.currency
    ? ` ${time.currency.current ? "Current" : "Not current"}: the newest data used are of ${time.asOf}, ${time.currency.ageDays} days before ${isoDay(t)}.`
    : " No dated data.";
  const summary = `${label}: ${headline[queryType]}; disruption risk ${disruptionRisk}${riskWhen}${missing.length > 0 ? `; ${missing.length} field${missing.length > 1 ? "s" : ""} without data` : ""}.${asOfSentence}`;

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
    asOf: time.asOf,
    dataVersion: version,
    dataSources: sourcesUsed(port, resolution, details),
    timestamp: now.toISOString(),
  };
}
