// Scores a catalogue of landmark event places and matched controls through the feed-risk service and summarises
// how well the scores separate them: AUC (the chance an event place outscores a control, ties half), the share of
// event places at "medium" or above, and the controls' levels. Pure apart from the service it is handed.
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { ApiError } from "../server/errors.ts";
import type { FeedRiskService } from "../server/services/feed-risk-service.ts";
import type { FeedRiskType, FeedSnapshot } from "../formats/feed-snapshot.ts";

export interface CatalogueRow {
  kind: "event" | "control";
  place: string;
  country: string;
  lat: number;
  lng: number;
  event: string;
  date: string;
  source: string;
}

export interface ScoredRow extends CatalogueRow {
  /** null where the service answers 404 (outside the data's coverage). */
  score: number | null;
  level: string | null;
  confidence: number | null;
  note: string;
}

export interface HazardValidation {
  hazard: FeedRiskType;
  events: number;
  controls: number;
  notCovered: number;
  /** Mann–Whitney AUC of event scores over control scores; null without both. */
  auc: number | null;
  eventsMediumOrAbove: number | null;
  controlLevels: Record<string, number>;
  rows: ScoredRow[];
}

export function readCatalogue(path: string): CatalogueRow[] {
  const rows = parse(readFileSync(path, "utf8"), { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  return rows.map((r, i) => {
    const lat = Number(r.lat);
    const lng = Number(r.lng);
    if (!(r.kind === "event" || r.kind === "control") || !Number.isFinite(lat) || !Number.isFinite(lng)) throw new Error(`${path}:${i + 2}: bad row`);
    return { kind: r.kind, place: r.place, country: r.country, lat, lng, event: r.event, date: r.date, source: r.source };
  });
}

/** AUC by ranks (Mann–Whitney U / (m·n)), ties counted half. */
export function auc(events: number[], controls: number[]): number | null {
  if (events.length === 0 || controls.length === 0) return null;
  let u = 0;
  for (const e of events) for (const c of controls) u += e > c ? 1 : e === c ? 0.5 : 0;
  return u / (events.length * controls.length);
}

/**
 * The validation's clock: each snapshot scored as on the day its data end, so that the skill figures measure the
 * scoring, not how old the mirror's copy is (whether answers are current is the currency table's: currency.ts).
 */
export const asOfDataEnd = (snap: FeedSnapshot) => Date.parse(snap.meta.asOf);

export function validateHazard(service: FeedRiskService, hazard: FeedRiskType, rows: CatalogueRow[]): HazardValidation {
  const atDataEnd = service.withClock(asOfDataEnd);
  const scored: ScoredRow[] = rows.map((r) => {
    try {
      const a = atDataEnd.score({ lat: r.lat, lng: r.lng, riskType: hazard, timeframe: "1y", includeHistorical: false });
      const d = a.details as { confidence?: number };
      return { ...r, score: a.riskScore, level: a.riskLevel, confidence: d.confidence ?? null, note: "" };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { ...r, score: null, level: null, confidence: null, note: err.message };
      throw err;
    }
  });
  const covered = scored.filter((r) => r.score !== null);
  const ev = covered.filter((r) => r.kind === "event");
  const ct = covered.filter((r) => r.kind === "control");
  const controlLevels: Record<string, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const c of ct) controlLevels[c.level!]++;
  return {
    hazard,
    events: ev.length,
    controls: ct.length,
    notCovered: scored.length - covered.length,
    auc: auc(ev.map((r) => r.score!), ct.map((r) => r.score!)),
    eventsMediumOrAbove: ev.length ? ev.filter((r) => r.score! >= 30).length / ev.length : null,
    controlLevels,
    rows: scored,
  };
}
