// Disruption at a port: GDACS hazards near it in the 30 days before the feed, and the points they make.
import { GDACS_FLOOD_DB_SOURCE, type PortRecord } from "../../formats/ports-snapshot.ts";
import { DAY_MS, isoDay } from "../../lib/days.ts";
import { within } from "../../lib/geo/great-circle.ts";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { anomalyPoints, disruptionLevel } from "../../lib/ports/activity.ts";
import { lastDays, type Details } from "./supply-chain-dating.ts";
import { r1, r2, type AnswerNotes } from "./supply-chain-notes.ts";
import type { PortsSnapshot } from "./supply-chain-service.ts";

export const CYCLONE_RADIUS_KM = 500;
export const FLOOD_RADIUS_KM = 100;
/** A hazard counts as active when its period overlaps the last HAZARD_WINDOW_DAYS before the hazard feed's as-of. */
export const HAZARD_WINDOW_DAYS = 30;
const ALERT_NAMES = ["", "Green", "Orange", "Red"];

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

export type Disruption = ReturnType<typeof disruptionAt>;

/**
 * The hazards near the port, active in the 30 days before the hazard feed's as-of, and the disruption risk they and
 * the activity ratio (latest 30 days against the seasonal normal; NaN without daily port calls) make, noted.
 */
export function disruptionAt(s: PortsSnapshot, port: PortRecord, ratio: number, notes: AnswerNotes) {
  const located = port.lat !== null && port.lng !== null;
  const hz = located ? hazardsNear(s, port.lat as number, port.lng as number) : { active: [], history: 0, points: 0 };
  if (located) {
    const to = Number.isFinite(s.hazardAsOf) ? isoDay(s.hazardAsOf) : undefined;
    const from = Number.isFinite(s.floodDbFrom) ? isoDay(s.floodDbFrom) : undefined;
    notes.used.push({ record: `GDACS cyclones within ${CYCLONE_RADIUS_KM} km and floods within ${FLOOD_RADIUS_KM} km`, period: from && to ? `${from}..${to}` : null, from, to });
  } else notes.notAvailable.push("coordinates to place GDACS hazards near the port");
  const anomaly = anomalyPoints(ratio);
  const points = hz.points + anomaly;
  const disruptionRisk = disruptionLevel(points);
  const feedDay = located && Number.isFinite(s.hazardAsOf) ? isoDay(s.hazardAsOf) : null;
  const hazardWindow = feedDay ? lastDays(feedDay, HAZARD_WINDOW_DAYS + 1) : null;
  const findings = notes.findings;
  for (const h of hz.active) findings.push(`${h.alertLevel} ${h.kind} alert ${h.name} ${h.distanceKm} km away (${h.from.slice(0, 10)}..${h.to.slice(0, 10)}, ${h.source}).`);
  if (hz.active.length === 0 && located) findings.push(`No GDACS cyclone within ${CYCLONE_RADIUS_KM} km or flood within ${FLOOD_RADIUS_KM} km in the 30 days to ${feedDay ?? "the feed's as-of"} (the GDACS feed's as-of).`);
  if (!located) findings.push("The port has no usable coordinates, so no hazards or AIS vessels could be placed near it.");
  if (anomaly > 0) findings.push(`Port calls are at ${r2(ratio)} of the seasonal normal (${anomaly} disruption point${anomaly > 1 ? "s" : ""}).`);
  if (hz.history > 0) findings.push(`${hz.history} GDACS floods within ${FLOOD_RADIUS_KM} km since 2014.`);
  return { hazards: hz, anomaly, points, disruptionRisk, located, feedDay, hazardWindow };
}
