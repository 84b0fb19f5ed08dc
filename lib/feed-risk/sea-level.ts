// Sea-level rise: the relative trend of the nearest PSMSL tide gauges (inverse-distance weighted, 10 km floor) and
// the point's distance from the coast; inland beyond the limit a known zero (docs/methods/feed-risks.md#sea-level-rise).
// Pure: the snapshot and the point's place in, the answer out.
import { confidenceLabel, riskLevel } from "../drought-scale.ts";
import type { FeedSnapshot, GaugeStat } from "../../formats/feed-snapshot.ts";
import { seaLevelScore } from "./scoring.ts";
import { yearPeriod } from "../currency.ts";
import { notCovered, onLandOrCoast, type AssessQuery, type Assessment, type Place } from "./answer.ts";
import { r1, r2 } from "../round.ts";

export function assessSeaLevel(s: FeedSnapshot, q: AssessQuery, place: Place): Assessment {
  const { meta } = s;
  const gauges = s.gauges!;
  const radius = meta.params.radiusKm;
  const inlandKm = meta.params.inlandKm;
  if (!onLandOrCoast(place)) throw notCovered(s, `open sea, ${r1(place.coastDistanceKm)} km from the nearest coast`);
  // A sea point within the tolerance is at the coast: full exposure.
  const coastKm = place.land ? place.coastDistanceKm : 0;
  const base = { distanceToCoastKm: r1(place.coastDistanceKm), atSea: !place.land, inlandLimitKm: inlandKm, coastSource: place.coastSource };
  const coverageOf = (dataset: string, period: { start: string; end: string }) => ({ country: place.country, dataset, period, area: meta.coverage.description });
  if (coastKm > inlandKm) {
    const summary = `${r1(coastKm)} km from the sea, beyond the ${inlandKm} km within which sea-level rise is scored: no exposure.`;
    return {
      riskScore: 0,
      riskLevel: riskLevel(0),
      summary,
      details: { ...base, trendMmYr: null, trendSeMmYr: null, gauges: [], baseline: `inland beyond ${inlandKm} km: score 0 without a gauge trend` },
      coverage: coverageOf(`${place.coastSource} (distance to the coast; no gauge needed inland)`, { start: meta.recordStart.slice(0, 4), end: meta.asOf.slice(0, 4) }),
      dataSources: meta.dataSources,
      confidence: 0.9,
      confidenceLabel: "high",
      confidenceBasis: `${r1(coastKm)} km from the coast (${place.coastSource}): beyond ${inlandKm} km no sea-level exposure`,
      // No gauge used: the answer rests on the coastline's distance, stated against the gauge record's span.
      time: { period: { from: meta.recordStart.slice(0, 10), to: meta.asOf.slice(0, 10) }, asOf: meta.asOf.slice(0, 10), cadence: "yearly" },
    };
  }
  // Inverse-distance weights (10 km floor) over the nearest gauges with a trend (events.bin holds them in order).
  const near = s.events!.near(q.lat, q.lng, radius);
  const found: { g: GaugeStat; d: number }[] = [];
  for (let k = 0; k < near.count; k++) found.push({ g: gauges[near.index[k]], d: near.distanceKm[k] });
  const order = found.sort((a, b) => a.d - b.d || a.g.id - b.g.id).slice(0, 3);
  if (order.length === 0) throw notCovered(s, `no tide gauge with ≥ 20 years of data within ${radius} km`);
  let ws = 0, tw = 0, sw = 0;
  for (const x of order) {
    const w = 1 / Math.max(10, x.d);
    ws += w; tw += w * x.g.trendMmYr; sw += (w * x.g.seMmYr) ** 2;
  }
  const trend = tw / ws;
  const se = Math.sqrt(sw) / ws;
  const score = seaLevelScore(trend, coastKm, { rateRefMmYr: meta.params.rateRefMmYr, coastDecayKm: meta.params.coastDecayKm });
  const gaugeOut = (x: { g: GaugeStat; d: number }) => ({
    id: x.g.id, name: x.g.name, distanceKm: r1(x.d), trendMmYr: r2(x.g.trendMmYr), seMmYr: r2(x.g.seMmYr),
    years: x.g.years, firstYear: x.g.firstYear, lastYear: x.g.lastYear, lastValueMm: x.g.lastValueMm,
  });
  const details: Record<string, unknown> = {
    ...base,
    trendMmYr: r2(trend),
    trendSeMmYr: r2(se),
    gauges: order.map(gaugeOut),
    baseline: "OLS trend of PSMSL annual RLR means over each gauge's full record",
  };
  if (q.includeHistorical) details.historical = { annualMeanSeaLevelMm: order.map((x) => ({ id: x.g.id, name: x.g.name, annual: x.g.annual })) };
  const first = order[0];
  const summary =
    `Relative sea-level trend ${r2(trend)} ± ${r2(se)} mm/yr from ${order.length} tide gauge(s), nearest ${first.g.name} ` +
    `at ${r1(first.d)} km (${r2(first.g.trendMmYr)} mm/yr over ${first.g.years} years, ${first.g.firstYear}–${first.g.lastYear}); ` +
    (place.land ? `${r1(coastKm)} km from the coast.` : `at sea, ${r1(place.coastDistanceKm)} km off the coast.`);
  const period = { start: String(Math.min(...order.map((x) => x.g.firstYear))), end: String(Math.max(...order.map((x) => x.g.lastYear))) };
  const years = yearPeriod(period.start, period.end);
  return {
    riskScore: score,
    riskLevel: riskLevel(score),
    summary,
    details,
    coverage: coverageOf(`PSMSL annual RLR gauges ${order.map((x) => `${x.g.id} ${x.g.name}`).join(", ")}`, period),
    dataSources: meta.dataSources,
    ...seaLevelConfidence(first.g.years, first.d),
    time: { period: years, asOf: years.to, cadence: "yearly" },
  };
}

/**
 * Sea-level confidence: the nearest gauge's record (50 years or more counts in full; shorter trends alias decadal
 * variability) and its distance (local subsidence differs over tens of km: e^(−d/100 km)).
 */
function seaLevelConfidence(years: number, distanceKm: number) {
  const c = Math.round(0.9 * Math.min(1, years / 50) * Math.exp(-distanceKm / 100) * 100) / 100;
  return { confidence: c, confidenceLabel: confidenceLabel(c), confidenceBasis: `nearest PSMSL gauge ${r1(distanceKm)} km away with ${years} years of annual data` };
}

