// One supply-chain answer for a resolved port, from what exists for it (docs/methods/supply-chain.md).
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import { PORTS_SOURCES, type PortRecord } from "../../formats/ports-snapshot.ts";
import { currencyOf } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import { seasonalBaseline, windowMean } from "../../lib/ports/activity.ts";
import { unlocodeFunctionNames } from "../../lib/ports/unlocode-function.ts";
import type { SupplyChainBody, SupplyChainData } from "../schemas-supply-chain.ts";
import { ACTIVITY_WINDOW_DAYS, countryTankers, dailyFigures, yearlyPortCalls } from "./supply-chain-activity.ts";
import { PORTWATCH_ATTRIBUTE_YEARS, type Details, type Figure } from "./supply-chain-dating.ts";
import { disruptionAt } from "./supply-chain-disruption.ts";
import { chokepointsFor, chokepointWhen } from "./supply-chain-chokepoints.ts";
import { RISK_LEVELS } from "../schemas-common.ts";
import { figureTimes } from "./supply-chain-figure-times.ts";
import { coverageOf, emptyNotes, plural, r1, r2 } from "./supply-chain-notes.ts";
import type { PortsSnapshot, Resolution } from "./supply-chain-service.ts";
import { aisDelays, delayDetails, meanWeekOfYearly, vesselDetails } from "./supply-chain-vessels.ts";

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

/** The trade_risk answer's details: PortWatch's trade shares and top industries, the latest 30 days' tonnes a day. */
function tradeDetails(port: PortRecord, daily: DaySeriesEntry | undefined, end: number, shared: string, typed: string[]): Record<string, unknown> {
  const pw = port.portwatch;
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
  return trade;
}

/**
 * The response for one resolved port (pure over the snapshot), from what exists for it: PortWatch daily port calls
 * (four ports), PortWatch yearly attributes (vessel counts by type, trade shares, industries), the country's tanker
 * series, the AIS sample, GDACS hazards near the port. A figure the inputs cannot give is null and keeps its reason
 * in details.missing; a non-null one says how it was derived in details.basis.
 */
export function answer(s: PortsSnapshot, port: PortRecord, resolution: Resolution, queryType: SupplyChainBody["queryType"], version: string, now: Date): SupplyChainData {
  const notes = emptyNotes();
  const { findings, missing, basis, used, notAvailable } = notes;
  const typed: string[] = [];
  const pw = port.portwatch;
  const main = pw[0];
  const daily = main ? s.series.get(main.portid) : undefined;
  const label = `${port.name} (${port.code ?? `PortWatch ${main?.portid}`})`;
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

  // The sections in the order their findings, reasons and records are listed.
  const portCalls = dailyFigures(s, daily, notes);
  const { congestionIndex, ratio, end } = portCalls;
  const vesselCount = portCalls.weekCalls ?? meanWeekOfYearly(yearlyCalls, daily !== undefined, shared, notes);
  const delays = aisDelays(s, port, notes);
  const { ais, aisDay, avgDwellDays, etaDelayHours } = delays;
  const tankers = countryTankers(s, port, notes);
  const disruption = disruptionAt(s, port, ratio, notes);
  const { hazards: hz, anomaly, points, located } = disruption;
  const chokepoints = chokepointsFor(s, port.iso3, notes, now.getTime());
  // The port's disruption risk: its own (hazards, activity) or its trade routes' (chokepoints), whichever is higher.
  const byChokepoint = RISK_LEVELS.indexOf(chokepoints.risk) > RISK_LEVELS.indexOf(disruption.disruptionRisk);
  const disruptionRisk = byChokepoint ? chokepoints.risk : disruption.disruptionRisk;
  if (main && port.flags.some((f) => f.startsWith("portwatch_locode_corrected"))) findings.push(`PortWatch lists this port as ${main.locodePublished}; matched to ${port.code} by ${main.matchedBy}.`);

  const t = now.getTime();
  const { time, figures, recent, timing, dailySource } = figureTimes(s, { portwatchRecords: pw.length, iso3: port.iso3, daily, portCalls, vesselCount, delays, tankers, disruption, notes }, t);
  const latest = portCalls.activity?.latestDay ?? "";

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
    activity: portCalls.activity,
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
      chokepoints: chokepoints.parts,
      setBy: byChokepoint ? "chokepoints" : "port",
    },
  };

  if (queryType === "congestion") {
    details.congestion = {
      congestionIndex,
      method: "percentile rank of the latest 30-day mean daily port calls among same-season 30-day means of up to 5 previous years",
      measures: "how busy the port is against its own seasonal normal (call volume), not waiting or berthing time, which no data here record",
      activityRatio: r2(ratio),
    };
  } else if (queryType === "vessel_count") {
    details.vessels = vesselDetails(s, port, { daily, end, vesselCount, basis: basis.vesselCount ?? null, yearlyCalls, delays, tankers }, typed);
  } else if (queryType === "cargo_delay") {
    details.delay = delayDetails(s, delays);
  } else {
    details.trade = tradeDetails(port, daily, end, shared, typed);
  }
  details.keyFindings = [...timing, ...typed, ...findings];

  const stale = (f: Figure) => (f.currency && !f.currency.current ? ", not current" : "");
  const dailyWhen = ` (30 days to ${latest}${portCalls.activity && !currencyOf(latest, "daily", t).current ? ", not current" : ""})`;
  const headline: Record<SupplyChainBody["queryType"], string> = {
    congestion: congestionIndex !== null ? `congestion index ${congestionIndex}${dailyWhen}` : "congestion index not available (no daily port calls)",
    vessel_count:
      vesselCount === null
        ? "no vessel count available"
        : figures.vesselCount.source === dailySource
          ? `${vesselCount} port calls in the 7 days to ${latest}${stale(figures.vesselCount) ? " (not current)" : ""}`
          : `≈ ${plural(vesselCount, "port call")} a week (PortWatch yearly average ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")}, not the latest week)`,
    cargo_delay: `dwell and waiting time not available: the data hold no port-call durations (the only vessel positions are one minute of ${aisDay ?? "an AIS sample"})`,
    trade_risk:
      portCalls.activity?.ratio != null
        ? `port calls at ${portCalls.activity.ratio} of the seasonal normal${dailyWhen}`
        : details.trade?.shareCountryImport != null
          ? `${details.trade.shareCountryImport}% of ${port.iso3}'s maritime imports (PortWatch ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")})`
          : "no trade data",
  };
  const riskWhen =
    byChokepoint && chokepoints.worst
      ? ` (${chokepointWhen(chokepoints.worst)})`
      : figures.disruption.asOf
        ? ` (30 days to ${figures.disruption.asOf}${stale(figures.disruption)})`
        : " (no dated data)";
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
