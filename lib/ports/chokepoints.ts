// Maritime chokepoints in a port's trade risk (docs/methods/supply-chain.md, "Chokepoints"): which chokepoints a
// port's main trade routes pass (an exposure table by country), and how far each one's transits have moved from
// before the Red Sea crisis. Pure functions over PortWatch's daily transit series (Float32Array, NaN = no data).
import { isoOfDay } from "../days.ts";
import { windowMean } from "./activity.ts";

/** Days of the recent window, as for port calls. */
export const CHOKEPOINT_WINDOW_DAYS = 30;
/**
 * The reference years of the baseline: before the Red Sea crisis (attacks on shipping from 2023-11, diversions round
 * the Cape through 2024–2025). 2020's pandemic months are in it; the median of the four keeps them from setting it.
 */
export const CHOKEPOINT_BASELINE_YEARS = [2019, 2020, 2021, 2022] as const;

/**
 * The chokepoints on the main sea routes of a country's trade, by ISO 3166-1 alpha-3 (PortWatch chokepoint names).
 * Red Sea and Gulf of Aden ports sit on Bab el-Mandeb and the Suez Canal; the Mediterranean's and northern Europe's
 * Asia trade passes Suez and Bab el-Mandeb (and Gibraltar, Dover for the ports past them); East and Southeast Asia's
 * Europe, Middle East and Indian Ocean trade passes Malacca, and the China–Japan–Korea–Taiwan trade the Taiwan Strait.
 * A country not listed has no chokepoint in its answer (its routes were not assessed), which the answer says.
 */
const RED_SEA = ["Bab el-Mandeb Strait", "Suez Canal"];
const MEDITERRANEAN = ["Suez Canal", "Bab el-Mandeb Strait"];
const ATLANTIC_EUROPE = ["Suez Canal", "Bab el-Mandeb Strait", "Gibraltar Strait"];
const NORTH_SEA = ["Dover Strait", "Suez Canal", "Bab el-Mandeb Strait", "Gibraltar Strait"];
const SOUTHEAST_ASIA = ["Malacca Strait"];
const EAST_ASIA = ["Taiwan Strait", "Malacca Strait"];
export const CHOKEPOINT_EXPOSURE: Readonly<Record<string, readonly string[]>> = {
  DJI: RED_SEA, ERI: RED_SEA, SDN: RED_SEA, YEM: RED_SEA, SAU: RED_SEA, JOR: RED_SEA, ISR: RED_SEA, EGY: RED_SEA,
  ITA: MEDITERRANEAN, GRC: MEDITERRANEAN, TUR: MEDITERRANEAN, CYP: MEDITERRANEAN, MLT: MEDITERRANEAN, HRV: MEDITERRANEAN,
  SVN: MEDITERRANEAN, ALB: MEDITERRANEAN, MNE: MEDITERRANEAN, LBN: MEDITERRANEAN, SYR: MEDITERRANEAN, LBY: MEDITERRANEAN,
  TUN: MEDITERRANEAN, DZA: MEDITERRANEAN, ESP: MEDITERRANEAN, FRA: MEDITERRANEAN, MAR: ["Gibraltar Strait", ...MEDITERRANEAN],
  PRT: ATLANTIC_EUROPE, IRL: ATLANTIC_EUROPE,
  GBR: NORTH_SEA, NLD: NORTH_SEA, BEL: NORTH_SEA, DEU: NORTH_SEA, DNK: NORTH_SEA, POL: NORTH_SEA, SWE: NORTH_SEA,
  NOR: NORTH_SEA, FIN: NORTH_SEA, EST: NORTH_SEA, LVA: NORTH_SEA, LTU: NORTH_SEA,
  SGP: SOUTHEAST_ASIA, MYS: SOUTHEAST_ASIA, IDN: SOUTHEAST_ASIA, THA: SOUTHEAST_ASIA, VNM: SOUTHEAST_ASIA,
  PHL: SOUTHEAST_ASIA, KHM: SOUTHEAST_ASIA, MMR: SOUTHEAST_ASIA, BRN: SOUTHEAST_ASIA,
  CHN: EAST_ASIA, TWN: EAST_ASIA, HKG: EAST_ASIA, JPN: EAST_ASIA, KOR: EAST_ASIA,
};

export interface TransitChange {
  /** Mean daily transits over the CHOKEPOINT_WINDOW_DAYS days to the series' last day with data. */
  recent: number;
  /** Median over the reference years of the same calendar window's mean. */
  baseline: number;
  /** recent / baseline − 1 (−0.56: 56 % fewer transits). */
  change: number;
  /** The recent window (YYYY-MM-DD, inclusive) and the reference years that had the window. */
  from: string;
  to: string;
  baselineYears: number[];
}

/**
 * How far a chokepoint's daily transits (`values` from day `firstDay`, days since 1970-01-01) over the window ending
 * at index `last` (default: the last day with data) stand from the same calendar window of the reference years; null
 * without a full-enough window or baseline.
 */
export function transitChange(values: ArrayLike<number>, firstDay: number, years: readonly number[] = CHOKEPOINT_BASELINE_YEARS, last?: number): TransitChange | null {
  let end = last === undefined ? values.length - 1 : Math.min(last, values.length - 1);
  while (end >= 0 && Number.isNaN(values[end])) end--;
  const recent = windowMean(values, end, CHOKEPOINT_WINDOW_DAYS);
  if (!Number.isFinite(recent)) return null;
  const endDate = new Date((firstDay + end) * 86_400_000);
  const means: number[] = [];
  const used: number[] = [];
  for (const y of years) {
    const same = Date.UTC(y, endDate.getUTCMonth(), endDate.getUTCDate()) / 86_400_000 - firstDay;
    const m = windowMean(values, same, CHOKEPOINT_WINDOW_DAYS);
    if (Number.isFinite(m)) {
      means.push(m);
      used.push(y);
    }
  }
  if (means.length === 0) return null;
  means.sort((a, b) => a - b);
  const h = means.length >> 1;
  const baseline = means.length % 2 ? means[h] : (means[h - 1] + means[h]) / 2;
  if (!(baseline > 0)) return null;
  return { recent, baseline, change: recent / baseline - 1, from: isoOfDay(firstDay + end - CHOKEPOINT_WINDOW_DAYS + 1), to: isoOfDay(firstDay + end), baselineYears: used };
}

/** PortWatch's transit columns by vessel type (n_cargo, their sum without tankers, is left out). */
export const CHOKEPOINT_VESSEL_TYPES = ["container", "dry_bulk", "general_cargo", "roro", "tanker"] as const;

/**
 * The trade-risk level a chokepoint's change makes: "high" from a 40 % fall in transits (the Red Sea crisis took
 * 43–50 % off Suez and Bab el-Mandeb in the mirror's latest window), "medium" from 30 %, else "low". Traffic moves
 * a fifth to a third between years without a disruption (in the same window Malacca +31 %, the Taiwan Strait −20 %),
 * so a smaller fall says nothing. A rise is no risk.
 */
export function chokepointRisk(change: number): "low" | "medium" | "high" {
  if (change <= -0.4) return "high";
  if (change <= -0.3) return "medium";
  return "low";
}
