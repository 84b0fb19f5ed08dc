// The answer for a strait or canal (POST /api/supply-chain/query with `chokepoint`, or coordinates at a chokepoint) and
// the list of chokepoints (GET /api/supply-chain/chokepoints): PortWatch's daily transits against the same days of
// 2019–2022 (lib/ports/chokepoints.ts), dated. Methods: docs/methods/supply-chain.md, "Chokepoints".
import { PORTS_SOURCES } from "../../formats/ports-snapshot.ts";
import { currencyOf } from "../../lib/currency.ts";
import { isoDay, isoOfDay } from "../../lib/days.ts";
import { CHOKEPOINT_BASELINE_YEARS, CHOKEPOINT_EXPOSURE, CHOKEPOINT_WINDOW_DAYS } from "../../lib/ports/chokepoints.ts";
import type { ChokepointAnswerData, ChokepointList, SupplyChainBody } from "../schemas-supply-chain.ts";
import { assessChokepoint, BASELINE_LABEL, percent } from "./supply-chain-chokepoints.ts";
import { dated, lastDays, undated } from "./supply-chain-dating.ts";
import { fmt } from "./supply-chain-notes.ts";
import type { OpenChokepoint, PortsSnapshot } from "./supply-chain-service.ts";

export type ChokepointResolution = ChokepointAnswerData["details"]["resolution"];

/** ISO3 of the countries whose ports' trade risk the chokepoint enters. */
export function exposedCountries(name: string): string[] {
  return Object.entries(CHOKEPOINT_EXPOSURE)
    .filter(([, names]) => names.includes(name))
    .map(([iso3]) => iso3)
    .sort();
}

const VESSEL_COUNT_DAYS = 7;
const SOURCE = "PortWatch daily chokepoint transits (Daily_Chokepoints_Data)";

/** The answer for a chokepoint that has transits (the caller checked `transits`). */
export function chokepointAnswer(s: PortsSnapshot, c: OpenChokepoint, resolution: ChokepointResolution, queryType: SupplyChainBody["queryType"], version: string, now: Date): ChokepointAnswerData {
  const t = now.getTime();
  const part = assessChokepoint(c, t)!;
  const to = part.period.to;
  const from = `${CHOKEPOINT_BASELINE_YEARS[0]}-01-01`;
  const series = c.series!;
  const first = isoOfDay(series.firstDay);
  const period = { from: first > from ? first : from, to };
  const currency = currencyOf(to, "daily", t);
  const stale = currency.current ? "" : ", not current";
  const when = `the ${CHOKEPOINT_WINDOW_DAYS} days to ${to}`;
  const missing = [
    "congestionIndex: a strait or canal has no port calls to rank; its transits are in details.transits",
    "avgDwellDays: a strait has no berths; no data give transit durations",
    "etaDelayHours: no data give waiting times at the chokepoint (PortWatch counts transits, not queues)",
  ];
  const basis: Record<string, string> = {
    disruptionRisk: `${part.transitsPerDay} transits a day in ${when} against ${part.baselinePerDay} in the same days of ${BASELINE_LABEL} (median of ${part.baselineYears.join(", ")}): ${percent(part.change ?? 0)}; high from −40 %, medium from −30 %`,
  };
  if (c.week !== null) basis.vesselCount = `transits (all vessel types) in the ${VESSEL_COUNT_DAYS} days to ${to}`;
  else missing.push(`vesselCount: a day of the ${VESSEL_COUNT_DAYS} to ${to} has no transit count`);
  const types = Object.entries(part.byVesselType)
    .filter(([, f]) => f !== null && f.change !== null)
    .map(([type, f]) => `${type.replace("_", " ")} ${percent(f!.change!)}`);
  const keyFindings = [
    `${currency.current ? "Current" : "Not current"}: the newest transits are of ${to}, ${currency.ageDays} days before ${isoDay(t)} (a daily series is current for ${currency.horizonDays} days)${currency.current ? "" : `; the risk is that of ${when}, not of today`}.`,
    `${c.name}: ${part.transitsPerDay} transits a day in ${when}, ${percent(part.change ?? 0)} against the same days of ${BASELINE_LABEL} (${part.baselinePerDay} a day): disruption risk ${part.risk}${stale}.`,
    ...(types.length > 0 ? [`By vessel type: ${types.join(", ")}.`] : []),
    ...(c.week !== null ? [`${fmt(c.week)} transits in the ${VESSEL_COUNT_DAYS} days to ${to}.`] : []),
  ];
  const exposed = exposedCountries(c.name);
  if (exposed.length > 0) keyFindings.push(`Enters the trade risk of the ports of ${exposed.join(", ")} (the exposure table, docs/methods/supply-chain.md).`);
  const headline: Record<SupplyChainBody["queryType"], string> = {
    congestion: "no congestion index (a strait has no port calls)",
    vessel_count: c.week !== null ? `${fmt(c.week)} transits in the ${VESSEL_COUNT_DAYS} days to ${to}${stale}` : "no 7-day transit count",
    cargo_delay: "no dwell or waiting time (no data give transit durations)",
    trade_risk: `transits ${percent(part.change ?? 0)} against ${BASELINE_LABEL}`,
  };
  const summary = `${c.name} (${c.portid}): ${headline[queryType]}; disruption risk ${part.risk} (${when}${stale}). ${currency.current ? "Current" : "Not current"}: the newest transits are of ${to}, ${currency.ageDays} days before ${isoDay(t)}.`;
  return {
    port: null,
    chokepoint: { id: c.portid, name: c.name, lat: c.lat, lng: c.lng },
    queryType,
    congestionIndex: null,
    vesselCount: c.week,
    avgDwellDays: null,
    etaDelayHours: null,
    disruptionRisk: part.risk,
    summary,
    details: {
      keyFindings,
      resolution,
      transits: part,
      exposedCountries: exposed,
      basis,
      missing,
      period,
      asOf: to,
      currency,
      figures: {
        vesselCount: c.week !== null ? dated(t, SOURCE, lastDays(to, VESSEL_COUNT_DAYS), to, "daily", `transits in the ${VESSEL_COUNT_DAYS} days to ${to}`, lastDays(to, VESSEL_COUNT_DAYS)) : undated(`null: a day of the ${VESSEL_COUNT_DAYS} to ${to} has no transit count`),
        disruption: dated(t, SOURCE, period, to, "daily", `${when} against the same days of ${BASELINE_LABEL}`, { from: part.period.from, to }),
      },
    },
    asOf: to,
    dataVersion: version,
    dataSources: [PORTS_SOURCES[2]],
    timestamp: now.toISOString(),
  };
}

/** Every chokepoint of the snapshot with its latest transits, in PortWatch's id order (chokepoint1, chokepoint2 …). */
export function chokepointList(s: PortsSnapshot, version: string, now: number): ChokepointList {
  const num = (id: string) => Number(id.replace(/\D/g, ""));
  const chokepoints = [...s.chokepoints]
    .sort((a, b) => num(a.portid) - num(b.portid))
    .map((c) => ({ id: c.portid, name: c.name, lat: c.lat, lng: c.lng, transits: assessChokepoint(c, now), exposedCountries: exposedCountries(c.name) }));
  const days = chokepoints.flatMap((c) => (c.transits ? [c.transits.period.to] : [])).sort();
  return { asOf: days.at(-1) ?? null, chokepoints, snapshotVersion: version };
}
