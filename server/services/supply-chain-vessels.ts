// Vessels at a port: vessel count, the AIS sample's vessels; why dwell and waiting time are null (no data support them).
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import type { PortRecord } from "../../formats/ports-snapshot.ts";
import { isoDay } from "../../lib/days.ts";
import { within } from "../../lib/geo/great-circle.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { windowSum } from "../../lib/ports/activity.ts";
import { VESSEL_WINDOW_DAYS } from "./supply-chain-activity.ts";
import { PORTWATCH_ATTRIBUTE_YEARS } from "./supply-chain-dating.ts";
import { fmt, plural, type AnswerNotes } from "./supply-chain-notes.ts";
import type { PortsSnapshot } from "./supply-chain-service.ts";

/** AIS fixes within this distance of the port count as at the port (anchorages lie a few km off the berths). */
export const AIS_RADIUS_KM = 30;
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
  const take = (i: number) => status.set(s.ais.mmsi.get(i), s.ais.nav[i]); // the later message of a vessel wins
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

export type AisDelays = ReturnType<typeof aisDelays>;

/**
 * Why the data cannot give a dwell or a waiting time (issue 36: no figure without data that support it). Both need
 * port-call durations (when each vessel arrived, berthed and left); PortWatch gives counts of calls, and the only
 * vessel positions are one minute of AIS messages, which show who was moored or at anchor at that moment, not for how
 * long. Little's law on that minute gave Shanghai 29 minutes of dwell: a number, not a dwell.
 */
export function noDelayReason(field: "avgDwellDays" | "etaDelayHours", aisDay: string | null): string {
  const what = field === "avgDwellDays" ? "a dwell needs each call's arrival and departure" : "a waiting time needs each vessel's time at anchor before it berths";
  return `no data can support it: ${what}; PortWatch counts port calls without their durations, and the only vessel positions are one minute of AIS messages${aisDay ? ` of ${aisDay}` : ""}, which show the vessels there at that moment, not how long they stay`;
}

/** The AIS sample's vessels at the port (one minute, noted as such); dwell and waiting time are null with their reason. */
export function aisDelays(s: PortsSnapshot, port: PortRecord, notes: AnswerNotes) {
  const ais = aisAround(s, port);
  const aisDay = Number.isFinite(s.ais.time) ? isoDay(s.ais.time) : null;
  for (const field of ["avgDwellDays", "etaDelayHours"] as const) notes.missing.push(`${field}: ${noDelayReason(field, aisDay)}`);
  if (ais.vessels > 0) {
    notes.used.push({ record: "AIS sample", period: aisDay, from: aisDay ?? undefined, to: aisDay ?? undefined });
    notes.findings.push(`AIS sample (one minute of ${aisDay}): ${plural(ais.vessels, "vessel")} at the port (within ${AIS_RADIUS_KM} km, nearer to it than to another PortWatch port), ${ais.moored} moored, ${ais.anchored} at anchor at that moment.`);
  } else notes.notAvailable.push(`AIS fixes at the port (sample of ${aisDay})`);
  return { ais, aisDay, avgDwellDays: null, etaDelayHours: null };
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

/** The cargo_delay answer's details: why there is no dwell or waiting time, and what the AIS minute does show. */
export function delayDetails(s: PortsSnapshot, delays: AisDelays): Record<string, unknown> {
  const { ais, aisDay } = delays;
  return {
    avgDwellDays: null,
    etaDelayHours: null,
    reason: `${noDelayReason("avgDwellDays", aisDay)}; likewise ${noDelayReason("etaDelayHours", aisDay).replace(/^no data can support it: /, "")}`,
    aisMinute: {
      sampleTime: Number.isFinite(s.ais.time) ? new Date(s.ais.time).toISOString() : null,
      period: aisDay ? { from: aisDay, to: aisDay } : null,
      radiusKm: AIS_RADIUS_KM,
      vessels: ais.vessels,
      moored: ais.moored,
      anchored: ais.anchored,
      note: "the vessels at the port in one minute (a fraction of that minute's AIS messages): a picture of that moment, not a delay",
    },
  };
}
