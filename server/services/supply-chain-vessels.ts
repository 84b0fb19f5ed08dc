// Vessels and delays at a port: vessel count, the AIS sample's vessels, dwell and waiting times by Little's law.
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import type { PortRecord } from "../../formats/ports-snapshot.ts";
import type { Period } from "../../lib/currency.ts";
import { dayOf, isoDay, isoOfDay } from "../../lib/days.ts";
import { within } from "../../lib/geo/great-circle.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { littlesLawDays, windowMean, windowSum } from "../../lib/ports/activity.ts";
import { VESSEL_WINDOW_DAYS } from "./supply-chain-activity.ts";
import { PORTWATCH_ATTRIBUTE_PERIOD, PORTWATCH_ATTRIBUTE_YEARS } from "./supply-chain-dating.ts";
import { fmt, plural, r1, r2, type AnswerNotes } from "./supply-chain-notes.ts";
import type { PortsSnapshot } from "./supply-chain-service.ts";

/** AIS fixes within this distance of the port count as at the port (anchorages lie a few km off the berths). */
export const AIS_RADIUS_KM = 30;
/** Little's law needs an arrival rate near the AIS sample date: the same ±15-day calendar window of the first series year. */
export const LAMBDA_HALF_WINDOW_DAYS = 15;
const DAYS_PER_YEAR = 365.25;
const VESSEL_TYPES = ["container", "dry_bulk", "general_cargo", "roro", "tanker"] as const;
const ATTRIBUTE_OF_TYPE = { container: "container", dry_bulk: "dryBulk", general_cargo: "generalCargo", roro: "roro", tanker: "tanker" } as const;

/**
 * A mean week of PortWatch's yearly average of port calls, for a port whose daily series gives no complete latest
 * week (or that has none), noted; null when PortWatch gives no yearly count either.
 */
