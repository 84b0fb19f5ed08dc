// What a supply-chain answer's sections note as they go, the number forms they write with, and the coverage.
import type { Details } from "./supply-chain-dating.ts";

/** Rounded to one (two) decimals; null for a figure that is not a number. */
export const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);
export const r2 = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);
export const fmt = (x: number) => x.toLocaleString("en-US");
export const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? "" : "s"}`;

/** A record an answer used, with its period as text and as days where it has one. */
export interface UsedRecord {
  record: string;
  period: string | null;
  from?: string;
  to?: string;
}

/** Written by the answer's sections in the order they run: that order is the order of the answer's lists. */
export interface AnswerNotes {
  findings: string[];
  /** "field: why it is null". */
  missing: string[];
  /** Field → how its value was derived. */
  basis: Record<string, string>;
  used: UsedRecord[];
  notAvailable: string[];
}

export const emptyNotes = (): AnswerNotes => ({ findings: [], missing: [], basis: {}, used: [], notAvailable: [] });

export function coverageOf(iso3: string | null, used: UsedRecord[], notAvailable: string[]): Details["coverage"] {
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
