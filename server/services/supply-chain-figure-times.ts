// When each figure of a port's answer is from, its recent windows, and what is not current, in sentences.
import type { DaySeriesEntry } from "../../formats/day-series.ts";
import type { Period } from "../../lib/currency.ts";
import { isoDay } from "../../lib/days.ts";
import { ACTIVITY_WINDOW_DAYS, congestionPeriod, VESSEL_WINDOW_DAYS, type DailyFigures } from "./supply-chain-activity.ts";
import { dated, lastDays, PORTWATCH_ATTRIBUTE_PERIOD, PORTWATCH_ATTRIBUTE_SOURCE, PORTWATCH_ATTRIBUTE_YEARS, spanOf, timeOf, undated, type Details, type SeriesUse } from "./supply-chain-dating.ts";
import type { Disruption } from "./supply-chain-disruption.ts";
import type { AnswerNotes } from "./supply-chain-notes.ts";
import type { PortsSnapshot } from "./supply-chain-service.ts";
import type { AisDelays } from "./supply-chain-vessels.ts";

/** What the sections of a port's answer found: what its figures' times are made of. */
export interface PortFindings {
  /** The port's PortWatch port record count (its yearly averages are used when it has one). */
  portwatchRecords: number;
  iso3: string | null;
  daily: DaySeriesEntry | undefined;
  portCalls: DailyFigures;
  vesselCount: number | null;
  delays: AisDelays;
  tankers: Details["countryTankers"];
  disruption: Disruption;
  notes: AnswerNotes;
}

/** The dated series the answer used, each with its source text. */
function seriesUsed(s: PortsSnapshot, f: PortFindings) {
  const { daily, tankers } = f;
  const { activity } = f.portCalls;
  const { ais, aisDay } = f.delays;
  const { feedDay, hazardWindow } = f.disruption;
  const uses: SeriesUse[] = [];
  if (f.portwatchRecords > 0) uses.push({ source: PORTWATCH_ATTRIBUTE_SOURCE, period: PORTWATCH_ATTRIBUTE_PERIOD, asOf: PORTWATCH_ATTRIBUTE_PERIOD.to, cadence: "yearly" });
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
  return { uses, dailySource, aisSource, tankerSource, gdacsSource, gdacsPeriod };
}

/** The answer's period, asOf and currency, each figure's time entry, the recent windows and the timing sentences. */
export function figureTimes(s: PortsSnapshot, f: PortFindings, t: number) {
  const { daily, vesselCount, tankers, notes } = f;
  const { activity, end, ratio, congestionIndex } = f.portCalls;
  const { feedDay, hazardWindow, disruptionRisk } = f.disruption;
  const { uses, dailySource, tankerSource, gdacsSource, gdacsPeriod } = seriesUsed(s, f);
  const time = timeOf(uses, t);
  const why = (field: string) => notes.missing.find((m) => m.startsWith(`${field}: `))?.slice(field.length + 2) ?? "no data";

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
        : notes.basis.vesselCount?.startsWith("port calls in the 7 days")
          ? dated(t, dailySource, lastDays(latest, VESSEL_WINDOW_DAYS), latest, "daily", `port calls in the 7 days to ${latest}`, lastDays(latest, VESSEL_WINDOW_DAYS))
          : dated(t, PORTWATCH_ATTRIBUTE_SOURCE, PORTWATCH_ATTRIBUTE_PERIOD, PORTWATCH_ATTRIBUTE_PERIOD.to, "yearly", yearlyNote),
    avgDwellDays: undated(""),
    etaDelayHours: undated(""),
    disruption: undated(""),
    countryTankers: tankers
      ? dated(t, tankerSource, { from: tankers.firstDay, to: tankers.latestDay }, tankers.latestDay, "daily", `tanker calls of the whole country in the 7 and 30 days to ${tankers.latestDay} against the same season of ${tankers.baselineYears} previous year(s)`, lastDays(tankers.latestDay, ACTIVITY_WINDOW_DAYS))
      : undated(`null: no PortWatch tanker series for ${f.iso3 ?? "the port's country"}`),
  };
  for (const field of ["avgDwellDays", "etaDelayHours"] as const) figures[field] = undated(`null: ${why(field)}`);
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
  return { time, figures, recent, timing: timingSentences(f, time, figures, t), dailySource };
}

/** What is not current, said in the findings (first) and the summary. */
function timingSentences(f: PortFindings, time: Pick<Details, "asOf" | "currency">, figures: Details["figures"], t: number): string[] {
  const latest = f.portCalls.activity?.latestDay ?? "";
  const { hazards, anomaly, disruptionRisk } = f.disruption;
  const timing: string[] = [];
  if (time.currency) timing.push(`${time.currency.current ? "Current" : "Not current"}: the newest data this answer uses are of ${time.asOf}, ${time.currency.ageDays} days before ${isoDay(t)} (a ${time.currency.cadence} series is current for ${time.currency.horizonDays} days).`);
  else timing.push("No dated data: this answer rests on the port lists only.");
  if (figures.vesselCount.source === PORTWATCH_ATTRIBUTE_SOURCE) timing.push(`Vessel counts are ${PORTWATCH_ATTRIBUTE_YEARS.replace("..", "–")} yearly averages (PortWatch), not counts of the latest week; as a yearly series ${figures.vesselCount.currency?.note}.`);
  const dc = figures.disruption.currency;
  if (dc && !dc.current) timing.push(`The disruption risk "${disruptionRisk}"${hazards.active.length === 0 && anomaly === 0 ? " (no hazard, no fall in port calls)" : ""} is that of the 30 days to ${figures.disruption.asOf}, not of today (${dc.ageDays} days before ${isoDay(t)}; a daily series is current for ${dc.horizonDays} days).`);
  const c = figures.congestionIndex.currency;
  if (c && !c.current) timing.push(`The congestion index is that of the 30 days to ${latest}, not of today (${c.ageDays} days before ${isoDay(t)}; a daily series is current for ${c.horizonDays} days).`);
  return timing;
}
