// POST /api/risk-map/score for drought: a point's cell read for its month, recent months, record and drought run.
import { droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { formatMonth } from "../../lib/months.ts";
import { confidenceOf, round } from "./drought-fields.ts";
import { cellIndices, type CellHit } from "./drought-point.ts";
import { droughtEventOf, historicalOf, PAST_AFTER_DAYS, recentMonthsOf, summaryText, TIMEFRAME_MONTHS } from "./drought-score-details.ts";
import type { DroughtTimes } from "./drought-time.ts";
import type { ScoreData, ScoreQuery } from "./types.ts";

/** The grid's layer the score's record and recent months read SPEI-1 from: the first (the build's GRID_INDICES). */
const SPEI1_LAYER = 0;

/** The drought answer of the score endpoint at the hit's cell and month. */
export function droughtScoreAnswer(hit: CellHit, q: ScoreQuery, times: DroughtTimes): ScoreData {
  const idx = cellIndices(hit);
  const score = droughtScore(hit.spei1);
  const severity = droughtLevel(hit.spei1);
  const monthLabel = formatMonth(hit.month);
  const distanceKm = round(hit.distanceKm, 2) as number;
  const time = times.of(hit.a, hit.month, hit.month);
  const details: ScoreData["details"] & Record<string, unknown> = {
    ...time,
    currentConditions: {
      spei1: idx.spei1,
      spei3: idx.spei3,
      spei6: idx.spei6,
      spei12: idx.spei12,
      severity,
      distanceKm,
      month: monthLabel,
      monthReason: hit.monthReason,
      ...confidenceOf(hit.a, hit.a.confidence?.cell(hit.cell, hit.offset) ?? null, hit),
    },
    recentMonths: recentMonths(hit, TIMEFRAME_MONTHS[q.timeframe]),
  };
  if (q.includeHistorical) details.historical = historicalOf(spei1Record(hit), hit.spei1, { firstMonth: hit.a.grid.firstMonth, lastMonth: hit.a.grid.lastMonth, baseline: hit.a.baselineLabel });
  const event = droughtEventOf(spei3ToServed(hit), hit.a.grid.firstMonth);
  details.droughtEvent = event;
  return {
    location: { lat: q.lat, lng: q.lng },
    riskType: "drought",
    riskScore: score,
    riskLevel: riskLevel(score),
    summary: summaryText({
      severity,
      spei1: idx.spei1,
      spei3: idx.spei3,
      distanceKm,
      month: monthLabel,
      monthReason: hit.monthReason,
      run: event.current,
      past: time.currency.ageDays > PAST_AFTER_DAYS ? { dataEnd: formatMonth(hit.a.grid.lastMonth) } : null,
    }),
    details,
    dataSources: hit.a.dataSources,
    timestamp: new Date().toISOString(),
  };
}

/** The served month and the n - 1 before it, newest first, as far as the grid goes. */
function recentMonths(hit: CellHit, n: number) {
  const g = hit.a.grid;
  const months = Math.min(n, hit.offset + 1);
  const spei1 = new Float64Array(months);
  const spei3 = new Float64Array(months);
  for (let i = 0; i < months; i++) {
    spei1[i] = g.value(hit.cell, hit.offset - i, SPEI1_LAYER);
    spei3[i] = g.value(hit.cell, hit.offset - i, g.indexNo("spei3"));
  }
  return recentMonthsOf(spei1, spei3, hit.month);
}

/** The cell's SPEI-1 over the whole record, by month offset. */
function spei1Record(hit: CellHit): Float64Array {
  const g = hit.a.grid;
  const out = new Float64Array(g.nMonths);
  for (let off = 0; off < g.nMonths; off++) out[off] = g.value(hit.cell, off, SPEI1_LAYER);
  return out;
}

/** The cell's SPEI-3 from the record's first month to the served one. */
function spei3ToServed(hit: CellHit): Float64Array {
  const g = hit.a.grid;
  const k = g.indexNo("spei3");
  const out = new Float64Array(hit.offset + 1);
  for (let m = 0; m <= hit.offset; m++) out[m] = g.value(hit.cell, m, k);
  return out;
}
