// When a supply-chain figure is from: the dating helpers every section shares, and PortWatch's averaged years.
import { currencyOf, type Cadence, type Period } from "../../lib/currency.ts";
import { dayOf, isoOfDay } from "../../lib/days.ts";
import type { SupplyChainData } from "../schemas-supply-chain.ts";

export type Details = SupplyChainData["details"];
export type Figure = Details["figures"]["congestionIndex"];

/** The years PortWatch's yearly vessel counts average over (PortWatch port database, `vessel_count_*`). */
export const PORTWATCH_ATTRIBUTE_YEARS = "2019..2024";
/** The same years as days: the period of every figure that rests on PortWatch's yearly averages. */
export const PORTWATCH_ATTRIBUTE_PERIOD: Period = { from: "2019-01-01", to: "2024-12-31" };
export const PORTWATCH_ATTRIBUTE_SOURCE = "PortWatch port database: yearly averages 2019–2024 (port calls by vessel type, trade shares)";

/** A span of days ending at `to` (YYYY-MM-DD), `days` long. */
export const lastDays = (to: string, days: number): Period => ({ from: isoOfDay(dayOf(to) - days + 1), to });
export const spanOf = (periods: Period[]): Period | null =>
  periods.length === 0 ? null : { from: periods.map((p) => p.from).sort()[0], to: periods.map((p) => p.to).sort()[periods.length - 1] };

/** A dated series an answer used: what it is, its days, its newest datum and cadence. */
export interface SeriesUse {
  source: string;
  period: Period;
  asOf: string;
  cadence: Cadence;
}

/** A figure's time entry: dated by `asOf` of a series of `cadence`; currency at `now` (epoch ms). */
export function dated(now: number, source: string, period: Period, asOf: string, cadence: Cadence, note: string, recent: Period | null = null): Figure {
  return { period, recent, asOf, source, currency: currencyOf(asOf, cadence, now), note };
}
export const undated = (note: string): Figure => ({ period: null, recent: null, asOf: null, source: null, currency: null, note });

/** The answer's period (span of every series used), newest datum and the currency of the series it comes from. */
export function timeOf(uses: SeriesUse[], now: number): Pick<Details, "period" | "asOf" | "currency"> {
  if (uses.length === 0) return { period: null, asOf: null, currency: null };
  let newest = uses[0];
  for (const u of uses) if (u.asOf > newest.asOf) newest = u;
  return { period: spanOf(uses.map((u) => u.period)), asOf: newest.asOf, currency: currencyOf(newest.asOf, newest.cadence, now) };
}