export function meanWeekOfYearly(yearlyCalls: number, hasDaily: boolean, shared: string, notes: AnswerNotes): number | null {
  if (yearlyCalls > 0) {
    const vesselCount = Math.round((yearlyCalls * VESSEL_WINDOW_DAYS) / DAYS_PER_YEAR);
    notes.basis.vesselCount = `a mean week of PortWatch's yearly average of ${fmt(yearlyCalls)} port calls (${PORTWATCH_ATTRIBUTE_YEARS}) × 7 / 365.25, not the latest week${hasDaily ? " (the latest 7 days of the daily series are incomplete)" : ""}${shared}`;
    notes.findings.push(`≈ ${plural(vesselCount, "port call")} a week: PortWatch's yearly average of ${fmt(yearlyCalls)} (${PORTWATCH_ATTRIBUTE_YEARS})${shared}.`);
    return vesselCount;
  }
  notes.missing.push(hasDaily ? "vesselCount: the latest 7 days of the daily series are incomplete and PortWatch gives no yearly count" : "vesselCount: no PortWatch record for this port (no daily port calls, no yearly vessel counts)");
  return null;
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

export type AisDelays = ReturnType<typeof aisDelays>;

/** The AIS sample at the port and Little's law W = L / λ on it (dwell and waiting time, lower bounds), noted. */
export function aisDelays(s: PortsSnapshot, port: PortRecord, daily: DaySeriesEntry | undefined, yearlyCalls: number, notes: AnswerNotes) {
  const pw = port.portwatch;
  const located = port.lat !== null && port.lng !== null;
  const ais = aisAround(s, port);
  const aisDay = Number.isFinite(s.ais.time) ? isoDay(s.ais.time) : null;
  const rate = arrivalRate(s, daily, yearlyCalls);
  const littles = (field: "avgDwellDays" | "etaDelayHours", inSystem: number, status: string, scale: number): number | null => {
    if (!located && pw.length === 0) notes.missing.push(`${field}: the port has no usable coordinates to place AIS vessels near it`);
    else if (ais.vessels === 0) notes.missing.push(`${field}: no AIS fixes within ${AIS_RADIUS_KM} km of the port in the AIS sample (${aisDay})${pw.length > 0 ? " that lie nearer to it than to another PortWatch port" : ""}`);
    else if (!Number.isFinite(rate.lambda)) notes.missing.push(`${field}: no arrival rate (no PortWatch daily or yearly port calls)`);
    else if (inSystem === 0) notes.missing.push(`${field}: no vessel ${status} at the port in the AIS sample (${aisDay}); a zero from a partial one-minute sample is no lower bound`);
    else {
      notes.basis[field] = `Little's law W = L / λ: L = ${inSystem} vessel(s) ${status} at the port in the AIS sample (${aisDay}), ${rate.basis}; a lower bound`;
      return scale === 1 ? r2(littlesLawDays(inSystem, rate.lambda)) : r1(littlesLawDays(inSystem, rate.lambda) * scale);
    }
    return null;
  };
  const avgDwellDays = littles("avgDwellDays", ais.moored, "moored", 1);
  const etaDelayHours = littles("etaDelayHours", ais.anchored, "at anchor", 24);
  if (ais.vessels > 0) {
    notes.used.push({ record: "AIS sample", period: aisDay, from: aisDay ?? undefined, to: aisDay ?? undefined });
    notes.findings.push(
      `AIS sample (${aisDay}): ${plural(ais.vessels, "vessel")} at the port (within ${AIS_RADIUS_KM} km, nearer to it than to another PortWatch port), ${ais.moored} moored, ${ais.anchored} at anchor${Number.isFinite(rate.lambda) ? `; arrival rate ${r2(rate.lambda)} calls/day (${rate.window})` : ""}.`,
    );
  } else notes.notAvailable.push(`AIS fixes at the port (sample of ${aisDay})`);
  return { ais, aisDay, rate, avgDwellDays, etaDelayHours };
}

/** What the vessel_count details are made of, found by the answer's sections. */
export interface VesselFigures {
  daily: DaySeriesEntry | undefined;
  /** Index of the daily series' latest day with data. */
  end: number;
  vesselCount: number | null;
  /** How vesselCount was derived (null when it is null). */
  basis: string | null;
  yearlyCalls: number;
  delays: AisDelays;
  tankers: { calls7d: number | null; latestDay: string } | null;
}

/** The vessel_count answer's details: port calls of the latest week and PortWatch's yearly ones by vessel type, the AIS vessels. */
export function vesselDetails(s: PortsSnapshot, port: PortRecord, figures: VesselFigures, typed: string[]): Record<string, unknown> {
  const pw = port.portwatch;
  const { daily, end, vesselCount, basis, yearlyCalls, tankers } = figures;
  const { ais } = figures.delays;
  const byType: Record<string, number | null> = {};
  const yearlyByType: Record<string, number | null> = {};
  for (const t of VESSEL_TYPES) {
    const v = daily ? windowSum(daily.columns[`portcalls_${t}`], end, VESSEL_WINDOW_DAYS) : NaN;
    byType[t] = Number.isFinite(v) ? v : null;
    let y = 0;
    for (const a of pw) if (Number.isFinite(a.vesselCounts[ATTRIBUTE_OF_TYPE[t]])) y += a.vesselCounts[ATTRIBUTE_OF_TYPE[t]];
    yearlyByType[t] = pw.length > 0 ? y : null;
  }
  const vessels = {
    vesselCount,
    basis,
    portCalls7d: daily && Number.isFinite(windowSum(daily.columns.portcalls, end, VESSEL_WINDOW_DAYS)) ? vesselCount : null,
    portCalls7dByType: byType,
    yearlyPortCalls: pw.length > 0 ? yearlyCalls : null,
    yearlyPortCallsByType: yearlyByType,
    yearlyPeriod: PORTWATCH_ATTRIBUTE_YEARS,
    ais: { sampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null, radiusKm: AIS_RADIUS_KM, ...ais, other: ais.vessels - ais.moored - ais.anchored },
    countryTankerCalls7d: tankers?.calls7d ?? null,
    countryTankerLatestDay: tankers?.latestDay ?? null,
  };
  if (pw.length > 0) typed.push(`PortWatch yearly averages (${PORTWATCH_ATTRIBUTE_YEARS}): ${VESSEL_TYPES.map((t) => `${fmt(yearlyByType[t] ?? 0)} ${t.replace("_", " ")}`).join(", ")} port calls.`);
  return vessels;
}

/** The cargo_delay answer's details: Little's law and what it rests on. */
export function delayDetails(s: PortsSnapshot, delays: AisDelays): Record<string, unknown> {
  const { ais, rate } = delays;
  return {
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
}
