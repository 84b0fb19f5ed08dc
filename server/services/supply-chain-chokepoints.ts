// The chokepoints on a port's trade routes in its answer (lib/ports/chokepoints.ts): each one's transits over the
// latest 30 days against the same days of 2019–2022, the risk the largest fall makes, dated and said current or not.
import { currencyOf } from "../../lib/currency.ts";
import { CHOKEPOINT_BASELINE_YEARS, CHOKEPOINT_EXPOSURE, CHOKEPOINT_VESSEL_TYPES, CHOKEPOINT_WINDOW_DAYS, chokepointRisk, type TransitChange } from "../../lib/ports/chokepoints.ts";
import { r1, r2, type AnswerNotes } from "./supply-chain-notes.ts";
import type { OpenChokepoint, PortsSnapshot } from "./supply-chain-service.ts";

type VesselType = (typeof CHOKEPOINT_VESSEL_TYPES)[number];
export interface TransitFigures {
  transitsPerDay: number | null;
  baselinePerDay: number | null;
  change: number | null;
}

export interface ChokepointPart {
  name: string;
  portid: string;
  /** Mean daily transits (all vessel types) over the window, and over the same days of the reference years. */
  transitsPerDay: number | null;
  baselinePerDay: number | null;
  /** transitsPerDay / baselinePerDay − 1. */
  change: number | null;
  period: { from: string; to: string };
  baselineYears: number[];
  risk: "low" | "medium" | "high";
  current: boolean;
  /** The same comparison by vessel type (null where a type has no full window or baseline). */
  byVesselType: Record<VesselType, TransitFigures | null>;
}

const figuresOf = (t: TransitChange): TransitFigures => ({ transitsPerDay: r1(t.recent), baselinePerDay: r1(t.baseline), change: r2(t.change) });

/** A chokepoint's latest transits against the reference years, dated at `now`; null without transits. */
export function assessChokepoint(c: OpenChokepoint, now: number): ChokepointPart | null {
  const t = c.transits;
  if (!t) return null;
  const byVesselType = Object.fromEntries(CHOKEPOINT_VESSEL_TYPES.map((v) => [v, c.byVesselType[v] ? figuresOf(c.byVesselType[v]!) : null])) as Record<VesselType, TransitFigures | null>;
  return {
    name: c.name,
    portid: c.portid,
    ...figuresOf(t),
    period: { from: t.from, to: t.to },
    baselineYears: t.baselineYears,
    risk: chokepointRisk(t.change),
    current: currencyOf(t.to, "daily", now).current,
    byVesselType,
  };
}

/** "−50 %" for a change of −0.5. */
export const percent = (change: number) => `${change >= 0 ? "+" : "−"}${Math.abs(Math.round(change * 100))} %`;
export const BASELINE_LABEL = `${CHOKEPOINT_BASELINE_YEARS[0]}–${CHOKEPOINT_BASELINE_YEARS[CHOKEPOINT_BASELINE_YEARS.length - 1]}`;


/** The exposed chokepoints of the port's country, each assessed; the largest fall first. Notes what it used. */
export function chokepointsFor(s: PortsSnapshot, iso3: string | null, notes: AnswerNotes, now: number): { parts: ChokepointPart[]; risk: ChokepointPart["risk"]; worst: ChokepointPart | null } {
  const names = iso3 !== null ? CHOKEPOINT_EXPOSURE[iso3] : undefined;
  if (names === undefined) {
    notes.notAvailable.push(`chokepoints on ${iso3 ?? "this port"}'s trade routes (the exposure table does not list the country)`);
    return { parts: [], risk: "low", worst: null };
  }
  const parts: ChokepointPart[] = [];
  for (const name of names) {
    const c = s.chokepoints.find((x) => x.name === name);
    const part = c ? assessChokepoint(c, now) : null;
    if (!part) {
      notes.notAvailable.push(`PortWatch daily transits of the ${name}`);
      continue;
    }
    notes.used.push({ record: `PortWatch transits of the ${name}`, period: `${part.period.from}..${part.period.to}`, from: part.period.from, to: part.period.to });
    parts.push(part);
  }
  parts.sort((a, b) => (a.change ?? 0) - (b.change ?? 0));
  const worst = parts[0] ?? null;
  for (const p of parts) {
    notes.findings.push(
      `${p.name}: ${p.transitsPerDay} transits a day in the ${CHOKEPOINT_WINDOW_DAYS} days to ${p.period.to}, ${percent(p.change ?? 0)} against the same days of ${BASELINE_LABEL} (${p.baselinePerDay} a day): trade-route risk ${p.risk}${p.current ? "" : ", not current"}.`,
    );
  }
  return { parts, risk: worst ? worst.risk : "low", worst };
}

/** The summary's words for the chokepoint that sets the risk. */
export function chokepointWhen(worst: ChokepointPart): string {
  return `${worst.name} transits ${percent(worst.change ?? 0)} in the ${CHOKEPOINT_WINDOW_DAYS} days to ${worst.period.to} against ${BASELINE_LABEL}${worst.current ? "" : ", not current"}`;
}
